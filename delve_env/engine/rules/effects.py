"""Party effects on the clock (EFFECT-1): WARD, ESP, SATED and LIGHT, one count of paces each.

A lantern lit fills the WARD slot (the warding lantern halves the wandering chance, the foul
one doubles it: one slot, lighting one replaces the other); a scroll read starts ESP, SATED or
LIGHT. Starting an effect again restarts its count, it never stacks. Every pace spends 1 of
each running effect (`food.pass_pace`: walking, waiting, searching); fights pass no paces.
What each effect does lives where it acts: SATED in `food` (FOOD-4), WARD in `wander`
(WANDER-2), LIGHT in `moving.search_walls` (SECRET-2), ESP with listening (LISTEN-1).
"""

from ..compiled.jit import njit
from ..core.params import P_LANTERN_PACES, P_SCROLL_PACES
from ..core.state import DIRTY_MAGIC
from ..core.tables import NUM_EFFECTS, WARD

FOUL_CAP = 0.95  # WANDER-2: the foul lantern's doubled chance stops at 95 in 100


@njit(cache=True)
def is_running(s, e, effect):
    """The effect has paces left."""
    return s.effects[e, effect] > 0


@njit(cache=True)
def start_effect(s, e, effect, paces):
    """Start (or restart) `effect` with `paces` paces left. Writes effects."""
    s.effects[e, effect] = min(32767, max(0, int(paces)))


@njit(cache=True)
def light_lantern(s, p, e, foul):
    """A lantern lit fills the WARD slot for the lantern paces; `foul` for the foul lantern.
    Writes effects[WARD], ward_foul."""
    start_effect(s, e, WARD, p[P_LANTERN_PACES])
    s.ward_foul[e] = foul


@njit(cache=True)
def read_scroll(s, p, e, effect):
    """A scroll read starts `effect` (ESP, SATED or LIGHT) for the scroll paces."""
    start_effect(s, e, effect, p[P_SCROLL_PACES])


@njit(cache=True)
def spend_effects(s, e):
    """One pace: each running effect loses one pace; a WARD that runs out holds no lantern.
    Writes effects, ward_foul, dirty."""
    for k in range(NUM_EFFECTS):
        if s.effects[e, k] > 0:
            s.effects[e, k] -= 1
    if s.effects[e, WARD] == 0 and s.ward_foul[e]:
        s.ward_foul[e] = False
        s.dirty[e] |= DIRTY_MAGIC  # dispel magic and remove curse are legal no more


@njit(cache=True)
def ward_factor(s, e):
    """WANDER-2: the factor on the wandering chance: 0.5 warded, 2 under the foul lantern."""
    if not is_running(s, e, WARD):
        return 1.0
    return 2.0 if s.ward_foul[e] else 0.5
