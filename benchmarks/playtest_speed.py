"""Playtest speed: what a sweep's players cost, as a table.

    python benchmarks/playtest_speed.py                 # the players' rows
    python benchmarks/playtest_speed.py --sweep         # + the three-value sweep, timed whole
    python benchmarks/playtest_speed.py --games 20      # fewer games a scripted row

Rows: the scripted expert and the fog expert, seconds a game of easy and of normal (one
process, `--games` seeds from 1000, each game as a playtest's worker plays it); the shipped
policy's 500 games of normal in one batch (`delve_env.policy.play`, seeds 1000-1499: a
learned player's share of a playtest). `--sweep` times `delve playtest --presets easy --sweep
band_size=2,4,6 --policy scripted --policy fog --policy random --policy trained --seeds 500`
as a user runs it (a subprocess, all cores), with its stages from playtest.json.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SWEEP = ["playtest", "--presets", "easy", "--sweep", "band_size=2,4,6", "--policy", "scripted",
         "--policy", "fog", "--policy", "random", "--policy", "trained", "--seeds", "500",
         "--html-games", "0", "--no-progress"]  # fmt: skip


def solo_seconds(preset: str, spec: str, games: int) -> float:
    from delve_env.tools.playtest.players import play_run

    play_run((preset, {"difficulty": preset}, spec, 999))  # the engine and the agent loaded
    started = time.perf_counter()
    for seed in range(1000, 1000 + games):
        play_run((preset, {"difficulty": preset}, spec, seed))
    return (time.perf_counter() - started) / games


def learned_seconds(preset: str = "normal", games: int = 500) -> float:
    from delve_env.policy import PolicyNet, play, shipped_path

    policy = PolicyNet.load(shipped_path(preset))
    play(policy, {"difficulty": preset}, range(1000, 1010))
    started = time.perf_counter()
    play(policy, {"difficulty": preset}, range(1000, 1000 + games))
    return time.perf_counter() - started


def sweep() -> tuple[float, dict]:
    with tempfile.TemporaryDirectory() as out:
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "delve_env.tools.cli", *SWEEP, "--out", out],
                       check=True, stdout=subprocess.DEVNULL)  # fmt: skip
        wall = time.perf_counter() - started
        return wall, json.loads((Path(out) / "playtest.json").read_text())["seconds"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games a scripted row (default 60)")
    parser.add_argument("--sweep", action="store_true", help="also time the three-value sweep")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    print(f"{platform.processor() or platform.machine()}, Python {platform.python_version()}")
    print("| player | what | seconds |\n|---|---|---:|")
    for spec in ("scripted", "fog"):
        for preset in ("easy", "normal"):
            s = solo_seconds(preset, spec, args.games)
            print(f"| {spec} | a game of {preset} ({args.games} games) | {s:.3f} |", flush=True)
    print(f"| trained | 500 games of normal, one batch | {learned_seconds():.1f} |", flush=True)
    if args.sweep:
        wall, stages = sweep()
        parts = ", ".join(f"{k} {v:.0f} s" for k, v in stages.items() if k != "all")
        print(f"| the sweep | delve {' '.join(SWEEP)} ({parts}) | {wall:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
