"""The spellbook's 12 spells and the Namer's name spells (SPELL-1, PAGE-2, NAME-1).

Who has a spell: a reader (Hero, Wizard, King) whose spellbook holds its page (PAGE-2), a
Wizard for the spells it knows (once a floor each, or from the wand), a Cleric with divine
spellcasting. A Namer has a name spell when it knows both of its names (tables.NAME_SPELLS).
"""

from numba import njit

from .tables import POWERS, PW_COST


@njit(cache=True)
def has_spell(s, p, e, m, i):
    """Member m can cast spell i now (ignoring mana and targets)."""
    return False


@njit(cache=True)
def spell_cost(s, p, e, m, i):
    """The mana member m pays for spell i."""
    return int(POWERS[i, PW_COST])


@njit(cache=True)
def can_cast_spell(s, p, e, m, i, t):
    """Member m has spell i, can pay for it, and t (already a valid target) suits it."""
    return False


@njit(cache=True)
def cast_spell(s, p, e, m, i, t, rng):
    """Member m casts spell i on t (-1 none): pays and does it."""


@njit(cache=True)
def has_name_spell(s, p, e, m, i):
    """Member m knows both names of name spell i (a power index)."""
    return False


@njit(cache=True)
def name_cost(s, p, e, m, i):
    return int(POWERS[i, PW_COST])


@njit(cache=True)
def can_cast_name(s, p, e, m, i, t):
    return False


@njit(cache=True)
def cast_name(s, p, e, m, i, t, rng):
    """Member m casts name spell i on t: pays and does it."""
