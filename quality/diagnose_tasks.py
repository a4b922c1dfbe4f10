"""What random-legal play does in each sub-task: how episodes end, what actions it takes, and
what reward it sees (the diagnosis behind docs/LEARNING.md).

    python quality/diagnose_tasks.py                    # floor 1, 400 episodes a task
    python quality/diagnose_tasks.py --floor 3 --episodes 200 --reward-mode shaped
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

import numpy as np

from delve_env.engine.core.actions import (
    A_ATTACK,
    A_CANCEL,
    A_GIVE,
    A_HINT,
    A_LEAVE,
    A_LOOT,
    A_LUCK,
    A_MOVE,
    A_PUSH,
    A_RING,
    A_RUN,
    A_SEARCH,
    A_SELECT,
    A_STAIRS,
    A_SWAP,
    A_USE,
    A_WAIT,
    A_WEAR,
    A_WORK,
    NUM_ACTIONS,
)
from delve_env.tools.bench import sample_legal
from delve_env.vector import DelveVectorEnv

TASKS = {
    "explore": {"task": "explore", "max_steps": 2000},
    "combat": {"task": "combat", "max_steps": 200},
    "vault wall": {"task": "vault", "lock": "wall", "max_steps": 500},
    "vault plate": {"task": "vault", "lock": "plate", "max_steps": 500},
}

GROUPS = [  # (name, first index, end index)
    ("move", A_MOVE, A_WAIT),
    ("wait", A_WAIT, A_SEARCH),
    ("search", A_SEARCH, A_STAIRS),
    ("stairs", A_STAIRS, A_LOOT),
    ("loot", A_LOOT, A_SWAP),
    ("swap", A_SWAP, A_ATTACK),
    ("attack", A_ATTACK, A_RUN),
    ("run", A_RUN, A_SELECT),
    ("select item", A_SELECT, A_GIVE),
    ("give", A_GIVE, A_USE),
    ("use", A_USE, A_WEAR),
    ("wear", A_WEAR, A_CANCEL),
    ("cancel", A_CANCEL, A_WORK),
    ("work lock", A_WORK, A_RING),
    ("wall ring", A_RING, A_PUSH),
    ("plate push", A_PUSH, A_HINT),
    ("hint", A_HINT, A_LEAVE),
    ("leave", A_LEAVE, NUM_ACTIONS),
]
GROUP_OF = np.zeros(NUM_ACTIONS, dtype=np.int64)
for _i, (_, _a, _b) in enumerate(GROUPS):
    GROUP_OF[_a:_b] = _i
assert A_LUCK < A_RUN


def diagnose(config: dict, episodes: int, num_envs: int = 64, seed: int = 0) -> dict:
    """Random-legal play until `episodes` episodes end: outcomes, lengths, returns, actions."""
    venv = DelveVectorEnv(num_envs, **config)
    _, info = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions = np.zeros(num_envs, dtype=np.int64)
    done = np.zeros(num_envs, dtype=bool)
    ret = np.zeros(num_envs)
    length = np.zeros(num_envs, dtype=np.int64)
    ends: Counter = Counter()
    groups = np.zeros(len(GROUPS), dtype=np.int64)
    returns, lengths, wins = [], [], 0
    first_stair = 0
    while len(returns) < episodes:
        sample_legal(info["action_mask"], rng.random(num_envs), actions)
        live = ~done
        np.add.at(groups, GROUP_OF[actions[live]], 1)
        before_floor = venv.engine.state.floor.copy()
        _, rew, term, trunc, info = venv.step(actions)
        ret[live] += rew[live]
        length[live] += 1
        for e in np.flatnonzero(live & (term | trunc)):
            stats = info["episode_stats"][e]
            wins += stats["won"]
            if trunc[e]:
                cause = "truncated"
            elif stats["won"]:
                cause = "won"
            elif venv.engine.state.floor[e] < before_floor[e]:
                cause = "went up the stair"
                first_stair += length[e] == 1
            elif config.get("task") == "combat" and stats["flights"]:
                cause = "ran away"
            else:
                cause = "fell"
            ends[cause] += 1
            returns.append(ret[e])
            lengths.append(length[e])
        ret[done] = 0.0
        length[done] = 0
        done = term | trunc
    n = len(returns)
    total = groups.sum()
    return {
        "episodes": n,
        "win_rate": wins / n,
        "ends": {k: v / n for k, v in ends.most_common()},
        "stair_on_first_step": first_stair / n,
        "mean_return": float(np.mean(returns)),
        "mean_length": float(np.mean(lengths)),
        "actions": {name: groups[i] / total for i, (name, _, _) in enumerate(GROUPS) if groups[i]},
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floor", type=int, default=1)
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--reward-mode", default="sparse")
    args = parser.parse_args(argv)
    for name, config in TASKS.items():
        r = diagnose({**config, "floor": args.floor, "reward_mode": args.reward_mode},
                     args.episodes)  # fmt: skip
        ends = ", ".join(f"{k} {100 * v:.0f}%" for k, v in r["ends"].items())
        acts = ", ".join(
            f"{k} {100 * v:.0f}%" for k, v in sorted(r["actions"].items(), key=lambda t: -t[1])
        )
        print(f"{name} (floor {args.floor}, {r['episodes']} episodes): win {100 * r['win_rate']:.1f}%, "
              f"return {r['mean_return']:+.2f}, length {r['mean_length']:.0f}")  # fmt: skip
        print(f"  ends: {ends}; up the stair on the first step: "
              f"{100 * r['stair_on_first_step']:.0f}%")  # fmt: skip
        print(f"  actions: {acts}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
