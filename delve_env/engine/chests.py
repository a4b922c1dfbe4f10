"""Chests (CHEST-1): stocked at generation, opened by a member chosen by the action.

Stubs: the chests issue fills them in.
"""

from numba import njit


@njit(cache=True)
def stock_chests(s, p, e, f, g):
    """Put chests in floor f's rooms (generation RNG g)."""
    return


@njit(cache=True)
def can_open(s, p, e, m):
    """Member m may open the chest of the room the party stands in."""
    return False


@njit(cache=True)
def open_chest(s, p, e, m, rng):
    """Member m opens the room's chest."""
    return
