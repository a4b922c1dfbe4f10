"""Determinism: the same seed gives the same game, byte for byte, everywhere.

Per seed, one sha256 over every step's (observation bytes, reward, terminated, truncated, mask,
events) for 10^4 steps (`delve_env/checks/determinism.py` documents the record and the policy).
The golden runs' 20 seeds must equal the digests committed in tests/golden/*.json, so that any
change to the dynamics is deliberate; and a few of those seeds must give the same digests across
two fresh envs, a reset with the same seed, spawned and forked processes, different
PYTHONHASHSEEDs, batch sizes 1/4/16/64, the SB3 adapter, rendering on (ansi and rgb_array) and
off, and the pure-Python engine (NUMBA_DISABLE_JIT=1).

Changed a rule on purpose? Regenerate the golden files and say which rule changed in the
commit message:

    DELVE_REGEN_GOLDEN=1 pytest tests/test_determinism.py

Each kind of check has a negative control: a planted defect it must catch.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import os
import subprocess
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np
import pytest

import delve_env
from delve_env import DelveEnv
from delve_env.checks import determinism
from delve_env.engine.core.params import P_MEAL_PACES

ROOT = Path(__file__).resolve().parents[1]

REGEN = os.environ.get("DELVE_REGEN_GOLDEN") == "1"
SEEDS, STEPS = determinism.GOLDEN_SEEDS, determinism.GOLDEN_STEPS
SHORT = "Delve-v0-short-shaped"  # games of 500 steps: truncations and autoresets inside
_computed: dict[str, dict[str, str]] = {}


def golden(name: str, part: str = "digests") -> dict[str, str]:
    """The committed digests of a golden run (computed fresh when regenerating); `part`
    "dynamics" gives those without the observation bytes."""
    if REGEN:
        if name not in _computed:
            env_id, config = determinism.GOLDEN_RUNS[name]
            _computed[name + "/dynamics"] = {}
            _computed[name] = determinism.digest_vector(
                env_id, SEEDS, STEPS, config=config, dynamics=_computed[name + "/dynamics"]
            )
        return _computed[name if part == "digests" else name + "/dynamics"]
    path = determinism.golden_path(name)
    if not path.exists():
        pytest.fail(f"{path} is missing: run DELVE_REGEN_GOLDEN=1 pytest tests/test_determinism.py")
    record = json.loads(path.read_text())
    assert record["policy"] == determinism.POLICY_VERSION and record["steps"] == STEPS
    return record[part]


def against_golden(name: str, digests: dict[str, str]) -> list[str]:
    """Seeds whose digests differ from the committed ones. The golden tests play all 20 seeds;
    the checks of the same games elsewhere (processes, renders, batches) play a few of them."""
    committed = golden(name)
    assert digests and set(digests) <= set(committed), sorted(digests)
    return determinism.mismatches(digests, {seed: committed[seed] for seed in digests})


def run_subprocess(args: list[str], **env) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "delve_env.tools.soak", "digest", *args]
    return subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
        cwd=ROOT,
    )


def result(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err[-3000:]
    return json.loads(out.strip().splitlines()[-1])


# --- golden files -------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(determinism.GOLDEN_RUNS))
def test_golden_digests(name):
    """20 seeds x 10^4 steps in the native vector env equal the committed digests: first the
    dynamics alone (rewards, flags, masks, events), then with the observation bytes."""
    env_id, config = determinism.GOLDEN_RUNS[name]
    dynamics: dict[str, str] = {}
    digests = determinism.digest_vector(env_id, SEEDS, STEPS, config=config, dynamics=dynamics)
    path = determinism.golden_path(name)
    if REGEN:
        _computed[name], _computed[name + "/dynamics"] = digests, dynamics
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            json.dumps(determinism.golden_record(name, digests, dynamics), indent=1) + "\n"
        )
        return
    regen = (
        "If a rule changed on purpose, regenerate with DELVE_REGEN_GOLDEN=1 pytest "
        "tests/test_determinism.py and name the rule in the commit message."
    )
    bad = determinism.mismatches(dynamics, golden(name, "dynamics"))
    assert not bad, f"{name}: the game's dynamics changed for seeds {bad}. {regen}"
    bad = against_golden(name, digests)
    assert not bad, f"{name}: only the observation bytes changed, for seeds {bad}. {regen}"
    record = json.loads(path.read_text())
    assert record["combined"] == determinism.combined(digests)
    assert record["dynamics_combined"] == determinism.combined(dynamics)


@pytest.mark.nojit
@pytest.mark.parametrize("name", sorted(determinism.GOLDEN_RUNS))
def test_golden_digests_of_two_seeds_observation_included(name):
    """Seeds 4 and 5 of every golden run, 10^4 steps each, equal the committed digests, the
    observation bytes included. The nojit slice runs it interpreted: the compiled and the
    interpreted engine are one program, field for field."""
    env_id, config = determinism.GOLDEN_RUNS[name]
    digests = determinism.digest_vector(env_id, range(4, 6), STEPS, config=config)
    assert len(digests) == 2 and not against_golden(name, digests)


def test_golden_runs_reach_autoresets():
    """The short golden run covers episode ends: its games end and restart inside the digest."""
    venv = delve_env.make_vec(2, max_steps=500, reward_mode="shaped")
    venv.reset(seed=0)
    ends = 0
    for _ in range(1_100):
        *_, term, trunc, info = venv.step(
            determinism.choose_legal(venv.action_masks(), np.zeros(2))
        )
        ends += int((term | trunc).sum())
    assert ends >= 4


# --- the same games everywhere ---------------------------------------------------------------


def test_fresh_env_and_reset_with_the_same_seed():
    """A fresh `gym.make` env plays seeds 0..4 as the golden run does; the same env, dirty,
    played again in reverse order (reset with the same seeds) plays them identically."""
    env = gym.make("Delve-v0")
    seeds = range(5)
    assert not against_golden(
        "Delve-v0", determinism.digest_single("Delve-v0", seeds, STEPS, env=env)
    )
    again = determinism.digest_single("Delve-v0", reversed(seeds), STEPS, env=env)
    assert not against_golden("Delve-v0", again)


@pytest.mark.parametrize("mode", ["ansi", "rgb_array"])
def test_rendering_changes_nothing(mode):
    """With a render mode and `render()` called every 50 steps the games (seeds 0..2) are
    the same."""
    env = gym.make("Delve-v0", render_mode=mode)
    digests = determinism.digest_single("Delve-v0", range(3), STEPS, env=env, render_every=50)
    assert not against_golden("Delve-v0", digests)


def test_spawned_processes():
    """Two fresh envs, each in its own spawned process (3 seeds each)."""
    ctx = mp.get_context("spawn")
    halves = [range(0, 3), range(3, 6)]
    with ctx.Pool(2) as pool:
        parts = pool.starmap(
            determinism.digest_single,
            [("Delve-v0", h, STEPS, None, None, 0, "direct") for h in halves],
        )
    digests = {k: v for part in parts for k, v in part.items()}
    assert not against_golden("Delve-v0", digests)


@pytest.mark.skipif(sys.platform == "win32", reason="no fork on Windows")
def test_forked_processes_at_batch_size_1():
    """Batch size 1 (one vector env of one slot per seed), in two forked processes."""
    ctx = mp.get_context("fork")
    halves = [range(0, 3), range(3, 6)]
    with ctx.Pool(2) as pool:
        parts = pool.starmap(determinism.digest_vector, [("Delve-v0", h, STEPS, 1) for h in halves])
    digests = {k: v for part in parts for k, v in part.items()}
    assert not against_golden("Delve-v0", digests)


@pytest.mark.parametrize("batch, seeds", [(4, range(8)), (16, range(16)), (64, SEEDS)])
def test_batch_sizes(batch, seeds):
    """Slot i of a batch of N plays seed b + i exactly as it plays alone (slots of the batch of
    64 beyond seed 19 are played but not compared)."""
    assert not against_golden(
        "Delve-v0", determinism.digest_vector("Delve-v0", seeds, STEPS, batch)
    )


def test_separate_processes_with_different_hash_seeds():
    """Fresh interpreters with PYTHONHASHSEED 0 and 4242 give the golden digests (seeds 0..5);
    the same subprocess with one planted change (negative control) differs on that seed alone."""
    args = ["--id", "Delve-v0", "--seeds", "0:6", "--steps", str(STEPS)]
    procs = [run_subprocess(args, PYTHONHASHSEED=h) for h in ("0", "4242")]
    planted = run_subprocess([*args, "--perturb", "5:3000"], PYTHONHASHSEED="7")
    for proc, hashseed in zip(procs, ("0", "4242")):
        got = result(proc)
        assert got["hashseed"] == hashseed
        assert not against_golden("Delve-v0", got["digests"])
    assert against_golden("Delve-v0", result(planted)["digests"]) == ["5"]


def test_sb3_adapter_same_games():
    """The SB3 VecEnv (same-step autoreset) plays the vector env's games: compared without the
    event bits and the mask of an episode's last step, which SB3 cannot report. Run on games
    of 500 steps, so that every seed ends and restarts about 20 times."""
    pytest.importorskip("stable_baselines3")
    env_id, config = determinism.GOLDEN_RUNS[SHORT]
    sb3 = determinism.digest_sb3(env_id, range(6), STEPS, config=config)
    vector = determinism.digest_vector(env_id, range(6), STEPS, config=config, lite=True)
    assert not determinism.mismatches(sb3, vector)


@pytest.mark.parametrize("env_id", sorted(delve_env.IDS))
def test_pure_python_engine_matches_compiled(env_id):
    """NUMBA_DISABLE_JIT=1 (a subprocess) gives the compiled engine's digests, observation
    bytes included, for every id: 2 seeds x 400 steps, vector and single env. (The nojit slice
    compares the interpreted engine with the golden digests: tests marked nojit.)"""
    args = ["--id", env_id, "--seeds", "0:2", "--steps", "400"]
    vec = run_subprocess([*args, "--runner", "vector"], NUMBA_DISABLE_JIT="1")
    single = run_subprocess([*args, "--runner", "single"], NUMBA_DISABLE_JIT="1")
    compiled = determinism.digest_vector(env_id, range(2), 400)
    for proc in (vec, single):
        got = result(proc)
        assert got["jit_disabled"] == "1"
        assert not determinism.mismatches(got["digests"], compiled)


# --- negative controls: each check catches a planted defect ----------------------------------


def test_negative_control_state_mutated_mid_run():
    """Five gold added to seed 3's game at step 1000 change seed 3's digest alone."""
    ref = determinism.digest_vector("Delve-v0", range(6), 2_000)

    def hook(venv, call):
        if call == 1_000:
            venv.engine.state.gold[3] += 5

    assert determinism.mismatches(
        determinism.digest_vector("Delve-v0", range(6), 2_000, hook=hook), ref
    ) == ["3"]


def test_negative_control_rule_change_breaks_golden():
    """A planted rule change (meals every 60 paces instead of 120) is caught by the golden
    comparison."""

    def hook(venv, call):
        venv.engine.params[P_MEAL_PACES] = 60

    digests = determinism.digest_vector("Delve-v0", range(5), STEPS, hook=hook)
    assert len(against_golden("Delve-v0", digests)) >= 4


def test_negative_control_slots_sharing_state():
    """A planted leak between slots (slot 1 gets slot 0's RNG each step) makes batch 4
    differ from batch 1."""
    ref = determinism.digest_vector("Delve-v0", range(4), 1_500, batch=1)

    def leak(venv, call):
        venv.engine.state.rng[1] = venv.engine.state.rng[0]

    got = determinism.digest_vector("Delve-v0", range(4), 1_500, batch=4, hook=leak)
    assert "1" in determinism.mismatches(got, ref)


def test_negative_control_render_with_side_effect(monkeypatch):
    """A render that touched the game would be caught by the rendering check."""
    ref = determinism.digest_single("Delve-v0", range(2), 1_000)
    render_text = DelveEnv.render_text

    def meddling(self):
        self.engine.state.gold[0] += 5
        return render_text(self)

    monkeypatch.setattr(DelveEnv, "render_text", meddling)
    env = gym.make("Delve-v0", render_mode="ansi")
    got = determinism.digest_single("Delve-v0", range(2), 1_000, env=env, render_every=50)
    assert determinism.mismatches(got, ref) == ["0", "1"]


def test_negative_control_every_record_part_counts():
    """Each part of a step record changes the digest: an observation byte, the reward,
    terminated, truncated, one mask bit, the events."""
    env = DelveEnv()
    obs, info = env.reset(seed=0)
    base = (obs, 0.0, False, False, info["action_mask"], 0)
    ref = determinism.record_bytes(*base)
    flipped_obs = {k: v.copy() for k, v in obs.items()}
    flipped_obs["pack"].flat[7] ^= 1
    mask = info["action_mask"].copy()
    mask[-1] = ~mask[-1]
    variants = [
        (flipped_obs, *base[1:]),
        (obs, 1e-9, False, False, base[4], 0),
        (obs, 0.0, True, False, base[4], 0),
        (obs, 0.0, False, True, base[4], 0),
        (*base[:4], mask, 0),
        (*base[:5], 1 << 17),
    ]
    records = {determinism.record_bytes(*v) for v in variants}
    assert ref not in records and len(records) == len(variants)


def test_negative_control_policy_depends_on_seed_and_count():
    """The digest policy is not constant: it depends on the game and the action count."""
    mask = np.ones((1, delve_env.NUM_ACTIONS), bool)
    picks = {
        int(determinism.choose_legal(mask, determinism.noise(np.array([s]), np.array([k])))[0])
        for s in range(5)
        for k in range(5)
    }
    assert len(picks) > 15
    assert determinism.noise_int(3, 7) == int(determinism.noise(np.array([3]), np.array([7]))[0])
