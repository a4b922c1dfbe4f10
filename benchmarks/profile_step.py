"""Where a batched engine step's time goes: the policy, the rules, observe + mask.

Runs a random-legal trajectory through `Engine.step` (the fused compiled step: rules +
autoreset + observe + mask) and, after each step, times `Engine.refresh` on every env, which
recomputes observe + mask into the same buffers (same values, so the trajectory is unchanged).
Then rules + autoreset = step - refresh. Nothing new is compiled here.

Observe and mask are not split: that needs a compiled loop over `legal_mask` outside the
fused step, and in a trial its time was not comparable (it came out above observe + mask).

    python benchmarks/profile_step.py                 # N=1024, 3 s
    python benchmarks/profile_step.py --num-envs 64 --seconds 1 --difficulty hard
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

from delve_env.bench import machine_info, machine_line, sample_legal
from delve_env.config import Config
from delve_env.engine.batch import Engine


def profile(num_envs: int, seconds: float, seed: int = 0, **config) -> dict:
    """Seconds spent per phase over `seconds` of random-legal play at `num_envs` envs."""
    cfg = Config.from_kwargs(**config)
    eng = Engine(num_envs, cfg.params(), cfg.party_classes())
    eng.reset(np.arange(seed, seed + num_envs, dtype=np.uint64), np.ones(num_envs, np.bool_))
    rng = np.random.default_rng(seed)
    actions = np.zeros(num_envs, dtype=np.int64)
    done = np.zeros(num_envs, dtype=np.bool_)
    everyone = np.ones(num_envs, dtype=np.bool_)
    totals = {"policy": 0.0, "step": 0.0, "refresh": 0.0}
    calls = resets = 0
    end = time.perf_counter() + seconds
    while calls < 2 or time.perf_counter() < end:
        t0 = time.perf_counter()
        sample_legal(eng.masks, rng.random(num_envs), actions)
        t1 = time.perf_counter()
        eng.step(actions, done)
        t2 = time.perf_counter()
        eng.refresh(everyone)
        t3 = time.perf_counter()
        resets += int(done.sum())
        done = eng.terminated | eng.truncated
        for name, dt in zip(totals, (t1 - t0, t2 - t1, t3 - t2)):
            totals[name] += dt
        calls += 1
    return {"calls": calls, "resets": resets, "totals": totals}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--difficulty", default="normal")
    args = parser.parse_args(argv)
    n = args.num_envs
    r = profile(n, args.seconds, difficulty=args.difficulty)
    tot = r["totals"]
    env_steps = r["calls"] * n
    phases = {
        "policy (sampler)": tot["policy"],
        "rules + autoreset": tot["step"] - tot["refresh"],
        "observe + mask": tot["refresh"],
    }
    whole = tot["policy"] + tot["step"]
    print(f"N={n}, {r['calls']} batched steps, {r['resets']} autoresets "
          f"({100 * r['resets'] / env_steps:.3f}% of env steps)")  # fmt: skip
    print(f"{'phase':<18} {'us/env-step':>12} {'share':>7}")
    for name, t in phases.items():
        print(f"{name:<18} {1e6 * t / env_steps:>12.3f} {100 * t / whole:>6.1f}%")
    print(f"{'policy + step':<18} {1e6 * whole / env_steps:>12.3f}  "
          f"({env_steps / whole:,.0f} steps/s)")  # fmt: skip
    print("machine: " + machine_line(machine_info()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
