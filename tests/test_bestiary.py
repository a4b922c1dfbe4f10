"""The whole bestiary (MON-1..2) and the party's bestiary record (VIEW-1's BESTIARY): kinds,
tiers and flags; bands of 1-6 of one or two kinds; what the party met, killed and learned."""

from __future__ import annotations

import numpy as np
import pytest

from delve_env.engine.core.actions import A_ATTACK, A_LISTEN
from delve_env.engine.core.params import P_LISTEN_HEAR, make_params
from delve_env.engine.core.tables import (
    KINDS_PER_TIER,
    M_BRIBE,
    M_FLAGS,
    M_TIER,
    MAX_FOES,
    MF_ARMOR_EATER,
    MF_DRAINER,
    MF_FOOD_THIEF,
    MF_METAL_EATER,
    MF_RANGED,
    MF_UNDEAD,
    MF_XP_DRAINER,
    MONSTER_NAMES,
    MONSTERS,
    NUM_MONSTERS,
    NUM_TIERS,
    TIER_KINDS,
)
from delve_env.engine.outputs.layout import BEST_KILLED, BEST_LEARNED, BEST_MET
from delve_env.engine.rules.fights import hit_member, line_up
from delve_env.engine.rules.monsters import roll_band

FLAGS = (MF_METAL_EATER, MF_ARMOR_EATER, MF_DRAINER, MF_XP_DRAINER, MF_FOOD_THIEF, MF_UNDEAD,
         MF_RANGED)  # fmt: skip
GOBLIN = MONSTER_NAMES.index("goblin")
SLINGER = MONSTER_NAMES.index("kobold slinger")
SKELETON = MONSTER_NAMES.index("skeleton")
STIRGE = MONSTER_NAMES.index("stirge")
RUST_MONSTER = MONSTER_NAMES.index("rust monster")


# --- MON-1 ---------------------------------------------------------------------------------


def test_mon_1_at_least_24_kinds_in_four_tiers_of_six():
    assert NUM_MONSTERS == len(MONSTER_NAMES) == MONSTERS.shape[0] >= 24
    assert len(set(MONSTER_NAMES)) == NUM_MONSTERS
    tiers, counts = np.unique(MONSTERS[:, M_TIER], return_counts=True)
    assert list(tiers) == list(range(NUM_TIERS)) and (counts == KINDS_PER_TIER).all()
    assert TIER_KINDS.shape == (NUM_TIERS, KINDS_PER_TIER)
    for t in range(NUM_TIERS):
        assert (MONSTERS[TIER_KINDS[t], M_TIER] == t).all()
    assert sorted(TIER_KINDS.ravel().tolist()) == list(range(NUM_MONSTERS))


def test_mon_1_every_flag_is_carried_and_every_bribe_chance_is_at_least_10():
    for flag in FLAGS:
        assert (MONSTERS[:, M_FLAGS] & flag).any(), flag
    assert (MONSTERS[:, M_BRIBE] >= 10).all()


# --- MON-2: bands of 1-6 of one or two kinds, the whole range reachable ---------------------


@pytest.mark.parametrize("floor", [1, 4, 7, 10])
def test_mon_2_a_band_is_one_or_two_kinds_of_its_tier(floor):
    p = make_params("normal")
    g = np.array([0xABC + floor], dtype=np.uint64)
    kinds, hp = np.zeros(MAX_FOES, np.int8), np.zeros(MAX_FOES, np.int16)
    seen = set()
    for _ in range(400):
        roll_band(p, floor, 0, g, 0, kinds, hp)
        band = kinds[kinds >= 0]
        assert 1 <= len(band) <= 6 and len(set(band.tolist())) <= 2
        seen |= set(band.tolist())
    assert seen == set(TIER_KINDS[(floor - 1) // 3].tolist())


def test_mon_2_every_band_size_1_to_6_is_reached_in_generation():
    """Over the dungeons of a few seeds (depth 12), the bands guarding rooms take every size
    1..6 (the king's and the book's guards are one stronger, so the deepest tier reaches 6)."""
    from delve_env import DelveEnv

    env = DelveEnv(depth=12)
    sizes = set()
    for seed in range(12):
        env.reset(seed=seed)
        s = env.engine.state
        sizes |= set(np.unique((s.band_kind[0] >= 0).sum(axis=-1)).tolist())
    assert sizes == set(range(7))  # 0: rooms without a band


# --- the bestiary record --------------------------------------------------------------------


def test_bestiary_a_fight_meets_each_kind_once_and_shows_undead_and_ranged(scene):
    s = scene.s
    for k, kind in enumerate([SKELETON, SLINGER, SKELETON, -1, -1, -1]):
        s.foe_kind[0, k] = kind
        s.foe_hp[0, k] = 5 if kind >= 0 else 0
    line_up(s, scene.p, 0, -1)
    assert s.kind_met[0, SKELETON] == 1 and s.kind_met[0, SLINGER] == 1
    assert s.kind_met[0].sum() == 2
    assert s.kind_learned[0, SKELETON] == MF_UNDEAD and s.kind_learned[0, SLINGER] == MF_RANGED
    row = scene.obs()["bestiary"]
    assert row[SKELETON, BEST_MET] == 1 and row[SKELETON, BEST_LEARNED + 5] == 1  # undead
    assert row[SLINGER, BEST_LEARNED + 6] == 1 and row[SLINGER, BEST_LEARNED:].sum() == 1
    assert row[GOBLIN].sum() == 0  # never met


def test_bestiary_specials_are_learned_when_done_to_the_party(scene, rng):
    """A stirge's ceiling drain and a rust monster's bite are learned when they happen."""
    s = scene.s
    scene.tough(100)
    scene.fight([STIRGE, RUST_MONSTER])
    s.item[0, 0, 1:3] = 0  # the hero wears nothing to absorb the blows
    assert s.kind_learned[0].sum() == 0  # (a scene: no line-up)
    for _ in range(20):
        hit_member(s, scene.p, 0, 0, 0, rng)
        hit_member(s, scene.p, 0, 1, 0, rng)
    assert s.kind_learned[0, STIRGE] == MF_DRAINER
    assert s.kind_learned[0, RUST_MONSTER] == MF_METAL_EATER
    row = scene.obs()["bestiary"]
    assert row[STIRGE, BEST_LEARNED + 2] == 0  # met 0 times: a kind not met shows nothing
    s.kind_met[0, STIRGE] = 1
    assert scene.obs()["bestiary"][STIRGE, BEST_LEARNED + 2] == 1


def test_bestiary_kills_are_counted_per_kind(scene):
    s = scene.s
    scene.tough()
    scene.fight([GOBLIN, GOBLIN], hps=[1, 1])
    s.kind_met[0, GOBLIN] = 1
    for _ in range(200):
        if s.foe_hp[0, 0] == 0:
            break
        s.actor[0] = 0
        scene.act(A_ATTACK)
    assert s.kind_killed[0, GOBLIN] >= 1
    assert scene.obs()["bestiary"][GOBLIN, BEST_KILLED] == s.kind_killed[0, GOBLIN]


def test_bestiary_a_band_heard_at_a_door_is_met_once(scene):
    s = scene.s
    scene.calm()
    scene.p[P_LISTEN_HEAR] = 1.0
    s.band_kind[0, 1, 0] = -1
    s.band_kind[0, 1, 0, :3] = [GOBLIN, SLINGER, GOBLIN]
    s.band_hp[0, 1, 0, :3] = 5
    (dx, dy), _, _ = scene.door_of(1, 0)
    scene.put(1, dx, dy)
    scene.act(A_LISTEN)
    scene.act(A_LISTEN)  # heard again: the same band, not met again
    assert s.kind_met[0, GOBLIN] == 1 and s.kind_met[0, SLINGER] == 1
    assert s.kind_learned[0].sum() == 0  # hearing teaches no flags
    assert scene.env.engine.obs["bestiary"][0][GOBLIN, BEST_MET] == 1  # incremental record


@pytest.mark.parametrize("floor", [1, 4, 7])
def test_mon_1_a_band_has_1_to_2_plus_tier_monsters(floor):
    """MON-1: a band (no extra guards) has 1..(2 + tier) monsters, every size reached: 1-2 on
    floors 1-3, 1-3 on 4-6, 1-4 on 7-9 (400 rolls each)."""
    p = make_params("normal")
    g = np.array([0xBEE + floor], dtype=np.uint64)
    kinds, hp = np.zeros(MAX_FOES, np.int8), np.zeros(MAX_FOES, np.int16)
    sizes = set()
    for _ in range(400):
        roll_band(p, floor, 0, g, 0, kinds, hp)
        sizes.add(int((kinds >= 0).sum()))
    assert sizes == set(range(1, 3 + (floor - 1) // 3))
