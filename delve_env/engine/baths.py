"""The Bath of Fates (BATH-1): each member may bathe once per bath.

Stubs: the baths issue fills them in.
"""

from numba import njit


@njit(cache=True)
def can_bathe(s, p, e, m):
    """Member m may bathe in the bath of the room the party stands in."""
    return False


@njit(cache=True)
def bathe(s, p, e, m, rng):
    """Member m bathes: one outcome drawn from the preset's weights."""
    return
