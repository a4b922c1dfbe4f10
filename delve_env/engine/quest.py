"""The quest: the king joining, hunting, winning and losing (RUN-2..6)."""

from numba import njit

from .params import P_TASK, P_TASK_FLOOR, TASK_VAULT
from .party import is_standing, join_king, share_xp
from .tables import EV_HUNTING, EV_KING, EV_LOST, EV_WON, EXPLORE, KING_SLOT, MAX_MEMBERS

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
def update_vault_task(s, p, e):
    """Delve-Vault-v0 ends when the vault opens (a win) or its worker falls (a loss)."""
    if s.vault_open[e, int(p[P_TASK_FLOOR])]:
        s.outcome[e] = 1
        s.events[e] |= EV_WON
    elif s.mode[e] == EXPLORE:
        s.outcome[e] = 2
        s.events[e] |= EV_LOST


@njit(cache=True)
def update_quest(s, p, e):
    """RUN-6 hunting once book and king are both in hand; RUN-3 win; RUN-4 loss."""
    if p[P_TASK] == TASK_VAULT:
        update_vault_task(s, p, e)
        return
    if s.has_book[e] and s.has_king[e] and not s.hunting[e]:
        s.hunting[e] = True
        s.events[e] |= EV_HUNTING
    anyone = False
    for m in range(MAX_MEMBERS):
        anyone = anyone or is_standing(s, e, m)
    king_dead = s.has_king[e] and s.hp[e, KING_SLOT] <= 0
    if king_dead or not anyone:
        s.outcome[e] = 2
        s.events[e] |= EV_LOST
    elif s.floor[e] == 0 and s.has_king[e]:
        s.outcome[e] = 1
        s.events[e] |= EV_WON
