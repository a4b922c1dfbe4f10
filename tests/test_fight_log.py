"""The structured fight log (config `fight_log`): off by default (no `info["log"]`, the engine
writes nothing); on, each step's `info["log"]` lists what its fights did, matching the state."""

from __future__ import annotations

import numpy as np
from conftest import Scene, make_scene

from delve_env import DelveEnv, DelveVectorEnv
from delve_env.engine.core.actions import A_ATTACK, A_BRIBE
from delve_env.engine.core.tables import LIGHT_OF_LIFE, MONSTER_NAMES, READY, STAFF

GOBLIN = MONSTER_NAMES.index("goblin")
STIRGE = MONSTER_NAMES.index("stirge")
RUST_MONSTER = MONSTER_NAMES.index("rust monster")
PACK = 3


def log_scene(**config) -> Scene:
    scene = make_scene(fight_log=True, **config)
    scene.calm()
    scene.tough()
    scene.put(1, *scene.hall_tile(1, junction=False))
    return scene


def test_fight_log_is_off_by_default_and_costs_nothing(scene):
    scene.tough()
    scene.fight([GOBLIN], hps=[30000])
    _, _, _, _, info = scene.act(A_ATTACK)
    assert "log" not in info and scene.s.log_n[0] == -1 and not scene.s.log[0].any()


def test_fight_log_lists_attacks_with_rolls_and_damage_matching_the_state():
    scene = log_scene()
    s = scene.s
    scene.fight([GOBLIN, GOBLIN], hps=[30000, 30000])
    for _ in range(8):
        _, _, _, _, info = scene.act(A_ATTACK)
        log = info["log"]
        attacks = [r for r in log if r["event"] == "attack"]
        assert len(attacks) == 1 and attacks[0]["kind"] == "goblin" and attacks[0]["foe"] == 0
        turn = log[
            : next((i for i, r in enumerate(log) if r["event"] == "monster attack"), len(log))
        ]  # fmt: skip  (the member's own turn, before the band's)
        hits = [r for r in turn if r["event"] == "damage to foe"]
        assert (len(hits) > 0) == attacks[0]["hit"]
        if hits and len(turn) == len(log):  # (no counter-blow from the band after it)
            assert hits[-1]["hearts_left"] == s.foe_hp[0, 0]
        for r in log:
            if r["event"] == "damage to member":
                assert r["hp_left"] >= 0 and r["damage"] > 0
    kinds = {r["event"] for r in log}
    assert kinds <= {"attack", "monster attack", "damage to foe", "damage to member",
                     "death save", "death", "kill"}  # fmt: skip


def test_fight_log_lists_bribes_asked_and_paid():
    scene = log_scene()
    s = scene.s
    scene.fight([GOBLIN])
    s.gold[0] = 1000
    _, _, _, _, info = scene.act(A_BRIBE)
    asked = [r for r in info["log"] if r["event"] == "bribe asked"]
    assert len(asked) == 1 and asked[0]["chance"] == 30 and asked[0]["price"] == 10
    assert asked[0]["paid"] == (s.stat_bribes[0] == 1)


def test_fight_log_lists_drains_and_bites():
    scene = log_scene()
    s = scene.s
    seen = set()
    for _ in range(60):
        scene.fight([STIRGE, RUST_MONSTER], hps=[30000, 30000])
        s.item[0, :, 1:3] = 0  # nothing absorbs the blows
        s.item[0, :, READY] = STAFF
        s.item_wear[0, :, READY] = 0
        s.ceiling[0, :4] = s.hp[0, :4] = 30000
        for _ in range(4):
            _, _, _, _, info = scene.act(A_ATTACK)
            for r in info["log"]:
                seen.add(r["event"])
                if r["event"] == "drain":
                    assert r["kind"] == "stirge" and r["what"] == "ceiling" and r["amount"] > 0
                if r["event"] == "metal bite":
                    assert r["kind"] == "rust monster" and r["wear"] >= 1
    assert {"drain", "metal bite"} <= seen


def test_fight_log_lists_deaths_and_raises():
    scene = log_scene()
    s = scene.s
    s.hp[0, 1] = 0
    s.item[0, 0, PACK] = LIGHT_OF_LIFE
    _, _, _, _, info = scene.use(0, PACK, 1)
    assert info["log"] == [{"event": "raise", "member": 1, "times_raised": 1}]
    s.hp[0, :] = 1
    s.luck[0, :] = 0
    scene.fight([GOBLIN] * 6, hps=[30000] * 6)
    events = []
    for _ in range(40):
        if s.outcome[0] != 0:
            break
        _, _, _, _, info = scene.env.step(A_ATTACK)
        events += info["log"]
    deaths = [r["member"] for r in events if r["event"] == "death"]
    saves = [r for r in events if r["event"] == "death save"]
    assert deaths and all(s.hp[0, m] == 0 for m in deaths)
    assert len(saves) >= len(deaths) and all(r["stood"] == (r["roll"] >= 6) for r in saves)


def test_fight_log_in_the_vector_env():
    venv = DelveVectorEnv(4, task="combat", floor=4, fight_log=True)
    venv.reset(seed=3)
    rng = np.random.default_rng(0)
    logged = 0
    for _ in range(30):
        masks = venv.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, _, _, _, info = venv.step(actions)
        assert info["log"].shape == (4,) and info["_log"].all()
        logged += sum(len(log) for log in info["log"])
    assert logged > 0
    assert "log" not in DelveVectorEnv(2, task="combat").reset(seed=0)[1]
    assert DelveEnv(fight_log=True).config.fight_log
