"""Playtesting difficulty: policies play many seeds of each preset; the report says how often
and where and why runs are won and lost (`delve playtest`, `quality/playtest.py`).

A preset is a name and a config (`config.Config` keys): the three difficulties, or a custom
one from a JSON file (`{"name": "brutal", "difficulty": "hard", "guard_chance": 0.9}`) or from
`key=value` overrides, validated like any config. Each (preset, policy, seed) run is played
alone in a worker process, so the numbers do not depend on the number of workers.
"""

from __future__ import annotations

import json
import math
import multiprocessing as mp
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..config import KEYS, Config
from ..engine.core.params import DIFFICULTIES
from ..engine.core.tables import EV_HUNGER, KING_SLOT

LOSS_CAUSES = ("hunger", "the king", "all fallen", "out of steps")
COLUMNS = ("preset", "policy", "runs", "win %", "95% interval", "book home %", "deepest",
           "members lost", "raises", "gold", "rations", "paces", *(f"lost: {c}" for c in LOSS_CAUSES))  # fmt: skip


@dataclass(frozen=True)
class Preset:
    """A named config to playtest."""

    name: str
    config: dict = field(default_factory=dict)

    def validated(self) -> Preset:
        Config.from_kwargs(**self.config)  # a bad key or value raises ValueError
        return self


def parse_overrides(pairs: list[str]) -> dict:
    """`key=value` strings as config keywords; a value is read as JSON when it can be
    (numbers, true/false, lists), else as a string."""
    out = {}
    for pair in pairs:
        key, sep, text = pair.partition("=")
        if not sep or key not in KEYS:
            raise ValueError(
                f"bad override {pair!r}: write key=value with a key from {', '.join(KEYS)}"
            )
        try:
            value = json.loads(text)
        except json.JSONDecodeError:
            value = text
        out[key] = tuple(value) if isinstance(value, list) else value
    return out


def load_preset(path: str | Path) -> Preset:
    """A custom preset from a JSON file: `name` plus any config keys."""
    data = json.loads(Path(path).read_text())
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise ValueError(
            f"{path}: a preset file is a JSON object with a string 'name' and config keys"
        )
    name = data.pop("name")
    if isinstance(data.get("party"), list):
        data["party"] = tuple(data["party"])
    return Preset(name, data).validated()


def standard_presets(names=DIFFICULTIES, depth: int | None = None, overrides=None) -> list[Preset]:
    base = dict(overrides or {})
    if depth is not None:
        base["depth"] = depth
    return [Preset(n, {**base, "difficulty": n}).validated() for n in names]


# --- playing -------------------------------------------------------------------------------

_ENVS: dict = {}
_POLICIES: dict = {}


def _policy(spec: str):
    """'scripted' or 'random', built once a worker (a model plays batched: `play_model`)."""
    if spec not in _POLICIES:
        if spec == "scripted":
            from agents.scripted import ScriptedAgent

            agent = ScriptedAgent()
            _POLICIES[spec] = lambda env, obs, mask: agent.act(env)
        elif spec == "random":
            rng = np.random.default_rng(0)
            _POLICIES[spec] = lambda env, obs, mask: int(rng.choice(np.flatnonzero(mask)))
        else:
            raise ValueError(f"unknown policy {spec!r}: {POLICIES}")
    return _POLICIES[spec]


def play_run(job: tuple) -> dict:
    """One run: (preset name, config, policy spec, seed) -> what it came to."""
    from ..env import DelveEnv

    name, config, spec, seed = job
    key = json.dumps(config, sort_keys=True, default=list)
    if key not in _ENVS:
        _ENVS[key] = DelveEnv(**config)
    env = _ENVS[key]
    policy = _policy(spec)
    if spec == "random":  # the same random choices for a seed, whoever plays it first
        _POLICIES.pop(spec)
        policy = _policy(spec)
    obs, info = env.reset(seed=seed)
    done, truncated, steps = False, False, 0
    while not done:
        obs, _, terminated, truncated, info = env.step(policy(env, obs, info["action_mask"]))
        steps += 1
        done = terminated or truncated
    return run_record(env.engine.state, 0, name, spec, seed, steps, truncated)


def run_record(s, e: int, name: str, spec: str, seed: int, steps: int, truncated: bool) -> dict:
    """What the run that just ended in slot e came to, and why it was lost."""
    from ..spaces import episode_stats

    stats = episode_stats(s, e)
    cause = None
    if not stats["won"]:
        if truncated:
            cause = "out of steps"
        elif s.has_king[e] and s.hp[e, KING_SLOT] <= 0:
            cause = "the king"
        elif s.events[e] & EV_HUNGER:
            cause = "hunger"
        else:
            cause = "all fallen"
    return {
        "preset": name, "policy": spec, "seed": seed, "won": stats["won"],
        "book_home": stats["book_home"], "deepest": stats["deepest_floor"],
        "members_lost": stats["members_lost"], "raises": stats["raises_used"],
        "gold": stats["gold"], "rations": int(s.rations[e]), "paces": stats["paces"],
        "steps": int(steps), "cause": cause, "floor": int(s.floor[e]),
        "depth": int(s.floor_visited.shape[1] - 1),
    }  # fmt: skip


POLICIES = (
    "scripted, random, trained (the policy shipped for each preset's difficulty, "
    "sampled), model:PATH.zip (likeliest actions) or sampled:PATH.zip"
)


def is_model(spec: str) -> bool:
    """A learned policy, played batched: a saved model or the shipped one."""
    return spec == "trained" or spec.startswith(("model:", "sampled:"))


def play_model(preset: Preset, spec: str, seeds: range) -> list[dict]:
    """Every seed's run for a learned policy, all in one batched engine (slot i plays seeds[i],
    the same game as the single env reset with it), one forward pass a step for all.
    'trained' samples the policy shipped for the preset's difficulty (`policy.shipped`).
    'model:PATH.zip' takes the likeliest action; 'sampled:PATH.zip' samples the policy: a
    `delve train` policy from each game's own stream (`policy.play`), an SB3 MaskablePPO on
    float observations with torch seeded with the first seed."""
    from ..policy import PolicyNet, is_policy_file, play, shipped

    kind, path = spec.split(":", 1) if spec != "trained" else ("sampled", None)
    if path is None or is_policy_file(path):
        difficulty = Config.from_kwargs(**preset.config).difficulty
        policy = shipped(difficulty) if path is None else PolicyNet.load(path)

        def on_end(s, e, steps, truncated):
            return run_record(s, e, preset.name, spec, int(seeds[e]), steps, truncated)

        return play(policy.logits, preset.config, seeds, kind == "sampled", on_end)
    import torch
    from sb3_contrib import MaskablePPO

    from ..vector import DelveVectorEnv
    from ..wrappers import float_scales, to_float

    model = MaskablePPO.load(path, device="cpu")
    if kind == "sampled":
        torch.manual_seed(seeds.start)
    venv = DelveVectorEnv(len(seeds), **preset.config)
    obs, _ = venv.reset(seed=list(seeds))
    scales, eng = float_scales(), venv.engine
    runs: list = [None] * len(seeds)
    steps = np.zeros(len(seeds), dtype=np.int64)
    playing = np.ones(len(seeds), dtype=np.bool_)
    while playing.any():
        actions, _ = model.predict(to_float(obs, scales), action_masks=eng.masks.copy(),
                                   deterministic=kind == "model")  # fmt: skip
        obs, _, terminated, truncated, _ = venv.step(actions)
        steps[playing] += 1
        for e in np.flatnonzero(playing & (terminated | truncated)):  # next-step autoreset:
            runs[e] = run_record(eng.state, e, preset.name, spec, seeds[e], steps[e],
                                 bool(truncated[e] and not terminated[e]))  # fmt: skip
            playing[e] = False
    return runs


def play_all(presets: list[Preset], policies: list[str], seeds: range, workers: int = 1,
             progress: bool = True) -> list[dict]:  # fmt: skip
    """Every (preset, policy, seed) run: the scripted and random ones in a pool of `workers`
    processes, a model's batched (`play_model`); in that order of preset, policy and seed."""
    for spec in policies:
        if spec not in ("scripted", "random") and not is_model(spec):
            raise ValueError(f"unknown policy {spec!r}: {POLICIES}")
    alone = [s for s in policies if not is_model(s)]
    jobs = [(p.name, p.config, spec, seed) for p in presets for spec in alone for seed in seeds]
    if workers <= 1:
        runs = _track(map(play_run, jobs), len(jobs), progress)
    else:
        with mp.get_context("fork").Pool(workers) as pool:
            runs = _track(pool.imap(play_run, jobs, chunksize=4), len(jobs), progress)
    for p in presets:
        for spec in policies:
            if is_model(spec):
                runs += play_model(p, spec, seeds)
    order = {
        (p.name, spec): i for i, (p, spec) in enumerate((p, s) for p in presets for s in policies)
    }
    return sorted(runs, key=lambda r: (order[(r["preset"], r["policy"])], r["seed"]))


def _track(it, total: int, progress: bool) -> list[dict]:
    if not progress:
        return list(it)
    from rich.progress import Progress

    out = []
    with Progress(transient=True) as bar:
        task = bar.add_task("playtest", total=total)
        for run in it:
            out.append(run)
            bar.advance(task)
    return out


# --- the report ----------------------------------------------------------------------------


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson interval of k successes in n."""
    if n == 0:
        return 0.0, 1.0
    phat = k / n
    mid = (phat + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def summarize(runs: list[dict]) -> list[dict]:
    """One row per (preset, policy), in the order first met: the COLUMNS."""
    groups: dict[tuple, list] = {}
    for r in runs:
        groups.setdefault((r["preset"], r["policy"]), []).append(r)
    rows = []
    for (preset, policy), rs in groups.items():
        n, wins = len(rs), sum(r["won"] for r in rs)
        low, high = wilson(wins, n)
        row = {"preset": preset, "policy": policy, "runs": n, "win %": 100 * wins / n,
               "95% interval": (100 * low, 100 * high),
               "book home %": 100 * sum(r["book_home"] for r in rs) / n}  # fmt: skip
        for col, k in (("deepest", "deepest"), ("members lost", "members_lost"),
                       ("raises", "raises"), ("gold", "gold"), ("rations", "rations"),
                       ("paces", "paces")):  # fmt: skip
            row[col] = float(np.mean([r[k] for r in rs]))
        for c in LOSS_CAUSES:
            row[f"lost: {c}"] = sum(r["cause"] == c for r in rs)
        rows.append(row)
    return rows


def loss_floors(runs: list[dict]) -> dict[tuple, np.ndarray]:
    """Per (preset, policy): losses counted by the floor they happened on (0 the courtyard)."""
    out: dict[tuple, np.ndarray] = {}
    for r in runs:
        counts = out.setdefault((r["preset"], r["policy"]), np.zeros(r["depth"] + 1, dtype=int))
        if r["cause"] is not None:
            counts[min(r["floor"], len(counts) - 1)] += 1
    return out


def survival(runs: list[dict]) -> dict[tuple, np.ndarray]:
    """Per (preset, policy): the share of runs that reached floor f, f = 0..depth."""
    groups: dict[tuple, list] = {}
    for r in runs:
        groups.setdefault((r["preset"], r["policy"]), []).append(r)
    return {k: np.array([np.mean([r["deepest"] >= f for r in rs])
                         for f in range(max(r["depth"] for r in rs) + 1)])
            for k, rs in groups.items()}  # fmt: skip


def difficulty_ladder(rows: list[dict], order=DIFFICULTIES) -> list[str]:
    """DIFF-1: a harder preset never wins more often. One line per policy and step of the
    ladder: kept, or broken (and whether the intervals even overlap)."""
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


def markdown(rows: list[dict], floors: dict, ladder: list[str]) -> str:
    def cell(v):
        if isinstance(v, tuple):
            return f"{v[0]:.1f}-{v[1]:.1f}"
        if isinstance(v, float):
            return f"{v:.1f}"
        return str(v)

    out = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    out += ["| " + " | ".join(cell(r[c]) for c in COLUMNS) + " |" for r in rows]
    depth = max(len(c) for c in floors.values())
    out += ["", "Losses by the floor they happened on (0: the courtyard):", "",
            "| preset | policy | " + " | ".join(str(f) for f in range(depth)) + " |",
            "|---|---|" + "---|" * depth]  # fmt: skip
    for (preset, policy), counts in floors.items():
        padded = list(counts) + [0] * (depth - len(counts))
        out.append(f"| {preset} | {policy} | " + " | ".join(str(c) for c in padded) + " |")
    out += ["", "DIFF-1 (a harder preset never wins more often):", ""]
    out += [f"- {line}" for line in ladder]
    return "\n".join(out) + "\n"


def plot(rows: list[dict], curves: dict, path: Path) -> None:
    """Win rates with intervals, and the per-floor survival curves, as one PNG."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
    labels = [f"{r['preset']}\n{r['policy']}" for r in rows]
    wins = [r["win %"] for r in rows]
    err = [[max(0.0, w - r["95% interval"][0]) for w, r in zip(wins, rows)],
           [max(0.0, r["95% interval"][1] - w) for w, r in zip(wins, rows)]]  # fmt: skip
    left.bar(range(len(rows)), wins, yerr=err, capsize=4, color="#4c72b0")
    left.set_xticks(range(len(rows)), labels, fontsize=8)
    left.set_ylabel("win % (95% interval)")
    left.set_ylim(0, 100)
    left.set_title("wins per preset")
    for (preset, policy), curve in curves.items():
        right.plot(range(len(curve)), 100 * curve, marker="o", label=f"{preset} ({policy})")
    right.set_xlabel("floor")
    right.set_ylabel("% of runs that reached it")
    right.set_ylim(0, 105)
    right.set_title("how deep runs get")
    right.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def report(runs: list[dict], out_dir: Path | None = None) -> str:
    """The markdown report; with `out_dir`, also playtest.md, playtest.json and playtest.png."""
    rows = summarize(runs)
    text = markdown(rows, loss_floors(runs), difficulty_ladder(rows))
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        (out_dir / "playtest.md").write_text(text)
        (out_dir / "playtest.json").write_text(json.dumps(runs) + "\n")
        plot(rows, survival(runs), out_dir / "playtest.png")
    return text


def add_arguments(parser) -> None:
    parser.add_argument("--presets", nargs="+", default=list(DIFFICULTIES), choices=DIFFICULTIES,
                        help="difficulties to play (default all three)")  # fmt: skip
    parser.add_argument("--preset-file", action="append", default=[], metavar="FILE.json",
                        help="a custom preset: a JSON object with 'name' and config keys")  # fmt: skip
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                        help="a config override for every preset (e.g. guard_chance=0.9)")  # fmt: skip
    parser.add_argument("--depth", type=int, default=None, help="floors (default: each preset's)")
    parser.add_argument("--policy", action="append", default=None,
                        help=f"{POLICIES} (default scripted); repeatable")  # fmt: skip
    parser.add_argument("--seeds", type=int, default=500, help="runs per preset and policy")
    parser.add_argument("--first-seed", type=int, default=1000, help="default 1000")
    parser.add_argument("--workers", type=int, default=None, help="processes (default: all cores)")
    parser.add_argument("--out", type=Path, default=None, help="write playtest.md/.json/.png here")


def run(args) -> int:
    overrides = parse_overrides(args.set)
    presets = standard_presets(args.presets, args.depth, overrides)
    for path in args.preset_file:
        custom = load_preset(path)
        presets.append(Preset(custom.name, {**overrides, **custom.config}).validated())
    workers = args.workers or mp.cpu_count()
    runs = play_all(
        presets,
        args.policy or ["scripted"],
        range(args.first_seed, args.first_seed + args.seeds),
        workers,
    )
    print(report(runs, args.out), end="")
    return 0
