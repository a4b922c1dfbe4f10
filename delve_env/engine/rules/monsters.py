"""Bands: rolling one from a floor's monster table (MON-1, WANDER-3)."""

from ..compiled.jit import njit
from ..core.params import P_BAND_SECOND_KIND, P_BAND_SIZE, P_BAND_SIZE_PER_TIER, P_MONSTER_HEARTS
from ..core.rng import chance, randint
from ..core.tables import KINDS_PER_TIER, M_HEARTS, MAX_FOES, MONSTERS, TIER_KINDS, tier_of


@njit(cache=True)
def monster_hearts(p, kind):
    """A monster's maximum hearts under the difficulty's monster strength (DIFF-1)."""
    return max(1, int(MONSTERS[kind, M_HEARTS] * p[P_MONSTER_HEARTS] + 0.5))


@njit(cache=True)
def random_kind(floor, rng, e):
    """A kind drawn uniformly from the floor's tier (MON-1: `tables.TIER_KINDS`)."""
    return TIER_KINDS[tier_of(floor), randint(rng, e, KINDS_PER_TIER)]


@njit(cache=True)
def roll_band(p, floor, extra, rng, e, kinds, hp):
    """Fill `kinds`/`hp` (length MAX_FOES) with a band of one or two kinds from the floor's tier.

    A band has 1..(band size + band size per tier x tier) monsters (1..2 + tier by default),
    plus `extra` for rooms worth guarding well, at most MAX_FOES; a second kind joins with the
    second-kind chance.
    """
    first = random_kind(floor, rng, e)
    second = first
    if chance(rng, e, p[P_BAND_SECOND_KIND]):
        second = random_kind(floor, rng, e)
    tier = tier_of(floor)
    most = int(p[P_BAND_SIZE]) + int(p[P_BAND_SIZE_PER_TIER]) * tier
    count = min(MAX_FOES, 1 + randint(rng, e, most) + extra)
    for k in range(MAX_FOES):
        if k < count:
            kind = first if k % 2 == 0 else second
            kinds[k] = kind
            hp[k] = monster_hearts(p, kind)
        else:
            kinds[k] = -1
            hp[k] = 0
