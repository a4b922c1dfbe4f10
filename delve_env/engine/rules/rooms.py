"""Walking into a room: first-visit XP, the guarding band, the king (MAP-3..4, XP-2, FIGHT-1)."""

from ..compiled.jit import njit
from ..core.tables import EV_NEW_ROOM
from .fights import start_fight, start_sneak
from .party import is_standing, share_xp
from .quest import free_king

NEW_ROOM_XP = 15  # XP-2


@njit(cache=True)
def has_band(s, e, f, r):
    return s.band_kind[e, f, r, 0] >= 0


@njit(cache=True)
def enter_room(s, p, e, r, sneaker, rng):
    """The whole standing party steps in through the door together; a band there fights. A
    member who sneaks in (`sneaker` >= 0, SNEAK-1) goes first, alone and unseen, if the
    step's meal left him standing; else the party walks in as ever."""
    f = s.floor[e]
    if not s.room_entered[e, f, r]:
        s.room_entered[e, f, r] = True
        s.ways_known[e] = 0  # no goal for explore any more
        s.stat_rooms[e] += 1
        s.events[e] |= EV_NEW_ROOM
        share_xp(s, p, e, NEW_ROOM_XP, rng)
    if has_band(s, e, f, r) and sneaker >= 0 and is_standing(s, e, sneaker):
        start_sneak(s, p, e, r, sneaker)
    elif has_band(s, e, f, r):
        start_fight(s, p, e, r, rng)
    else:
        free_king(s, p, e, rng)
