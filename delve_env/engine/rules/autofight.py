"""Autofight: one action, many turns of a fight; each turn is the very attack a step would
take, and the fight goes on until a player would stop to decide (docs/RULES.md, Travel).
This file says when it is offered and when it stops; `step.autofight` takes the turns, each on
`fights.weakest_foe` (the foe the holy sword and the ally strike too: focus fire).
"""

from ..compiled.jit import njit
from ..core.tables import EV_KILL, FIGHT, MAX_MEMBERS
from .fights import weakest_foe
from .party import is_standing


@njit(cache=True)
def can_autofight(s, e):
    """Offered in a fight when the acting member may attack (no item selected, no power
    being chosen)."""
    return s.mode[e] == FIGHT and s.sel_member[e] < 0 and s.caster[e] < 0 and weakest_foe(s, e) >= 0


@njit(cache=True)
def stops_fighting(s, e):
    """After one attack: does autofight stop? When the fight is over (won, fled from, a level
    choice), the run ends, any event but a kill happens (a death, a level, a bite), Sixpence
    speaks, or a standing member (the king too) is at half its ceiling or below."""
    if not can_autofight(s, e) or s.outcome[e] != 0 or s.keeper_new[e] != 0:
        return True
    if s.events[e] & ~EV_KILL:
        return True
    for m in range(MAX_MEMBERS):
        if is_standing(s, e, m) and 2 * s.hp[e, m] <= s.ceiling[e, m]:
            return True
    return False
