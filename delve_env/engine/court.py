"""The courtyard's training ground (COURT-2): practice bouts nobody dies in.

Stubs: filled in with the training ground.
"""

from numba import njit


@njit(cache=True)
def can_train(s, p, e):
    """A practice bout can start (in the courtyard)."""
    return False


@njit(cache=True)
def start_practice(s, p, e, rng):
    """Start a practice bout against a dummy band."""
    return
