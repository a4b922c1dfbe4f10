"""`delve tune`: the value of one rule number that gives the difficulty asked for.

A designer names a preset, a key, a target rate and a player; the search (search.py) probes
values of the key, every probe on the same seeds, until the value where the player's win rate
(or, with `--floor F`, its hazard on floor F) crosses the target is pinned to the tolerance,
and then plays that value once more on fresh seeds to confirm it. Each probe's games are kept
under OUT/runs/ as a playtest keeps them (the confirmation's under OUT/confirmation/runs/), so
a tune stopped and asked again replays nothing it has played; the adapted player's policies
under OUT/adapted/.
"""

from __future__ import annotations

import json
import multiprocessing as mp
import time
from pathlib import Path

import numpy as np

from ...config import TUNABLES, Config
from ...engine.core.params import DIFFICULTIES
from ..files import save_whole, writable_folder, write_whole
from .html import HTML_GAMES
from .players import Player, lineup
from .report import (
    hazard,
    hazard_lines,
    hazard_records,
    lost_on,
    summarize,
    table,
    training_runs,
)
from .search import Outcome, Search, grid_values, tune, tune_map
from .variants import SWEEPABLE, Preset, load_preset, parse_overrides, parse_value

DEFAULT_OUT = Path("runs/tune")
PLAYERS = ("scripted", "fog", "random", "trained", "ladder 5%", "ladder 15%", "ladder 40%",
           "adapted", "model:PATH.zip", "sampled:PATH.zip")  # fmt: skip


def add_arguments(parser) -> None:
    parser.add_argument("--preset", default="normal", choices=DIFFICULTIES,
                        help="the preset whose key is tuned (default normal)")  # fmt: skip
    parser.add_argument("--preset-file", default=None, metavar="FILE.json",
                        help="tune a custom preset instead (a JSON object with 'name' and "
                             "config keys, as delve playtest takes)")  # fmt: skip
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a config override kept at every probe")  # fmt: skip
    parser.add_argument("--key", action="append", required=True,
                        help=f"the rule number to tune: {', '.join(SWEEPABLE)}; twice for "
                             "the map of two keys")  # fmt: skip
    parser.add_argument("--target", type=float, required=True,
                        help="the rate asked for, in (0, 1): the win rate, or with --floor "
                             "the share of parties lost on that floor of those reaching it")  # fmt: skip
    parser.add_argument(
        "--policy", default="trained", help=f"who plays: {', '.join(PLAYERS)}".replace("%", "%%")
    )
    parser.add_argument("--range", action="append", default=None, metavar="LO,HI",
                        help="the values searched (default: all the key allows); one per "
                             "--key, in their order")  # fmt: skip
    parser.add_argument("--cap", type=int, default=12, metavar="CELLS",
                        help="with two keys: the most cells of their grid played (default "
                             "12)")  # fmt: skip
    parser.add_argument("--tolerance", type=float, default=None,
                        help="the crossing's interval to reach (default: one step for an "
                             "integer key, a tenth of the range for another)")  # fmt: skip
    parser.add_argument("--seeds", type=int, default=200, help="games a probe (default 200)")
    parser.add_argument(
        "--budget",
        type=int,
        default=None,
        metavar="GAMES",
        help="games in all, the confirmation apart (default 6 probes' worth)",
    )
    parser.add_argument("--confirm", type=int, default=None, metavar="GAMES",
                        help="games of the confirmation run at the value found, on fresh "
                             "seeds (default: --seeds; 0 for none)")  # fmt: skip
    parser.add_argument(
        "--floor",
        type=int,
        default=None,
        help="target the hazard on this floor instead of the win rate",
    )
    parser.add_argument("--adapt", type=int, default=1_000_000, metavar="STEPS",
                        help="with --policy adapted: the steps of the first value's "
                             "adaptation (default 1,000,000)")  # fmt: skip
    parser.add_argument("--warm-steps", type=int, default=None, metavar="STEPS",
                        help="with --policy adapted: the steps of each later value's, started "
                             "from the nearest value's adapted policy (default half of "
                             "--adapt)")  # fmt: skip
    parser.add_argument("--adapt-runs", type=int, default=3, metavar="R",
                        help="with --policy adapted: training runs of every value (training "
                             "seeds 0..R-1, each later value's run i from run i of its "
                             "nearest value; the rates and the crossing's interval hold their "
                             "spread; default 3)")  # fmt: skip
    parser.add_argument("--html-games", type=int, default=HTML_GAMES, metavar="K",
                        help="tune.html holds, of every probe, up to K lost games and one won, "
                             f"to replay (default {HTML_GAMES}; 0 for none)")  # fmt: skip
    parser.add_argument("--first-seed", type=int, default=1000, help="default 1000")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument(
        "--out",
        type=Path,
        default=DEFAULT_OUT,
        help=f"tune.md/.json/.png and the kept games (default {DEFAULT_OUT})",
    )
    parser.add_argument("--no-progress", action="store_true", help="no progress bar")


# --- what is asked, checked before any game --------------------------------------------------


def key_span(key: str, config: dict) -> tuple[bool, float | None, float | None]:
    """(integer, lowest, highest) a key allows (None: unbounded)."""
    if key == "depth":
        from ...engine.core.tables import MAX_DEPTH

        return True, 2, MAX_DEPTH
    if key == "max_steps":
        return True, 1, None
    _, kind, low, high, _ = TUNABLES[key]
    return kind == "int", low, high


def parse_range(text: str | None, key: str, config: dict) -> tuple[bool, float, float]:
    integer, low, high = key_span(key, config)
    if text is None:
        if high is None:
            raise ValueError(f"--range: {key} has no highest value; give --range LO,HI")
        return integer, low, high
    parts = [parse_value(p) for p in text.split(",")]
    if len(parts) != 2 or not all(isinstance(p, (int, float)) for p in parts):
        raise ValueError(f"--range {text!r}: write LO,HI, two numbers of {key}")
    lo, hi = parts
    if not lo < hi:
        raise ValueError(f"--range {text!r}: LO must be below HI (a range of one value tunes "
                         "nothing)")  # fmt: skip
    for v in (lo, hi):
        Config.from_kwargs(**{**config, key: v})  # names the key and what it allows
    return integer, lo, hi


def player_of(spec: str) -> Player:
    if spec == "adapted":
        return Player("adapted", "adapted")
    if spec.startswith("ladder "):
        rungs = {p.name: p for p in lineup(["ladder"])}
        if spec not in rungs:
            raise ValueError(f"--policy {spec!r}: the rungs are {', '.join(rungs)}")
        return rungs[spec]
    if spec == "ladder":
        raise ValueError("--policy ladder: tune one rung at a time, e.g. --policy 'ladder 40%'")
    try:
        (player,) = lineup([spec])
    except ValueError:
        raise ValueError(f"--policy {spec!r}: one of {', '.join(PLAYERS)}") from None
    return player


def checked(args) -> dict:
    """Everything a tune needs, each bad input a ValueError naming it and what is allowed."""
    overrides = parse_overrides(args.set)
    if args.preset_file is not None:
        try:
            base = load_preset(args.preset_file)
        except OSError as err:
            raise ValueError(f"--preset-file: {err}") from None
        base = Preset(base.name, {**overrides, **base.config})
    else:
        base = Preset(args.preset, {**overrides, "difficulty": args.preset})
    base.validated()
    keys = list(args.key)
    if len(keys) > 2 or len(set(keys)) < len(keys):
        raise ValueError(f"--key: one key, or two different keys for their map, got {keys}")
    for key in keys:
        if key not in SWEEPABLE:
            raise ValueError(f"--key {key!r}: one of {', '.join(SWEEPABLE)}")
        if key in overrides:
            raise ValueError(f"--set {key}=...: the tuned key cannot also be set")
    ranges = list(args.range or [])
    if len(ranges) > len(keys):
        raise ValueError(f"--range: one per --key at most, got {len(ranges)} for {len(keys)}")
    spans = [parse_range(r, k, base.config) for k, r in
             zip(keys, ranges + [None] * (len(keys) - len(ranges)))]  # fmt: skip
    integer, low, high = spans[0]
    if len(keys) == 2 and args.cap < 4:
        raise ValueError(f"--cap must be at least 4 (the grid's corners), got {args.cap}")
    if not 0 < args.target < 1:
        raise ValueError(f"--target must be a rate strictly between 0 and 1, got {args.target}")
    for name, value, least in (("--seeds", args.seeds, 1), ("--first-seed", args.first_seed, 0),
                               ("--html-games", args.html_games, 0)):  # fmt: skip
        if value < least:
            raise ValueError(f"{name} must be at least {least}, got {value}")
    player = player_of(args.policy)
    if args.adapt_runs < 1:
        raise ValueError(f"--adapt-runs must be at least 1, got {args.adapt_runs}")
    probe_games = args.seeds * (args.adapt_runs if player.adapted else 1)
    budget = 6 * probe_games if args.budget is None else args.budget
    if budget < 3 * probe_games:
        raise ValueError(f"--budget {budget}: at least 3 probes of {probe_games} games (--seeds "
                         f"{args.seeds}" + (f" x --adapt-runs {args.adapt_runs}" if
                         player.adapted else "") + f"; the range's ends and middle), "
                         f"{3 * probe_games} games")  # fmt: skip
    tolerance = args.tolerance
    if tolerance is not None and not 0 < tolerance < high - low:
        raise ValueError(f"--tolerance must be above 0 and below the range's width "
                         f"{high - low}, got {tolerance}")  # fmt: skip
    confirm = args.seeds if args.confirm is None else args.confirm
    if confirm < 0:
        raise ValueError(f"--confirm must be at least 0, got {confirm}")
    if args.floor is not None:
        at_least = {k: span[1] for k, span in zip(keys, spans) if k == "depth"}
        shallowest = Config.from_kwargs(**{**base.config, **at_least}).snapshot_dict()["depth"]
        if not 0 <= args.floor <= shallowest:
            raise ValueError(f"--floor must be a floor of the dungeon, 0 (the courtyard) to "
                             f"{shallowest}, got {args.floor}")  # fmt: skip
    if player.adapted:
        if args.adapt < 1:
            raise ValueError(f"--adapt STEPS must be a positive number of steps, got {args.adapt}")
        if args.warm_steps is not None and args.warm_steps < 1:
            raise ValueError(f"--warm-steps must be a positive number, got {args.warm_steps}")
        try:
            import torch  # noqa: F401  (the trainer's)
        except ImportError:
            raise ValueError(
                "--policy adapted trains with torch: pip install -e '.[train]'"
            ) from None
    return {"base": base, "keys": keys, "spans": spans, "integer": integer, "low": low,
            "high": high, "budget": budget, "confirm": confirm, "player": player,
            "tolerance": tolerance, "probe_games": probe_games}  # fmt: skip


# --- playing a probe -------------------------------------------------------------------------


def outcome(runs: list[dict], floor: int | None) -> Outcome:
    """A probe's games (seed by seed, a row per training run) as what the search reads."""
    rows = [sorted(games, key=lambda r: r["seed"]) for _, games in
            sorted(training_runs(runs).items())]  # fmt: skip
    if floor is None:
        return Outcome.wins([[r["won"] for r in games] for games in rows])
    return Outcome([[lost_on(floor)(r) for r in games] for games in rows],
                   [[r["deepest"] >= floor for r in games] for games in rows])  # fmt: skip


class Prober:
    """Plays one value of the key for the player on the seeds, keeping every game; the
    adapted player is trained for each value first (`--adapt-runs` runs), from the nearest
    value already adapted."""

    def __init__(self, args, asked: dict, seconds: dict):
        self.args, self.asked, self.seconds = args, asked, seconds
        self.runs: dict = {}  # value -> games
        self.adapted: dict = {}  # value -> the folder of each training run
        self.sources: dict = {}  # (preset, player, run) -> the policy file played, for tune.html
        self.workers = args.workers or mp.cpu_count()

    def preset(self, value) -> Preset:
        """The preset of one probe: `value` of the key, or a (value, value) pair of two."""
        base, keys = self.asked["base"], self.asked["keys"]
        values = dict(zip(keys, value if len(keys) == 2 else (value,)))
        label = " ".join(f"{k}={v}" for k, v in values.items())
        return Preset(f"{base.name} {label}", {**base.config, **values}).validated()

    def distance(self, a, b) -> float:
        """How far apart two probes are, each key's difference a share of its range."""
        pairs = zip(a, b) if isinstance(a, tuple) else ((a, b),)
        return sum(
            abs(x - y) / (hi - lo) for (x, y), (_, lo, hi) in zip(pairs, self.asked["spans"])
        )

    def policy(self, value) -> Player:
        """The player of one value: the adapted player's runs trained for it first (once:
        a value played again, as the confirmation does, plays the same policies)."""
        player = self.asked["player"]
        if not player.adapted or value in self.adapted:
            return player
        from training.adapt import adapted

        started = time.perf_counter()
        nearest = min(self.adapted, key=lambda v: self.distance(v, value), default=None)
        steps = (
            self.args.adapt if nearest is None else (self.args.warm_steps or self.args.adapt // 2)
        )
        preset = self.preset(value)
        self.adapted[value] = [
            adapted(preset.slug(), preset.config, steps, self.args.out / "adapted", run,
                    init=None if nearest is None else self.adapted[nearest][run] / "model.zip")
            for run in range(self.args.adapt_runs)
        ]  # fmt: skip
        self.seconds["adapting"] = self.seconds.get("adapting", 0) + time.perf_counter() - started
        return player

    def play(self, value, seeds: range, kept: str = "") -> list[dict]:
        """Every game of one value on `seeds`, kept under OUT/`kept`/runs/ (a probe's under
        OUT/runs/, the confirmation's apart: the same value on other seeds)."""
        from . import play_all

        player = self.policy(value)
        started = time.perf_counter()
        preset = self.preset(value)
        trained = {preset.name: self.adapted[value]} if player.adapted else None
        runs = play_all([preset], [player], seeds, self.workers, not self.args.no_progress,
                        out=self.args.out / kept, sources=self.sources,
                        adapt_runs=len(trained[preset.name]) if trained else 1,
                        trained=trained)  # fmt: skip
        runs = [{**r, "policy": player.name, "value": value} for r in runs]
        self.seconds["playing"] = self.seconds.get("playing", 0) + time.perf_counter() - started
        return runs

    def __call__(self, value) -> Outcome:
        first = self.args.first_seed
        self.runs[value] = self.play(value, range(first, first + self.args.seeds))
        return outcome(self.runs[value], self.args.floor)


def confirm(prober: Prober, search: Search, games: int) -> list[dict]:
    """The value found played again on `games` fresh seeds (the seeds after the probes'):
    the crossing rounded, or for an integer key both values around it. Each with its rate
    and interval; `holds` where the target lies inside the interval or, for an integer key,
    between the two values' intervals (the rate steps over it between them)."""
    from .search import snap

    args = prober.args
    fresh = range(args.first_seed + args.seeds, args.first_seed + args.seeds + games)
    values = search.bracket if search.integer else (snap(search.crossing, search),)
    out = []
    for value in values:
        got = outcome(prober.play(value, fresh, "confirmation"), args.floor)
        low, high = got.interval()
        out.append({"value": value, "seeds": [fresh.start, len(fresh)], "games": len(fresh),
                    "rate %": 100 * got.rate(), "95% interval": (100 * low, 100 * high)})  # fmt: skip
    lows = [c["95% interval"][0] for c in out]
    highs = [c["95% interval"][1] for c in out]
    holds = min(lows) <= 100 * search.target <= max(highs)
    for c in out:
        c["holds"] = holds
    return out


# --- the report --------------------------------------------------------------------------------


def summary(search: Search, asked: dict, args, confirmation: dict | None, seconds: dict) -> dict:
    what = "win rate" if args.floor is None else f"hazard on floor {args.floor}"
    probes = [{"value": v, "rate %": 100 * o.rate(),
               "95% interval": tuple(100 * x for x in o.interval()),
               "games": o.games, "counted": int(o.tries.sum()),
               "runs %": [100 * r for r in o.run_rates()] if o.runs > 1 else None}
              for v, o in sorted(search.probes.items())]  # fmt: skip
    return {"preset": asked["base"].name, "config": asked["base"].config, "key": search.key,
            "player": asked["player"].name, "target %": 100 * search.target, "rate": what,
            "range": [search.low, search.high], "tolerance": search.tolerance,
            "seeds": [args.first_seed, args.seeds], "budget": asked["budget"],
            "verdict": search.verdict, "note": search.note, "crossing": search.crossing,
            "interval": search.interval, "bracket": search.bracket, "probes": probes,
            "games": search.games(), "curve": search.curve, "confirmation": confirmation,
            "adapt_runs": args.adapt_runs if asked["player"].adapted else None,
            "seconds": {k: round(v, 1) for k, v in seconds.items()}}  # fmt: skip


def markdown(data: dict, runs: list[dict]) -> str:
    key, what = data["key"], data["rate"]
    lines = [f"# {data['preset']}: {key} for a {what} of {data['target %']:.1f}% "
             f"({data['player']})", ""]  # fmt: skip
    verdict = data["verdict"]
    trained = data.get("adapt_runs") or 1  # training runs of each value
    held = "the seeds' dice" + (
        f" and the spread of {trained} training runs" if trained > 1 else ""
    )
    if data["crossing"] is not None and verdict in ("found", "budget", "seeds"):
        low, high = data["interval"]
        lines.append(f"The {what} crosses {data['target %']:.1f}% at **{key} = "
                     f"{data['crossing']:.4g}** (95% interval {low:.4g} to {high:.4g}, "
                     f"{held}), after {len(data['probes'])} probes and {data['games']} "
                     f"games.")  # fmt: skip
        if data["bracket"] and isinstance(data["bracket"][0], int) and verdict == "found":
            by = {p["value"]: p for p in data["probes"]}
            a, b = data["bracket"]
            lines.append(f"The neighbouring values around it: {key} = {a}: "
                         f"{by[a]['rate %']:.1f}% ({by[a]['95% interval'][0]:.1f}-"
                         f"{by[a]['95% interval'][1]:.1f}); {key} = {b}: {by[b]['rate %']:.1f}% "
                         f"({by[b]['95% interval'][0]:.1f}-{by[b]['95% interval'][1]:.1f}).")  # fmt: skip
    if data["note"]:
        lines.append(f"{'Stopped' if verdict in ('budget', 'seeds') else 'Not found'}: "
                     f"{data['note']}.")  # fmt: skip
    confirmed = data["confirmation"]
    if confirmed:
        first, n = confirmed[0]["seeds"]
        rates = "; ".join(f"{key} = {c['value']}: {c['rate %']:.1f}% (95% interval "
                          f"{c['95% interval'][0]:.1f}-{c['95% interval'][1]:.1f})"
                          for c in confirmed)  # fmt: skip
        holds = "holds" if confirmed[0]["holds"] else "does not hold"
        lines += ["", f"Confirmation on {n} fresh seeds ({first}-{first + n - 1}): {rates}: "
                  f"{holds} the target."]  # fmt: skip
    if trained == 1:
        lines += ["", "Every probe, on the same seeds:", ""]
        lines += table([key, f"{what} %", "95% interval", "games"],
                       [[p["value"], p["rate %"], p["95% interval"], p["games"]]
                        for p in data["probes"]])  # fmt: skip
    else:
        lines += ["", f"Every probe, on the same seeds, each value's {trained} training runs (the "
                  f"interval: t over the runs):", ""]  # fmt: skip
        lines += table([key, f"{what} %", "95% interval", "each run %", "games"],
                       [[p["value"], p["rate %"], p["95% interval"],
                         ", ".join(f"{r:.1f}" for r in p["runs %"]), p["games"]]
                        for p in data["probes"]])  # fmt: skip
    lines += ["", *hazard_lines(hazard(runs), [])]
    return "\n".join(lines) + "\n"


def plot(data: dict, path: Path) -> None:
    """Every probe with its interval, the fitted curve, the target, the crossing and its
    interval."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(7, 4.5))
    xs = [p["value"] for p in data["probes"]]
    ys = [p["rate %"] for p in data["probes"]]
    err = [[max(0.0, y - p["95% interval"][0]) for y, p in zip(ys, data["probes"])],
           [max(0.0, p["95% interval"][1] - y) for y, p in zip(ys, data["probes"])]]  # fmt: skip
    ax.errorbar(xs, ys, yerr=err, fmt="o", capsize=4, color="#4c72b0", label="probes (95%)")
    if data["curve"]:
        ax.plot([x for x, _ in data["curve"]], [100 * f for _, f in data["curve"]], "-",
                color="#4c72b0", alpha=0.6, label="monotone fit")  # fmt: skip
    ax.axhline(data["target %"], color="#c44e52", linestyle="--", label="target")
    if data["crossing"] is not None and data["interval"]:
        ax.axvspan(*data["interval"], color="#dd8452", alpha=0.25, label="crossing (95%)")
        ax.axvline(data["crossing"], color="#dd8452")
    for i, c in enumerate(data["confirmation"] or []):
        ax.errorbar([c["value"]], [c["rate %"]], fmt="s", capsize=4, color="#55a868",
                    yerr=[[c["rate %"] - c["95% interval"][0]], [c["95% interval"][1] - c["rate %"]]],
                    label=None if i else "confirmation (fresh seeds)")  # fmt: skip
    ax.set_xlabel(data["key"])
    ax.set_ylabel(f"{data['rate']} %")
    ax.set_ylim(0, 102)
    ax.set_title(f"{data['preset']}, {data['player']}: {data['verdict']}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    save_whole(path, lambda tmp: fig.savefig(tmp, dpi=100))
    plt.close(fig)


def run(args) -> int:
    """`delve tune`: checked, searched, confirmed, written; the markdown printed."""
    asked = checked(args)
    out = writable_folder(args.out)
    seconds: dict = {}
    started = time.perf_counter()
    prober = Prober(args, asked, seconds)
    if len(asked["keys"]) == 2:
        return run_map(args, asked, prober, out, seconds, started)
    search = tune(prober, asked["keys"][0], asked["low"], asked["high"], args.target,
                  asked["probe_games"], asked["budget"], asked["integer"],
                  asked["tolerance"])  # fmt: skip
    confirmation = None
    if asked["confirm"] and search.verdict in ("found", "budget", "seeds") and \
            search.crossing is not None:  # fmt: skip
        confirmation = confirm(prober, search, asked["confirm"])
    seconds["all"] = time.perf_counter() - started
    return written(out, summary(search, asked, args, confirmation, seconds), prober, markdown,
                   plot)  # fmt: skip


def written(out: Path, data: dict, prober: Prober, words, picture) -> int:
    """tune.md (`words(data, runs)`), tune.html, tune.json and tune.png (`picture(data,
    path)`), each written whole; the markdown printed."""
    runs = [r for v in sorted(prober.runs) for r in prober.runs[v]]
    text = words(data, runs)
    write_whole(out / "tune.md", text)
    started = time.perf_counter()
    size = page(out / "tune.html", data, runs, prober, text.splitlines()[0].lstrip("# "))
    data = {**data, "page": {"seconds": round(time.perf_counter() - started, 1), **size}}
    write_whole(out / "tune.json", json.dumps({**data, "runs": runs}, default=list) + "\n")
    picture(data, out / "tune.png")
    print(text, end="")
    return 0


def page(path: Path, data: dict, runs: list[dict], prober: Prober, title: str) -> dict:
    """tune.html: playtest.html's page over the probes, each probed value a preset (its rows,
    its hazard per floor, its held games to replay), and for one key the probes' rates against
    the value with the target and the crossing's interval."""
    from . import html

    values = sorted(prober.runs)
    presets = [prober.preset(v) for v in values]
    cast = [prober.policy(values[0])]  # an adapted player's file per value: prober.sources
    lines = []
    if "probes" in data:  # one key
        lines = [{"key": data["key"], "label": f"{data['player']}: {data['rate']}",
                  "policy": data["player"], "values": [p["value"] for p in data["probes"]],
                  "win %": [p["rate %"] for p in data["probes"]],
                  "intervals": [p["95% interval"] for p in data["probes"]],
                  "target": data["target %"], "crossing": data["crossing"],
                  "interval": data["interval"]}]  # fmt: skip
    shown = {"presets": [p.name for p in presets], "players": [data["player"]],
             "seeds": data["seeds"], "rows": summarize(runs), "comparisons": [],
             "hazard": hazard_records(hazard(runs)), "sweeps": lines}  # fmt: skip
    intro = (f"{len(values)} values probed by {data['player']}, each on seeds "
             f"{data['seeds'][0]}-{data['seeds'][0] + data['seeds'][1] - 1}: "
             f"{data['verdict']}.")  # fmt: skip
    return html.write(path, json.loads(json.dumps(shown, default=list)), runs, presets, cast,
                      prober.sources, prober.args.html_games, title, intro)  # fmt: skip


# --- two keys ----------------------------------------------------------------------------------


def map_summary(m, asked: dict, args, seconds: dict) -> dict:
    what = "win rate" if args.floor is None else f"hazard on floor {args.floor}"
    cells = []
    for i, a in enumerate(m.grids[0]):
        for j, b in enumerate(m.grids[1]):
            o = m.probes.get((i, j))
            cell = {m.keys[0]: a, m.keys[1]: b, "side": {True: "at or above", False: "below",
                                                       None: "unknown"}[m.side.get((i, j))]}  # fmt: skip
            if o is not None:
                cell.update({"rate %": 100 * o.rate(), "games": int(len(o.hits)),
                             "95% interval": tuple(100 * x for x in o.interval())})  # fmt: skip
            cells.append(cell)
    return {"preset": asked["base"].name, "config": asked["base"].config, "keys": m.keys,
            "grids": m.grids, "player": asked["player"].name, "target %": 100 * m.target,
            "rate": what, "cap": args.cap, "seeds": [args.first_seed, args.seeds],
            "verdict": m.verdict, "played": len(m.probes), "games": m.games(), "cells": cells,
            "seconds": {k: round(v, 1) for k, v in seconds.items()}}  # fmt: skip


def map_markdown(data: dict, runs: list[dict]) -> str:
    k0, k1 = data["keys"]
    n = len(data["grids"][0]) * len(data["grids"][1])
    lines = [f"# {data['preset']}: {k0} and {k1} around a {data['rate']} of "
             f"{data['target %']:.1f}% ({data['player']})", "",
             f"{data['played']} of the grid's {n} cells played ({data['games']} games, the "
             f"same seeds in each); the others' side of the target follows from the rate "
             f"rising or falling with each key. "
             + ("Every cell's side is known." if data["verdict"] == "mapped" else
                f"The cap of {data['cap']} cells was reached with some cells unknown (?).")
             + (f" Every cell lies {sides.pop()} the target: out of reach over these ranges."
                if len(sides := {c["side"] for c in data["cells"]}) == 1 else ""),
             "", f"Rows {k0}, columns {k1}: the rate in % where played, else >= or < the "
             "target:", ""]  # fmt: skip
    by = {(c[k0], c[k1]): c for c in data["cells"]}
    mark = {"at or above": ">=", "below": "<", "unknown": "?"}
    rows = [[a, *(f"{by[(a, b)]['rate %']:.1f}" if "rate %" in by[(a, b)] else
                  mark[by[(a, b)]["side"]] for b in data["grids"][1])]
            for a in data["grids"][0]]  # fmt: skip
    lines += table([f"{k0} \\ {k1}", *map(str, data["grids"][1])], rows)
    lines += ["", *hazard_lines(hazard(runs), [])]
    return "\n".join(lines) + "\n"


def map_plot(data: dict, path: Path) -> None:
    """The grid as a heatmap: played cells coloured by their rate (with it written), the
    others by their side of the target, and the contour between the two sides."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    k0, k1 = data["keys"]
    g0, g1 = data["grids"]
    rates = np.full((len(g0), len(g1)), np.nan)
    side = np.full((len(g0), len(g1)), 0.5)
    for c in data["cells"]:
        i, j = g0.index(c[k0]), g1.index(c[k1])
        rates[i, j] = c.get("rate %", np.nan)
        side[i, j] = {"at or above": 1.0, "below": 0.0, "unknown": 0.5}[c["side"]]
    fig, ax = plt.subplots(figsize=(1.2 * len(g1) + 3, 0.9 * len(g0) + 2))
    ax.imshow(side, cmap="coolwarm_r", vmin=-0.5, vmax=1.5, origin="lower", aspect="auto")
    shown = ax.imshow(rates, cmap="viridis", vmin=0, vmax=100, origin="lower", aspect="auto")
    for i in range(len(g0)):
        for j in range(len(g1)):
            text = f"{rates[i, j]:.0f}" if rates[i, j] == rates[i, j] else \
                {1.0: ">=", 0.0: "<", 0.5: "?"}[side[i, j]]  # fmt: skip
            ax.text(j, i, text, ha="center", va="center", fontsize=8,
                    color="white" if rates[i, j] == rates[i, j] else "black")  # fmt: skip
    if (side == 1.0).any() and (side == 0.0).any():
        ax.contour(np.arange(len(g1)), np.arange(len(g0)), side, levels=[0.5],
                   colors="#c44e52", linewidths=2)  # fmt: skip
    ax.set_xticks(range(len(g1)), [str(v) for v in g1])
    ax.set_yticks(range(len(g0)), [str(v) for v in g0])
    ax.set_xlabel(k1)
    ax.set_ylabel(k0)
    ax.set_title(f"{data['preset']}, {data['player']}: {data['rate']} around "
                 f"{data['target %']:.0f}% (red: the target's contour)", fontsize=9)  # fmt: skip
    fig.colorbar(shown, ax=ax, label=f"{data['rate']} % (played cells)")
    fig.tight_layout()
    save_whole(path, lambda tmp: fig.savefig(tmp, dpi=100))
    plt.close(fig)


def run_map(args, asked: dict, prober: Prober, out: Path, seconds: dict, started: float) -> int:
    """`delve tune --key A --key B`: the grid of the two keys, mapped where the target's
    contour runs (search.tune_map)."""
    grids = tuple(grid_values(lo, hi, integer) for integer, lo, hi in asked["spans"])
    m = tune_map(prober, tuple(asked["keys"]), grids, args.target, args.cap)
    seconds["all"] = time.perf_counter() - started
    return written(out, map_summary(m, asked, args, seconds), prober, map_markdown, map_plot)
