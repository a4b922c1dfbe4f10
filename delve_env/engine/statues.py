"""Living statues (STATUE-1..2): naming unknown items for a bid, mending wounds for gold.

Stubs: the statues issue fills them in.
"""

from numba import njit


@njit(cache=True)
def can_approach_statue(s, p, e):
    """The party stands in a statue's room."""
    return False


@njit(cache=True)
def approach_statue(s, e):
    """Step up to the statue (mode STATUE)."""
    return


@njit(cache=True)
def can_bid(s, p, e, m, slot, q):
    """Member m's item slot may be named for a bid of q quarters of the price."""
    return False


@njit(cache=True)
def bid(s, p, e, q, rng):
    """Bid q quarters of the price to name the selected item."""
    return


@njit(cache=True)
def mend(s, p, e, b):
    """The statue mends member b's wounds for gold."""
    return


@njit(cache=True)
def mask_statue(s, p, e, mask):
    """The legal actions before a statue."""
    return
