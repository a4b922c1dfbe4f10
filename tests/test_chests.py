"""Chests (CHEST-1): where they stand, what they keep shut, opening them, their traps."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import make_scene

from delve_env import DelveEnv
from delve_env.engine.core.actions import A_LOOT, A_OPEN
from delve_env.engine.core.params import P_TRAP_AVOID_STEP, make_params
from delve_env.engine.core.tables import (
    CHEST_NONE,
    CHEST_OPEN,
    CHEST_SHUT,
    CHEST_TRAPPED,
    EV_DEATH,
    FEAT_NONE,
    MEDICINAL_ALE,
)
from delve_env.engine.outputs.layout import LOOT_HERE, STATUS_CHEST, STATUS_LOOT
from delve_env.engine.rules.party import lower_ceiling

HERO_M, ROGUE_M = 0, 1  # the default party's marching order: Hero, Rogue, Wizard, Cleric
F = 1


def plain_room(scene, f: int = F) -> int:
    """A room of floor f without a feature, its band gone, emptied, known and entered."""
    s = scene.s
    for r in range(int(s.num_rooms[0, f])):
        if s.room_feature[0, f, r] == FEAT_NONE:
            scene.clear_band(f, r)
            s.room_gold[0, f, r] = 0
            s.room_items[0, f, r] = 0
            s.room_pages[0, f, r] = -1
            s.room_map[0, f] = False
            s.room_entered[0, f, r] = s.room_known[0, f, r] = True
            return r
    raise AssertionError("no plain room")


def chest_scene(chest: int = CHEST_SHUT, **config):
    """The party in a plain room of floor 1 holding a chest; returns (scene, room)."""
    scene = make_scene(**config)
    r = plain_room(scene)
    scene.s.room_chest[0, F, r] = chest
    scene.stand_in_room(F, r)
    scene.refresh()
    return scene, r


def restore(scene, snap: dict) -> None:
    """Put the scene back as saved, all but the play RNG (so each trial draws afresh)."""
    rng = scene.s.rng[0]
    scene.load(snap)
    scene.s.rng[0] = rng
    scene.env._running = True


def dungeons(depth: int = 12, seeds=range(12), **config):
    """(state, floor, room) for every room of every floor of a few fresh games."""
    env = DelveEnv(depth=depth, **config)
    s = env.engine.state
    for seed in seeds:
        env.reset(seed=seed)
        for f in range(1, depth + 1):
            for r in range(int(s.num_rooms[0, f])):
                yield s, f, r


# --- where chests stand ---------------------------------------------------------------------


def test_chest_1_every_ordinary_room_gets_a_chest_at_chance_one_but_features_and_vaults():
    for s, f, r in dungeons(chest_chance=1.0, map_chest=0.0):
        special = s.room_feature[0, f, r] != FEAT_NONE or s.vault_room[0, f] == r
        if special or s.room_map[0, f, r]:
            assert s.room_chest[0, f, r] == CHEST_NONE
        else:
            assert s.room_chest[0, f, r] in (CHEST_SHUT, CHEST_TRAPPED)


def test_chest_1_the_map_chest_chance_is_the_map_rooms_own():
    """With the chest chance 0 only the map's room holds a chest (map_chest 1: always)."""
    for s, f, r in dungeons(chest_chance=0.0, map_chest=1.0):
        want = s.room_map[0, f, r] and s.room_feature[0, f, r] == FEAT_NONE
        assert (s.room_chest[0, f, r] != CHEST_NONE) == want
    assert all(s.room_chest[0, f, r] == CHEST_NONE for s, f, r in dungeons(chest_chance=0.0,
                                                                          map_chest=0.0))  # fmt: skip


def test_chest_1_the_default_chances_put_a_quarter_of_rooms_and_half_the_maps_in_chests():
    plain, plain_chests, maps, map_chests = 0, 0, 0, 0
    for s, f, r in dungeons(seeds=range(20)):
        if s.room_feature[0, f, r] != FEAT_NONE or s.vault_room[0, f] == r:
            continue
        has = s.room_chest[0, f, r] != CHEST_NONE
        if s.room_map[0, f, r]:
            maps, map_chests = maps + 1, map_chests + has
        else:
            plain, plain_chests = plain + 1, plain_chests + has
    assert 0.21 < plain_chests / plain < 0.29
    assert 0.38 < map_chests / maps < 0.62


def trapped_share(floors, **config) -> float:
    chests = [
        s.room_chest[0, f, r]
        for s, f, r in dungeons(seeds=range(30), chest_chance=1.0, **config)
        if f in floors and s.room_chest[0, f, r] != CHEST_NONE
    ]
    return float(np.mean(np.array(chests) == CHEST_TRAPPED))


def test_chest_1_the_trap_chance_is_the_base_plus_the_per_floor_chance_times_the_floor():
    """0.1 + 0.05 x floor: 0.2 on floors 1-3, 0.65 on 10-12; the default 0.3 + 0.02 x floor:
    0.34 and 0.52; no chance, no traps; chance 1, every chest."""
    low = trapped_share(range(1, 4), chest_trap=0.1, chest_trap_per_floor=0.05)
    high = trapped_share(range(10, 13), chest_trap=0.1, chest_trap_per_floor=0.05)
    assert 0.14 < low < 0.26 and 0.58 < high < 0.72
    low, high = trapped_share(range(1, 4)), trapped_share(range(10, 13))
    assert 0.27 < low < 0.41 and 0.45 < high < 0.59
    assert trapped_share(range(1, 13), chest_trap=0.0, chest_trap_per_floor=0.0) == 0.0
    assert trapped_share(range(1, 13), chest_trap=1.0, chest_trap_per_floor=0.0) == 1.0
    assert trapped_share(range(11, 13), chest_trap=0.0, chest_trap_per_floor=0.09) > 0.95


# --- what a shut chest keeps, and opening it ------------------------------------------------


def test_chest_1_loot_leaves_a_shut_chests_items_and_map_and_opening_makes_them_loot():
    scene, r = chest_scene()
    s = scene.s
    s.room_gold[0, F, r] = 12
    s.room_items[0, F, r, 0] = MEDICINAL_ALE
    s.room_pages[0, F, r, 0] = 3
    s.room_map[0, F, r] = True
    obs = scene.obs()
    assert obs["status"][STATUS_CHEST] == 1
    scene.act(A_LOOT)  # the loose gold and page
    assert s.gold[0] >= 12 and s.room_gold[0, F, r] == 0 and s.pages_held[0, 3] == 1
    assert s.room_items[0, F, r, 0] == MEDICINAL_ALE and s.room_map[0, F, r]
    assert not s.maps_held[0] >> F & 1
    assert not scene.legal(A_LOOT)  # nothing loose is left
    obs = scene.obs()
    assert obs["status"][STATUS_LOOT] == 0 and obs["status"][STATUS_CHEST] == 1
    assert s.room_code[0, F, r] == LOOT_HERE  # the map shows the shut chest's room as loot
    pace = int(s.pace[0])
    scene.act(A_OPEN + HERO_M)
    assert s.room_chest[0, F, r] == CHEST_OPEN and s.stat_chests[0] == 1
    assert s.pace[0] == pace  # opening costs no time (TIME-2)
    obs = scene.obs()
    assert obs["status"][STATUS_CHEST] == 2 and obs["status"][STATUS_LOOT] == 1
    assert not scene.legal(A_OPEN + HERO_M)
    scene.act(A_LOOT)
    assert s.room_items[0, F, r, 0] == 0 and s.maps_held[0] >> F & 1
    assert (s.item[0] == MEDICINAL_ALE).any()
    assert s.room_code[0, F, r] != LOOT_HERE


def test_chest_1_open_needs_a_standing_member_exploring_a_room_with_a_shut_chest():
    scene, r = chest_scene()
    s = scene.s
    assert all(scene.legal(A_OPEN + m) for m in range(4)) and not scene.legal(A_OPEN + 4)
    s.hp[0, 2] = 0  # a fallen member opens nothing
    assert not scene.legal(A_OPEN + 2) and scene.legal(A_OPEN + 3)
    for chest in (CHEST_NONE, CHEST_OPEN):
        s.room_chest[0, F, r] = chest
        assert not any(scene.legal(A_OPEN + m) for m in range(5))
    s.room_chest[0, F, r] = CHEST_TRAPPED
    assert scene.legal(A_OPEN + 0)
    (dx, dy), _, _ = scene.door_of(F, r)  # the door is no room: no chest there
    scene.put(F, dx, dy)
    assert not scene.legal(A_OPEN + 0)


# --- traps ----------------------------------------------------------------------------------


def avoid_rate(scene, m: int, n: int) -> float:
    """Open the room's trapped chest n times with member m; the share of traps avoided."""
    s = scene.s
    r = s.room_of[0, F, s.y[0], s.x[0]]
    scene.tough()
    traps = int(s.stat_traps[0])
    for _ in range(n):
        s.room_chest[0, F, r] = CHEST_TRAPPED
        s.rations[0] = 20
        scene.act(A_OPEN + m)
    return 1 - (int(s.stat_traps[0]) - traps) / n


@pytest.mark.parametrize(
    "m, steps, want",
    [(HERO_M, 0, 0.5), (HERO_M, 1, 0.4), (HERO_M, 2, 0.3), (ROGUE_M, 0, 0.7), (ROGUE_M, 2, 0.5)],
)
def test_chest_1_the_opener_avoids_a_trap_half_the_time_a_rogue_more_a_harder_preset_less(
    m, steps, want
):
    """50%, +20 for a Rogue, -10 per difficulty step above easy (params.P_TRAP_AVOID_STEP:
    0, 1, 2 for easy, normal, hard)."""
    scene, _ = chest_scene(CHEST_TRAPPED)
    scene.p[P_TRAP_AVOID_STEP] = steps
    assert abs(avoid_rate(scene, m, 2000) - want) < 0.035


def test_chest_1_the_presets_trap_steps_are_zero_one_two():
    assert [make_params(d)[P_TRAP_AVOID_STEP] for d in ("easy", "normal", "hard")] == [0, 1, 2]


def test_chest_1_an_untrapped_chest_never_springs_a_trap():
    scene, _ = chest_scene(CHEST_SHUT)
    scene.p[P_TRAP_AVOID_STEP] = 5  # a trap would never be avoided
    s = scene.s
    r = s.room_of[0, F, s.y[0], s.x[0]]
    for _ in range(50):
        s.room_chest[0, F, r] = CHEST_SHUT
        scene.act(A_OPEN + HERO_M)
    assert s.stat_traps[0] == 0 and s.stat_chests[0] == 50


def test_chest_1_a_sprung_trap_is_one_of_four_drawn_uniformly():
    """Wound the opener 2d6; the opener's ceiling -1d3 (HP capped); half the rations lost; a
    gas that wounds every standing member d4. The opener never avoids here (5 steps). Both
    ends of each draw come up: 1 and 3 of the d3, 1 and 4 of every d4, 2d6 from 3 or less to
    11 or more (about 100 draws each)."""
    scene, r = chest_scene(CHEST_TRAPPED)
    scene.p[P_TRAP_AVOID_STEP] = 5
    s = scene.s
    scene.tough(1000)
    seen = {"wound": 0, "ceiling": 0, "rations": 0, "gas": 0}
    drawn = {"wound": set(), "ceiling": set(), "gas": set()}
    for trial in range(400):
        s.room_chest[0, F, r] = CHEST_TRAPPED
        s.rations[0] = 21
        s.hp[0, :4] = s.ceiling[0, :4] = 1000
        scene.act(A_OPEN + HERO_M)
        assert s.stat_traps[0] == trial + 1
        hp_lost = 1000 - s.hp[0, :4].astype(int)
        ceiling_lost = 1000 - s.ceiling[0, :4].astype(int)
        if s.rations[0] != 21:
            assert s.rations[0] == 11 and not hp_lost.any() and not ceiling_lost.any()
            seen["rations"] += 1
        elif ceiling_lost.any():
            assert 1 <= ceiling_lost[HERO_M] <= 3 and not ceiling_lost[1:].any()
            assert (hp_lost == ceiling_lost).all()  # HP capped to the new ceiling
            seen["ceiling"] += 1
            drawn["ceiling"].add(int(ceiling_lost[HERO_M]))
        elif hp_lost[1:].any():
            assert ((hp_lost >= 1) & (hp_lost <= 4)).all()
            seen["gas"] += 1
            drawn["gas"].update(hp_lost.tolist())
        else:
            assert 2 <= hp_lost[HERO_M] <= 12
            seen["wound"] += 1
            drawn["wound"].add(int(hp_lost[HERO_M]))
    assert all(70 < n < 130 for n in seen.values()), seen
    assert drawn["ceiling"] == {1, 2, 3} and drawn["gas"] == {1, 2, 3, 4}
    assert min(drawn["wound"]) <= 3 and max(drawn["wound"]) >= 11, drawn["wound"]


def test_chest_1_a_lowered_ceiling_stops_at_one_and_caps_hp(scene):
    s = scene.s
    s.hp[0, 0], s.ceiling[0, 0] = 2, 2
    lower_ceiling(s, 0, 0, 3)
    assert s.ceiling[0, 0] == 1 and s.hp[0, 0] == 1
    s.hp[0, 1], s.ceiling[0, 1] = 4, 12
    lower_ceiling(s, 0, 1, 2)
    assert s.ceiling[0, 1] == 10 and s.hp[0, 1] == 4


def test_chest_1_trap_wounds_take_death_saves_and_can_lose_the_run():
    """A lone Hero at 1 HP with one luck die: a wounding trap (2d6 or the gas) brings the death
    save (HP-2): saved at 1 HP, or dead with the die spent, and the run lost (RUN-4)."""
    scene, _ = chest_scene(CHEST_TRAPPED, party=("hero",))
    scene.p[P_TRAP_AVOID_STEP] = 5
    s = scene.s
    s.hp[0, 0], s.luck[0, 0] = 1, 1
    snap = scene.save()
    saved = lost = 0
    for _ in range(120):
        restore(scene, snap)
        _, _, terminated, _, _ = scene.act(A_OPEN + 0)
        if s.rations[0] != snap["rations"] or s.ceiling[0, 0] != snap["ceiling"][0]:
            continue  # no wound this time
        if s.hp[0, 0] == 1:
            saved += 1
        else:
            assert s.hp[0, 0] == 0 and s.luck[0, 0] == 0 and s.events[0] & EV_DEATH
            assert terminated and s.outcome[0] == 2 and s.stat_lost[0] == 1
            lost += 1
    assert saved > 0 and lost > 0


def test_chest_1_gas_can_kill_the_whole_party():
    """Every member at 1 HP without luck: the gas wounds them all, each takes a death save
    (HP-2), and a party that falls whole loses the run (RUN-4)."""
    scene, _ = chest_scene(CHEST_TRAPPED)
    scene.p[P_TRAP_AVOID_STEP] = 5
    s = scene.s
    s.hp[0, :4], s.luck[0, :4] = 1, 0
    snap = scene.save()
    wiped = 0
    for _ in range(150):
        restore(scene, snap)
        _, _, terminated, _, _ = scene.act(A_OPEN + 0)
        if (s.hp[0, :4] == 0).all():
            assert terminated and s.outcome[0] == 2 and s.stat_lost[0] == 4
            wiped += 1
    assert wiped > 0
