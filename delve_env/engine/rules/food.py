"""The clock, meals and healing by walking (TIME-1, FOOD-1..4, HEAL-1)."""

from ..compiled.jit import njit
from ..core.params import P_HEAL_PACES, P_MEAL_PACES
from ..core.state import DIRTY_PARTY
from ..core.tables import EV_HUNGER, MAX_MEMBERS, SATED
from .effects import is_running, spend_effects
from .party import heal, is_standing, wound


@njit(cache=True)
def eat_meal(s, e, rng):
    """FOOD-1..2: each standing member eats a party ration; one left hungry loses 1 HP."""
    for pos in range(MAX_MEMBERS):
        m = s.order[e, pos]
        if is_standing(s, e, m):
            if s.rations[e] > 0:
                s.rations[e] -= 1
                s.stat_eaten[e] += 1
            else:
                wound(s, e, m, 1, rng)
                s.events[e] |= EV_HUNGER


@njit(cache=True)
def meal_interval(s, p, e):
    """Paces between meals: the meal paces, doubled while SATED runs (FOOD-4)."""
    paces = int(p[P_MEAL_PACES])
    return 2 * paces if is_running(s, e, SATED) else paces


@njit(cache=True)
def pass_pace(s, p, e, rng):
    """One pace of the clock: a meal every meal interval, a pace off every running effect
    (EFFECT-1), a heal every heal interval."""
    s.pace[e] += 1
    s.meal_clock[e] += 1
    if s.meal_clock[e] >= meal_interval(s, p, e):
        s.meal_clock[e] = 0
        eat_meal(s, e, rng)
    spend_effects(s, e)
    if s.rations[e] == 0:
        return  # FOOD-3: no rations, no healing
    s.heal_clock[e] += 1
    if s.heal_clock[e] >= p[P_HEAL_PACES]:
        s.heal_clock[e] = 0
        for m in range(MAX_MEMBERS):
            heal(s, e, m, 1)
            if is_standing(s, e, m):
                s.mana[e, m] = min(s.well[e, m], s.mana[e, m] + 1)
                s.dirty[e] |= DIRTY_PARTY
