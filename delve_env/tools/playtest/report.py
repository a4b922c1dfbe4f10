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
from ...stats import mcnemar, paired_difference, pairs, wilson
from .players import LOSS_CAUSES

COLUMNS = ("preset", "policy", "runs", "win %", "95% interval", "book home %", "deepest",
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


def summarize(runs: list[dict]) -> list[dict]:
    """One row per (preset, player): the COLUMNS, over every attempt; with several attempts
    a seed, also `attempts` and `best of K %` (the seeds won in any attempt, with its
    interval). `runs` counts the seeds."""
    rows = []
    for (preset, policy), rs in groups(runs).items():
        seeds = by_seed(rs)
        n, games = len(seeds), len(rs)
        wins = sum(r["won"] for r in rs)
        low, high = wilson(wins, games) if games == n else mean_interval(seeds)
        row = {"preset": preset, "policy": policy, "runs": n, "win %": 100 * wins / games,
               "95% interval": (100 * low, 100 * high),
               "book home %": 100 * sum(r["book_home"] for r in rs) / games}  # fmt: skip
        for col, k in MEANS:
            row[col] = float(np.mean([r[k] for r in rs]))
        for c in LOSS_CAUSES:
            row[f"lost: {c}"] = sum(r["cause"] == c for r in rs)
        if games > n:
            best = sum(any(r["won"] for r in tries) for tries in seeds.values())
            lo, hi = wilson(best, n)
            row.update({"attempts": games // n, "best of K %": 100 * best / n,
                        "best of K interval": (100 * lo, 100 * hi)})  # fmt: skip
        rows.append(row)
    return rows


def mean_interval(seeds: dict[int, list[dict]]) -> tuple[float, float]:
    """The 95% interval of a mean win rate over several attempts a seed: the seeds' own
    rates are the independent draws (the attempts of one seed share its dungeon)."""
    rates = np.array([np.mean([r["won"] for r in tries]) for tries in seeds.values()])
    half = 1.96 * rates.std(ddof=1) / np.sqrt(len(rates)) if len(rates) > 1 else 1.0
    return max(0.0, rates.mean() - half), min(1.0, rates.mean() + half)


def compare(variant: list[dict], base: list[dict], best_of: bool = False) -> dict:
    """The paired comparison of one player's runs on a variant and on its base (the same
    seeds): each seed's first attempt, or with `best_of` whether any attempt won."""

    def outcomes(rs):
        seeds = by_seed(rs)
        if best_of:
            return {s: any(r["won"] for r in t) for s, t in seeds.items()}
        return {s: next(r["won"] for r in t if r.get("attempt", 0) == 0) for s, t in seeds.items()}

    v, b = outcomes(variant), outcomes(base)
    if set(v) != set(b):
        raise ValueError("a variant and its base must play the same seeds")
    seeds = sorted(v)
    table = pairs([v[s] for s in seeds], [b[s] for s in seeds])
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
        first = compare(rs, grouped[(base, policy)])
        entry = {"preset": preset, "base": base, "policy": policy, **first,
                 "base row": rows[(base, policy)], "row": rows[(preset, policy)]}  # fmt: skip
        if len(rs) > len(by_seed(rs)):
            entry["best of K"] = compare(rs, grouped[(base, policy)], best_of=True)
        out.append(entry)
    return out


def loss_floors(runs: list[dict]) -> dict[tuple, np.ndarray]:
    """Per (preset, player): losses counted by the floor they happened on (0 the courtyard)."""
    out: dict[tuple, np.ndarray] = {}
    for r in runs:
        counts = out.setdefault((r["preset"], r["policy"]), np.zeros(r["depth"] + 1, dtype=int))
        if r["cause"] is not None:
            counts[min(r["floor"], len(counts) - 1)] += 1
    return out


def survival(runs: list[dict]) -> dict[tuple, np.ndarray]:
    """Per (preset, player): the share of runs that reached floor f, f = 0..depth."""
    return {k: np.array([np.mean([r["deepest"] >= f for r in rs])
                         for f in range(max(r["depth"] for r in rs) + 1)])
            for k, rs in groups(runs).items()}  # fmt: skip


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
               f"{c['difference']:+.1f}{mark}", span(c["interval"]), f"{c['p']:.3g}",
               f"{base_only} / {variant_only}"]  # fmt: skip
        if best:
            k = c.get("best of K")
            row += ([f"{k['difference']:+.1f}{' *' if k['real'] else ''}", span(k["interval"]),
                     f"{k['p']:.3g}"] if k else ["", "", ""])  # fmt: skip
        row += [f"{cell(c['base row'][s])} / {cell(c['row'][s])}" for s in SIDE_BY_SIDE]
        row.append(", ".join(f"{cause} {c['base row'][f'lost: {cause}']} / "
                             f"{c['row'][f'lost: {cause}']}" for cause in LOSS_CAUSES))  # fmt: skip
        rows.append(row)
    return ["Each variant against its base, on the same seeds (difference: variant minus base,"
            " in points; * where the paired 95% interval leaves out 0):", "",
            *table(header, rows), ""]  # fmt: skip


def markdown(rows: list[dict], comps: list[dict], floors: dict, order: list[str]) -> str:
    extra = any("attempts" in r for r in rows)
    header = list(COLUMNS) + (["attempts", "best of K %", "best of K interval"] if extra else [])
    out = table(header, [[r.get(c, "") for c in header] for r in rows]) + [""]
    out += comparison_lines(comps)
    depth = max(len(c) for c in floors.values())
    out += ["Losses by the floor they happened on (0: the courtyard):", ""]
    out += table(["preset", "policy", *map(str, range(depth))],
                 [[p, q, *(list(c) + [0] * (depth - len(c)))] for (p, q), c in floors.items()])  # fmt: skip
    if order:
        out += ["", "DIFF-1 (a harder preset never wins more often):", ""]
        out += [f"- {line}" for line in order]
    return "\n".join(out) + "\n"


def plot(rows: list[dict], curves: dict, sweeps: list[dict], path: Path) -> None:
    """Win rates with intervals (or, for a sweep, the win rate against the swept value, one
    line per player), and every (preset, player)'s survival per floor overlaid, as one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(13, 5))
    players = list(dict.fromkeys(policy for _, policy in curves))
    presets = list(dict.fromkeys(preset for preset, _ in curves))
    colors = plt.get_cmap("tab20").colors  # one a player, in both panels

    def color(policy: str):
        return colors[players.index(policy) % len(colors)] if policy in players else None

    if sweeps:
        for line in sweeps:
            xs, ys = line["values"], line["win %"]
            err = [[max(0.0, y - lo) for y, (lo, _) in zip(ys, line["intervals"])],
                   [max(0.0, hi - y) for y, (_, hi) in zip(ys, line["intervals"])]]  # fmt: skip
            left.errorbar(xs, ys, yerr=err, marker="o", capsize=4, label=line["label"],
                          color=color(line["policy"]))  # fmt: skip
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
    styles = ("-", "--", ":", "-.")
    for (preset, policy), curve in curves.items():
        right.plot(range(len(curve)), 100 * curve, marker="o", markersize=3, color=color(policy),
                   linestyle=styles[presets.index(preset) % len(styles)],
                   label=f"{preset} ({policy})")  # fmt: skip
    right.set_xlabel("floor")
    right.set_xticks(range(max(len(c) for c in curves.values())))
    right.set_ylabel("% of runs that reached it")
    right.set_ylim(0, 105)
    right.set_title("how deep runs get")
    right.legend(fontsize=6, ncol=2 if len(curves) > 8 else 1)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
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


def report(runs: list[dict], presets: list, out_dir: Path | None = None, meta=None) -> str:
    """The markdown report; with `out_dir`, also playtest.md, playtest.json (`meta`, the
    rows, the comparisons and every run) and playtest.png."""
    rows = summarize(runs)
    bases = {p.name: p.base for p in presets if p.base is not None}
    comps = comparisons(runs, bases, rows)
    order = difficulty_order([r for r in rows if r["preset"] in DIFFICULTIES])
    text = markdown(rows, comps, loss_floors(runs), order)
    if out_dir is not None:
        out_dir = Path(out_dir)
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "playtest.md").write_text(text)
        data = {**(meta or {}), "rows": rows,
                "comparisons": [{k: v for k, v in c.items() if k not in ("base row", "row")}
                                for c in comps],
                "runs": runs}  # fmt: skip
        (out_dir / "playtest.json").write_text(json.dumps(data, default=list) + "\n")
        plot(rows, survival(runs), sweep_lines(rows, presets), out_dir / "playtest.png")
    return text
