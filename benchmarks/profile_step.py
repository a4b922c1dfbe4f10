"""Where a batched step's time goes: the policy, the rules, the outputs, the copies.

Runs a random-legal trajectory through the engine, each batched step split into its two
compiled passes, timed apart: the rules (each env's action, or its autoreset) and the outputs
(the observation's dirty parts and the mask, `step.write_outputs`). Together they are exactly
`Engine.step` (the same calls in the same order per env, the same trajectory); split, the
second pass reads state the first left in cache less often, so it slightly overstates the
outputs. Then the copies the vector env hands out (record + mask).

    python benchmarks/profile_step.py                 # N=4096, 3 s
    python benchmarks/profile_step.py --num-envs 64 --seconds 1 --difficulty hard
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from numba import njit

from delve_env.bench import machine_info, machine_line, sample_legal
from delve_env.config import Config
from delve_env.engine.batch import Engine
from delve_env.engine.step import next_run, step_slot, write_outputs


@njit(cache=True)
def rules_pass(s, p, party, actions, needs_reset, masks, rewards, terminated, truncated):
    for e in range(len(actions)):
        if needs_reset[e]:
            next_run(s, p, e, party)
            rewards[e], terminated[e], truncated[e] = 0.0, False, False
        else:
            r, te, tr, _ = step_slot(s, p, e, actions[e], masks[e], s.rng)
            rewards[e], terminated[e], truncated[e] = r, te, tr


@njit(cache=True)
def outputs_pass(s, p, needs_reset, obs, masks):
    for e in range(len(needs_reset)):
        write_outputs(s, p, e, obs[e], masks[e], needs_reset[e])


def profile(num_envs: int, seconds: float, seed: int = 0, **config) -> dict:
    """Seconds spent per phase over `seconds` of random-legal play at `num_envs` envs."""
    cfg = Config.from_kwargs(**config)
    eng = Engine(num_envs, cfg.params(), cfg.party_classes())
    eng.reset(np.arange(seed, seed + num_envs, dtype=np.uint64), np.ones(num_envs, np.bool_))
    rng = np.random.default_rng(seed)
    actions = np.zeros(num_envs, dtype=np.int64)
    done = np.zeros(num_envs, dtype=np.bool_)
    s, p = eng.state, eng.params
    phases = ("policy", "rules + autoreset", "observe + mask", "copies")
    totals = dict.fromkeys(phases, 0.0)
    calls = resets = 0
    end = time.perf_counter() + seconds
    while calls < 3 or time.perf_counter() < end:
        t0 = time.perf_counter()
        sample_legal(eng.masks, rng.random(num_envs), actions)
        t1 = time.perf_counter()
        rules_pass(s, p, eng.party, actions, done, eng.masks, eng.rewards, eng.terminated,
                   eng.truncated)  # fmt: skip
        t2 = time.perf_counter()
        outputs_pass(s, p, done, eng.obs_record, eng.masks)
        t3 = time.perf_counter()
        eng.obs_record.copy(), eng.masks.copy()
        t4 = time.perf_counter()
        resets += int(done.sum())
        done = eng.terminated | eng.truncated
        if calls > 0:  # the first call compiles the two passes
            for name, dt in zip(phases, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                totals[name] += dt
        calls += 1
    return {"calls": calls - 1, "resets": resets, "totals": totals}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=4096)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--difficulty", default="normal")
    args = parser.parse_args(argv)
    n = args.num_envs
    r = profile(n, args.seconds, difficulty=args.difficulty)
    tot = r["totals"]
    env_steps = r["calls"] * n
    whole = sum(tot.values())
    print(f"N={n}, {r['calls']} batched steps, {r['resets']} autoresets "
          f"({100 * r['resets'] / env_steps:.3f}% of env steps)")  # fmt: skip
    print(f"{'phase':<18} {'us/env-step':>12} {'share':>7}")
    for name, t in tot.items():
        print(f"{name:<18} {1e6 * t / env_steps:>12.3f} {100 * t / whole:>6.1f}%")
    print(f"{'all':<18} {1e6 * whole / env_steps:>12.3f}  ({env_steps / whole:,.0f} steps/s)")
    print("machine: " + machine_line(machine_info()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
