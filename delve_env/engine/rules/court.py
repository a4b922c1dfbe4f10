"""The courtyard's training ground (COURT-2): practice bouts nobody dies in.

A bout is a fight (`fights.start_fight`) against a dummy band rolled like a floor-1 band, with
`practice` set: a member below 1 HP is down, not dead (`party.wound`); when the bout ends
(`fights.end_bout`: won, fled or everyone down) the fallen stand at 1 HP. Kills give the
practice share of their XP to members below the practice level; no gold, no kill counted.
Running away stays in the courtyard. A bout costs no time (TIME-2).
"""

from ..compiled.jit import njit
from ..core.tables import EXPLORE
from .fights import start_fight
from .monsters import roll_band
from .party import num_standing

DUMMY_FLOOR = 1  # the dummy band is rolled as floor 1's


@njit(cache=True)
def can_train(s, p, e):
    """A practice bout can start: the party explores the courtyard and someone stands."""
    return s.floor[e] == 0 and s.mode[e] == EXPLORE and num_standing(s, e) > 0


@njit(cache=True)
def start_practice(s, p, e, rng):
    """Start a practice bout against a dummy band (play RNG). Writes the foe rows,
    `practice`, `bout_down` and `stat_bouts`, then the fight's start."""
    roll_band(p, DUMMY_FLOOR, 0, rng, e, s.foe_kind[e], s.foe_hp[e])
    s.practice[e] = True
    s.bout_down[e, :] = False
    s.stat_bouts[e] += 1
    start_fight(s, p, e, -1, rng)
