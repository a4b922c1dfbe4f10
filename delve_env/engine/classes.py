"""Class features and the level 2 and 3 options (the class table, CLASS-1, CHOICE-1).

Features are powers (tables.POWER_NAMES from FIRST_FEATURE) paid in mana. The options a
member has chosen live in `options` (one per level 2 and 3, -1 not yet); while one is owed the
game waits in mode CHOICE (`pending_member`, `choose`).
"""

from numba import njit

from .state import DIRTY_MAGIC
from .tables import KING, MAX_MEMBERS, NUM_OPTIONS, POWERS, PW_COST


@njit(cache=True)
def has_feature(s, p, e, m, i):
    """Member m has feature i (its class, level and options give it)."""
    return False


@njit(cache=True)
def feature_cost(s, p, e, m, i):
    return int(POWERS[i, PW_COST])


@njit(cache=True)
def can_use_feature(s, p, e, m, i, t):
    """Member m has feature i, can pay for it, and t (already a valid target) suits it."""
    return False


@njit(cache=True)
def use_feature(s, p, e, m, i, t, rng):
    """Member m uses feature i on t (-1 none): pays and does it."""


@njit(cache=True)
def owed_level(s, e, m):
    """The level (2 or 3) whose option member m still owes, 0 none. Levels are chosen in
    order, so one big XP gain that gives two levels asks for both, level 2 first."""
    if not s.in_party[e, m] or s.cls[e, m] < 0 or s.cls[e, m] == KING:
        return 0
    for level in (2, 3):
        owed = s.level[e, m] >= level and s.options[e, m, level - 2] < 0
        if owed and NUM_OPTIONS[s.cls[e, m], level - 2] > 0:
            return level
    return 0


@njit(cache=True)
def pending_member(s, e):
    """The first member who owes a level choice (CHOICE-1), -1 none."""
    for m in range(MAX_MEMBERS):
        if owed_level(s, e, m) > 0:
            return m
    return -1


@njit(cache=True)
def can_choose(s, e, o):
    """Option o is one the pending member's class offers at the level owed."""
    m = pending_member(s, e)
    if m < 0:
        return False
    return o < NUM_OPTIONS[s.cls[e, m], owed_level(s, e, m) - 2]


@njit(cache=True)
def choose(s, p, e, o, rng):
    """The pending member takes option o of the level owed. Writes `options`."""
    m = pending_member(s, e)
    s.options[e, m, owed_level(s, e, m) - 2] = o
    s.stat_choices[e] += 1
    s.dirty[e] |= DIRTY_MAGIC
