"""Delve memory: is the resident set size (RSS) flat over long runs?

    python benchmarks/memory.py            # 10^6 steps (single env and vector env, with resets),
                                           # 10^5 seeded resets, 2,000 envs made and closed,
                                           # 10^5 snapshot round trips (a few minutes)
    python benchmarks/memory.py --quick    # a tenth of that (the CI-size smoke run)
    python benchmarks/memory.py --json     # one JSON object on stdout instead of the table

Each phase first runs a warm-up (the first 10% of its iterations: compiled-code caches,
allocator pools, Python's small-object arenas settle), then samples RSS ten times. The growth
is (last sample - first sample) / first sample; "flat" means within 1% (`--tolerance`). The
exit status is 1 if any phase is not flat.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import sys
import time

import numpy as np

import delve_env
from delve_env import DelveEnv, snapshot

ONE = np.ones(1, dtype=np.bool_)


def rss_bytes() -> int:
    """The process's resident set size now (Linux /proc; ru_maxrss elsewhere, a peak)."""
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except OSError:
        import resource

        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        return peak if sys.platform == "darwin" else peak * 1024


def pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    legal = np.flatnonzero(mask)
    return int(legal[rng.integers(len(legal))])


def measure(name: str, total: int, unit: str, work, samples: int = 10) -> dict:
    """Run `work(n)` (n iterations) for a 10% warm-up, then `samples` chunks, sampling RSS."""
    warm = max(1, total // 10)
    work(warm)
    chunk = max(1, (total - warm) // samples)
    gc.collect()
    rss = [rss_bytes()]
    t0 = time.perf_counter()
    for _ in range(samples):
        work(chunk)
        gc.collect()
        rss.append(rss_bytes())
    seconds = time.perf_counter() - t0
    growth = (rss[-1] - rss[0]) / rss[0]
    return {
        "phase": name,
        "iterations": warm + chunk * samples,
        "unit": unit,
        "seconds": round(seconds, 1),
        "rss_start_mb": round(rss[0] / 2**20, 2),
        "rss_end_mb": round(rss[-1] / 2**20, 2),
        "rss_max_mb": round(max(rss) / 2**20, 2),
        "growth_pct": round(100 * growth, 3),
        "growth_kb": round((rss[-1] - rss[0]) / 1024, 1),
    }


def phase_single_steps(total: int) -> dict:
    env = DelveEnv(max_steps=1_000)  # an episode end (and a reset) every 1,000 steps at most
    rng = np.random.default_rng(0)
    state = {"info": env.reset(seed=0)[1], "resets": 0}

    def work(n):
        info = state["info"]
        for _ in range(n):
            _, _, term, trunc, info = env.step(pick(info["action_mask"], rng))
            if term or trunc:
                _, info = env.reset()
                state["resets"] += 1
        state["info"] = info

    row = measure("single env steps (with resets)", total, "steps", work)
    row["resets"] = state["resets"]
    return row


def phase_vector_steps(total: int, num_envs: int = 64) -> dict:
    venv = delve_env.make_vec(num_envs, max_steps=1_000)
    rng = np.random.default_rng(1)
    state = {"mask": venv.reset(seed=0)[1]["action_mask"], "ends": 0}

    def work(n):
        mask = state["mask"]
        for _ in range(n):
            noise = rng.random(mask.shape)
            actions = np.argmax(np.where(mask, noise, -1.0), axis=1)
            _, _, term, trunc, info = venv.step(actions)
            mask = info["action_mask"]
            state["ends"] += int((term | trunc).sum())
        state["mask"] = mask

    row = measure(f"vector env steps (N={num_envs}, autoreset)", total // num_envs, "calls", work)
    row["steps"] = row["iterations"] * num_envs
    row["resets"] = state["ends"]
    return row


def phase_resets(total: int) -> dict:
    env = DelveEnv()
    seed = iter(range(10**9))

    def work(n):
        for _ in range(n):
            env.reset(seed=next(seed))

    return measure("seeded resets", total, "resets", work)


def phase_envs(total: int) -> dict:
    def work(n):
        for i in range(n):
            env = DelveEnv(depth=2 + i % 5)
            env.reset(seed=i)
            env.step(6)
            env.close()

    return measure("envs made, reset, closed", total, "envs", work)


def phase_snapshots(total: int) -> dict:
    env = DelveEnv()
    env.reset(seed=3)
    for t in range(300):
        env.step(int(np.flatnonzero(env.action_masks())[t % int(env.action_masks().sum())]))

    def work(n):
        for _ in range(n):
            data = snapshot.to_bytes(env.engine.state, 0, {"running": True})
            snapshot.from_bytes(data, env.engine.state, 0)
            env.engine.refresh(ONE)

    return measure("snapshot to_bytes + from_bytes", total, "round trips", work)


def print_table(rows: list[dict], tolerance: float) -> None:
    cols = [
        "phase",
        "iterations",
        "unit",
        "seconds",
        "rss_start_mb",
        "rss_end_mb",
        "rss_max_mb",
        "growth_kb",
        "growth_pct",
        "flat",
    ]
    for r in rows:
        r["flat"] = "yes" if abs(r["growth_pct"]) <= tolerance else "NO"
    width = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in cols}
    print("  ".join(c.ljust(width[c]) if c == "phase" else c.rjust(width[c]) for c in cols))
    for r in rows:
        print(
            "  ".join(
                str(r.get(c, "")).ljust(width[c])
                if c == "phase"
                else str(r.get(c, "")).rjust(width[c])
                for c in cols
            )
        )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--quick", action="store_true", help="a tenth of the sizes")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--tolerance", type=float, default=1.0, help="allowed growth in percent")
    a = ap.parse_args(argv)
    scale = 10 if a.quick else 1
    DelveEnv().reset(seed=0)  # compile / load the cache before any measurement
    phases = [
        lambda: phase_single_steps(1_000_000 // scale),
        lambda: phase_vector_steps(1_000_000 // scale),
        lambda: phase_resets(100_000 // scale),
        lambda: phase_envs(2_000 // scale),
        lambda: phase_snapshots(100_000 // scale),
    ]
    if not a.json:
        print(
            f"delve memory ({'quick' if a.quick else 'full'}): python {platform.python_version()},"
            f" numpy {np.__version__}, {platform.machine()} {os.cpu_count()} CPUs\n",
            flush=True,
        )
    rows = []
    for phase in phases:
        rows.append(phase())
        if not a.json:
            print(f"  done: {rows[-1]['phase']} ({rows[-1]['seconds']} s)", flush=True)
    ok = all(abs(r["growth_pct"]) <= a.tolerance for r in rows)
    if a.json:
        print(json.dumps({"rows": rows, "tolerance_pct": a.tolerance, "flat": ok}))
    else:
        print()
        print_table(rows, a.tolerance)
        print(f"\nRSS {'flat' if ok else 'NOT flat'} within {a.tolerance}% in every phase")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
