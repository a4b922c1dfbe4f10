"""Stores (STORE-1..2): the courtyard's and those of floors 3, 6, 9, 12.

Stubs: the stores issue fills them in.
"""

from numba import njit


@njit(cache=True)
def can_shop(s, p, e):
    """The party stands where a store can be entered."""
    return False


@njit(cache=True)
def enter_store(s, e):
    """Enter the store here (mode STORE)."""
    return


@njit(cache=True)
def buy(s, p, e, k):
    """Buy store line k."""
    return


@njit(cache=True)
def can_sell(s, p, e, m, slot):
    """Member m's item slot can be sold here."""
    return False


@njit(cache=True)
def sell_selected(s, p, e):
    """Sell the selected item."""
    return


@njit(cache=True)
def can_repair(s, p, e, m, slot):
    """Member m's item slot can be repaired here."""
    return False


@njit(cache=True)
def repair_selected(s, p, e):
    """Repair the selected item."""
    return


@njit(cache=True)
def mask_store(s, p, e, mask):
    """The legal actions in a store."""
    return
