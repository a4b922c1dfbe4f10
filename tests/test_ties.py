"""ATTACK-1 ties in every exchange, members' and monsters' alike: a tie hits both where both
can hit; ATTACK-2 with ties: the target strikes back (once) only when no attack beat it.

Each scene is hand-set and the RNG is crafted: a seed is searched whose next d20 draws give the
wanted rolls (predicted with the engine's own `randint` on a copy of the state), so every test
checks one exact exchange."""

from __future__ import annotations

import numpy as np

from delve_env.engine.core.params import P_MONSTER_ATK
from delve_env.engine.core.rng import randint
from delve_env.engine.core.tables import M_ATK, M_DEF, MONSTER_NAMES, MONSTERS, READY, SHORT_BOW
from delve_env.engine.rules.fights import attack_member, member_attack

GOBLIN = MONSTER_NAMES.index("goblin")  # melee, attack 1, defense 1
SLINGER = MONSTER_NAMES.index("kobold slinger")  # ranged, attack 0
WIZARD = 2  # member slot 2 of the default party: the wizard, staff (no skill die), bonus 0
BIG = 30000


def draws(seed: int, n: int, sides=None) -> list[int]:
    """The next n draws `randint(rng, 0, sides[i])` of a crafted RNG seeded with `seed`."""
    g = np.array([seed], dtype=np.uint64)
    return [int(randint(g, 0, (sides or [20] * n)[i])) for i in range(n)]


def crafted(want) -> np.ndarray:
    """A one-slot RNG whose next draws satisfy `want(seed)`."""
    for seed in range(1, 200000):
        if want(seed):
            return np.array([seed], dtype=np.uint64)
    raise AssertionError("no such seed")


def set_up(scene, kind, weapon=None):
    """The wizard alone (huge HP) against one foe of `kind` (huge hearts), her turn."""
    s = scene.s
    s.hp[0, :] = 0
    s.hp[0, WIZARD] = s.ceiling[0, WIZARD] = BIG
    if weapon is not None:
        s.item[0, WIZARD, READY] = weapon
    scene.fight([kind], hps=[BIG])
    s.actor[0] = int(np.flatnonzero(s.order[0] == WIZARD)[0])
    return s


def member_tie_rng(kind):
    """A member's d20 + 0 equal to the foe's d20 + defense (wizard: no skill die)."""
    return crafted(lambda g: (lambda a, b: a == b + MONSTERS[kind, M_DEF])(*draws(g, 2)))


def monster_tie_rng(scene, kind):
    """The foe's d20 + attack (+ the preset's) equal to the member's d20."""
    atk = MONSTERS[kind, M_ATK] + int(scene.p[P_MONSTER_ATK])
    return crafted(lambda g: (lambda a, b: a + atk == b)(*draws(g, 2)))


def test_attack_1_a_members_tied_melee_strike_hits_both(scene):
    s = set_up(scene, GOBLIN)
    member_attack(s, scene.p, 0, 0, False, 1, member_tie_rng(GOBLIN))
    assert s.foe_hp[0, 0] < BIG and s.hp[0, WIZARD] < BIG


def test_attack_1_a_members_tied_ranged_shot_hits_only_the_foe(scene):
    """The bow cannot be answered in melee: the tie is the archer's hit alone."""
    s = set_up(scene, GOBLIN, weapon=SHORT_BOW)
    # the wizard has no bow skill: her d20 + 0 against the goblin's d20 + 1
    member_attack(s, scene.p, 0, 0, False, 1, member_tie_rng(GOBLIN))
    assert s.foe_hp[0, 0] < BIG and s.hp[0, WIZARD] == BIG


def test_attack_1_a_monsters_tied_melee_blow_hits_both(scene):
    s = set_up(scene, GOBLIN)
    attack_member(s, scene.p, 0, 0, WIZARD, monster_tie_rng(scene, GOBLIN))
    assert s.hp[0, WIZARD] < BIG and s.foe_hp[0, 0] < BIG


def test_attack_1_a_monsters_tied_shot_hits_only_the_member(scene):
    """A ranged foe is never answered: its tie is its hit alone."""
    s = set_up(scene, SLINGER)
    attack_member(s, scene.p, 0, 0, WIZARD, monster_tie_rng(scene, SLINGER))
    assert s.hp[0, WIZARD] < BIG and s.foe_hp[0, 0] == BIG


def test_attack_1_a_tie_against_a_member_with_a_bow_hits_only_the_member(scene):
    """The member's bow cannot counter a melee blow: the tie is the goblin's hit alone."""
    s = set_up(scene, GOBLIN, weapon=SHORT_BOW)
    attack_member(s, scene.p, 0, 0, WIZARD, monster_tie_rng(scene, GOBLIN))
    assert s.hp[0, WIZARD] < BIG and s.foe_hp[0, 0] == BIG


def two_attacks(first: str, second: str):
    """A crafted RNG for two attacks of the wizard's (staff d6 between them when the first
    hits) on a goblin: each exchange 'win', 'tie' or 'fail'."""
    d = MONSTERS[GOBLIN, M_DEF]
    want = {"win": lambda a, b: a > b + d, "tie": lambda a, b: a == b + d,
            "fail": lambda a, b: a < b + d}  # fmt: skip

    sides = [20, 20, 20, 20] if first == "fail" else [20, 20, 6, 20, 20]  # a hit rolls a d6

    def ok(seed):
        rolls = draws(seed, len(sides), sides)
        a1, b1, a2, b2 = rolls[0], rolls[1], rolls[-2], rolls[-1]
        return want[first](a1 + 1, b1 + 1) and want[second](a2 + 1, b2 + 1)

    return crafted(ok)


def test_attack_2_a_tie_and_a_miss_hit_both(scene):
    """No attack beat the goblin: the tie's blow lands and the goblin strikes back."""
    s = set_up(scene, GOBLIN)
    member_attack(s, scene.p, 0, 0, False, 2, two_attacks("tie", "fail"))
    assert s.foe_hp[0, 0] < BIG and s.hp[0, WIZARD] < BIG


def test_attack_2_two_ties_hit_both_and_the_target_strikes_back_once(scene):
    s = set_up(scene, GOBLIN)
    before = s.hp[0, WIZARD]
    member_attack(s, scene.p, 0, 0, False, 2, two_attacks("tie", "tie"))
    assert s.foe_hp[0, 0] < BIG and 0 < before - s.hp[0, WIZARD] <= 6  # one goblin d6


def test_attack_2_a_tie_and_a_win_take_no_counter_blow(scene):
    """One attack beat the goblin: it does not strike back (ATTACK-2)."""
    for order in (("tie", "win"), ("win", "tie")):
        s = set_up(scene, GOBLIN)
        member_attack(s, scene.p, 0, 0, False, 2, two_attacks(*order))
        assert s.foe_hp[0, 0] < BIG and s.hp[0, WIZARD] == BIG, order


def test_attack_2_two_misses_take_the_counter_blow(scene):
    s = set_up(scene, GOBLIN)
    member_attack(s, scene.p, 0, 0, False, 2, two_attacks("fail", "fail"))
    assert s.foe_hp[0, 0] == BIG and s.hp[0, WIZARD] < BIG
