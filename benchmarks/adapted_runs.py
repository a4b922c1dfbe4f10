"""How far apart adapted players' training runs land, measured on the game.

    python benchmarks/adapted_runs.py null --steps 500000     # null variants, pairwise
    python benchmarks/adapted_runs.py warm                    # a warm start against cold runs

`null`: normal adapted nine times (training seeds 0-8, `--steps` each, from the shipped
policy), every run played on seeds 1000-1499, as three players of three runs each (seeds 0-2,
3-5, 6-8); each pair of players compared as a playtest compares adapted players (the
difference of their mean rates, Student's t on the runs' pooled spread: stats.runs_difference).
Every pair is a null comparison: the same rules, other training seeds.

`warm`: band size 4 of normal adapted cold (from the shipped policy, 1,000,000 steps, training
seeds 0 and 1) against the warm start `delve tune` made for it in docs/PLAYTEST.md's worked
example (500,000 steps from band size 6's adapted policy; its games read from
`runs/tune-bands-normal/tune.json`), every player on seeds 1000-1199.

Runs are kept under runs/adapted-runs/ and found again when asked again.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from pathlib import Path

ROOT = Path("runs/adapted-runs")


def rate_of(preset, folder: Path, seeds: range) -> float:
    from delve_env.tools.playtest import play_all
    from delve_env.tools.playtest.players import Player

    player = Player("adapted", f"sampled:{folder / 'model.zip'}")
    runs = play_all([preset], [player], seeds, 2, False)
    return sum(r["won"] for r in runs) / len(runs)


def adapt(preset, steps: int, seed: int, init=None) -> tuple[Path, float]:
    from training.adapt import adapted

    started = time.perf_counter()
    folder = adapted(preset.slug(), preset.config, steps, ROOT, seed=seed, init=init)
    return folder, time.perf_counter() - started


def null(steps: int) -> None:
    from delve_env.stats import runs_difference
    from delve_env.tools.playtest.variants import Preset

    preset = Preset("normal", {"difficulty": "normal"}).validated()
    rates = {}
    print("| training seed | seconds adapting | win % (seeds 1000-1499) |\n|---:|---:|---:|")
    for seed in range(9):
        folder, took = adapt(preset, steps, seed)
        rates[seed] = rate_of(preset, folder, range(1000, 1500))
        print(f"| {seed} | {took:.0f} | {100 * rates[seed]:.1f} |", flush=True)
    print("\n| runs | against | difference | 95% interval (t over runs) | p | starred |")
    print("|---|---|---:|---|---:|---|")
    for a, b in itertools.combinations([(0, 1, 2), (3, 4, 5), (6, 7, 8)], 2):
        d = runs_difference([rates[i] for i in a], [rates[i] for i in b])
        low, high = d["interval"]
        print(f"| {a} | {b} | {100 * d['difference']:+.1f} | {100 * low:+.1f} to "
              f"{100 * high:+.1f} | {d['p']:.2f} | {'yes' if d['real'] else 'no'} |")  # fmt: skip


def warm() -> None:
    from delve_env.tools.playtest.variants import Preset

    preset = Preset("normal band_size=4", {"difficulty": "normal", "band_size": 4}).validated()
    tuned = json.loads(Path("runs/tune-bands-normal/tune.json").read_text())["runs"]
    games = [r for r in tuned if r["value"] == 4]
    print("| adaptation | steps | win % (seeds 1000-1199) |\n|---|---:|---:|")
    print(f"| warm, from band size 6's (delve tune) | 500,000 | "
          f"{100 * sum(r['won'] for r in games) / len(games):.1f} |")  # fmt: skip
    for seed in (0, 1):
        folder, _ = adapt(preset, 1_000_000, seed)
        print(f"| cold, training seed {seed} | 1,000,000 | "
              f"{100 * rate_of(preset, folder, range(1000, 1200)):.1f} |", flush=True)  # fmt: skip


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("what", choices=("null", "warm"))
    parser.add_argument("--steps", type=int, default=500_000, help="null: steps a run")
    args = parser.parse_args(argv)
    if args.steps < 1:
        parser.error(f"--steps must be positive, got {args.steps}")
    null(args.steps) if args.what == "null" else warm()
    return 0


if __name__ == "__main__":
    sys.exit(main())
