"""Where a batched step's time goes: the policy, the rules, the outputs, the copies.

Runs a random-legal trajectory through the engine, each batched step split into its two
compiled passes, timed apart: the rules (each env's action, or its autoreset) and the outputs
(the observation's dirty parts and the mask, `step.write_outputs`). Together they are exactly
`Engine.step` (the same calls in the same order per env, the same trajectory); split, the
second pass reads state the first left in cache less often, so it slightly overstates the
outputs. Then the copies the vector env hands out (record + mask). Last, the outputs' parts:
how often a step marks each dirty (`state.DIRTY_*`), and what each part costs an env when it
is written, timed on the state the trajectory ended in (into scratch buffers).

    python benchmarks/profile_step.py                 # N=4096, 3 s
    python benchmarks/profile_step.py --num-envs 64 --seconds 1 --difficulty hard
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np
from numba import njit

from delve_env.engine.compiled.struct import unowned
from delve_env.engine.core.state import (
    DIRTY_ALL,
    DIRTY_MAGIC,
    DIRTY_MAP,
    DIRTY_ORDER,
    DIRTY_PACK,
    DIRTY_PARTY,
    DIRTY_SELECT,
)
from delve_env.engine.outputs import layout
from delve_env.engine.outputs.mask import mask_casters, mask_ground, mask_items
from delve_env.engine.outputs.observe import (
    observe_magic,
    observe_map,
    observe_pack,
    observe_party,
    observe_status,
)
from delve_env.engine.step import next_run, step_slot, write_outputs
from delve_env.tools.bench import machine_info, machine_line, new_engine, sample_legal

FLAGS = (("map", DIRTY_MAP), ("party", DIRTY_PARTY), ("order", DIRTY_ORDER),
         ("pack", DIRTY_PACK), ("magic", DIRTY_MAGIC), ("select", DIRTY_SELECT),
         ("all", DIRTY_ALL))  # fmt: skip
PARTS = ("observe map", "observe party", "observe pack", "observe magic", "observe status",
         "mask: ground", "mask: items", "mask: casters")  # fmt: skip


@njit(cache=True)
def rules_pass(s, p, party, actions, needs_reset, masks, rewards, terminated, truncated,
               flags, marked):  # fmt: skip
    """The rules; marked[i] counts the steps whose dirty bits hold all of flags[i]."""
    p, masks = unowned(p), unowned(masks)  # as step_batch
    for e in range(len(actions)):
        if needs_reset[e]:
            next_run(s, p, e, party)
            rewards[e], terminated[e], truncated[e] = 0.0, False, False
        else:
            r, te, tr, _ = step_slot(s, p, e, actions[e], masks[e], s.rng)
            rewards[e], terminated[e], truncated[e] = r, te, tr
            for i in range(len(flags)):
                marked[i] += (s.dirty[e] & flags[i]) == flags[i]


@njit(cache=True)
def part_pass(s, p, part, obs, masks, repeats):
    """Write one part (PARTS[part]) of every env's outputs, `repeats` times."""
    for _ in range(repeats):
        for e in range(len(obs)):
            record, mask = obs[e], masks[e]
            if part == 0:
                observe_map(s, e, record[layout.MAP_AT : layout.MAP_AT + layout.MAP_BYTES])
            elif part == 1:
                observe_party(
                    s, p, e, record[layout.PARTY_AT : layout.PARTY_AT + layout.PARTY_BYTES]
                )
            elif part == 2:
                observe_pack(s, e, record[layout.PACK_AT : layout.PACK_AT + layout.PACK_BYTES])
            elif part == 3:
                observe_magic(
                    s, p, e, record[layout.MAGIC_AT : layout.MAGIC_AT + layout.MAGIC_BYTES]
                )
            elif part == 4:  # written on every step
                observe_status(
                    s, p, e, record[layout.STATUS_AT : layout.STATUS_AT + layout.STATUS_BYTES]
                )
            elif part == 5:
                mask_ground(s, p, e, mask)
            elif part == 6:
                mask_items(s, p, e, mask)
            else:
                mask_casters(s, p, e, mask)


@njit(cache=True)
def outputs_pass(s, p, needs_reset, obs, masks, kept_rows, kept):
    p, obs, masks = unowned(p), unowned(obs), unowned(masks)  # as step_batch
    kept_rows, kept = unowned(kept_rows), unowned(kept)
    for e in range(len(needs_reset)):
        write_outputs(s, p, e, obs[e], masks[e], kept_rows[e], kept, needs_reset[e])


def profile(num_envs: int, seconds: float, seed: int = 0, engine=None, **config) -> dict:
    """Seconds spent per phase over `seconds` of random-legal play at `num_envs` envs (of
    `engine`, playing on from where it is, or of a `new_engine`)."""
    eng = engine if engine is not None else new_engine(num_envs, seed, **config)
    rng = np.random.default_rng(seed)
    actions = np.zeros(num_envs, dtype=np.int64)
    done = np.zeros(num_envs, dtype=np.bool_)
    s, p = eng.state, eng.params
    phases = ("policy", "rules + autoreset", "observe + mask", "copies")
    totals = dict.fromkeys(phases, 0.0)
    calls = resets = 0
    flags = np.array([f for _, f in FLAGS], dtype=np.int64)
    marked = np.zeros(len(FLAGS), dtype=np.int64)
    end = 0.0  # set once the first call has compiled the passes
    while calls < 3 or time.perf_counter() < end:
        t0 = time.perf_counter()
        sample_legal(eng.masks, rng.random(num_envs), actions)
        t1 = time.perf_counter()
        rules_pass(s, p, eng.party, actions, done, eng.masks, eng.rewards, eng.terminated,
                   eng.truncated, flags, marked)  # fmt: skip
        t2 = time.perf_counter()
        outputs_pass(s, p, done, eng.obs_record, eng.masks, eng.kept_rows, eng.kept)
        t3 = time.perf_counter()
        eng.obs_record.copy(), eng.masks.copy()
        t4 = time.perf_counter()
        resets += int(done.sum())
        done = eng.terminated | eng.truncated
        if calls > 0:  # the first call compiles the two passes
            for name, dt in zip(phases, (t1 - t0, t2 - t1, t3 - t2, t4 - t3)):
                totals[name] += dt
        calls += 1
        if calls == 1:
            end = time.perf_counter() + seconds
    stepped = max(1, calls * num_envs - resets)
    dirty = {name: marked[i] / stepped for i, (name, _) in enumerate(FLAGS)}
    obs, masks, parts = eng.obs_record.copy(), eng.masks.copy(), {}
    for i, name in enumerate(PARTS):
        part_pass(s, p, i, obs, masks, 1)  # compiles
        t0 = time.perf_counter()
        part_pass(s, p, i, obs, masks, 5)
        parts[name] = (time.perf_counter() - t0) / (5 * num_envs)
    return {"calls": calls - 1, "resets": resets, "totals": totals, "dirty": dirty,
            "parts": parts}  # fmt: skip


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
    print("steps marking each part dirty: "
          + ", ".join(f"{k} {100 * v:.1f}%" for k, v in r["dirty"].items()))  # fmt: skip
    print(f"{'part, when written':<18} {'us/env':>12}")
    for name, t in r["parts"].items():
        print(f"{name:<18} {1e6 * t:>12.3f}")
    print("machine: " + machine_line(machine_info()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
