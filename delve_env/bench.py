"""Throughput benchmark: steps per second with a random-legal policy, mask included.

Measures (ENV.md, Speed):

- `single`: one env through `gymnasium.make("Delve-v0")` (all wrappers), a Python loop that
  picks the action from `info["action_mask"]` and resets when an episode ends;
- `vector`: the native vector env (`DelveVectorEnv.step`, next-step autoreset) at N envs,
  actions sampled from the (N, A) mask in `info["action_mask"]` by a compiled helper;
- optionally `engine`: the bare `Engine.step` (no Gymnasium layer, no copies) at the same N.

The policy's cost is included but kept small: uniform numbers are drawn a block at a time
and the k-th legal index of each row is picked. JIT compile time (or, on a warm numba cache,
the time to load it) is reported apart as `compile_s`: the first reset + step in the process.

`delve bench` and `benchmarks/throughput.py` both call `main` here.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence

import numpy as np
from numba import njit

DEFAULT_SIZES = (1, 64, 1024, 4096)
DEFAULT_SECONDS = 3.0
BLOCK = 4096  # uniform numbers drawn per refill (single env: steps; vector: rows)

SETTINGS = {  # the table's setting column, and what each measured loop includes
    "single": ("gym single env", "gym.make (all wrappers), obs/info copies, "
               "mask -> action in Python, resets in the loop"),
    "vector": ("gym vector env", "DelveVectorEnv.step: obs/reward/mask copies, "
               "next-step autoreset, compiled sampler"),
    "engine": ("bare Engine", "Engine.step into reused buffers, autoreset flags, "
               "compiled sampler"),
}  # fmt: skip


@njit(cache=True)
def sample_legal(masks, u, out):
    """Write into `out[i]` the k-th legal index of row i, k = floor(u[i] * legal count).

    A row with no legal action (a finished slot whose action is ignored) gets 0.
    """
    n, num_actions = masks.shape
    for i in range(n):
        count = 0
        for j in range(num_actions):
            if masks[i, j]:
                count += 1
        if count == 0:
            out[i] = 0
            continue
        k = min(int(u[i] * count), count - 1)
        for j in range(num_actions):
            if masks[i, j]:
                if k == 0:
                    out[i] = j
                    break
                k -= 1


def machine_info() -> dict:
    """The machine a measurement ran on: cpu model, cores, python, numba, numpy, load."""
    import numba

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):
        load = float("nan")
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "numpy": np.__version__,
        "platform": f"{platform.system()} {platform.machine()}",
        "load_1min": round(load, 2),
    }


def machine_line(m: dict) -> str:
    return (
        f"{m['cpu']}, {m['cores']} cores, Python {m['python']}, numba {m['numba']}, "
        f"numpy {m['numpy']}, {m['platform']}, load avg {m['load_1min']}"
    )


def _cache_hit() -> bool | None:
    """Whether the engine's step was loaded from numba's on-disk cache (None if unknown)."""
    try:
        from .engine.step import step_batch

        stats = step_batch.stats
        return bool(sum(stats.cache_hits.values())) and not sum(stats.cache_misses.values())
    except Exception:  # noqa: BLE001 - diagnostics only
        return None


def measure_compile() -> float:
    """Seconds for the first reset + step (and sampler call) in this process: the JIT compile,
    or its load from numba's cache when that is warm. ~0 if something already ran them."""
    import gymnasium as gym  # the ids are registered: this module lives in delve_env

    t0 = time.perf_counter()
    env = gym.make("Delve-v0")
    _, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    masks = info["action_mask"][None, :]
    sample_legal(masks, np.zeros(1), np.zeros(1, dtype=np.int64))
    env.close()
    return time.perf_counter() - t0


def measure_cold_compile() -> float:
    """Seconds to import delve_env and run the first reset + step in a fresh process with an
    empty numba cache (a true compile from scratch; takes about a minute)."""
    code = (
        "import time; t = time.perf_counter(); import delve_env.bench as b; "
        "b.measure_compile(); print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    return float(out.stdout.strip().splitlines()[-1])


def bench_single(seconds: float, seed: int = 0, **config) -> float:
    """Steps per second of one env through `gymnasium.make("Delve-v0")` with a random-legal
    policy read from `info["action_mask"]`; episodes that end are reset inside the timing."""
    import gymnasium as gym  # the ids are registered: this module lives in delve_env

    env = gym.make("Delve-v0", **config)
    rng = np.random.default_rng(seed)
    _, info = env.reset(seed=seed)

    def run(duration: float, min_steps: int) -> tuple[int, float]:
        nonlocal info
        steps, j = 0, BLOCK
        u = rng.random(BLOCK)
        t0 = time.perf_counter()
        end = t0 + duration
        while True:
            if j == BLOCK:
                u, j = rng.random(BLOCK), 0
            legal = np.flatnonzero(info["action_mask"])
            action = int(legal[int(u[j] * len(legal))])
            j += 1
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                _, info = env.reset()
            steps += 1
            if steps >= min_steps and (steps & 63) == 0 and time.perf_counter() >= end:
                return steps, time.perf_counter() - t0

    run(_warmup(seconds), 64)
    steps, elapsed = run(seconds, 64)
    env.close()
    return steps / elapsed


def bench_vector(num_envs: int, seconds: float, seed: int = 0, **config) -> float:
    """Env steps per second (N per call) of the native vector env through `step`, actions
    sampled from the (N, A) `info["action_mask"]`; finished slots autoreset inside the timing."""
    from .vector import DelveVectorEnv

    env = DelveVectorEnv(num_envs, **config)
    rng = np.random.default_rng(seed)
    actions = np.zeros(num_envs, dtype=np.int64)
    _, info = env.reset(seed=seed)
    uniforms = _Uniforms(rng, num_envs)

    def run(duration: float, min_calls: int) -> tuple[int, float]:
        nonlocal info
        calls = 0
        t0 = time.perf_counter()
        end = t0 + duration
        while calls < min_calls or time.perf_counter() < end:
            sample_legal(info["action_mask"], uniforms.next(), actions)
            _, _, _, _, info = env.step(actions)
            calls += 1
        return calls, time.perf_counter() - t0

    run(_warmup(seconds), 2)
    calls, elapsed = run(seconds, 2)
    env.close()
    return calls * num_envs / elapsed


def bench_engine(num_envs: int, seconds: float, seed: int = 0, **config) -> float:
    """Env steps per second of the bare batched `Engine.step` (the ceiling under the vector env)."""
    from .config import Config
    from .engine.batch import Engine

    cfg = Config.from_kwargs(**config)
    eng = Engine(num_envs, cfg.params(), cfg.party_classes())
    rng = np.random.default_rng(seed)
    actions = np.zeros(num_envs, dtype=np.int64)
    done = np.zeros(num_envs, dtype=np.bool_)
    eng.reset(np.arange(seed, seed + num_envs, dtype=np.uint64), np.ones(num_envs, np.bool_))
    uniforms = _Uniforms(rng, num_envs)

    def run(duration: float, min_calls: int) -> tuple[int, float]:
        nonlocal done
        calls = 0
        t0 = time.perf_counter()
        end = t0 + duration
        while calls < min_calls or time.perf_counter() < end:
            sample_legal(eng.masks, uniforms.next(), actions)
            eng.step(actions, done)
            done = eng.terminated | eng.truncated
            calls += 1
        return calls, time.perf_counter() - t0

    run(_warmup(seconds), 2)
    calls, elapsed = run(seconds, 2)
    return calls * num_envs / elapsed


class _Uniforms:
    """Rows of N uniform numbers, drawn BLOCK numbers at a time."""

    def __init__(self, rng: np.random.Generator, n: int):
        self.rng, self.n = rng, n
        self.rows = max(1, BLOCK // n)
        self.block, self.i = rng.random((self.rows, n)), 0

    def next(self) -> np.ndarray:
        if self.i == self.rows:
            self.block, self.i = self.rng.random((self.rows, self.n)), 0
        self.i += 1
        return self.block[self.i - 1]


def _warmup(seconds: float) -> float:
    return min(1.0, 0.2 * seconds)


def run_all(
    seconds: float = DEFAULT_SECONDS,
    sizes: Sequence[int] = DEFAULT_SIZES,
    engine: bool = False,
    cold: bool = False,
    progress=None,
) -> dict:
    """Every measurement; returns {"single", "vector", "compile_s", optionally "engine",
    "cold_compile_s"}, plus "machine" and "cache_hit"."""

    def say(msg: str) -> None:
        if progress is not None:
            progress(msg)

    result: dict = {}
    if cold:
        say("compiling from an empty numba cache in a fresh process...")
        result["cold_compile_s"] = measure_cold_compile()
    say("first reset + step (compile or cache load)...")
    result["compile_s"] = measure_compile()
    result["cache_hit"] = _cache_hit()
    say(f"single env, {seconds:g} s...")
    result["single"] = bench_single(seconds)
    result["vector"] = {}
    for n in sizes:
        say(f"vector env N={n}, {seconds:g} s...")
        result["vector"][str(n)] = bench_vector(n, seconds)
    if engine:
        result["engine"] = {}
        for n in sizes:
            say(f"bare engine N={n}, {seconds:g} s...")
            result["engine"][str(n)] = bench_engine(n, seconds)
    result["machine"] = machine_info()
    return result


def format_table(result: dict, seconds: float) -> None:
    """Print the results as a table (rich when installed, plain text otherwise)."""
    rows = [(SETTINGS["single"][0], "1", result["single"])]
    for key in ("vector", "engine"):
        rows += [(SETTINGS[key][0], n, sps) for n, sps in result.get(key, {}).items()]
    cache = {True: "numba cache hit", False: "compiled, cache miss", None: "cache unknown"}
    notes = [
        f"compile_s: {result['compile_s']:.2f} s (first reset+step in this process, "
        f"{cache[result['cache_hit']]})"
    ]
    if "cold_compile_s" in result:
        notes.append(
            f"cold compile: {result['cold_compile_s']:.1f} s "
            "(import + first reset+step, fresh process, empty numba cache)"
        )
    notes.append(f"policy: uniform random legal action, {seconds:g} s per row after warm-up")
    used = ["single", "vector"] + (["engine"] if "engine" in result else [])
    notes += [f"{SETTINGS[k][0]}: {SETTINGS[k][1]}" for k in used]
    notes.append("machine: " + machine_line(result["machine"]))
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        width = max(len(r[0]) for r in rows)
        print(f"{'setting':<{width}}  {'N':>5}  {'steps/s':>12}")
        for setting, n, sps in rows:
            print(f"{setting:<{width}}  {n:>5}  {sps:>12,.0f}")
        print("\n".join(notes))
        return
    table = Table(title="Delve throughput")
    table.add_column("setting")
    table.add_column("N", justify="right")
    table.add_column("steps/s", justify="right")
    for setting, n, sps in rows:
        table.add_row(setting, n, f"{sps:,.0f}")
    console = Console()
    console.print(table)
    for note in notes:
        console.print(note, highlight=False, soft_wrap=True)


def parse_sizes(text: str) -> list[int]:
    try:
        sizes = [int(x) for x in text.split(",") if x.strip()]
    except ValueError:
        raise argparse.ArgumentTypeError(
            f"sizes must be comma-separated integers: {text!r}"
        ) from None
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"sizes must be positive integers: {text!r}")
    return sizes


def positive_float(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"must be positive: {text!r}")
    return value


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--seconds",
        type=positive_float,
        default=DEFAULT_SECONDS,
        help=f"timed seconds per row after warm-up (default {DEFAULT_SECONDS:g})",
    )
    parser.add_argument(
        "--sizes",
        type=parse_sizes,
        default=list(DEFAULT_SIZES),
        help="comma-separated vector sizes N (default " + ",".join(map(str, DEFAULT_SIZES)) + ")",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print only {"single": sps, "vector": {N: sps}, "compile_s": s}',
    )
    parser.add_argument(
        "--engine", action="store_true", help="also time the bare Engine.step at each N"
    )
    parser.add_argument(
        "--cold",
        action="store_true",
        help="also time a compile from an empty numba cache in a fresh process (~1 min)",
    )


def run(args: argparse.Namespace) -> int:
    progress = None if args.json else (lambda msg: print(msg, file=sys.stderr, flush=True))
    result = run_all(args.seconds, args.sizes, args.engine, args.cold, progress)
    if args.json:
        out = {"single": result["single"], "vector": result["vector"]}
        if "engine" in result:
            out["engine"] = result["engine"]
        out["compile_s"] = result["compile_s"]
        if "cold_compile_s" in result:
            out["cold_compile_s"] = result["cold_compile_s"]
        print(json.dumps(out))
    else:
        format_table(result, args.seconds)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="throughput", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
