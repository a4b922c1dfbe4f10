"""The Gymnasium / SB3 interface contract of ENV.md: checkers, vector env, determinism
(fresh envs, vector slots across autoresets, snapshots, pickling), config and action
validation, invalid actions, episode end, rendering and observation ownership."""

from __future__ import annotations

import copy
import pickle
import re
import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from gymnasium.utils.env_checker import check_env as gym_check_env

import delve_env  # noqa: F401  (registers the ids)
from agents.random_legal import RandomLegalAgent
from delve_env import DelveEnv, DelveVectorEnv
from delve_env.engine.core.actions import A_LOOT, A_MOVE, A_STAIRS, NUM_ACTIONS, action_name
from delve_env.engine.core.tables import MODE_NAMES

pytestmark = pytest.mark.fast  # bad input and the API: CI runs these again under python -O

DELVE_IDS = sorted(i for i in gym.registry if i.startswith("Delve-"))

# SB3's checker treats every 3-D Box as an image and every 2-D one as odd; these are the only
# warnings it may give (by message). Anything else fails the test.
SB3_ALLOWED = (
    r"observation space \w+ is an image but the upper and lower bounds are not in \[0, 255\]",
    r"observation \w+ is an image but its `dtype` is \(float32\)",
    r"The minimal resolution for an image is 36x36",
    r"observation \w+ has an unconventional shape",
)


def spec_kwargs(env_id: str) -> dict:
    return dict(gym.spec(env_id).kwargs)


def same_obs(a: dict, b: dict) -> None:
    """Byte-identical observations: same keys, dtypes, shapes and bytes."""
    assert a.keys() == b.keys()
    for k in a:
        assert a[k].dtype == b[k].dtype and a[k].shape == b[k].shape, k
        assert a[k].tobytes() == b[k].tobytes(), f"observation {k!r} differs"


def same_step(x: tuple, y: tuple) -> None:
    """(obs, reward, terminated, truncated, mask[, paces, invalid]) records equal, byte for
    byte."""
    same_obs(x[0], y[0])
    assert np.float32(x[1]).tobytes() == np.float32(y[1]).tobytes()
    assert (bool(x[2]), bool(x[3])) == (bool(y[2]), bool(y[3]))
    assert x[4].dtype == y[4].dtype == np.bool_ and x[4].tobytes() == y[4].tobytes()
    assert x[5:] == y[5:]


def record(env, actions) -> list:
    """Step `env` through `actions`; one (obs, reward, terminated, truncated, mask, paces,
    invalid) each."""
    out = []
    for a in actions:
        obs, r, te, tr, info = env.step(a)
        out.append((obs, r, te, tr, info["action_mask"], info["paces"], info["invalid_action"]))
        if te or tr:
            break
    return out


def play(env, seed: int, steps: int, agent_seed: int = 0) -> tuple[list, list]:
    """A random-legal run from reset(seed): the actions and the records; reset() (no seed)
    after each episode end, recorded as a step with reward 0."""
    agent = RandomLegalAgent(agent_seed)
    obs, info = env.reset(seed=seed)
    actions, out = [], [(obs, 0.0, False, False, info["action_mask"])]
    for _ in range(steps):
        a = agent.act(info["action_mask"])
        actions.append(a)
        obs, r, te, tr, info = env.step(a)
        out.append((obs, r, te, tr, info["action_mask"]))
        if te or tr:
            obs, info = env.reset()
            out.append((obs, 0.0, False, False, info["action_mask"]))
            actions.append(None)
    return actions, out


def replay(env, seed: int, actions: list) -> list:
    obs, info = env.reset(seed=seed)
    out = [(obs, 0.0, False, False, info["action_mask"])]
    for a in actions:
        if a is None:
            obs, info = env.reset()
            out.append((obs, 0.0, False, False, info["action_mask"]))
        else:
            obs, r, te, tr, info = env.step(a)
            out.append((obs, r, te, tr, info["action_mask"]))
    return out


# --- checkers ------------------------------------------------------------------------------


def test_every_id_is_registered():
    assert {"Delve-v0", "Delve-Easy-v0", "Delve-Hard-v0"} <= set(DELVE_IDS)


@pytest.mark.parametrize("env_id", DELVE_IDS)
def test_gymnasium_check_env(env_id):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        gym_check_env(gym.make(env_id).unwrapped)
    assert [str(w.message) for w in caught] == []


def test_make_hands_out_the_env_itself():
    """No order or passive-checker wrapper on every step (the env refuses a step before reset
    itself, and the checker above runs on every id); asked for, the checker is still there."""
    assert type(gym.make("Delve-v0")) is DelveEnv
    checked = gym.make("Delve-v0", disable_env_checker=False)
    assert type(checked).__name__ == "PassiveEnvChecker" and checked.unwrapped.spec.id == "Delve-v0"


@pytest.mark.parametrize("env_id", DELVE_IDS)
def test_sb3_check_env(env_id):
    sb3_checker = pytest.importorskip("stable_baselines3.common.env_checker")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sb3_checker.check_env(DelveEnv(**spec_kwargs(env_id)), warn=True)
    unexpected = [
        f"{w.category.__name__}: {w.message}"
        for w in caught
        if not (
            issubclass(w.category, UserWarning)
            and any(re.search(p, str(w.message)) for p in SB3_ALLOWED)
        )
    ]
    assert unexpected == []


def test_make_vec_is_the_native_vector_env():
    venv = gym.make_vec("Delve-v0", num_envs=4)
    assert isinstance(venv, DelveVectorEnv)
    assert venv.num_envs == 4
    obs, info = venv.reset(seed=3)
    assert all(v.shape[0] == 4 for v in obs.values())
    assert info["action_mask"].shape == (4, NUM_ACTIONS)
    assert venv.observation_space.contains(obs)
    venv.close()


# --- determinism ---------------------------------------------------------------------------


def test_two_fresh_envs_same_seed_same_actions():
    actions, a = play(DelveEnv(max_steps=60), seed=11, steps=300)
    b = replay(DelveEnv(max_steps=60), 11, actions)
    assert None in actions, "the run should cross an episode end"
    assert len(a) == len(b)
    for x, y in zip(a, b):
        same_step(x, y)


@pytest.mark.parametrize("num_envs", [1, 4, 16])
def test_vector_slot_equals_single_env(num_envs):
    """Slot i of reset(seed=s) plays what a single env reset(seed=s+i) plays, across
    autoresets (the single env calls reset() with no seed where the slot autoresets)."""
    seed, steps = 100, 240
    venv = DelveVectorEnv(num_envs, max_steps=60)
    agent = RandomLegalAgent(7)
    obs, info = venv.reset(seed=seed)
    vec = [(obs, np.zeros(num_envs), np.zeros(num_envs, bool), np.zeros(num_envs, bool),
            info["action_mask"])]  # fmt: skip
    actions = []
    for _ in range(steps):
        acts = agent.act(info["action_mask"])
        actions.append(acts)
        obs, r, te, tr, info = venv.step(acts)
        vec.append((obs, r, te, tr, info["action_mask"]))
    autoresets = 0
    for i in range(num_envs):
        env = DelveEnv(max_steps=60)
        obs, info = env.reset(seed=seed + i)
        mine = [(obs, 0.0, False, False, info["action_mask"])]
        done = False
        for acts in actions:
            if done:
                obs, info = env.reset()
                r, te, tr = 0.0, False, False
                autoresets += 1
            else:
                obs, r, te, tr, info = env.step(int(acts[i]))
            mine.append((obs, r, te, tr, info["action_mask"]))
            done = te or tr
        for t, (x, rec) in enumerate(zip(mine, vec)):
            y = ({k: v[i] for k, v in rec[0].items()}, rec[1][i], rec[2][i], rec[3][i], rec[4][i])
            try:
                same_step(x, y)
            except AssertionError as err:
                raise AssertionError(f"slot {i} of {num_envs}, step {t}: {err}") from err
    assert autoresets >= num_envs, "every slot should autoreset at least once"


def test_save_and_load_state_replays_exactly():
    env = DelveEnv()
    agent = RandomLegalAgent(5)
    obs, info = env.reset(seed=21)
    for _ in range(50):
        obs, _, te, tr, info = env.step(agent.act(info["action_mask"]))
        assert not (te or tr)
    snap = pickle.loads(pickle.dumps(env.save_state()))  # a snapshot is picklable
    actions, mask = [], info["action_mask"]
    first = []
    for _ in range(100):
        actions.append(agent.act(mask))
        first += record(env, actions[-1:])
        if first[-1][2] or first[-1][3]:
            break
        mask = first[-1][4]
    env.load_state(snap)
    assert env.action_masks().tobytes() == info["action_mask"].tobytes()
    again = record(env, actions)
    assert len(again) == len(first)
    for x, y in zip(first, again):
        same_step(x, y)
    # into a fresh env of the same config, too
    other = DelveEnv()
    other.reset(seed=999)
    other.load_state(snap)
    for x, y in zip(first, record(other, actions)):
        same_step(x, y)


@pytest.mark.parametrize("clone", ["pickle", "deepcopy"])
def test_clones_continue_identically(clone):
    # shaped rewards and a run cut short: every output of a step can tell a clone apart
    env = DelveEnv(max_steps=90, reward_mode="shaped")
    actions, _ = play(env, seed=8, steps=40)
    copies = {"pickle": lambda e: pickle.loads(pickle.dumps(e)), "deepcopy": copy.deepcopy}
    twin = copies[clone](env)
    agent = RandomLegalAgent(9)
    mask = env.action_masks()
    original, more = [], []
    for _ in range(60):  # the original first: a clone sharing its state would drift
        more.append(agent.act(mask))
        original += record(env, more[-1:])
        if original[-1][2] or original[-1][3]:
            break
        mask = original[-1][4]
    for x, y in zip(original, record(twin, more), strict=True):
        same_step(x, y)


# --- validation ----------------------------------------------------------------------------

BAD_CONFIGS = [
    ("difficulty", "impossible", "normal"),
    ("difficulty", 2, "normal"),
    ("depth", 1, None),
    ("depth", 13, None),
    ("depth", "3", None),
    ("depth", 2.0, None),
    ("depth", True, None),
    ("party", ("bard",), "hero"),
    ("party", (), None),
    ("party", "hero", None),
    ("party", ("hero",) * 5, None),
    ("reward_mode", "dense", "sparse"),
    ("max_steps", 0, None),
    ("max_steps", -3, None),
    ("max_steps", 1.5, None),
    ("render_mode", "bogus", "ansi"),
    ("invalid_action", "ignore", "noop"),
    ("colour", "red", "difficulty"),  # an unknown key names itself and the allowed keys
]


@pytest.mark.parametrize(("key", "value", "allowed"), BAD_CONFIGS)
def test_bad_config_raises_naming_the_key(key, value, allowed):
    with pytest.raises(ValueError) as err:
        DelveEnv(**{key: value})
    assert key in str(err.value)
    if allowed is not None:
        assert allowed in str(err.value)


def test_bad_config_through_gym_make():
    with pytest.raises(ValueError, match="difficulty"):
        gym.make("Delve-v0", difficulty="impossible")


@pytest.mark.parametrize("action", [-1, NUM_ACTIONS, 10**9, 1.0, np.float32(6), True, np.bool_(1),
                                    "6", None, [6]])  # fmt: skip
def test_bad_action_raises_value_error(action):
    env = DelveEnv()
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(action)


@pytest.mark.parametrize("action", [A_STAIRS, np.int64(A_STAIRS), np.int8(A_STAIRS),
                                    np.array(A_STAIRS)])  # fmt: skip
def test_integer_actions_are_accepted(action):
    env = DelveEnv()
    env.reset(seed=0)
    env.step(action)
    assert env.engine.state.floor[0] == 1


def state_copy(env) -> dict:
    return {
        name: np.array(a, copy=True) for name, a in zip(env.engine.state._fields, env.engine.state)
    }


PER_STEP = {"steps", "events", "reward", "keeper_new"}  # the step counter and its outputs


def test_invalid_action_raise_names_the_action():
    env = DelveEnv(invalid_action="raise")
    env.reset(seed=0)
    assert not env.action_masks()[A_MOVE]  # the courtyard has only its stair
    before = state_copy(env)
    with pytest.raises(ValueError) as err:
        env.step(A_MOVE)
    msg = str(err.value)
    assert action_name(A_MOVE) in msg or str(A_MOVE) in msg
    assert MODE_NAMES[env.engine.state.mode[0]] in msg
    after = state_copy(env)
    assert all(np.array_equal(before[k], after[k]) for k in before)


def test_invalid_action_noop_changes_nothing():
    env = DelveEnv(invalid_action="noop")
    env.reset(seed=0)
    obs, *_, info = env.step(A_STAIRS)
    masked = [
        a for a in (A_LOOT, A_STAIRS, *range(A_MOVE, A_MOVE + 4)) if not info["action_mask"][a]
    ]
    assert masked
    for a in masked:
        before, pace = state_copy(env), int(env.engine.state.pace[0])
        obs2, r, te, tr, info2 = env.step(a)
        assert info2["invalid_action"] is True
        assert (r, te, tr) == (0.0, False, False)
        assert int(env.engine.state.pace[0]) == pace
        after = state_copy(env)
        changed = [
            k for k in before if k not in PER_STEP and not np.array_equal(before[k], after[k])
        ]
        assert changed == []
        assert info2["action_mask"].tobytes() == info["action_mask"].tobytes()
        same_obs(obs, obs2)
    legal = int(np.flatnonzero(info["action_mask"])[0])
    assert env.step(legal)[4]["invalid_action"] is False


def test_step_before_reset_raises():
    with pytest.raises(ResetNeeded):
        DelveEnv().step(A_STAIRS)
    with pytest.raises(ResetNeeded):
        gym.make("Delve-v0").step(A_STAIRS)


def test_step_after_episode_end_raises():
    env = DelveEnv(max_steps=3)
    env.reset(seed=0)
    agent = RandomLegalAgent(0)
    ended = False
    for _ in range(3):
        *_, te, tr, info = env.step(agent.act(env.action_masks()))
        ended = te or tr
    assert ended
    with pytest.raises(ResetNeeded):
        env.step(int(np.flatnonzero(env.action_masks())[0]))
    env.reset()
    env.step(int(np.flatnonzero(env.action_masks())[0]))  # a reset makes it playable again


# --- rendering and observation ownership ---------------------------------------------------


def test_ansi_render_shows_the_party():
    env = DelveEnv(render_mode="ansi")
    env.reset(seed=0)
    court = env.render()
    assert isinstance(court, str)
    for name in ("hero", "rogue", "wizard", "cleric"):
        assert name in court.lower()
    env.step(A_STAIRS)
    floor = env.render()
    assert isinstance(floor, str) and "@" in floor and "hero" in floor.lower()


def test_observations_do_not_share_memory():
    env, twin = DelveEnv(), DelveEnv()
    agent = RandomLegalAgent(3)
    o1, i1 = env.reset(seed=4)
    twin.reset(seed=4)
    a1 = agent.act(i1["action_mask"])
    o2, _, _, _, i2 = env.step(a1)
    t2, _, _, _, _ = twin.step(a1)
    kept = copy.deepcopy(o2)
    for k in o1:
        assert not np.shares_memory(o1[k], o2[k])
    assert not np.shares_memory(i1["action_mask"], i2["action_mask"])
    # scribble over everything handed out: later observations and the game do not change
    for k in o1:
        o1[k][...] = 1
        o2[k][...] = 0
    i1["action_mask"][:] = False
    i2["action_mask"][:] = True
    env.action_masks()[:] = True
    assert env.action_masks().tobytes() == twin.action_masks().tobytes()
    same_obs(copy.deepcopy(kept), t2)
    a2 = agent.act(twin.action_masks())
    same_obs(env.step(a2)[0], twin.step(a2)[0])


def test_vector_observations_do_not_share_memory():
    venv, twin = DelveVectorEnv(2), DelveVectorEnv(2)
    o1, i1 = venv.reset(seed=4)
    twin.reset(seed=4)
    acts = np.full(2, A_STAIRS)
    o2, *_ = venv.step(acts)
    t2, *_ = twin.step(acts)
    for k in o1:
        assert not np.shares_memory(o1[k], o2[k])
        o1[k][...] = 1
        o2[k][...] = 0
    same_obs(venv.step(np.full(2, 4))[0], twin.step(np.full(2, 4))[0])
