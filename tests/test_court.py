"""The courtyard's training ground (COURT-2): practice bouts nobody dies in."""

from __future__ import annotations

import numpy as np
from conftest import make_rng, make_scene

from delve_env.engine.core.actions import A_ATTACK, A_RUN, A_STAIRS, A_TRAIN
from delve_env.engine.core.params import (
    P_KILL_XP,
    P_MONSTER_HEARTS,
    P_PRACTICE_MAX_LEVEL,
    P_PRACTICE_XP,
)
from delve_env.engine.core.tables import (
    EV_DEATH,
    EV_KILL,
    EXPLORE,
    FIGHT,
    READY,
    TIER_KINDS,
)
from delve_env.engine.outputs.layout import STATUS_PRACTICE
from delve_env.engine.rules.fights import end_turn, hit_foe
from delve_env.engine.rules.party import wound

GOBLIN = 1  # tables.MONSTER_NAMES


def court_scene(**config):
    """A fresh run, the party in the courtyard."""
    scene = make_scene(**config)
    assert scene.s.floor[0] == 0 and scene.s.mode[0] == EXPLORE
    return scene


def test_court_2_a_bout_starts_in_the_courtyard_against_a_floor_one_band():
    scene = court_scene()
    s = scene.s
    pace, fights, gold = int(s.pace[0]), int(s.stat_fights[0]), int(s.gold[0])
    scene.act(A_TRAIN)
    assert s.practice[0] and s.mode[0] == FIGHT and s.floor[0] == 0 and s.stat_bouts[0] == 1
    kinds = s.foe_kind[0][s.foe_kind[0] >= 0]
    assert len(kinds) >= 1 and np.isin(kinds, TIER_KINDS[0]).all()  # tier 0: floors 1-3
    assert s.stat_fights[0] == fights and s.pace[0] == pace and s.gold[0] == gold
    assert scene.obs()["status"][STATUS_PRACTICE] == 1
    assert not scene.legal(A_TRAIN)


def test_court_2_training_needs_the_courtyard_exploring_and_someone_standing():
    scene = court_scene()
    s = scene.s
    assert scene.legal(A_TRAIN)
    s.hp[0, :] = 0
    assert not scene.legal(A_TRAIN)
    s.hp[0, :4] = 5
    scene.act(A_STAIRS)  # floor 1: no training ground
    assert s.floor[0] == 1 and not scene.legal(A_TRAIN)


def weak_bout(scene) -> None:
    """Start a bout the party cannot win: unarmed members at 1 HP with all their luck,
    dummies with hearts to spare."""
    s = scene.s
    scene.p[P_MONSTER_HEARTS] = 40
    s.item[0, :4, READY] = 0
    s.hp[0, :4], s.luck[0, :4] = 1, 3
    scene.act(A_TRAIN)


def fight_on(scene, steps: int = 200) -> bool:
    """Attack the first living dummy until the bout ends; True if someone fell meanwhile."""
    s = scene.s
    fell = False
    for _ in range(steps):
        if s.mode[0] != FIGHT:
            return fell
        k = int(np.flatnonzero((s.foe_kind[0] >= 0) & (s.foe_hp[0] > 0))[0])
        scene.act(A_ATTACK + k)
        fell |= bool(s.bout_down[0].any())
    raise AssertionError("the bout never ended")


def test_court_2_nobody_dies_in_a_bout_the_fallen_stand_at_one_hp_after():
    """Everyone goes down (no death save: no luck die spent, no death, no loss); when the
    last one falls the bout ends and every member stands at 1 HP, in the courtyard."""
    for seed in range(4):
        scene = court_scene(seed=seed)
        s = scene.s
        weak_bout(scene)
        fight_on(scene)
        assert s.mode[0] == EXPLORE and not s.practice[0] and s.floor[0] == 0
        assert (s.hp[0, :4] == 1).all() and (s.luck[0, :4] == 3).all()
        assert s.outcome[0] == 0 and s.stat_lost[0] == 0 and not s.achieved[0] & EV_DEATH
        assert not s.bout_down[0].any() and (s.foe_kind[0] < 0).all()
        assert scene.obs()["status"][STATUS_PRACTICE] == 0 and scene.legal(A_TRAIN)


def test_court_2_a_member_down_in_a_bout_is_at_zero_without_a_save():
    scene = court_scene()
    s = scene.s
    scene.act(A_TRAIN)
    s.luck[0, 2] = 3
    wound(s, 0, 2, 500, make_rng())
    assert s.hp[0, 2] == 0 and s.bout_down[0, 2] and s.luck[0, 2] == 3
    assert s.stat_lost[0] == 0 and not s.events[0] & EV_DEATH


def test_court_2_fleeing_a_bout_stays_in_the_courtyard_and_stands_the_fallen():
    scene = court_scene()
    s = scene.s
    scene.act(A_TRAIN)
    s.hp[0, 3], s.bout_down[0, 3] = 0, True  # fell earlier in the bout
    s.hp[0, 2] = 0  # dead before the bout: stays dead
    scene.act(A_RUN)
    assert s.mode[0] == EXPLORE and s.floor[0] == 0 and (s.x[0], s.y[0]) == (0, 0)
    assert not s.practice[0] and s.hp[0, 3] == 1 and s.hp[0, 2] == 0
    assert s.stat_flights[0] == 0 and s.outcome[0] == 0


def test_court_2_a_won_bout_gives_no_gold_and_counts_no_kill():
    for seed in range(3):
        scene = court_scene(seed=seed)
        s = scene.s
        scene.tough()
        gold = int(s.gold[0])
        scene.act(A_TRAIN)
        if s.mode[0] == FIGHT:
            fight_on(scene, 2000)
        assert s.mode[0] == EXPLORE and s.gold[0] == gold and s.floor[0] == 0
        assert s.stat_kills[0] == 0 and not s.achieved[0] & EV_KILL


def practice_kill_xp(scene, m: int, level: int) -> int:
    """XP member m (at `level`) gains for the last blow on a 1-HP goblin in a bout."""
    s = scene.s
    scene.act(A_TRAIN)
    scene.fight([GOBLIN], hps=[1])
    s.practice[0] = True  # (the dummies' free round may have ended the bout already)
    s.level[0, m], s.xp[0, m] = level, 0
    s.options[0, m, : level - 1] = 0  # the options owed are taken (no CHOICE-1 wait)
    rng = make_rng()
    while s.foe_hp[0, 0] > 0:
        hit_foe(s, scene.p, 0, m, 0, rng)
    xp = int(s.xp[0, m])
    end_turn(s, scene.p, 0, rng)
    assert s.mode[0] == EXPLORE and not s.practice[0]
    return xp


def test_court_2_a_practice_kill_gives_a_quarter_of_its_xp_only_below_level_3():
    scene = court_scene()
    scene.fight([GOBLIN])
    full = int(scene.s.foe_max[0, 0] * scene.p[P_KILL_XP])
    scene.s.mode[0], scene.s.foe_kind[0] = EXPLORE, -1
    assert practice_kill_xp(scene, 0, 1) == int(full * 0.25)
    assert practice_kill_xp(scene, 0, 2) == int(full * 0.25)
    assert practice_kill_xp(scene, 1, 3) == 0
    assert scene.s.stat_kills[0] == 0


def test_court_2_the_practice_share_and_level_are_tunable():
    scene = court_scene(practice_xp=0.5, practice_max_level=5)
    assert scene.p[P_PRACTICE_XP] == 0.5 and scene.p[P_PRACTICE_MAX_LEVEL] == 5
    scene.fight([GOBLIN])
    full = int(scene.s.foe_max[0, 0] * scene.p[P_KILL_XP])
    scene.s.mode[0], scene.s.foe_kind[0] = EXPLORE, -1
    assert practice_kill_xp(scene, 0, 4) == int(full * 0.5)
    assert practice_kill_xp(scene, 0, 5) == 0
    scene = court_scene(practice_max_level=0)
    assert practice_kill_xp(scene, 0, 1) == 0


def test_court_2_practice_blows_only_wound(rng):
    """COURT-2: the dummy band's rats steal no rations and its rust mites bite no steel (the
    blow of a food thief or an eater only wounds in a bout)."""
    from delve_env.engine.rules.fights import hit_member

    RAT, MITE = 0, 3  # tables.MONSTER_NAMES
    scene = court_scene()
    s = scene.s
    scene.tough()
    scene.fight([RAT, MITE], hps=[30000, 30000])
    s.practice[0] = True
    rations, hp = int(s.rations[0]), int(s.hp[0, 2])
    for _ in range(10):
        hit_member(s, scene.p, 0, 0, 2, rng)
        hit_member(s, scene.p, 0, 1, 0, rng)
    assert s.rations[0] == rations and s.item_wear[0, 0, READY] == 0
    assert s.item[0, 0, READY] > 0 and int(s.hp[0, 2]) < hp
