"""Throughput benchmark: steps per second with a random-legal policy, mask included.

Measures (ENV.md, Speed):

- `single`: one env through `gymnasium.make("Delve-v0")` (all wrappers), a Python loop that
  picks the action from `info["action_mask"]` and resets when an episode ends;
- `vector`: the native vector env (`DelveVectorEnv.step`, next-step autoreset) at N envs,
  actions sampled from the (N, A) mask in `info["action_mask"]` by a compiled helper, at
  each thread count of `--threads` (`num_threads` is passed to the env only when it is not 1);
- optionally `engine`: the bare `Engine.step` (no Gymnasium layer, no copies) at the same N;
- optionally (`--peers`) other environments stepped by the single env's loop with a uniformly
  random action (`peers.py`): CartPole-v1 and MiniGrid DoorKey-8x8 through `gym.make`, Crafter
  and NetHack (NLE) when installed; every Delve row is also given as a multiple of them;
- the time to reset one whole default dungeon (`Engine.reset` of one slot, median) and the
  bytes of `engine.state` per slot.

Every row's loop is set up and warmed up first; then the rows are timed in turn, ROUNDS
times each, so that this machine's speed drifting during the run (a shared VM's does, by
10-30%) falls on every row alike and the ratios between rows hold. The policy's cost is
included but kept small: uniform numbers are drawn a block at a time and the k-th legal
index of each row is picked. JIT compile time (or, on a warm numba cache,
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

from .args import Parser
from .peers import PEERS, RATIO_PEERS, SHORT_NAMES, Peer, unavailable

DEFAULT_SIZES = (1, 64, 1024, 4096)
DEFAULT_SECONDS = 3.0
DEFAULT_THREADS = "1,all"  # vector-env thread counts; all = os.cpu_count()
BLOCK = 4096  # uniform numbers drawn per refill (single env: steps; vector: rows)
RESETS_MIN, RESETS_MAX = 50, 2000  # dungeon resets timed for the median
ROUNDS = 5  # every row is timed in this many turns (`interleaved`)

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
    bits = masks.view(np.uint8)  # a legal action counts 1: summed without a branch
    blocks = num_actions // 32  # the k-th is looked for a block of 32 at a time, then singly
    for i in range(n):
        row = bits[i]
        count = 0
        for j in range(num_actions):
            count += int(row[j])  # (int: without the JIT, numpy would add in uint8)
        if count == 0:
            out[i] = 0
            continue
        k = min(int(u[i] * count), count - 1)
        j = 0
        for _ in range(blocks):
            in_block = 0
            for t in range(32):  # a fixed width: one vector sum
                in_block += int(row[j + t])
            if k < in_block:
                break
            k -= in_block
            j += 32
        while True:
            k -= int(row[j])
            if k < 0:
                out[i] = j
                break
            j += 1


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
        from ..engine.step import step_batch

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
        "import time; t = time.perf_counter(); import delve_env.tools.bench as b; "
        "b.measure_compile(); print(time.perf_counter() - t)"
    )
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, NUMBA_CACHE_DIR=cache)
        out = subprocess.run(
            [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
        )
    return float(out.stdout.strip().splitlines()[-1])


def gym_loop(env, seed: int = 0, masked: bool = False):
    """The loop that times one Gymnasium-style env: `run(seconds)` steps it for about that
    long and returns (steps, 0, elapsed), resetting it when an episode ends (inside the
    timing). The action is uniformly random: over the legal actions of `info["action_mask"]`
    when `masked`, over `action_space.n` otherwise. Delve's single env and every peer go
    through this loop, so they are timed alike."""
    rng = np.random.default_rng(seed)
    num_actions = int(env.action_space.n)
    _, info = env.reset(seed=seed)
    u, j = rng.random(BLOCK), 0

    def run(duration: float) -> tuple[int, int, float]:
        nonlocal info, u, j
        steps = 0
        t0 = time.perf_counter()
        end = t0 + duration
        while True:
            if j == BLOCK:
                u, j = rng.random(BLOCK), 0
            if masked:
                legal = info["action_mask"].nonzero()[0]  # (np.flatnonzero: 1 us more)
                action = int(legal[int(u[j] * len(legal))])
            else:
                action = int(u[j] * num_actions)
            j += 1
            _, _, terminated, truncated, info = env.step(action)
            if terminated or truncated:
                _, info = env.reset()
            steps += 1
            if steps >= 64 and (steps & 63) == 0 and time.perf_counter() >= end:
                return steps, 0, time.perf_counter() - t0

    run.close = env.close
    return run


def single_loop(seed: int = 0, **config):
    """`gym_loop` of one env through `gymnasium.make("Delve-v0")` with a random-legal policy
    read from `info["action_mask"]`."""
    import gymnasium as gym  # the ids are registered: this module lives in delve_env

    return gym_loop(gym.make("Delve-v0", **config), seed, masked=True)


def peer_loop(peer: Peer, seed: int = 0):
    """`gym_loop` of a peer env (peers.py), with a uniformly random action."""
    return gym_loop(peer.make(seed), seed, masked=False)


def vector_loop(num_envs: int, seed: int = 0, num_threads: int = 1, **config):
    """The loop that times the native vector env through `step` (N env steps a call), actions
    sampled from the (N, A) `info["action_mask"]`; finished slots autoreset inside the timing.
    `run(seconds)` returns (env steps, game paces, elapsed): `info["paces"]`, a travel step
    takes many, a fight's none. `num_threads` reaches the env only when it is not 1 (1 is the
    env's default)."""
    from ..vector import DelveVectorEnv

    if num_threads != 1:
        config["num_threads"] = num_threads
    env = DelveVectorEnv(num_envs, **config)
    rng = np.random.default_rng(seed)
    actions = np.zeros(num_envs, dtype=np.int64)
    _, info = env.reset(seed=seed)
    uniforms = _Uniforms(rng, num_envs)

    def run(duration: float) -> tuple[int, int, float]:
        nonlocal info
        calls = walked = 0
        t0 = time.perf_counter()
        end = t0 + duration
        while calls < 2 or time.perf_counter() < end:
            sample_legal(info["action_mask"], uniforms.next(), actions)
            _, _, _, _, info = env.step(actions)
            walked += int(info["paces"].sum())
            calls += 1
        return calls * num_envs, walked, time.perf_counter() - t0

    run.close = env.close
    return run


def new_engine(num_envs: int, seed: int = 0, **config):
    """A bare batched `Engine` of `num_envs` games of the config, reset from seeds seed,
    seed + 1, ..."""
    from ..config import Config
    from ..engine.batch import Engine

    cfg = Config.from_kwargs(**config)
    eng = Engine(num_envs, cfg.params(), cfg.party_classes())
    eng.reset(np.arange(seed, seed + num_envs, dtype=np.uint64), np.ones(num_envs, np.bool_))
    return eng


def engine_loop(num_envs: int, seed: int = 0, **config):
    """The loop that times the bare batched `Engine.step` (the ceiling under the vector env);
    `run(seconds)` returns (env steps, 0, elapsed)."""
    eng = new_engine(num_envs, seed, **config)
    rng = np.random.default_rng(seed)
    actions = np.zeros(num_envs, dtype=np.int64)
    done = np.zeros(num_envs, dtype=np.bool_)
    uniforms = _Uniforms(rng, num_envs)

    def run(duration: float) -> tuple[int, int, float]:
        nonlocal done
        calls = 0
        t0 = time.perf_counter()
        end = t0 + duration
        while calls < 2 or time.perf_counter() < end:
            sample_legal(eng.masks, uniforms.next(), actions)
            eng.step(actions, done)
            done = eng.terminated | eng.truncated
            calls += 1
        return calls * num_envs, 0, time.perf_counter() - t0

    return run


def interleaved(loops: Sequence, seconds: float, rounds: int = 1) -> list[tuple[float, float]]:
    """(steps/s, paces/s) of each loop over `seconds`: each is warmed up, then they run in
    turn, `rounds` times for `seconds / rounds` each, so a change of the machine's speed
    during the measurement falls on every row alike and their ratios hold."""
    for run in loops:
        run(_warmup(seconds))
    totals = np.zeros((len(loops), 3))
    for _ in range(rounds):
        for i, run in enumerate(loops):
            totals[i] += run(seconds / rounds)
    return [(steps / elapsed, walked / elapsed) for steps, walked, elapsed in totals]


def measure_reset(seconds: float, seed: int = 0, **config) -> tuple[float, int]:
    """(median ms, count) of `Engine.reset` of one slot: one whole dungeon of the config
    (default: normal, depth 6) generated from a fresh seed each time, observation and mask
    included. Compiled before the timing; as many resets as fit in `seconds`, within
    RESETS_MIN..RESETS_MAX."""
    from ..config import Config
    from ..engine.batch import Engine

    cfg = Config.from_kwargs(**config)
    eng = Engine(1, cfg.params(), cfg.party_classes())
    which = np.ones(1, dtype=np.bool_)
    eng.reset(np.array([seed], dtype=np.uint64), which)
    times: list[float] = []
    end = time.perf_counter() + seconds
    while len(times) < RESETS_MIN or (len(times) < RESETS_MAX and time.perf_counter() < end):
        seeds = np.array([seed + 1 + len(times)], dtype=np.uint64)
        t0 = time.perf_counter()
        eng.reset(seeds, which)
        times.append(time.perf_counter() - t0)
    return float(np.median(times)) * 1e3, len(times)


def bytes_per_slot(num_envs: int = 64, **config) -> tuple[int, int]:
    """(bytes, depth): the bytes of `engine.state` arrays per env (each field's nbytes over N,
    summed) at the config's depth (default 6); output buffers not included."""
    from ..config import Config
    from ..engine.batch import Engine
    from ..engine.core.params import P_DEPTH

    cfg = Config.from_kwargs(**config)
    params = cfg.params()
    eng = Engine(num_envs, params, cfg.party_classes())
    return sum(a.nbytes // num_envs for a in eng.state), int(params[P_DEPTH])


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
    threads: Sequence[int] = (1,),
    peers: bool = False,
) -> dict:
    """Every measurement; returns {"single", "vector" (1 thread), "compile_s", "reset_ms",
    "bytes_per_slot", optionally "vector_threads" ({T: {N: sps}} for each T != 1), "engine",
    "peers", "cold_compile_s", "skipped" ({what: why})}, plus "machine", "cache_hit",
    "resets", "depth", "threads" and "peer_notes" for the table."""

    def say(msg: str) -> None:
        if progress is not None:
            progress(msg)

    result: dict = {"threads": list(threads)}
    skipped: dict[str, str] = {}
    if cold:
        say("compiling from an empty numba cache in a fresh process...")
        result["cold_compile_s"] = measure_cold_compile()
    say("first reset + step (compile or cache load)...")
    result["compile_s"] = measure_compile()
    result["cache_hit"] = _cache_hit()
    # every row's loop is set up first, then all are timed in turn (`interleaved`)
    rows: list[tuple[tuple[str, ...], object]] = [(("single",), single_loop())]
    for t in threads:
        refused, why = [], ""
        for n in sizes:
            say(f"setting up the vector env N={n}, {t} thread{'s' * (t != 1)}...")
            try:
                rows.append(((("vector",) if t == 1 else ("vector_threads", str(t))) + (str(n),),
                             vector_loop(n, num_threads=t)))  # fmt: skip
            except (TypeError, ValueError) as err:  # an engine without num_threads, or a
                if t == 1 or "num_threads" not in str(err):  # count it does not take
                    raise
                refused.append(str(n))
                why = why or f"DelveVectorEnv refused num_threads={t}: {err}"
        if refused:
            skipped[f"vector env, {t} threads, N={','.join(refused)}"] = why
    if engine:
        rows += [(("engine", str(n)), engine_loop(n)) for n in sizes]
    if peers:
        result["peers"], result["peer_notes"] = {}, {}
        for peer in PEERS:
            why = unavailable(peer)
            if why is not None:
                skipped[peer.name] = why
                continue
            rows.append((("peers", peer.name), peer_loop(peer)))
            result["peer_notes"][peer.name] = peer.how
    say(f"{len(rows)} rows, {seconds:g} s each, timed in turn over {ROUNDS} rounds...")
    rates = interleaved([run for _, run in rows], seconds, ROUNDS)
    for _, run in rows:
        getattr(run, "close", lambda: None)()
    result["vector"] = {}
    for (path, _), (rate, walked) in zip(rows, rates):
        if path == ("single",):
            result["single"] = rate
            continue
        *keys, last = path
        table = result
        for key in keys:
            table = table.setdefault(key, {})
        table[last] = rate
        if path[0] == "vector":
            result.setdefault("vector_paces", {})[last] = walked
    say("dungeon resets and state size...")
    result["reset_ms"], result["resets"] = measure_reset(seconds)
    result["bytes_per_slot"], result["depth"] = bytes_per_slot()
    if skipped:
        result["skipped"] = skipped
    result["machine"] = machine_info()
    return result


JSON_KEYS = ("single", "vector", "vector_paces", "vector_threads", "engine", "peers", "compile_s",
             "cold_compile_s", "reset_ms", "bytes_per_slot", "skipped")  # fmt: skip


def json_result(result: dict) -> dict:
    """What `--json` prints: the measured figures (keys of JSON_KEYS that were measured)."""
    return {k: result[k] for k in JSON_KEYS if k in result}


def table_rows(result: dict) -> list[tuple[str, int, int, float, bool]]:
    """(setting, N, threads, steps/s, is a peer) for every row, in the table's order."""
    rows = [(SETTINGS["single"][0], 1, 1, result["single"], False)]
    rows += [(SETTINGS["vector"][0], int(n), 1, v, False) for n, v in result["vector"].items()]
    for t, by_n in result.get("vector_threads", {}).items():
        rows += [(SETTINGS["vector"][0], int(n), int(t), v, False) for n, v in by_n.items()]
    rows += [(SETTINGS["engine"][0], int(n), 1, v, False)
             for n, v in result.get("engine", {}).items()]  # fmt: skip
    labels = {p.name: p.label for p in PEERS}
    rows += [(labels[name], 1, 1, v, True) for name, v in result.get("peers", {}).items()]
    return rows


def _ratio(x: float) -> str:
    return f"{x:,.0f}x" if x >= 100 else f"{x:.1f}x" if x >= 10 else f"{x:.2f}x"


def format_table(result: dict, seconds: float) -> None:
    """Print the results as a table (rich when installed, plain text otherwise)."""
    bases = [(SHORT_NAMES[p], result["peers"][p]) for p in RATIO_PEERS
             if p in result.get("peers", {})]  # fmt: skip
    header = ["setting", "N", "threads", "steps/s", "paces/s"]
    header += [f"vs {name}" for name, _ in bases]
    walked = result.get("vector_paces", {})

    def paces(setting: str, n: int, t: int) -> str:
        pps = walked.get(str(n)) if setting == SETTINGS["vector"][0] and t == 1 else None
        return "" if pps is None else f"{pps:,.0f}"

    rows = [
        [setting, f"{n:,}", str(t), f"{sps:,.0f}", paces(setting, n, t)]
        + [_ratio(sps / base) for _, base in bases]
        for setting, n, t, sps, _ in table_rows(result)
    ]
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
    notes.append(
        f"reset: {result['reset_ms']:.3f} ms to reset one whole default dungeon "
        f"(Engine.reset of one slot, compiled, median of {result['resets']})"
    )
    notes.append(
        f"state: {result['bytes_per_slot']:,} bytes per slot "
        f"(engine.state arrays, depth {result['depth']})"
    )
    notes.append(f"policy: uniform random legal action, {seconds:g} s per row after warm-up, "
                 f"the rows timed in turn over {ROUNDS} rounds (a drift of the machine's speed "
                 "falls on all of them alike)")  # fmt: skip
    notes.append("paces/s: game paces (the clock, TIME-1) per second on the vector rows of one "
                 "thread; an explore, travel or rest step takes many, a fight's steps none")  # fmt: skip
    used = ["single", "vector"] + (["engine"] if "engine" in result else [])
    notes += [f"{SETTINGS[k][0]}: {SETTINGS[k][1]}" for k in used]
    notes.append(
        "threads: num_threads of the vector env (passed only when not 1; "
        f"all = os.cpu_count() = {os.cpu_count()}); the other rows run on one thread"
    )
    if "peers" in result:
        notes.append(
            "peers: the single env's Python loop, a uniformly random action, "
            "reset when an episode ends"
        )
        labels = {p.name: p.label for p in PEERS}
        notes += [f"{labels[k]}: {how}" for k, how in result["peer_notes"].items()]
    notes += [f"skipped {what}: {why}" for what, why in result.get("skipped", {}).items()]
    notes.append("machine: " + machine_line(result["machine"]))
    try:
        from rich.console import Console
        from rich.table import Table
    except ImportError:
        widths = [max(len(h), *(len(r[i]) for r in rows)) for i, h in enumerate(header)]
        line = "  ".join(f"{{:{'<' if i == 0 else '>'}{w}}}" for i, w in enumerate(widths))
        print(line.format(*header))
        for row in rows:
            print(line.format(*row))
        print("\n".join(notes))
        return
    table = Table(title="Delve throughput")
    for i, name in enumerate(header):
        table.add_column(name, justify="left" if i == 0 else "right")
    for row in rows:
        table.add_row(*row)
    console = Console()
    console.print(table)
    for note in notes:
        console.print(note, highlight=False, soft_wrap=True, markup=False)


def write_plot(result: dict, path: str) -> None:
    """A PNG bar chart of every row's steps/s (log scale), peers in another colour."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    rows = table_rows(result)
    labels = [
        setting if peer or setting == SETTINGS["single"][0] else f"{setting}, N={n:,}, T={t}"
        for setting, n, t, _, peer in rows
    ]
    values = [sps for *_, sps, _ in rows]
    colours = ["tab:orange" if peer else "tab:blue" for *_, peer in rows]
    fig, ax = plt.subplots(figsize=(9, 1.2 + 0.4 * len(rows)))
    y = np.arange(len(rows))[::-1]
    ax.barh(y, values, color=colours)
    ax.set_yticks(y, labels)
    ax.set_xscale("log")
    ax.set_xlabel("steps per second (log scale)")
    for yi, v in zip(y, values):
        ax.text(v, yi, f" {v:,.0f}", va="center", fontsize=8)
    ax.set_xlim(min(values) / 2, max(values) * 8)
    ax.legend(handles=[Patch(color="tab:blue", label="Delve"),
                       Patch(color="tab:orange", label="peers")],
              loc="lower right")  # fmt: skip
    m = result["machine"]
    ax.set_title(f"Delve throughput ({m['cpu']}, {m['cores']} cores)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


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


def parse_threads(text: str) -> list[int]:
    """Comma-separated thread counts, "all" meaning os.cpu_count(); repeats dropped."""
    threads: list[int] = []
    for token in (x.strip().lower() for x in text.split(",")):
        if not token:
            continue
        try:
            t = (os.cpu_count() or 1) if token == "all" else int(token)
        except ValueError:
            t = 0
        if t < 1:
            raise argparse.ArgumentTypeError(
                f"threads must be comma-separated positive integers or 'all': {text!r}"
            )
        if t not in threads:
            threads.append(t)
    if not threads:
        raise argparse.ArgumentTypeError(f"no thread count given: {text!r}")
    return threads


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
        "--threads",
        type=parse_threads,
        default=DEFAULT_THREADS,
        help="comma-separated vector-env thread counts, 'all' = os.cpu_count() (default "
        f"{DEFAULT_THREADS}); num_threads is passed to the env only when it is not 1",
    )
    parser.add_argument(
        "--peers",
        action="store_true",
        help="also time CartPole-v1 and MiniGrid DoorKey-8x8 (and Crafter, NetHack when "
        "installed) in the single env's loop; adds ratio columns",
    )
    parser.add_argument(
        "--plot",
        metavar="PNG",
        default=None,
        help="also write a bar chart of steps/s (log scale) to this PNG file (matplotlib)",
    )
    parser.add_argument(
        "--json",
        action="store_true",
        help='print only one JSON object: {"single": sps, "vector": {N: sps}, '
        '"compile_s": s, "reset_ms": ms, "bytes_per_slot": b, ...}',
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
    threads = getattr(args, "threads", None) or parse_threads(DEFAULT_THREADS)
    plot = getattr(args, "plot", None)
    if plot is not None:
        try:
            import matplotlib  # noqa: F401 - checked before minutes of measuring
        except ImportError:
            print("--plot needs matplotlib: pip install matplotlib", file=sys.stderr)
            return 2
    progress = None if args.json else (lambda msg: print(msg, file=sys.stderr, flush=True))
    result = run_all(args.seconds, args.sizes, args.engine, args.cold, progress, threads,
                     getattr(args, "peers", False))  # fmt: skip
    if args.json:
        print(json.dumps(json_result(result)))
    else:
        format_table(result, args.seconds)
    if plot is not None:
        write_plot(result, plot)
        if progress is not None:
            progress(f"wrote {plot}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = Parser(prog="throughput", description=__doc__.split("\n\n")[0] if __doc__ else None)
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
