"""Playtesting difficulty and design changes (`delve playtest`, `quality/playtest.py`).

Players of several skill levels play many seeds of each preset, and of each variant a
designer asks about; the report says how often and where and why runs are won and lost, and
whether each variant changes that against its base (the same seeds, paired). The modules:

- variants.py: the presets, overrides, sweeps and named variants, as a plan of what to play;
- players.py: who plays (from the scripted expert to a novice) and playing them;
- report.py: the rows, the paired comparisons (across training runs for an adapted
  player), the hazard per floor, DIFF-1, the markdown, JSON and PNG;
- html.py: playtest.html, the report and its games to look at in a browser;
- search.py and tune.py: `delve tune`, the value of a rule number that gives a target rate;
- training/adapt.py: the shipped policy adapted to a variant (`--adapt`).

With `--out`, every finished (preset, player) is kept under OUT/runs/ and every adapted policy
under OUT/adapted/, each with the key it was made from, so a playtest interrupted and asked
again goes on from what it wrote, and the same variant asked again reuses its adapted policy.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing as mp
import sys
import time
from pathlib import Path

from ...engine.core.params import DIFFICULTIES
from ..files import writable_folder, write_whole
from .players import (
    POLICIES,
    Player,
    lineup,
    play_policy,
    play_run,
    play_sb3,
    play_solo,
    run_record,
    uniform,
)
from .report import COLUMNS, report, summarize
from .variants import (
    MAX_VARIANTS,
    Preset,
    load_preset,
    parse_overrides,
    parse_sweep,
    parse_variant,
    plan,
    slug,
    standard_presets,
)

__all__ = ["COLUMNS", "POLICIES", "MAX_VARIANTS", "Player", "Preset", "load_preset",
           "parse_overrides", "play_all", "play_run", "lineup", "plan", "report",
           "run_record", "standard_presets", "summarize"]  # fmt: skip
DEFAULT_OUT = Path("runs/playtest")
RECORD = 2  # what a kept run holds (2: its achievements): runs kept before are played again  # where --adapt keeps its policies when --out is not given


def add_arguments(parser) -> None:
    parser.add_argument("--presets", nargs="+", default=list(DIFFICULTIES), choices=DIFFICULTIES,
                        help="the base presets (default all three)")  # fmt: skip
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a config override for every preset (e.g. guard_chance=0.9)")  # fmt: skip
    parser.add_argument("--depth", type=int, default=None, help="floors (default: each preset's)")
    parser.add_argument("--sweep", action="append", default=[], metavar="KEY=V1,V2,...",
                        help="one rule number across values, each a variant of every base "
                             "preset (its own value is the base); repeatable for a grid of at "
                             f"most {MAX_VARIANTS} points a base")  # fmt: skip
    parser.add_argument("--variant", action="append", default=[], metavar="NAME:KEY=V,KEY=V",
                        help="a named variant of every base preset; repeatable")  # fmt: skip
    parser.add_argument("--preset-file", action="append", default=[], metavar="FILE.json",
                        help="a variant from a JSON object with 'name' and config keys, "
                             "compared with the preset of its difficulty; repeatable")  # fmt: skip
    parser.add_argument("--policy", action="append", default=None,
                        help=f"{POLICIES} (default scripted); repeatable".replace("%", "%%"))  # fmt: skip
    parser.add_argument("--adapt", type=int, nargs="?", const=-1, default=None, metavar="STEPS",
                        help="also play the shipped policy trained on for STEPS steps on each "
                             "preset's own config (default 1,000,000), kept under "
                             "OUT/adapted/ and reused")  # fmt: skip
    parser.add_argument("--adapt-runs", type=int, default=3, metavar="R",
                        help="training runs of each adapted player (training seeds 0..R-1, "
                             "each on every seed): the adapted player is their mean, compared "
                             "across runs so a run's luck is not starred (default 3)")  # fmt: skip
    parser.add_argument("--attempts", type=int, default=1, metavar="K",
                        help="learned players play each seed K times on independent sampling "
                             "streams: the mean rate and the best of K (default 1)")  # fmt: skip
    parser.add_argument("--seeds", type=int, default=500, help="runs per preset and policy")
    parser.add_argument("--first-seed", type=int, default=1000, help="default 1000")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--out", type=Path, default=None,
                        help="write playtest.md/.json/.png here, keep the finished runs and "
                             f"adapted policies (default for --adapt: {DEFAULT_OUT})")  # fmt: skip
    parser.add_argument("--html-games", type=int, default=2, metavar="K",
                        help="playtest.html holds, of every preset and player, up to K lost "
                             "games and one won, replayable (default 2; 0 for none)")  # fmt: skip
    parser.add_argument("--human", type=Path, default=None, metavar="DIR",
                        help="also the player 'human': the finished games kept in DIR by "
                             "delve serve, each counted for the preset whose game it plays "
                             "(paired with the others on the seeds they share)")  # fmt: skip
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


# --- playing the plan -------------------------------------------------------------------------


class Bar:
    """One progress bar a stage (adaptations, games), or nothing when off."""

    def __init__(self, enabled: bool):
        self.enabled = enabled

    def __enter__(self):
        if self.enabled:
            from rich.progress import Progress

            self.progress = Progress(transient=True)
            self.progress.start()
        return self

    def __exit__(self, *exc):
        if self.enabled:
            self.progress.stop()

    def task(self, description: str, total: int):
        """`advance(n)` for a new bar, or a no-op."""
        if not self.enabled:
            return lambda n=1: None
        task = self.progress.add_task(description, total=total)
        return lambda n=1: self.progress.advance(task, n)


def digest(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def policy_file(preset: Preset, player: Player, adapted: dict, run: int = 0) -> Path | None:
    """The file a learned player plays from on `preset` (None for the others); an adapted
    player's from its training run `run`."""
    from ...policy import rung_path, shipped_path

    if not player.learned:
        return None
    if player.spec == "shipped":
        return shipped_path(preset.difficulty, player.rung)
    if player.adapted:
        folder = adapted[preset.name][run]
        return folder / ("model.zip" if player.rung == 1.0 else rung_path(player.rung))
    return Path(player.spec.split(":", 1)[1])


def keyed(out: Path | None, preset: Preset, player: Player, key: dict, run: int = 0):
    """(the kept runs of this key, or None; where they are kept)."""
    if out is None:
        return None, None
    name = slug(player.name) + (f"-run{run}" if run else "")
    path = out / "runs" / preset.slug() / f"{name}.json"
    try:
        kept = json.loads(path.read_text())
    except (OSError, ValueError):
        return None, path
    return (kept["runs"] if kept.get("key") == key else None), path


def keep(path: Path | None, key: dict, runs: list[dict]) -> None:
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_whole(path, json.dumps({"key": key, "runs": runs}) + "\n")  # whole or absent


def play_all(presets: list[Preset], specs, seeds: range, workers: int = 1, progress: bool = True,
             attempts: int = 1, adapt: int | None = None, out: Path | None = None,
             seconds: dict | None = None, adapt_runs: int = 1, sources: dict | None = None,
             trained: dict | None = None) -> list[dict]:  # fmt: skip
    """Every (preset, player, seed) run, in that order (attempts of a seed together).

    Args:
        presets: What to play (`variants.plan`).
        specs: `--policy` names, or `Player`s.
        seeds: The seeds every preset and player plays.
        workers: Processes for the scripted and fog players (the others play batched).
        progress: Show progress bars.
        attempts: Games a seed for the learned players (independent sampling streams).
        adapt: Steps to adapt the shipped policy to each preset (None: no adapted player).
        out: Where finished runs and adapted policies are kept and found again.
        seconds: Filled with the wall time of each stage: adapting, the scripted players
            (all of them, in their pool), each batched player (all its presets).
        adapt_runs: Training runs of each adapted player (training seeds 0, 1, ...), each
            played on every seed, its games marked with its `run`.
        sources: Filled with the policy file each (preset, player, run) played from (None
            for the scripted players and random).
        trained: The adapted player's runs already trained (preset name -> the folder of
            each run, `adapt_runs` of them), played instead of adapting here (`delve tune`
            warm-starts them).
    """
    from ...policy import PolicyNet, is_policy_file

    cast = lineup(list(specs), adapt is not None) if specs and isinstance(specs[0], str) \
        else list(specs)  # fmt: skip
    adapted: dict = dict(trained or {})
    pending: dict = {}
    done: dict = {}
    seconds = {} if seconds is None else seconds
    with Bar(progress) as bar:
        started = time.perf_counter()
        if adapt is not None and trained is None and any(p.adapted for p in cast):
            from training.adapt import adapted as adapt_run

            root = (out if out is not None else DEFAULT_OUT) / "adapted"
            for preset in presets:
                adapted[preset.name] = []
                for seed in range(adapt_runs):
                    label = f"adapting {preset.name}" + (f", run {seed}" if adapt_runs > 1 else "")
                    advance, last = bar.task(label, adapt), [0]

                    def moved(steps, advance=advance, last=last):
                        advance(steps - last[0])
                        last[0] = steps

                    adapted[preset.name].append(adapt_run(preset.slug(), preset.config, adapt,
                                                          root, seed, on_update=moved))  # fmt: skip
            seconds["adapting"] = time.perf_counter() - started
        for preset in presets:
            for player in cast:
                for run in range(adapt_runs if player.adapted else 1):
                    source = policy_file(preset, player, adapted, run)
                    if sources is not None:
                        sources[(preset.name, player.name, run)] = source
                    key = {"record": RECORD, "config": preset.canonical(), "player": player.name,
                           "policy": digest(source) if source is not None else player.spec,
                           "seeds": [seeds.start, len(seeds)],
                           "attempts": attempts if player.learned else 1}  # fmt: skip
                    kept, path = keyed(out, preset, player, key, run)
                    if kept is not None:
                        done[(preset.name, player.name, run)] = kept
                    else:
                        pending[(preset.name, player.name, run)] = (preset, player, source, key,
                                                                    path)  # fmt: skip
        games = sum(len(seeds) * (attempts if pl.learned and pl.sampled else 1)
                    for _, pl, *_ in pending.values())  # fmt: skip
        advance = bar.task("playing", games)
        solo = [v for v in pending.values() if v[1].solo]
        jobs = [(p.name, p.config, pl.name, seed) for p, pl, *_ in solo for seed in seeds]
        started = time.perf_counter()
        runs = play_solo(jobs, workers, lambda run: advance())
        if jobs:
            seconds["scripted players"] = time.perf_counter() - started
        for i, (preset, player, _, key, path) in enumerate(solo):
            got = runs[i * len(seeds) : (i + 1) * len(seeds)]
            keep(path, key, got)
            done[(preset.name, player.name, 0)] = got
        for (_, _, run), (preset, player, source, key, path) in pending.items():
            if player.solo:
                continue
            started = time.perf_counter()
            if source is None or is_policy_file(source):
                policy = uniform if source is None else PolicyNet.load(source)
                got = play_policy(preset, player, policy, seeds, attempts, lambda: advance())
            else:
                got = play_sb3(preset, player, str(source), seeds)
                advance(len(seeds))
            if player.adapted:
                got = [{**r, "run": run} for r in got]
            keep(path, key, got)
            done[(preset.name, player.name, run)] = got
            seconds[player.name] = seconds.get(player.name, 0.0) + time.perf_counter() - started
    return [r for p in presets for pl in cast
            for run in range(adapt_runs if pl.adapted else 1)
            for r in done[(p.name, pl.name, run)]]  # fmt: skip


def run(args) -> int:
    """`delve playtest`: everything is checked before any game is played or trained."""
    try:
        overrides = parse_overrides(args.set)
        files = [load_preset(path) for path in args.preset_file]
        presets = plan(args.presets, overrides, args.depth, [parse_sweep(s) for s in args.sweep],
                       [parse_variant(v) for v in args.variant], files)  # fmt: skip
        adapt = args.adapt
        if adapt is not None:
            from training.adapt import ADAPT_STEPS

            adapt = ADAPT_STEPS if adapt == -1 else adapt
            if adapt < 1:
                raise ValueError(f"--adapt STEPS must be a positive number of steps, got {adapt}")
        cast = lineup(args.policy or ["scripted"], adapt is not None)
        for key, value, least in (("--seeds", args.seeds, 1), ("--attempts", args.attempts, 1),
                                  ("--first-seed", args.first_seed, 0),
                                  ("--adapt-runs", args.adapt_runs, 1),
                                  ("--html-games", args.html_games, 0)):  # fmt: skip
            if value < least:
                raise ValueError(f"{key} must be at least {least}, got {value}")
        if adapt is not None:
            import torch  # noqa: F401  (the trainer's)
    except ImportError:
        raise ValueError("--adapt trains with torch: pip install -e '.[train]'") from None
    except OSError as err:  # a preset file that cannot be read
        raise ValueError(str(err)) from None
    if args.human is not None and not args.human.is_dir():
        raise ValueError(f"--human {args.human}: no such folder (delve serve --out keeps a "
                         "person's games there)")  # fmt: skip
    out = args.out if args.out is not None or adapt is None else DEFAULT_OUT
    if out is not None:
        writable_folder(out)
    workers = args.workers or mp.cpu_count()
    seeds = range(args.first_seed, args.first_seed + args.seeds)
    seconds: dict = {}
    started = time.perf_counter()
    sources: dict = {}
    runs = play_all(presets, cast, seeds, workers, not args.no_progress, args.attempts, adapt, out,
                    seconds, args.adapt_runs, sources)  # fmt: skip
    if args.human is not None:
        from .players import human_runs

        people, left = human_runs(args.human, presets)
        runs += people
        for line in left:
            print(f"--human: left out {line}", file=sys.stderr)
    seconds["all"] = time.perf_counter() - started
    meta = {"presets": [{"name": p.name, "config": p.config, "base": p.base,
                         "changes": p.changes} for p in presets],
            "players": [p.name for p in cast] + (["human"] if args.human is not None else []),
            "seeds": [seeds.start, len(seeds)],
            "attempts": args.attempts, "adapt": adapt,
            "adapt_runs": args.adapt_runs if adapt is not None else None, "workers": workers,
            "seconds": {k: round(v, 1) for k, v in seconds.items()}}  # fmt: skip
    page = {"cast": cast, "sources": sources, "games": args.html_games}
    print(report(runs, presets, out, meta, page), end="")
    return 0
