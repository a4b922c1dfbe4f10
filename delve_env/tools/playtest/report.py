"""The playtest report: one row per (preset, player), each variant compared with its base on
the same seeds, losses by floor, DIFF-1 across the difficulties; as markdown, JSON and PNG.

A comparison pairs each seed's outcome under the variant with the same seed's under the base,
for the same player (the same dungeon, the same sampling stream): the difference in win rate
with Newcombe's paired interval and McNemar's exact p-value (`delve_env.stats`), marked `*`
where the interval leaves out 0. With several attempts a seed, the pairs are the first
attempts, and again each seed won in any attempt (best of K).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ...engine.core.params import DIFFICULTIES
from ...score import score
from ...stats import mcnemar, paired_difference, pairs, runs_difference, runs_interval, wilson
from ..files import save_whole, write_whole
from .players import LOSS_CAUSES

COLUMNS = ("preset", "policy", "runs", "win %", "95% interval", "score", "score interval",
           "book home %", "deepest",
           "members lost", "raises", "gold", "rations", "paces", *(f"lost: {c}" for c in LOSS_CAUSES))  # fmt: skip
MEANS = (("deepest", "deepest"), ("members lost", "members_lost"), ("raises", "raises"),
         ("gold", "gold"), ("rations", "rations"), ("paces", "paces"))  # fmt: skip
SIDE_BY_SIDE = ("book home %", "deepest", "members lost", "paces")


def groups(runs: list[dict]) -> dict[tuple, list[dict]]:
    """The runs by (preset, player), in the order first met."""
    out: dict[tuple, list] = {}
    for r in runs:
        out.setdefault((r["preset"], r["policy"]), []).append(r)
    return out


def by_seed(runs: list[dict]) -> dict[int, list[dict]]:
    out: dict[int, list] = {}
    for r in runs:
        out.setdefault(r["seed"], []).append(r)
    return out


def training_runs(rs: list[dict]) -> dict[int, list[dict]]:
    """A player's games by training run (an adapted player's `run`; one run for the rest)."""
    out: dict[int, list] = {}
    for r in rs:
        out.setdefault(r.get("run", 0), []).append(r)
    return out


def first_attempts(rs: list[dict]) -> list[dict]:
    return [r for r in rs if r.get("attempt", 0) == 0]


def won(r: dict) -> bool:
    return r["won"]


def outcomes(rs: list[dict], best_of: bool = False, outcome=won) -> dict[int, bool]:
    """Each seed's outcome (`outcome(run)`, by default won) on its first attempt, or with
    `best_of` in any attempt."""
    return {s: any(outcome(r) for r in t) if best_of else
            next(outcome(r) for r in t if r.get("attempt", 0) == 0)
            for s, t in by_seed(rs).items()}  # fmt: skip


def run_rates(rs: list[dict], best_of: bool = False, outcome=won) -> list[float]:
    """Each training run's rate of `outcome` on its seeds' first attempts (or, with
    `best_of`, the share of its seeds where any attempt had it)."""
    rates = []
    for games in training_runs(rs).values():
        got = outcomes(games, best_of, outcome)
        rates.append(sum(got.values()) / len(got))
    return rates


def summarize(runs: list[dict]) -> list[dict]:
    """One row per (preset, player): the COLUMNS (the Delve score of `delve_env.score` over
    every game), over every attempt and training run; with
    several attempts a seed, also `attempts` and `best of K %` (the seeds won in any attempt,
    with its interval); with several training runs (an adapted player's), also `training
    runs` and each run's own rate (`runs' win %`), the interval then holding the runs' spread
    (`stats.runs_interval`) as well as the games' dice. `runs` counts the seeds."""
    rows = []
    for (preset, policy), rs in groups(runs).items():
        seeds = by_seed(rs)
        trained = training_runs(rs)
        n, games = len(seeds), len(rs)
        tries = games // (n * len(trained))
        wins = sum(r["won"] for r in rs)
        low, high = wilson(wins, games) if tries == 1 else mean_interval(seeds)
        if len(trained) > 1:
            rates = [sum(r["won"] for r in g) / len(g) for g in trained.values()]
            spread = runs_interval(rates)
            low, high = min(low, spread[0]), max(high, spread[1])
        got = score([r["achievements"] for r in rs])
        row = {"preset": preset, "policy": policy, "runs": n, "win %": 100 * wins / games,
               "95% interval": (100 * low, 100 * high), "score": got["score"],
               "score interval": got["interval"],
               "book home %": 100 * sum(r["book_home"] for r in rs) / games}  # fmt: skip
        for col, k in MEANS:
            row[col] = float(np.mean([r[k] for r in rs]))
        for c in LOSS_CAUSES:
            row[f"lost: {c}"] = sum(r["cause"] == c for r in rs) / len(trained)
            if len(trained) == 1:
                row[f"lost: {c}"] = int(row[f"lost: {c}"])
        if tries > 1:
            best = run_rates(rs, best_of=True)
            lo, hi = wilson(round(best[0] * n), n) if len(best) == 1 else runs_interval(best)
            row.update({"attempts": tries, "best of K %": 100 * float(np.mean(best)),
                        "best of K interval": (100 * lo, 100 * hi)})  # fmt: skip
        if len(trained) > 1:
            row["training runs"] = len(trained)
            row["runs' win %"] = [100 * sum(r["won"] for r in g) / len(g)
                                  for g in trained.values()]  # fmt: skip
        rows.append(row)
    return rows


def mean_interval(seeds: dict[int, list[dict]]) -> tuple[float, float]:
    """The 95% interval of a mean win rate over several attempts a seed: the seeds' own
    rates are the independent draws (the attempts of one seed share its dungeon)."""
    rates = np.array([np.mean([r["won"] for r in tries]) for tries in seeds.values()])
    half = 1.96 * rates.std(ddof=1) / np.sqrt(len(rates)) if len(rates) > 1 else 1.0
    return max(0.0, rates.mean() - half), min(1.0, rates.mean() + half)


def compare(variant: list[dict], base: list[dict], best_of: bool = False, outcome=won,
            shared: bool = False) -> dict:  # fmt: skip
    """The paired comparison of one player's runs on a variant and on its base (the same
    seeds): the rate of `outcome` (by default a win) on each seed's first attempt, or with
    `best_of` in any attempt. With `shared` (a person's games, on whatever seeds they
    played), only the seeds both sides played are paired.

    A player of several training runs (on both sides) is compared across its runs
    (`stats.runs_difference`): the games' dice alone would star a difference the runs'
    own scatter explains. The seed table then adds up run i of the variant against run i of
    the base."""
    v_runs, b_runs = training_runs(variant), training_runs(base)
    tables = []
    for v_games, b_games in zip(v_runs.values(), b_runs.values()):
        v, b = outcomes(v_games, best_of, outcome), outcomes(b_games, best_of, outcome)
        if set(v) != set(b) and not shared:
            raise ValueError("a variant and its base must play the same seeds")
        seeds = sorted(set(v) & set(b))
        tables.append(pairs([v[s] for s in seeds], [b[s] for s in seeds]))
    table = tuple(int(sum(t[i] for t in tables)) for i in range(4))
    if len(v_runs) > 1 and len(b_runs) > 1:
        got = runs_difference(run_rates(variant, best_of, outcome),
                              run_rates(base, best_of, outcome))  # fmt: skip
        low, high = got["interval"]
        return {"table": table, "difference": 100 * got["difference"],
                "interval": (100 * low, 100 * high), "p": got["p"], "real": got["real"],
                "across": "training runs"}  # fmt: skip
    diff, low, high = paired_difference(table)
    return {"table": table, "difference": 100 * diff, "interval": (100 * low, 100 * high),
            "p": mcnemar(table), "real": low > 0 or high < 0}  # fmt: skip


def comparisons(
    runs: list[dict], bases: dict[str, str], rows: list[dict] | None = None
) -> list[dict]:
    """Every variant against its base, player by player: the paired difference (first
    attempts; `best of K` too where there were several) and the rows (`summarize`'s, made
    here unless given) side by side."""
    grouped = groups(runs)
    rows = {(r["preset"], r["policy"]): r for r in (rows or summarize(runs))}
    out = []
    for (preset, policy), rs in grouped.items():
        base = bases.get(preset)
        if base is None or (base, policy) not in grouped:
            continue
        human = policy == "human"
        if human and not {r["seed"] for r in rs} & {r["seed"] for r in grouped[(base, policy)]}:
            continue  # a person's games share no seed with the base's: nothing to pair
        first = compare(rs, grouped[(base, policy)], shared=human)
        entry = {"preset": preset, "base": base, "policy": policy, **first,
                 "base row": rows[(base, policy)], "row": rows[(preset, policy)]}  # fmt: skip
        if len(first_attempts(rs)) < len(rs):
            entry["best of K"] = compare(rs, grouped[(base, policy)], best_of=True)
        out.append(entry)
    return out


def lost_on(floor: int):
    """The outcome "lost on floor `floor`" of a run (0: the courtyard; the deepest floor
    also holds a loss past it)."""
    return lambda r: r["cause"] is not None and min(r["floor"], r["depth"]) == floor


def hazard(runs: list[dict]) -> dict[tuple, list[dict]]:
    """Per (preset, player), floor by floor (0 the courtyard): of the games that reached the
    floor, the share lost on it, with its Wilson interval: the difficulty curve of the
    descent and the climb home (a floor is reached once however often it is walked)."""
    out = {}
    for key, rs in groups(runs).items():
        depth = max(r["depth"] for r in rs)
        floors = []
        for f in range(depth + 1):
            reached = sum(r["deepest"] >= f for r in rs)
            lost = sum(lost_on(f)(r) for r in rs)
            low, high = wilson(lost, reached)
            floors.append({"floor": f, "reached": reached, "lost": lost,
                           "hazard %": 100 * lost / reached if reached else 0.0,
                           "95% interval": (100 * low, 100 * high)})  # fmt: skip
        out[key] = floors
    return out


def hazard_records(curves: dict) -> list[dict]:
    """`hazard`'s curves as JSON's records: preset, policy and floors each."""
    return [{"preset": p, "policy": q, "floors": c} for (p, q), c in curves.items()]


def floor_differences(runs: list[dict], bases: dict[str, str]) -> list[dict]:
    """Per variant and player, floor by floor: the share of all seeds lost on that floor,
    variant minus base, paired seed by seed as `compare` pairs wins (which floor a change
    makes harder; the shares add up, over the floors, to the change in games lost)."""
    grouped = groups(runs)
    out = []
    for (preset, policy), rs in grouped.items():
        base = bases.get(preset)
        if base is None or (base, policy) not in grouped:
            continue
        depth = max(r["depth"] for r in rs + grouped[(base, policy)])
        human = policy == "human"
        if human and not {r["seed"] for r in rs} & {r["seed"] for r in grouped[(base, policy)]}:
            continue
        floors = [compare(rs, grouped[(base, policy)], outcome=lost_on(f), shared=human)
                  for f in range(depth + 1)]  # fmt: skip
        out.append({"preset": preset, "base": base, "policy": policy, "floors": floors})
    return out


def difficulty_order(rows: list[dict], order=DIFFICULTIES) -> list[str]:
    """DIFF-1: a harder preset never wins more often. One line per player and step between
    the difficulties played: kept, or broken (and whether the intervals even overlap)."""
    lines = []
    by = {(r["preset"], r["policy"]): r for r in rows}
    for policy in dict.fromkeys(r["policy"] for r in rows):
        ladder = [by[(n, policy)] for n in order if (n, policy) in by]
        for easier, harder in zip(ladder, ladder[1:]):
            e, h = easier["win %"], harder["win %"]
            if h <= e:
                verdict = "kept"
            elif harder["95% interval"][0] > easier["95% interval"][1]:
                verdict = "BROKEN (the intervals do not overlap)"
            else:
                verdict = "broken on the point estimates, within the intervals"
            lines.append(
                f"{policy}: {easier['preset']} {e:.1f}% >= {harder['preset']} {h:.1f}%: {verdict}"
            )
    return lines


# --- writing it ----------------------------------------------------------------------------


def cell(v) -> str:
    if isinstance(v, tuple):
        return f"{v[0]:.1f}-{v[1]:.1f}"
    if isinstance(v, float):
        return f"{v:.1f}"
    return str(v)


def table(header: list[str], rows: list[list]) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *("| " + " | ".join(cell(v) for v in row) + " |" for row in rows)]  # fmt: skip


def span(interval: tuple[float, float]) -> str:
    """A difference's interval, signed: "-12.0 to +3.5"."""
    return f"{interval[0]:+.1f} to {interval[1]:+.1f}"


def comparison_lines(comps: list[dict]) -> list[str]:
    if not comps:
        return []
    best = any("best of K" in c for c in comps)
    header = ["variant", "base", "policy", "base win %", "variant win %", "difference",
              "95% interval (paired)", "McNemar p", "seeds: only base / only variant won",
              *(["best of K: difference", "interval", "p"] if best else []),
              *(f"{c}: base / variant" for c in SIDE_BY_SIDE), "lost to: base / variant"]  # fmt: skip
    rows = []
    for c in comps:
        _, variant_only, base_only, _ = c["table"]
        mark = " *" if c["real"] else ""
        row = [c["preset"], c["base"], c["policy"], c["base row"]["win %"], c["row"]["win %"],
               f"{c['difference']:+.1f}{mark}", span(c["interval"]),
               f"{c['p']:.3g}" + (" (t over runs)" if c.get("across") else ""),
               f"{base_only} / {variant_only}"]  # fmt: skip
        if best:
            k = c.get("best of K")
            row += ([f"{k['difference']:+.1f}{' *' if k['real'] else ''}", span(k["interval"]),
                     f"{k['p']:.3g}"] if k else ["", "", ""])  # fmt: skip
        row += [f"{cell(c['base row'][s])} / {cell(c['row'][s])}" for s in SIDE_BY_SIDE]
        row.append(", ".join(f"{cause} {cell(c['base row'][f'lost: {cause}'])} / "
                             f"{cell(c['row'][f'lost: {cause}'])}" for cause in LOSS_CAUSES))  # fmt: skip
        rows.append(row)
    return ["Each variant against its base, on the same seeds (difference: variant minus base,"
            " in points; * where the paired 95% interval leaves out 0; a player of several "
            "training runs is compared across its runs, Student's t on their spread):", "",
            *table(header, rows), ""]  # fmt: skip


def hazard_lines(curves: dict, diffs: list[dict]) -> list[str]:
    """The hazard per floor, and each variant's change of the share lost floor by floor."""
    depth = max(len(c) for c in curves.values())
    out = ["The hazard per floor: of the games that reached a floor, the % lost on it (lost / "
           "reached; 0: the courtyard):", ""]  # fmt: skip
    out += table(["preset", "policy", *map(str, range(depth))],
                 [[p, q, *(f"{h['hazard %']:.1f} ({h['lost']:g}/{h['reached']})" for h in c),
                   *[""] * (depth - len(c))] for (p, q), c in curves.items()])  # fmt: skip
    if diffs:
        out += ["", "Where a variant bites: the share of all seeds lost on each floor, variant "
                "minus base, in points (paired; * where the 95% interval leaves out 0):", ""]  # fmt: skip
        out += table(["variant", "base", "policy", *map(str, range(depth))],
                     [[d["preset"], d["base"], d["policy"],
                       *(f"{f['difference']:+.1f}{' *' if f['real'] else ''}" for f in d["floors"]),
                       *[""] * (depth - len(d["floors"]))] for d in diffs])  # fmt: skip
    return out + [""]


def markdown(rows: list[dict], comps: list[dict], curves: dict, diffs: list[dict],
             order: list[str]) -> str:  # fmt: skip
    extra = any("attempts" in r for r in rows)
    header = list(COLUMNS) + (["attempts", "best of K %", "best of K interval"] if extra else [])
    if any("training runs" in r for r in rows):
        header += ["training runs", "runs' win %"]
    body = [[", ".join(f"{x:.1f}" for x in r[c]) if c == "runs' win %" and c in r
             else r.get(c, "") for c in header] for r in rows]  # fmt: skip
    out = table(header, body) + [""]
    out += comparison_lines(comps)
    out += hazard_lines(curves, diffs)
    if order:
        out += ["DIFF-1 (a harder preset never wins more often):", ""]
        out += [f"- {line}" for line in order]
    return "\n".join(out) + "\n"


def plot(rows: list[dict], curves: dict, sweeps: list[dict], path: Path) -> None:
    """Win rates with intervals (or, for a sweep, the win rate against the swept value, one
    line per player) above, and below it the hazard per floor as small multiples: one panel
    a player, its presets overlaid, each floor's hazard with its interval; as one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    players = list(dict.fromkeys(policy for _, policy in curves))
    presets = list(dict.fromkeys(preset for preset, _ in curves))
    cols = min(4, len(players))
    below = -(-len(players) // cols)
    fig = plt.figure(figsize=(4 * cols + 1, 4.5 + 3.2 * below))
    grid = fig.add_gridspec(1 + below, cols, height_ratios=[1.4] + [1] * below)
    left = fig.add_subplot(grid[0, :])
    colors = plt.get_cmap("tab20").colors

    def color(i: int):
        return colors[i % len(colors)]

    if sweeps:
        for line in sweeps:
            xs, ys = line["values"], line["win %"]
            err = [[max(0.0, y - lo) for y, (lo, _) in zip(ys, line["intervals"])],
                   [max(0.0, hi - y) for y, (_, hi) in zip(ys, line["intervals"])]]  # fmt: skip
            left.errorbar(xs, ys, yerr=err, marker="o", capsize=4, label=line["label"],
                          color=color(players.index(line["policy"])))  # fmt: skip
        left.set_xlabel(sweeps[0]["key"])
        left.legend(fontsize=7)
        left.set_title("win rate against the swept value")
    else:
        labels = [f"{r['preset']}\n{r['policy']}" for r in rows]
        wins = [r["win %"] for r in rows]
        err = [[max(0.0, w - r["95% interval"][0]) for w, r in zip(wins, rows)],
               [max(0.0, r["95% interval"][1] - w) for w, r in zip(wins, rows)]]  # fmt: skip
        left.bar(range(len(rows)), wins, yerr=err, capsize=4, color="#4c72b0")
        left.set_xticks(range(len(rows)), labels, fontsize=7)
        left.set_title("wins per preset")
    left.set_ylabel("win % (95% interval)")
    left.set_ylim(0, 102)
    for i, policy in enumerate(players):
        ax = fig.add_subplot(grid[1 + i // cols, i % cols])
        for j, preset in enumerate(presets):
            floors = curves.get((preset, policy))
            if floors is None:
                continue
            xs = [f["floor"] + (j - (len(presets) - 1) / 2) * 0.08 for f in floors]
            ys = [f["hazard %"] for f in floors]
            err = [[max(0.0, y - f["95% interval"][0]) for y, f in zip(ys, floors)],
                   [max(0.0, f["95% interval"][1] - y) for y, f in zip(ys, floors)]]  # fmt: skip
            ax.errorbar(xs, ys, yerr=err, marker="o", markersize=3, capsize=2, color=color(j),
                        label=preset)  # fmt: skip
        ax.set_title(policy, fontsize=9)
        ax.set_xlabel("floor (0: the courtyard)", fontsize=8)
        ax.set_ylabel("% lost on it, of those reaching it", fontsize=8)
        ax.set_xticks(range(max(len(c) for c in curves.values())))
        ax.set_ylim(0, 102)
        ax.legend(fontsize=6)
    fig.tight_layout()
    save_whole(path, lambda tmp: fig.savefig(tmp, dpi=100))
    plt.close(fig)


def sweep_lines(rows: list[dict], presets: list) -> list[dict]:
    """For a one-key sweep: per (base, player) the win rate at each swept value, the base's
    own value among them, in the values' order."""
    keys = {k for p in presets for k in p.changes if p.base is not None}
    if len(keys) != 1:
        return []
    (key,) = keys
    by = {(r["preset"], r["policy"]): r for r in rows}
    lines = []
    for base in (p for p in presets if p.base is None):
        points = [(base.canonical()[key], base.name)]
        points += [
            (p.changes[key], p.name) for p in presets if p.base == base.name and key in p.changes
        ]
        points.sort(key=lambda t: t[0])
        for policy in dict.fromkeys(r["policy"] for r in rows):
            got = [(v, by[(name, policy)]) for v, name in points if (name, policy) in by]
            if len(got) > 1:
                lines.append({"key": key, "label": f"{base.name}: {policy}", "policy": policy,
                              "values": [v for v, _ in got], "win %": [r["win %"] for _, r in got],
                              "intervals": [r["95% interval"] for _, r in got]})  # fmt: skip
    return lines


def report(runs: list[dict], presets: list, out_dir: Path | None = None, meta=None,
           page: dict | None = None) -> str:  # fmt: skip
    """The markdown report; with `out_dir`, also playtest.md, playtest.json (`meta`, the
    rows, the comparisons and every run), playtest.png and, with `page` (`cast`, `sources`
    and `games` for html.write), playtest.html."""
    rows = summarize(runs)
    bases = {p.name: p.base for p in presets if p.base is not None}
    comps = comparisons(runs, bases, rows)
    order = difficulty_order([r for r in rows if r["preset"] in DIFFICULTIES])
    curves, diffs = hazard(runs), floor_differences(runs, bases)
    text = markdown(rows, comps, curves, diffs, order)
    if out_dir is not None:
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        write_whole(out_dir / "playtest.md", text)
        data = {**(meta or {}), "rows": rows,
                "comparisons": [{k: v for k, v in c.items() if k not in ("base row", "row")}
                                for c in comps],
                "hazard": hazard_records(curves),
                "floor differences": diffs, "sweeps": sweep_lines(rows, presets),
                "runs": runs}  # fmt: skip
        plot(rows, curves, sweep_lines(rows, presets), out_dir / "playtest.png")
        if page is not None and page["games"] is not None:
            import time

            from . import html

            started = time.perf_counter()
            size = html.write(out_dir / "playtest.html", json.loads(json.dumps(data, default=list)),
                              runs, presets, page["cast"], page["sources"], page["games"])  # fmt: skip
            data["page"] = {"seconds": round(time.perf_counter() - started, 1), **size}
        write_whole(out_dir / "playtest.json", json.dumps(data, default=list) + "\n")
    return text
