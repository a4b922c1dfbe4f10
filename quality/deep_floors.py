"""Where a trained policy loses against the scripted expert: the way down, or the last floors.

    python quality/deep_floors.py --policy hard                 # 200 hard games, floor 7
    python quality/deep_floors.py --policy runs/x/model.zip --games 100 --floor 6

Plays the policy (sampled) and the scripted expert on the same seeds (from 100000, apart from
the evaluation's) and keeps each party's first arrival on `--floor` going down. Prints how
the two arrive (a table of medians and means), then plays both from both sets of arrivals,
each arrival on the same fresh play RNG for the two players, and prints the 2 x 2 table of
wins: the rows split the gap between them into the way down (the arrivals) and the last
floors (the play from there). docs/LEARNING.md reads it for the hard preset.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

from delve_env import snapshot
from delve_env.config import Config
from delve_env.engine.core.tables import LIGHT_OF_LIFE
from delve_env.policy import play_out
from delve_env.stats import wilson
from delve_env.vector import DelveVectorEnv

ARRIVAL = ("pace", "rations", "gold", "standing", "levels", "hp share", "lights of life",
           "book held")  # fmt: skip


def arrival(s, e: int) -> dict:
    """How the party of slot e stands."""
    members = [i for i in range(4) if s.in_party[e, i]]
    ceiling = sum(int(s.ceiling[e, i]) for i in members)
    return {"pace": int(s.pace[e]), "rations": int(s.rations[e]), "gold": int(s.gold[e]),
            "standing": sum(1 for i in members if s.hp[e, i] > 0),
            "levels": sum(int(s.level[e, i]) for i in members),
            "hp share": sum(int(s.hp[e, i]) for i in members) / max(1, ceiling),
            "lights of life": int((s.item[e, :4] == LIGHT_OF_LIFE).sum()),
            "book held": int(s.has_book[e])}  # fmt: skip


def play(policy, eng, streams: np.ndarray, watch=None) -> np.ndarray:
    """Who wins, each slot of engine `eng` played to its end by the policy (sampled, slot e
    from stream `streams[e]`; `watch` as `delve_env.policy.play_out` takes it)."""
    won = play_out(policy, eng, streams, on_end=lambda s, e, steps, cut: s.outcome[e] == 1,
                   watch=watch)  # fmt: skip
    return np.array(won, dtype=np.bool_)


def policy_arrivals(policy, config: dict, seeds: np.ndarray, floor: int) -> tuple[list, int]:
    """(snapshot bytes of each first arrival on `floor` without the king, games won)."""
    venv = DelveVectorEnv(len(seeds), **config)
    venv.reset(seed=[int(s) for s in seeds])
    eng = venv.engine
    record = {"running": True, "config": Config.from_kwargs(**config).snapshot_dict()}
    arrived: list = [None] * len(seeds)

    def watch(live: np.ndarray) -> None:
        for e in live:
            if arrived[e] is None and eng.state.floor[e] == floor and not eng.state.has_king[e]:
                arrived[e] = snapshot.to_bytes(eng.state, int(e), record)

    won = play(policy, eng, seeds, watch)
    return [a for a in arrived if a is not None], int(won.sum())


def play_policy_from(policy, config: dict, starts: list) -> np.ndarray:
    """Whether the policy (sampled) wins from each start, start i on play RNG `rng_of(i)`."""
    n = len(starts)
    venv = DelveVectorEnv(n, **config)
    venv.reset(seed=list(range(n)))
    eng = venv.engine
    for i, data in enumerate(starts):
        snapshot.from_bytes(data, eng.state, i)
        eng.state.rng[i] = rng_of(i)
    eng.refresh(np.ones(n, np.bool_))
    return play(policy, eng, np.arange(n, dtype=np.uint64))


def play_expert_from(task: str, config: dict, starts: list) -> np.ndarray:
    """Whether the scripted expert wins from each start (on the same RNGs as the policy)."""
    import gymnasium as gym

    from agents.scripted import ScriptedAgent

    env = gym.make(task, **config).unwrapped
    agent = ScriptedAgent()
    won = np.zeros(len(starts), np.bool_)
    for i, data in enumerate(starts):
        env.load_state(data)
        env.engine.state.rng[0] = rng_of(i)
        env.engine.refresh(np.ones(1, np.bool_))
        agent.new_game()
        agent.last_step = int(env.engine.state.steps[0])
        done = False
        while not done:
            _, _, term, trunc, _ = env.step(agent.act(env))
            done = term or trunc
        won[i] = env.engine.state.outcome[0] == 1
    return won


def rng_of(i: int) -> np.uint64:
    return np.uint64(0x9E3779B97F4A7C15 ^ (i * 0x100000001B3 + 1))


def rate(won: np.ndarray) -> str:
    lo, hi = wilson(int(won.sum()), len(won))
    return f"{100 * won.mean():.1f}% ({100 * lo:.1f}-{100 * hi:.1f}), {won.sum()} of {len(won)}"


def main(argv: list[str] | None = None) -> int:
    import gymnasium as gym

    from training.starts import collect
    from training.train_ppo import load_init

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--task", default="Delve-Hard-v0")
    parser.add_argument("--policy", default="hard", help="a preset's shipped policy or a file")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=100_000)
    parser.add_argument("--floor", type=int, default=7)
    args = parser.parse_args(argv)
    config = {**gym.spec(args.task).kwargs, "reward_mode": "shaped"}
    policy = load_init(args.policy)
    seeds = np.arange(args.seed, args.seed + args.games, dtype=np.uint64)
    mine, won = policy_arrivals(policy, config, seeds, args.floor)
    expert = collect(args.task, config, (args.floor,), args.games, args.seed)
    print(f"{args.task}, seeds {args.seed}-{args.seed + args.games - 1}, floor {args.floor}: "
          f"the policy arrives in {len(mine)} games (wins {won}), the expert in "
          f"{len(expert)}\n")  # fmt: skip
    print("| on arrival | policy: median | mean | expert: median | mean |\n|---|---|---|---|---|")
    env = gym.make(args.task, **config).unwrapped
    stats = {}
    for who, starts in (("policy", mine), ("expert", expert)):
        rows = []
        for data in starts:
            env.load_state(data)
            rows.append(arrival(env.engine.state, 0))
        stats[who] = rows
    for key in ARRIVAL:
        cells = [f"{f(np.array([r[key] for r in stats[w]])):.2f}"
                 for w in ("policy", "expert") for f in (np.median, np.mean)]  # fmt: skip
        print(f"| {key} | " + " | ".join(cells) + " |")
    print("\n| from the arrivals of | the policy plays: wins | the expert plays: wins |")
    print("|---|---|---|")
    for who, starts in (("the policy", mine), ("the expert", expert)):
        mine_won = play_policy_from(policy, config, starts)
        expert_won = play_expert_from(args.task, config, starts)
        print(f"| {who} | {rate(mine_won)} | {rate(expert_won)} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
