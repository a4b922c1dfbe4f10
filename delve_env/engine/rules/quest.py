"""The quest: the king joining, hunting, winning and losing (RUN-2..6)."""

from ..compiled.jit import njit
from ..core.tables import EV_HUNTING, EV_KING, EV_LOST, EV_WON, KING_SLOT
from .party import join_king, num_standing, share_xp

KING_XP = 100  # XP-2


@njit(cache=True)
def free_king(s, p, e, rng):
    """The king joins once the party stands in his room with no band left in it."""
    f = s.floor[e]
    if s.has_king[e] or f != s.floor_visited.shape[1] - 1:
        return
    r = s.room_of[e, f, s.y[e], s.x[e]]
    if r == s.king_room[e] and s.band_kind[e, f, r, 0] < 0:
        share_xp(s, p, e, KING_XP, rng)  # shared among those who found him
        join_king(s, e, rng)
        s.events[e] |= EV_KING


@njit(cache=True)
def update_quest(s, e):
    """RUN-6 hunting once book and king are both in hand; RUN-3 win; RUN-4 loss."""
    if s.has_book[e] and s.has_king[e] and not s.hunting[e]:
        s.hunting[e] = True
        s.events[e] |= EV_HUNTING
    king_dead = s.has_king[e] and s.hp[e, KING_SLOT] <= 0
    if king_dead or num_standing(s, e) == 0:
        s.outcome[e] = 2
        s.events[e] |= EV_LOST
    elif s.floor[e] == 0 and s.has_king[e]:
        s.outcome[e] = 1
        s.events[e] |= EV_WON
