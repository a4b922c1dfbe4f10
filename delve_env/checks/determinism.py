"""Determinism digests: one sha256 per seed over a game's records, and the golden runs.

## The determinism digest
One sha256 per seed over the records of its first `steps` steps: the observation bytes (keys in
a fixed order), the reward as float64, terminated, truncated, the action mask and the event bits.
A reset (the first one, and each autoreset) counts as a record: obs, reward 0, False, False,
mask, events. Actions come from a stateless hash of (seed, number of actions the game has taken)
that picks one of the legal actions, so the same game gets the same actions under every runner
(single env, any batch size, the SB3 adapter).

The committed digests (tests/golden/*.json, `GOLDEN_RUNS`) are what tests/test_determinism.py
compares every runner with; `delve soak digest` prints one run's digests as JSON.
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import Callable, Iterable
from pathlib import Path

import numpy as np

import delve_env
from delve_env.engine.core.actions import NUM_ACTIONS
from delve_env.engine.outputs.layout import KEYS

ROOT = Path(__file__).resolve().parents[2]  # the checkout (its tests/golden: the committed runs)
GOLDEN_DIR = ROOT / "tests" / "golden"
PRESETS: dict[str, dict] = {k: dict(v) for k, v in delve_env.IDS.items()}
OBS_KEYS = tuple(k.name for k in KEYS)  # the fixed order of observation keys in a digest record
POLICY_VERSION = "splitmix64-legal-v1"  # change it if the digest policy below ever changes

# ------------------------------------------------------------------------------------------
# A stateless policy: the k-th action of seed s is a hash of (s, k)
# ------------------------------------------------------------------------------------------
_M64 = (1 << 64) - 1
_GOLD = 0x9E3779B97F4A7C15
_C1, _C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser on a uint64 array (wrapping arithmetic)."""
    x = np.asarray(x, dtype=np.uint64)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(_C1)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(_C2)
    return x ^ (x >> np.uint64(31))


def mix64_int(x: int) -> int:
    """`mix64` on one Python int (the single-env runners use it: no numpy call per step)."""
    x &= _M64
    x = ((x ^ (x >> 30)) * _C1) & _M64
    x = ((x ^ (x >> 27)) * _C2) & _M64
    return x ^ (x >> 31)


def noise(seeds: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The policy's random word for game `seeds[i]` taking its `counts[i]`-th action."""
    s = np.asarray(seeds, dtype=np.uint64)
    k = np.asarray(counts, dtype=np.uint64)
    return mix64(mix64(s * np.uint64(_GOLD) + np.uint64(1)) ^ k)


def noise_int(seed: int, count: int) -> int:
    return mix64_int(mix64_int((seed * _GOLD + 1) & _M64) ^ count)


def choose_legal(masks: np.ndarray, words: np.ndarray) -> np.ndarray:
    """Per row, the (word % legal count)-th legal action (rows of an (N, A) mask)."""
    counts = masks.sum(axis=1)
    if not counts.all():
        raise AssertionError(f"empty action mask in slots {np.flatnonzero(counts == 0)}")
    idx = (np.asarray(words, dtype=np.uint64) % counts.astype(np.uint64)).astype(np.int64)
    return np.argmax(np.cumsum(masks, axis=1) > idx[:, None], axis=1).astype(np.int64)


def choose_legal_one(mask: np.ndarray, word: int) -> int:
    legal = np.flatnonzero(mask)
    if len(legal) == 0:
        raise AssertionError("empty action mask")
    return int(legal[word % len(legal)])


# ------------------------------------------------------------------------------------------
# Determinism digests
# ------------------------------------------------------------------------------------------
_PACK = struct.Struct("<d??")


def record_bytes(obs: dict, reward, term, trunc, mask, events, keys=OBS_KEYS) -> bytes:
    """The bytes of one step's record (None for mask or events leaves them out, with a marker;
    `keys=()` leaves out the observation: the dynamics alone)."""
    parts = [np.ascontiguousarray(obs[k]).tobytes() for k in keys]
    parts.append(_PACK.pack(float(reward), bool(term), bool(trunc)))
    parts.append(b"-" if mask is None else np.ascontiguousarray(mask, dtype=np.bool_).tobytes())
    parts.append(b"-" if events is None else struct.pack("<q", int(events)))
    return b"".join(parts)


class Streams:
    """One running sha256 per seed over its first `length` records."""

    def __init__(self, seeds: Iterable[int], length: int):
        self.length = length
        self.h = {int(s): hashlib.sha256() for s in seeds}
        self.n = dict.fromkeys(self.h, 0)

    def wants(self, seed: int) -> bool:
        return seed in self.n and self.n[seed] < self.length

    def add(self, seed: int, data: bytes) -> None:
        if self.wants(seed):
            self.h[seed].update(data)
            self.n[seed] += 1

    @property
    def complete(self) -> bool:
        return all(n >= self.length for n in self.n.values())

    def digests(self) -> dict[str, str]:
        if not self.complete:
            short = {s: n for s, n in self.n.items() if n < self.length}
            raise AssertionError(f"streams not complete: {short}")
        return {str(s): h.hexdigest() for s, h in self.h.items()}


def combined(digests: dict[str, str]) -> str:
    return hashlib.sha256(
        "".join(digests[k] for k in sorted(digests, key=int)).encode()
    ).hexdigest()


def digest_vector(
    env_id: str = "Delve-v0",
    seeds: range = range(20),
    steps: int = 10_000,
    batch: int | None = None,
    config: dict | None = None,
    lite: bool = False,
    hook: Callable | None = None,
    dynamics: dict | None = None,
) -> dict[str, str]:
    """Digests from the native vector env: seeds are played `batch` at a time (slot i of
    `reset(seed=b)` plays seed b + i), with next-step autoreset (a reset is one record).

    lite=True leaves out the event bits, and the mask of an episode's last record (what the SB3
    adapter cannot report). `hook(venv, call)` runs after each call (negative controls). A
    `dynamics` dict is filled with digests of the same records without the observation
    (rewards, flags, masks, events), so a change of layout alone can be told from a change of
    the game."""
    seeds = range(seeds.start, seeds.stop) if isinstance(seeds, range) else seeds
    batch = batch or len(seeds)
    cfg = {**PRESETS[env_id], **(config or {})}
    streams = Streams(seeds, steps)
    bare = Streams(seeds, steps) if dynamics is not None else None

    def add(seed: int, *record) -> None:
        streams.add(seed, record_bytes(*record))
        if bare is not None:
            bare.add(seed, record_bytes(*record, keys=()))

    venv = delve_env.make_vec(batch, **cfg)
    for b0 in range(seeds.start, seeds.stop, batch):
        slot_seeds = np.arange(b0, b0 + batch, dtype=np.uint64)
        live = [i for i in range(batch) if streams.wants(b0 + i)]
        obs, info = venv.reset(seed=b0)
        mask, events = info["action_mask"], venv.engine.state.events
        for i in live:
            o = {k: v[i] for k, v in obs.items()}
            add(b0 + i, o, 0.0, False, False, mask[i], None if lite else events[i])
        counts = np.zeros(batch, dtype=np.uint64)
        done = np.zeros(batch, bool)
        for call in range(steps - 1):
            actions = choose_legal(mask, noise(slot_seeds, counts))
            obs, rew, term, trunc, info = venv.step(actions)
            if hook is not None:
                hook(venv, call)
            counts += (~done).astype(np.uint64)
            mask, events = info["action_mask"], venv.engine.state.events
            ended = term | trunc
            for i in live:
                o = {k: v[i] for k, v in obs.items()}
                last = lite and ended[i]
                add(b0 + i, o, rew[i], term[i], trunc[i], None if last else mask[i],
                    None if lite else events[i])  # fmt: skip
            done = ended
    venv.close()
    if bare is not None:
        dynamics.update(bare.digests())
    return streams.digests()


def digest_single(
    env_id: str = "Delve-v0",
    seeds: Iterable[int] = range(20),
    steps: int = 10_000,
    config: dict | None = None,
    env=None,
    render_every: int = 0,
    make: str = "gym",
) -> dict[str, str]:
    """Digests from one env through the Gymnasium API, seeds played one after another in the
    given order (`env` reused if given: a reset with the same seed must replay the game). An
    ended game is followed by `reset()` without a seed, as the vector env's autoreset does.
    render_every=k calls `env.render()` every k steps (rendering must change nothing)."""
    import gymnasium as gym

    cfg = {**PRESETS[env_id], **(config or {})}
    if env is None:
        env = gym.make(env_id, **(config or {})) if make == "gym" else delve_env.DelveEnv(**cfg)
    seeds = list(seeds)
    streams = Streams(seeds, steps)
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        streams.add(seed, record_bytes(obs, 0.0, False, False, info["action_mask"], info["events"]))
        k, done = 0, False
        for t in range(steps - 1):
            if done:
                obs, info = env.reset()
                rew, term, trunc, done = 0.0, False, False, False
            else:
                a = choose_legal_one(info["action_mask"], noise_int(seed, k))
                k += 1
                obs, rew, term, trunc, info = env.step(a)
                done = term or trunc
            if render_every and t % render_every == 0:
                env.render()
            streams.add(
                seed, record_bytes(obs, rew, term, trunc, info["action_mask"], info["events"])
            )
    return streams.digests()


def digest_sb3(
    env_id: str = "Delve-v0",
    seeds: range = range(20),
    steps: int = 10_000,
    config: dict | None = None,
) -> dict[str, str]:
    """Lite digests (see `digest_vector`) from the SB3 VecEnv adapter (same-step autoreset:
    an episode's end gives two records, its last step from `terminal_observation` and the
    first observation of the next game)."""
    from delve_env.sb3 import DelveSB3VecEnv

    cfg = {**PRESETS[env_id], **(config or {})}
    n = len(seeds)
    venv = DelveSB3VecEnv(n, seed=seeds.start, float_obs=False, **cfg)
    streams = Streams(seeds, steps)
    slot_seeds = np.arange(seeds.start, seeds.stop, dtype=np.uint64)
    obs = venv.reset()
    mask = venv.action_masks()
    for i in range(n):
        streams.add(
            seeds.start + i,
            record_bytes({k: v[i] for k, v in obs.items()}, 0.0, False, False, mask[i], None),
        )
    counts = np.zeros(n, dtype=np.uint64)
    while not streams.complete:
        actions = choose_legal(mask, noise(slot_seeds, counts))
        obs, rew, dones, infos = venv.step(actions)
        counts += np.uint64(1)
        mask = venv.action_masks()
        for i in range(n):
            s = seeds.start + i
            if dones[i]:
                trunc = bool(infos[i].get("TimeLimit.truncated", False))
                streams.add(
                    s,
                    record_bytes(
                        infos[i]["terminal_observation"], rew[i], not trunc, trunc, None, None
                    ),
                )
                streams.add(
                    s,
                    record_bytes(
                        {k: v[i] for k, v in obs.items()}, 0.0, False, False, mask[i], None
                    ),
                )
            else:
                streams.add(
                    s,
                    record_bytes(
                        {k: v[i] for k, v in obs.items()}, rew[i], False, False, mask[i], None
                    ),
                )
    venv.close()
    return streams.digests()


def mismatches(got: dict[str, str], want: dict[str, str]) -> list[str]:
    """Seeds whose digests differ (or are missing on either side)."""
    keys = sorted(set(got) | set(want), key=int)
    return [k for k in keys if got.get(k) != want.get(k)]


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


# The golden runs: name -> (env id, config overrides). "short" games (max_steps 500) cover
# truncation and autoreset inside the digests.
GOLDEN_RUNS = {
    "Delve-v0": ("Delve-v0", {}),
    "Delve-Easy-v0": ("Delve-Easy-v0", {}),
    "Delve-Hard-v0": ("Delve-Hard-v0", {}),
    "Delve-v0-short-shaped": ("Delve-v0", {"max_steps": 500, "reward_mode": "shaped"}),
}
GOLDEN_SEEDS = range(20)
GOLDEN_STEPS = 10_000


def golden_record(name: str, digests: dict[str, str], dynamics: dict[str, str]) -> dict:
    """A golden file: the digests with the observation and, apart, those of the dynamics."""
    env_id, config = GOLDEN_RUNS[name]
    return {
        "name": name,
        "id": env_id,
        "config": config,
        "seeds": [GOLDEN_SEEDS.start, GOLDEN_SEEDS.stop],
        "steps": GOLDEN_STEPS,
        "policy": POLICY_VERSION,
        "num_actions": NUM_ACTIONS,
        "combined": combined(digests),
        "digests": digests,
        "dynamics_combined": combined(dynamics),
        "dynamics": dynamics,
        "regenerate": "DELVE_REGEN_GOLDEN=1 pytest tests/test_determinism.py "
        "(and say in the commit message which rule changed)",
    }
