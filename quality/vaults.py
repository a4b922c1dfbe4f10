"""Vault benchmark: the oracle agent against the random-legal policy on every vault lock.

Plays `Delve-Vault-v0` (the party at a cleared vault's lock, 100 gold x floor for hints;
the episode ends when the vault opens or its worker falls, or after 500 steps) for each lock
(WALL-1 tumbler wall, PLATE-1 lock plate) and floor 1..12, and prints per policy the mean
guesses (wall) or pushes (plate), the worker's wounds (HP lost working the lock,
`stat_vault_wounds`), the gold paid for hints (`stat_hint_gold`) and the open rate.

    python quality/vaults.py                   # 50 episodes per lock, floor and policy
    python quality/vaults.py --episodes 10 --floors 1,6,12
    python quality/vaults.py --party rogue,hero --difficulty hard
    python quality/vaults.py --tough           # no worker falls: full guess counts
    python quality/vaults.py --json            # one JSON object on stdout, nothing else

With the default party the Hero (19 HP) works the lock, and on deep walls the oracle's
worker often falls before the wall opens (a wrong guess wounds half the time by
wrong rings x d4 x 1.5 on normal), so its guess counts there are cut short; `--tough`
gives every member 30000 HP to show what opening every wall takes.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

import gymnasium as gym
import numpy as np

import delve_env  # noqa: F401  (registers Delve-Vault-v0)
from agents.random_legal import RandomLegalAgent
from agents.vault_agent import VaultOracleAgent
from delve_env.engine.core.actions import A_HINT, A_PUSH, A_RING
from delve_env.engine.core.tables import MAX_PLATE, MAX_SYMBOLS

LOCKS = ("wall", "plate")
POLICIES = ("oracle", "random")
METRICS = ("tries", "wounds", "hint_gold", "opened", "fell", "steps")


TOUGH_HP = 30000


def play_episode(env: gym.Env, policy: str, agent, seed: int, tough: bool = False) -> dict:
    """One sub-task episode; returns its tries (guesses or pushes), wounds, gold and outcome."""
    _, info = env.reset(seed=seed)
    s = env.unwrapped.engine.state
    if tough:  # written into the state before the first step; the mask does not depend on HP
        s.hp[0, s.in_party[0]] = TOUGH_HP
        s.ceiling[0, s.in_party[0]] = TOUGH_HP
    f = int(s.floor[0])
    worker = int(s.worker[0])
    pushes = hints = steps = 0
    while True:
        if policy == "oracle":
            a = agent.act(env)
        else:
            a = agent.act(info["action_mask"])
        pushes += A_PUSH <= a < A_PUSH + MAX_PLATE * MAX_PLATE
        hints += a == A_HINT
        assert A_RING <= a < A_RING + MAX_SYMBOLS or A_PUSH <= a <= A_HINT, a
        _, _, terminated, truncated, info = env.step(a)
        steps += 1
        if terminated or truncated:
            break
    is_wall = int(s.vault_lock[0, f]) == 1
    return {
        "tries": int(s.wall_guesses[0, f]) if is_wall else pushes,
        "wounds": int(s.stat_vault_wounds[0]),
        "hint_gold": int(s.stat_hint_gold[0]),
        "opened": bool(s.vault_open[0, f]),
        "fell": bool(s.hp[0, worker] <= 0),
        "steps": steps,
    }


def run(
    episodes: int,
    floors: Sequence[int],
    difficulty: str,
    party: tuple[str, ...],
    seed: int,
    tough: bool = False,
) -> list[dict]:
    """Every (lock, floor, policy) row: the mean of each metric over `episodes` episodes."""
    oracle = VaultOracleAgent()
    rows = []
    for lock in LOCKS:
        for f in floors:
            env = gym.make("Delve-Vault-v0", lock=lock, floor=f, difficulty=difficulty, party=party)
            row = {"lock": lock, "floor": f, "size": 4 + f if lock == "wall" else 3 + (f - 1) // 3}
            for policy in POLICIES:
                agent = oracle if policy == "oracle" else RandomLegalAgent(seed + 7919 * f)
                t0 = time.perf_counter()
                eps = [play_episode(env, policy, agent, seed + i, tough) for i in range(episodes)]
                for key in METRICS:
                    row[f"{policy}_{key}"] = float(np.mean([ep[key] for ep in eps]))
                row[f"{policy}_seconds"] = time.perf_counter() - t0
            env.close()
            rows.append(row)
    return rows


def format_table(rows: list[dict], episodes: int, difficulty: str, party, tough: bool) -> str:
    head = (
        f"{'lock':<5} {'floor':>5} {'size':>4} | {'tries':>6} {'wounds':>6} {'hint$':>6} "
        f"{'open%':>6} | {'tries':>6} {'wounds':>6} {'hint$':>6} {'open%':>6} {'fell%':>6}"
    )
    lines = [
        f"Delve-Vault-v0, {episodes} episodes per row, difficulty {difficulty}, "
        f"party {','.join(party)} (first member works the lock)"
        + (f", every member {TOUGH_HP} HP" if tough else ""),
        "tries = guesses (wall) or pushes (plate); wounds = worker HP lost; hint$ = gold paid "
        "for hints; size = S symbols a ring (wall) or n (plate n x n)",
        f"{'':<16} | {'oracle agent':^28} | {'random-legal policy':^35}",
        head,
        "-" * len(head),
    ]
    for r in rows:
        lines.append(
            f"{r['lock']:<5} {r['floor']:>5} {r['size']:>4} | "
            f"{r['oracle_tries']:>6.2f} {r['oracle_wounds']:>6.2f} {r['oracle_hint_gold']:>6.1f} "
            f"{100 * r['oracle_opened']:>6.1f} | "
            f"{r['random_tries']:>6.2f} {r['random_wounds']:>6.2f} {r['random_hint_gold']:>6.1f} "
            f"{100 * r['random_opened']:>6.1f} {100 * r['random_fell']:>6.1f}"
        )
    return "\n".join(lines)


def parse_floors(text: str) -> list[int]:
    floors: list[int] = []
    for part in text.split(","):
        lo, _, hi = part.partition("-")
        floors += range(int(lo), int(hi or lo) + 1)
    if not floors or not all(1 <= f <= 12 for f in floors):
        raise argparse.ArgumentTypeError(f"floors must lie in 1..12, got {text!r}")
    return floors


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--episodes", type=int, default=50, help="episodes per row (50)")
    parser.add_argument("--floors", type=parse_floors, default=list(range(1, 13)),
                        help="floors, e.g. 1-12 or 1,6,12 (1-12)")  # fmt: skip
    parser.add_argument("--difficulty", default="normal", choices=("easy", "normal", "hard"))
    parser.add_argument("--party", default="hero,rogue,wizard,cleric",
                        help="comma-separated classes; the first works the lock")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="first episode seed (0)")
    parser.add_argument("--tough", action="store_true", help="30000 HP a member: nobody falls")
    parser.add_argument("--json", action="store_true", help="print one JSON object only")
    args = parser.parse_args(argv)
    if args.episodes < 1:
        parser.error("--episodes must be at least 1")
    party = tuple(args.party.split(","))
    t0 = time.perf_counter()
    rows = run(args.episodes, args.floors, args.difficulty, party, args.seed, args.tough)
    if args.json:
        out = {"episodes": args.episodes, "difficulty": args.difficulty, "party": party,
               "tough": args.tough, "seconds": time.perf_counter() - t0, "rows": rows}  # fmt: skip
        print(json.dumps(out))
    else:
        print(format_table(rows, args.episodes, args.difficulty, party, args.tough))
        print(f"({time.perf_counter() - t0:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
