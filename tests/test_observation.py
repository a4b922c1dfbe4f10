"""The observation's layout: incremental writes equal a full recompute, values stay within
their declared highs, the float wrapper, and thread counts that change nothing."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from conftest import make_scene

import delve_env  # noqa: F401  (registers the ids)
from delve_env.config import Config
from delve_env.engine.batch import Engine
from delve_env.engine.core.actions import (
    A_CANCEL,
    A_CAST,
    A_GIVE,
    A_POWER,
    A_SELECT,
    A_STAIRS,
    A_SWAP,
    A_USE,
)
from delve_env.engine.core.tables import NUM_ITEM_SLOTS, POWER_NAMES, SIX_START
from delve_env.engine.outputs.layout import (
    KEYS,
    OBS_BYTES,
    STATUS_FLOOR,
    STATUS_KEEPER,
    STATUS_SEL_MEMBER,
    STATUS_SEL_SLOT,
    highs,
    views,
)
from delve_env.engine.outputs.observe import update_room_code
from delve_env.engine.rules.keeper import keep
from delve_env.engine.rules.quest import update_quest
from delve_env.engine.rules.tasks import task_potential
from delve_env.engine.step import await_choice, only_moves_items
from delve_env.env import DelveEnv
from delve_env.tools.bench import sample_legal
from delve_env.vector import DelveVectorEnv
from delve_env.wrappers import FloatObservation

CONFIGS = [
    {},
    {"difficulty": "hard", "max_steps": 300},
    {"task": "vault", "lock": "wall", "floor": 5, "max_steps": 60},
    {"task": "vault", "lock": "plate", "floor": 7, "max_steps": 60},
    {"task": "combat", "floor": 4, "max_steps": 40},
    {"task": "explore", "floor": 2, "max_steps": 200},
    {"difficulty": "easy", "free_actions": 3, "travel_paces": 5},  # the free limit hit often
]


def random_play(eng: Engine, steps: int, seed: int = 0):
    """Yield after each random-legal step of every slot (finished slots autoreset)."""
    rng = np.random.default_rng(seed)
    actions = np.zeros(eng.num_envs, dtype=np.int64)
    done = np.zeros(eng.num_envs, dtype=np.bool_)
    for _ in range(steps):
        sample_legal(eng.masks, rng.random(eng.num_envs), actions)
        eng.step(actions, done)
        done = eng.terminated | eng.truncated
        yield


@pytest.mark.parametrize("config", CONFIGS, ids=lambda c: "-".join(map(str, c.values())) or "game")
def test_incremental_outputs_equal_a_full_recompute(config):
    """After every step, the record and mask written from the dirty parts alone are the very
    bytes a from-scratch recompute of the same state gives."""
    cfg = Config.from_kwargs(**config)
    eng = Engine(16, cfg.params(), cfg.party_classes())
    eng.reset(np.arange(16, dtype=np.uint64), np.ones(16, np.bool_))
    everyone = np.ones(16, dtype=np.bool_)
    for step in random_play(eng, 1500):  # noqa: B007
        record, mask = eng.obs_record.copy(), eng.masks.copy()
        codes = eng.state.room_code.copy()  # a full recompute refreshes these; keep the path
        eng.refresh(everyone)
        full_record, full_mask = eng.obs_record.copy(), eng.masks.copy()
        eng.state.room_code[:] = codes
        eng.obs_record[:], eng.masks[:] = record, mask
        bad = np.flatnonzero((record != full_record).any(1) | (mask != full_mask).any(1))
        assert not len(bad), f"slot {bad[0]}: incremental outputs differ from a full recompute"


def test_every_value_stays_within_its_fields_high():
    cfg = Config.from_kwargs(difficulty="hard")
    eng = Engine(32, cfg.params(), cfg.party_classes())
    eng.reset(np.arange(32, dtype=np.uint64), np.ones(32, np.bool_))
    high = highs()
    for _ in random_play(eng, 2000):
        for k, v in eng.obs.items():
            assert (v <= high[k]).all(), k


def test_the_dict_is_views_into_one_record_per_env():
    venv = DelveVectorEnv(4)
    obs, _ = venv.reset(seed=0)
    assert list(obs) == [k.name for k in KEYS]
    record = venv.engine.obs_record
    assert record.shape == (4, OBS_BYTES) and record.dtype == np.uint8
    for k, v in venv.engine.obs.items():
        assert np.shares_memory(v, record) and v.dtype == np.uint8, k
        assert np.array_equal(obs[k], v), k
    assert not any(np.shares_memory(v, record) for v in obs.values())  # handed out as a copy
    one = views(record[2])
    assert all(np.array_equal(one[k], obs[k][2]) for k in obs)


def test_float_observation_scales_every_value_into_the_unit_interval():
    env = FloatObservation(gym.make("Delve-v0"))
    raw = gym.make("Delve-v0")
    obs, info = env.reset(seed=3)
    raw_obs, _ = raw.reset(seed=3)
    for _ in range(200):
        assert env.observation_space.contains(obs)
        for k, v in obs.items():
            assert v.dtype == np.float32
            np.testing.assert_allclose(v * np.maximum(highs()[k], 1), raw_obs[k], atol=1e-3)
        a = int(np.flatnonzero(info["action_mask"])[0])
        obs, _, term, trunc, info = env.step(a)
        raw_obs, *_ = raw.step(a)
        if term or trunc:
            break


@pytest.mark.parametrize("threads", [2, 3])
def test_thread_counts_give_the_same_bytes(threads):
    """`num_threads` cuts the slots into ranges stepped on their own threads: observations,
    rewards, flags and masks are the one-thread bytes, autoresets included."""
    one = DelveVectorEnv(24, max_steps=150)
    many = DelveVectorEnv(24, num_threads=threads, max_steps=150)
    a, ia = one.reset(seed=9)
    b, ib = many.reset(seed=9)
    rng = np.random.default_rng(1)
    actions = np.zeros(24, dtype=np.int64)
    for _ in range(400):
        for k in a:
            assert a[k].tobytes() == b[k].tobytes(), k
        assert np.array_equal(ia["action_mask"], ib["action_mask"])
        sample_legal(ia["action_mask"], rng.random(24), actions)
        a, ra, ta, tra, ia = one.step(actions)
        b, rb, tb, trb, ib = many.step(actions)
        assert ra.tobytes() == rb.tobytes() and np.array_equal(ta, tb)
        assert np.array_equal(tra, trb)


def test_the_engine_steps_alike_from_callers_arrays_and_from_its_own():
    """`Engine.step` copies a caller's actions and reset flags (any integer and bool-like
    types) into its own arrays, or takes those arrays written in place (as the single env
    does): the same bytes either way, through the compiled step's first call and the later
    direct ones."""
    cfg = Config.from_kwargs(max_steps=80)
    a, b = (Engine(4, cfg.params(), cfg.party_classes()) for _ in range(2))
    for eng in (a, b):
        eng.reset(np.arange(4, dtype=np.uint64), np.ones(4, np.bool_))
    rng = np.random.default_rng(3)
    actions, done = np.zeros(4, dtype=np.int64), np.zeros(4, dtype=np.bool_)
    for _ in range(120):
        sample_legal(a.masks, rng.random(4), actions)
        a.step(actions.astype(np.int32), done.astype(np.uint8))
        b.actions[:], b.needs_reset[:] = actions, done
        b.step(b.actions, b.needs_reset)
        assert np.array_equal(a.obs_record, b.obs_record) and np.array_equal(a.masks, b.masks)
        assert np.array_equal(a.rewards, b.rewards)
        done = a.terminated | a.truncated
    assert (a.state.steps < 80).all()  # every slot started a new run on the way


def test_num_threads_is_validated():
    with pytest.raises(ValueError, match="num_threads"):
        DelveVectorEnv(4, num_threads=0)
    venv = gym.make_vec("Delve-v0", num_envs=8, num_threads=2)
    assert venv.unwrapped.engine.num_threads == 2


def test_a_selection_keeps_the_explore_row_and_its_end_writes_the_follow_up_over_it():
    """Selecting an item keeps the explore row (`Engine.kept_rows`); putting the item back
    restores it; giving it writes the give's changes over the kept row: both the very row a
    full recompute gives. Stepped through env.step (a Scene refreshes in full each act)."""
    env = DelveEnv(depth=2)
    _, info = env.reset(seed=0)
    eng, before = env.engine, info["action_mask"].copy()
    select = A_SELECT + int(np.flatnonzero(before[A_SELECT:A_GIVE])[0])
    _, _, _, _, info = env.step(select)
    assert (
        eng.kept[0] and np.array_equal(eng.kept_rows[0], before) and info["action_mask"][A_CANCEL]
    )
    _, _, _, _, info = env.step(A_CANCEL)
    assert not eng.kept[0] and np.array_equal(info["action_mask"], before)
    _, _, _, _, info = env.step(select)
    give = A_GIVE + int(np.flatnonzero(info["action_mask"][A_GIVE:A_USE])[0])
    _, _, _, _, info = env.step(give)
    after = info["action_mask"].copy()
    assert not np.array_equal(after, before)  # the packs changed, and the row with them
    eng.refresh(np.ones(1, dtype=np.bool_))
    assert np.array_equal(eng.masks[0], after)


def test_a_step_that_only_holds_or_swaps_shows_that_and_clears_sixpences_words():
    """Holding an item or a caster, letting go, or swapping marching places passes no time and
    changes nothing else: the status row shows the selection, Sixpence's words of the step
    before are gone, and every byte is what a full recompute gives; the next action that does
    something shows the rest again."""
    env = DelveEnv(depth=2)
    obs, info = env.reset(seed=5)
    eng = env.engine
    assert obs["status"][STATUS_KEEPER] == SIX_START + 1  # the greeting
    before = obs["status"].copy()
    select = A_SELECT + int(np.flatnonzero(info["action_mask"][A_SELECT:A_GIVE])[0])
    obs, reward, _, _, info = env.step(select)
    m, slot = divmod(select - A_SELECT, NUM_ITEM_SLOTS)
    status = obs["status"]
    assert (status[STATUS_SEL_MEMBER], status[STATUS_SEL_SLOT]) == (m + 1, slot + 1)
    assert status[STATUS_KEEPER] == 0 and "keeper" not in info and reward == 0
    changed = np.flatnonzero(status != before)
    assert set(changed) == {STATUS_SEL_MEMBER, STATUS_SEL_SLOT, STATUS_KEEPER}
    record = eng.obs_record.copy()
    eng.refresh(np.ones(1, dtype=np.bool_))
    assert np.array_equal(eng.obs_record, record)
    obs, _, _, _, info = env.step(A_CANCEL)
    assert obs["status"][STATUS_SEL_MEMBER] == obs["status"][STATUS_SEL_SLOT] == 0
    order, party, status = (
        env.engine.state.order[0].copy(),
        obs["party"].copy(),
        obs["status"].copy(),
    )
    assert info["action_mask"][A_SWAP]
    obs, reward, _, _, _ = env.step(A_SWAP)  # PARTY-2: the first two change places
    assert list(env.engine.state.order[0, :2]) == [order[1], order[0]] and reward == 0
    assert not np.array_equal(obs["party"], party) and np.array_equal(obs["status"], status)
    record = eng.obs_record.copy()
    eng.refresh(np.ones(1, dtype=np.bool_))
    assert np.array_equal(eng.obs_record, record)
    obs, _, _, _, _ = env.step(A_STAIRS)  # down: the floor and the rest shown anew
    assert obs["status"][STATUS_FLOOR] == 1


def test_moving_items_exploring_leaves_the_bookkeeping_nothing_to_find():
    """A give, a wear or a take-off while exploring with no gift owed skips the per-action
    bookkeeping (step.only_moves_items): over random-legal play with shaped rewards, such a
    step changes the items and the selection alone (no time, no fight turn, no event); after
    it the bookkeeping run anyway changes no field of the state, and the shaped potential is
    the one before the step."""
    env = DelveEnv(reward_mode="shaped")
    s, p = env.engine.state, env.engine.params
    rng = np.random.default_rng(1)
    moved = {"item", "item_wear", "item_dv", "sel_member", "sel_slot", "dirty"}
    counted = {"steps", "free_streak", "events", "log_n", "keeper_new"}  # every step's own
    checked = 0
    for seed in range(4):
        _, info = env.reset(seed=seed)
        for _ in range(300):
            a = int(rng.choice(np.flatnonzero(info["action_mask"])))
            skipped, potential = only_moves_items(s, 0, a), task_potential(s, p, 0)
            fields = {k: getattr(s, k).copy() for k in s._fields}
            _, _, term, trunc, info = env.step(a)
            if term or trunc:
                break
            if skipped:
                changed = {k for k in fields if not np.array_equal(getattr(s, k), fields[k])}
                assert changed <= moved | counted and s.events[0] == 0, changed
                fields = {k: getattr(s, k).copy() for k in s._fields}
                await_choice(s, 0)
                update_quest(s, 0)
                keep(s, 0, s.keeper_seen[0], False)
                update_room_code(s, 0)
                assert task_potential(s, p, 0) == potential
                assert [k for k in fields if not np.array_equal(getattr(s, k), fields[k])] == []
                checked += 1
    assert checked > 40


def test_a_selection_open_when_the_outputs_are_written_anew_still_ends_right():
    """A state loaded (or refreshed) while a caster waits for a target: the explore row is
    made then, not kept from the selection row; choosing the power and putting it back
    ends on the row a full recompute gives."""
    sc = make_scene(party=("hero", "cleric"))
    sc.calm()
    s, eng = sc.s, sc.env.engine
    s.hp[0, 0] -= 3  # the Hero is hurt: the Cleric's lay on hands has a target
    sc.refresh()
    sc.env.step(A_CAST + 1)
    eng.refresh(np.ones(1, dtype=np.bool_))  # as `load_state` does
    _, _, _, _, info = sc.env.step(A_POWER + POWER_NAMES.index("lay on hands"))
    assert info["action_mask"][A_USE + 0]  # waiting for its target
    _, _, _, _, info = sc.env.step(A_CANCEL)
    mask = info["action_mask"].copy()
    eng.refresh(np.ones(1, dtype=np.bool_))
    assert mask[A_CAST + 1] and np.array_equal(eng.masks[0], mask)
