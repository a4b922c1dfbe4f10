"""Replays: a game written down as its config, seed and actions, with a hash of the whole
state after every step, so that it can be re-simulated anywhere and checked step by step
(`delve record`, `delve replay`).

A replay file is JSON: {"format": "delve-replay", "version": 1, "config": {...}, "seed": S,
"actions": [...], "hashes": [...]}. Replaying re-runs the actions from the seed and stops at
the first step whose state hash differs from the one written: a changed engine, a tampered
file or a platform difference shows up at the exact step it begins.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

FORMAT, VERSION = "delve-replay", 1


def state_hash(env) -> str:
    """A 16-byte BLAKE2 digest of every state array of the env's game (hex)."""
    h = hashlib.blake2b(digest_size=16)
    for name, array in zip(env.unwrapped.engine.state._fields, env.unwrapped.engine.state):
        h.update(name.encode())
        h.update(np.ascontiguousarray(array[0]).tobytes())
    return h.hexdigest()


def record(config: dict, seed: int, policy: Callable, max_steps: int | None = None) -> dict:
    """Play one episode from `seed` with `policy(env, info) -> action` (at most `max_steps`
    steps) and return the replay."""
    from ..env import DelveEnv

    env = DelveEnv(**config)
    _, info = env.reset(seed=seed)
    actions, hashes = [], [state_hash(env)]
    done = False
    while not done and (max_steps is None or len(actions) < max_steps):
        action = int(policy(env, info))
        _, _, terminated, truncated, info = env.step(action)
        actions.append(action)
        hashes.append(state_hash(env))
        done = terminated or truncated
    return {"format": FORMAT, "version": VERSION, "config": env.config.snapshot_dict(),
            "seed": int(seed), "actions": actions, "hashes": hashes}  # fmt: skip


def save(replay: dict, path: str | Path) -> None:
    from .files import write_whole

    write_whole(path, json.dumps(replay) + "\n")


def load(path: str | Path) -> dict:
    """Read a replay file; a file that is not one raises ValueError saying what is wrong."""
    try:
        data = json.loads(Path(path).read_text())
    except json.JSONDecodeError as err:
        raise ValueError(f"{path}: not a replay file (not JSON: {err})") from err
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a replay file (no 'format': {FORMAT!r})")
    if data.get("version") != VERSION:
        raise ValueError(
            f"{path}: replay version {data.get('version')!r}; this Delve reads {VERSION}"
        )
    for key, kind in (("config", dict), ("seed", int), ("actions", list), ("hashes", list)):
        if not isinstance(data.get(key), kind):
            raise ValueError(f"{path}: replay key {key!r} must be a {kind.__name__}")
    if len(data["hashes"]) != len(data["actions"]) + 1:
        raise ValueError(f"{path}: a replay has one hash per step and one for the start")
    return data


@dataclass
class Verdict:
    """How a replay went: `steps` matched; `bad_step` is the first that did not (0 = the
    start, k = after the k-th action), or None if all did."""

    steps: int
    bad_step: int | None = None
    expected: str = ""
    got: str = ""

    @property
    def ok(self) -> bool:
        return self.bad_step is None

    def __str__(self) -> str:
        if self.ok:
            return f"replay ok: {self.steps} steps, every state hash matches"
        where = "the start" if self.bad_step == 0 else f"step {self.bad_step}"
        return (f"replay FAILED at {where}: state hash {self.got} where the replay has "
                f"{self.expected} ({self.steps} steps matched before it)")  # fmt: skip


def replay(data: dict, on_step: Callable | None = None) -> Verdict:
    """Re-simulate a replay and check every state hash; `on_step(env, k, action)` sees each
    step (k from 1) as it is taken."""
    from ..env import DelveEnv

    config = {k: v for k, v in data["config"].items()}
    config["party"] = tuple(config["party"])
    env = DelveEnv(**config)
    env.reset(seed=data["seed"])
    hashes = data["hashes"]
    got = state_hash(env)
    if got != hashes[0]:
        return Verdict(0, 0, hashes[0], got)
    for k, action in enumerate(data["actions"], start=1):
        if not env._running:
            return Verdict(k - 1, k, hashes[k], "(the episode had already ended)")
        env.step(action)
        if on_step is not None:
            on_step(env, k, action)
        got = state_hash(env)
        if got != hashes[k]:
            return Verdict(k - 1, k, hashes[k], got)
    return Verdict(len(data["actions"]))
