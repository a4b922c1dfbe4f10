"""The bestiary record (VIEW-1's BESTIARY, issue 10): every kind the party met, how many of it
it killed, and which of its specials it has seen.

A kind is met once per fight it is in and once per band heard at a door (LISTEN-1); a fight
shows whether a kind is undead or ranged, so meeting it in a fight teaches those flags; its
eating, draining and stealing are learned when it does them to the party. Practice dummies
(COURT-2) and the summoned ally teach nothing.
"""

from ..compiled.jit import njit
from ..core.tables import M_FLAGS, MAX_FOES, MF_RANGED, MF_UNDEAD, MONSTERS

SEEN_IN_FIGHT = MF_UNDEAD | MF_RANGED  # flags a fight shows of every foe (observe_fight)


@njit(cache=True)
def meet_band(s, e, kinds, in_fight):
    """Each kind of the band `kinds` (a row of MAX_FOES kinds, -1 none) is met once more;
    in a fight its undead and ranged flags are learned. Writes `kind_met`, `kind_learned`."""
    for k in range(MAX_FOES):
        kind = kinds[k]
        if kind < 0:
            continue
        first = True
        for j in range(k):
            if kinds[j] == kind:
                first = False
        if first:
            s.kind_met[e, kind] = min(32000, int(s.kind_met[e, kind]) + 1)
            if in_fight:
                s.kind_learned[e, kind] |= MONSTERS[kind, M_FLAGS] & SEEN_IN_FIGHT


@njit(cache=True)
def learn_special(s, e, kind, flag):
    """The party saw `kind` use its special `flag` (tables.MF_*)."""
    s.kind_learned[e, kind] |= flag


@njit(cache=True)
def count_kill(s, e, kind):
    s.kind_killed[e, kind] = min(32000, int(s.kind_killed[e, kind]) + 1)
