"""The Bath of Fates (BATH-1): each member may bathe once per bath.

One outcome is drawn by the preset's six weights (P_BATH_LEVEL .. P_BATH_NOTHING, in that
order): a level's worth of XP, +1d6 ceiling (and HP), -1d3 ceiling (never below 1, HP capped),
the loss of 1d6 x 10 XP (never below 0 and never a level), a full heal, or nothing. All weights
zero draw nothing. Bathing costs no time (TIME-2).
"""

from ..compiled.jit import njit
from ..core.params import P_BATH_LEVEL, P_BATH_NOTHING
from ..core.rng import chance, roll
from ..core.state import DIRTY_PARTY
from ..core.tables import EXPLORE, FEAT_BATH
from ..generation.features import feature_here
from .party import gain_xp, heal, is_standing, level_cost, lower_ceiling, raise_ceiling

# The outcomes, in the order of their weights in params.py.
BATH_LEVEL, BATH_CEILING_UP, BATH_CEILING_DOWN, BATH_XP_LOSS, BATH_HEAL, BATH_NOTHING = range(6)
NUM_BATH_OUTCOMES = P_BATH_NOTHING - P_BATH_LEVEL + 1
XP_LOSS_STEP = 10  # BATH-1: 1d6 x 10 XP


@njit(cache=True)
def can_bathe(s, p, e, m):
    """Member m may bathe in the bath of the room the party stands in: m stands, the party
    explores, the room is a bath and m has not bathed in this floor's bath."""
    if s.mode[e] != EXPLORE or not is_standing(s, e, m) or feature_here(s, e) != FEAT_BATH:
        return False
    return not s.bathed[e, s.floor[e], m]


@njit(cache=True)
def draw_outcome(p, e, rng):
    """One outcome index by the six weights (BATH_NOTHING when they are all zero)."""
    total = 0.0
    for i in range(NUM_BATH_OUTCOMES):
        total += p[P_BATH_LEVEL + i]
    if total <= 0:
        return BATH_NOTHING
    left = total
    for i in range(NUM_BATH_OUTCOMES - 1):  # weight i / (weights i.. left): a fair draw
        w = p[P_BATH_LEVEL + i]
        if w > 0 and chance(rng, e, w / left):
            return i
        left -= w
    return NUM_BATH_OUTCOMES - 1


@njit(cache=True)
def bathe(s, p, e, m, rng):
    """Member m bathes: one outcome drawn from the preset's weights. Writes m's XP, level,
    ceiling or HP, `bathed` and `stat_baths`."""
    s.bathed[e, s.floor[e], m] = True
    s.stat_baths[e] += 1
    s.dirty[e] |= DIRTY_PARTY  # PARTY_BATHED
    outcome = draw_outcome(p, e, rng)
    if outcome == BATH_LEVEL:  # the XP the next level still costs: the level follows (XP-3)
        gain_xp(s, p, e, m, level_cost(p, s.level[e, m]) - int(s.xp[e, m]), rng)
    elif outcome == BATH_CEILING_UP:
        raise_ceiling(s, e, m, roll(rng, e, 1))
    elif outcome == BATH_CEILING_DOWN:
        lower_ceiling(s, e, m, roll(rng, e, 1, 3))
    elif outcome == BATH_XP_LOSS:
        s.xp[e, m] = max(0, int(s.xp[e, m]) - XP_LOSS_STEP * roll(rng, e, 1))
    elif outcome == BATH_HEAL:
        heal(s, e, m, int(s.ceiling[e, m]))
