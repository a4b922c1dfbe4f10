"""Random-legal play of Delve-Combat-v0: N fights per tier, every invariant after every step.

    python quality/combat_soak.py                 # 10,000 fights per tier, 1000 slots
    python quality/combat_soak.py --fights 1000   # the CI size (tests/test_combat_mask.py)

Prints one JSON line per tier (floors 1, 4, 7, 10): fights ended, wins, steps, invalid actions,
invariant violations, seconds; exits 1 if anything went wrong.
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from delve_env import DelveVectorEnv
from delve_env.checks import invariants


def run_tier(floor: int, fights: int, slots: int, seed: int) -> dict:
    venv = DelveVectorEnv(slots, task="combat", floor=floor)
    _, info = venv.reset(seed=seed)
    checker = invariants.InvariantChecker()
    checker.check(venv.engine.state, new_episode=True, stepped=False)
    rng = np.random.default_rng(seed)
    masks, done = info["action_mask"], np.zeros(slots, dtype=bool)
    ended = wins = steps = invalid = empty = 0
    start = time.perf_counter()
    while ended < fights:
        empty += int((~masks.any(axis=1)).sum())
        pick = np.argmax(rng.random(masks.shape) * masks, axis=1)
        _, reward, terminated, truncated, info = venv.step(pick)
        invalid += int(info["invalid_action"][~done].sum())
        checker.check(venv.engine.state, new_episode=done, stepped=True)
        done = terminated | truncated
        ended += int(done.sum())
        wins += int((venv.engine.state.outcome[done] == 1).sum())
        masks, steps = info["action_mask"], steps + 1
    return {"floor": floor, "fights": ended, "wins": wins, "steps": steps * slots,
            "invalid": invalid, "empty_masks": empty, "violations": checker.count,
            "first": [str(v) for v in checker.violations[:3]],
            "seconds": round(time.perf_counter() - start, 1)}  # fmt: skip


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fights", type=int, default=10_000, help="fights per tier")
    ap.add_argument("--slots", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    ok = True
    for floor in (1, 4, 7, 10):
        row = run_tier(floor, args.fights, args.slots, args.seed + floor)
        print(json.dumps(row), flush=True)
        ok &= row["invalid"] == 0 and row["violations"] == 0 and row["empty_masks"] == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
