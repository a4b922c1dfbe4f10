"""What the rules cost by kind of action: moves, selections, fights, travel, ...

Plays a random-legal trajectory; every `--every` batched steps it saves the engine, samples
the next actions, and times the rules alone (`step.step_slot`, no outputs) on copies of the
saved engine, once per kind of action, stepping only the envs whose action is of that kind
(the least of `--repeats` runs). A travel step walks many paces, so the table has paces per
step too: the rules cost per step is how often a kind comes up times what it costs.

    python benchmarks/profile_actions.py                       # N=1024, 6 checkpoints
    python benchmarks/profile_actions.py --num-envs 256 --checkpoints 2 --difficulty hard
"""

from __future__ import annotations

import argparse
import pickle
import sys
import time

import numpy as np
from numba import njit

from delve_env.engine.core.actions import (
    A_ATTACK,
    A_AUTOFIGHT,
    A_BRIBE,
    A_CANCEL,
    A_CAST,
    A_EXPLORE,
    A_GIVE,
    A_MOVE,
    A_REST,
    A_SEARCH,
    A_SELECT,
    A_STAIRS,
    A_TRAVEL_DOWN,
    A_WAIT,
    A_WORK,
    NUM_ACTIONS,
)
from delve_env.engine.step import step_slot
from delve_env.tools.bench import machine_info, machine_line, new_engine, sample_legal

# (name, first action, one past the last): every action falls in exactly one
KINDS = (
    ("move", A_MOVE, A_WAIT),
    ("wait", A_WAIT, A_SEARCH),
    ("search", A_SEARCH, A_STAIRS),
    ("stairs, loot, swap", A_STAIRS, A_ATTACK),
    ("attack, run", A_ATTACK, A_SELECT),
    ("select an item", A_SELECT, A_GIVE),
    ("give, use, wear", A_GIVE, A_CANCEL),
    ("put back", A_CANCEL, A_WORK),
    ("locks, chests, stores, statues", A_WORK, A_BRIBE),
    ("bribe, listen, sneak", A_BRIBE, A_CAST),
    ("cast, power, choose", A_CAST, A_EXPLORE),
    ("explore", A_EXPLORE, A_TRAVEL_DOWN),
    ("travel to a stair", A_TRAVEL_DOWN, A_REST),
    ("rest", A_REST, A_AUTOFIGHT),
    ("autofight", A_AUTOFIGHT, NUM_ACTIONS),
)


@njit(cache=True)
def rules_of(s, p, actions, chosen, masks, paces):
    """The rules of the chosen envs' actions; paces[e]: the paces env e's step took."""
    for e in range(len(actions)):
        if chosen[e]:
            pace = s.pace[e]
            step_slot(s, p, e, actions[e], masks[e], s.rng)
            paces[e] = s.pace[e] - pace


def profile(num_envs: int, checkpoints: int, every: int, repeats: int, seed: int = 0,
            **config) -> dict:  # fmt: skip
    """Per kind of action: steps seen, seconds (least of `repeats`) and paces, summed."""
    eng = new_engine(num_envs, seed, **config)
    rng = np.random.default_rng(seed)
    actions = np.zeros(num_envs, dtype=np.int64)
    done = np.zeros(num_envs, dtype=np.bool_)
    kind_of = np.zeros(NUM_ACTIONS, dtype=np.int64)
    for k, (_, lo, hi) in enumerate(KINDS):
        kind_of[lo:hi] = k
    steps, seconds, paces = (np.zeros(len(KINDS)) for _ in range(3))
    for _ in range(checkpoints):
        for _ in range(every):
            sample_legal(eng.masks, rng.random(num_envs), actions)
            eng.step(actions, done)
            done = eng.terminated | eng.truncated
        sample_legal(eng.masks, rng.random(num_envs), actions)
        saved = pickle.dumps(eng)
        kinds = kind_of[actions] + np.where(done, len(KINDS), 0)  # (an env due to reset: none)
        for k in range(len(KINDS)):
            chosen = kinds == k
            if not chosen.any():
                continue
            best, took = np.inf, np.zeros(num_envs, dtype=np.int32)
            for _ in range(repeats):
                copy = pickle.loads(saved)
                t0 = time.perf_counter()
                rules_of(copy.state, copy.params, actions, chosen, copy.masks, took)
                best = min(best, time.perf_counter() - t0)
            steps[k] += chosen.sum()
            seconds[k] += best
            paces[k] += took[chosen].sum()
    return {"steps": steps, "seconds": seconds, "paces": paces}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--num-envs", type=int, default=1024)
    parser.add_argument("--checkpoints", type=int, default=6)
    parser.add_argument("--every", type=int, default=80, help="batched steps between them")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--difficulty", default="normal")
    args = parser.parse_args(argv)
    r = profile(args.num_envs, args.checkpoints, args.every, args.repeats,
                difficulty=args.difficulty)  # fmt: skip
    steps, seconds, paces = r["steps"], r["seconds"], r["paces"]
    total = steps.sum()
    print(f"N={args.num_envs}, {int(total)} env steps at {args.checkpoints} checkpoints, "
          f"least of {args.repeats} runs each")  # fmt: skip
    print(f"{'action':<32} {'steps':>7} {'us/step':>9} {'us/env-step':>12} {'paces/step':>11}")
    for k in np.argsort(-seconds):
        if steps[k] == 0:
            continue
        print(f"{KINDS[k][0]:<32} {100 * steps[k] / total:>6.1f}% {1e6 * seconds[k] / steps[k]:>9.2f}"
              f" {1e6 * seconds[k] / total:>12.3f} {paces[k] / steps[k]:>11.1f}")  # fmt: skip
    print(f"{'all':<32} {'100.0%':>7} {'':>9} {1e6 * seconds.sum() / total:>12.3f}")
    print("machine: " + machine_line(machine_info()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
