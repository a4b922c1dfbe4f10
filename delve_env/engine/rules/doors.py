"""At a room's door: listening for a band, sneaking one member in (LISTEN-1, SNEAK-1).

Both are offered at every door of a room, whatever is inside, so the mask never tells that a
band is there.
"""

from ..compiled.jit import njit
from ..core.params import P_LISTEN_HEAR
from ..core.rng import chance
from ..core.state import DIRTY_MAP
from ..core.tables import DOOR, ESP, EV_HEARD, EXPLORE
from ..generation.floors import DX, DY
from ..outputs.layout import BAND_HERE
from .bestiary import meet_band
from .food import pass_pace
from .rooms import has_band
from .wander import maybe_wander


@njit(cache=True)
def door_direction(s, e):
    """The direction from the party's door tile into its room, or -1 off a door."""
    f, x, y = s.floor[e], s.x[e], s.y[e]
    if f == 0 or s.mode[e] != EXPLORE or s.tiles[e, f, y, x] != DOOR:
        return -1
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if 0 <= nx < W and 0 <= ny < H and s.room_of[e, f, ny, nx] >= 0:
            return d
    return -1


@njit(cache=True)
def door_room(s, e):
    """The room behind the party's door, or -1."""
    d = door_direction(s, e)
    if d < 0:
        return -1
    return s.room_of[e, s.floor[e], s.y[e] + DY[d], s.x[e] + DX[d]]


@njit(cache=True)
def listen(s, p, e, rng):
    """LISTEN-1: one pace at the door; a band inside is heard with the listen chance (always
    under ESP) and its kinds are shown from then on; hearing nothing proves nothing."""
    f, r = s.floor[e], door_room(s, e)
    s.stat_listens[e] += 1
    esp = s.effects[e, ESP] > 0  # read before the pace spends it, as a search reads LIGHT
    pass_pace(s, p, e, rng)
    if has_band(s, e, f, r) and (esp or chance(rng, e, p[P_LISTEN_HEAR])):
        if not s.room_heard[e, f, r]:  # the bestiary record: a band heard is met once
            meet_band(s, e, s.band_kind[e, f, r], False)
        s.room_heard[e, f, r] = True
        s.room_code[e, f, r] = BAND_HERE  # the crop shows the band behind the door
        s.events[e] |= EV_HEARD
        s.dirty[e] |= DIRTY_MAP
    maybe_wander(s, p, e, False, rng)  # WANDER-1: as the tile the party stands on
