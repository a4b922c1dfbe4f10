"""The party views and the datasets, measured: game steps a second of PettingZoo's Parallel
and AEC views of each id beside the single env's (random legal actions of the acting agent),
and what a Minari dataset of the scripted expert costs (seconds, bytes a step).

    python benchmarks/multiagent.py                    # every id, 5 s a row; 100 expert games
    python benchmarks/multiagent.py --seconds 1 --games 10
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np


def single_rate(config: dict, seconds: float) -> float:
    from delve_env import DelveEnv

    env, rng, steps = DelveEnv(**config), np.random.default_rng(0), 0
    _, info = env.reset(seed=0)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        steps += 1
        if term or trunc:
            _, info = env.reset()
    return steps / (time.perf_counter() - start)


def parallel_rate(config: dict, seconds: float) -> float:
    from delve_env.pettingzoo import parallel_env

    env, rng, steps = parallel_env(**config), np.random.default_rng(0), 0
    obs, _ = env.reset(seed=0)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        acting = env.acting()
        action = int(rng.choice(np.flatnonzero(obs[acting]["action_mask"])))
        obs, *_ = env.step({a: action if a == acting else 0 for a in env.agents})
        steps += 1
        if not env.agents:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def aec_rate(config: dict, seconds: float) -> float:
    """Game steps a second through the AEC view (each step a turn of every agent in play)."""
    from delve_env.pettingzoo import env as aec_env

    env, rng, turns, steps = aec_env(**config), np.random.default_rng(0), 0, 0
    env.reset(seed=0)
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
        else:
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(rng.choice(legal)) if len(legal) else 0)
        turns += 1
        if env.agents and env.agent_selection == env.agents[0]:
            steps += 1
        if not env.agents:
            env.reset()
    return steps / (time.perf_counter() - start)


def dataset_cost(games: int) -> tuple[float, int, int]:
    """(seconds, steps, bytes on disk) of a Minari dataset of `games` expert games of easy."""
    with tempfile.TemporaryDirectory() as where:
        os.environ["MINARI_DATASETS_PATH"] = where
        from delve_env.tools.dataset import write

        start = time.perf_counter()
        data = write("delve/easy-scripted-v0", "scripted", "easy", games, progress=False)
        seconds = time.perf_counter() - start
        size = sum(p.stat().st_size for p in Path(where).rglob("*") if p.is_file())
        return seconds, data.total_steps, size


def main() -> None:
    import gymnasium as gym

    from delve_env import IDS

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="a row (5)")
    parser.add_argument("--games", type=int, default=100, help="expert games of easy (100)")
    args = parser.parse_args()
    print("| id (random legal actions) | single env | PettingZoo Parallel | PettingZoo AEC |")
    print("|---|---:|---:|---:|")
    for env_id in IDS:
        config = dict(gym.spec(env_id).kwargs)
        for fn in (single_rate, parallel_rate, aec_rate):
            fn(config, 0.5)  # the engine loaded, the first frames off the clock
        rates = [fn(config, args.seconds) for fn in (single_rate, parallel_rate, aec_rate)]
        print(f"| `{env_id}` | " + " | ".join(f"{r:,.0f}" for r in rates) + " |")
    seconds, steps, size = dataset_cost(args.games)
    print(f"\nMinari dataset, {args.games} scripted games of easy: {seconds:.1f} s, "
          f"{steps:,} steps, {size / steps:,.0f} bytes a step ({size / 2**20:.1f} MiB)")  # fmt: skip


if __name__ == "__main__":
    main()
