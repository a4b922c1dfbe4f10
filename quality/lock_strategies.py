"""What simple lock strategies win: the targets a learner of Delve-Vault-v0 can aim at.

    python quality/lock_strategies.py [--floors 1 3] [--episodes 200]

Plays the vault sub-task on seeds 1000.. (the `delve eval` seeds) with hand-written policies
that read the engine state the observation shows (lit and pushed cells, the hint, the guesses
and their answers) and prints each one's win rate beside random-legal play:

- plate, greedy: push the unpushed cell that leaves the fewest lights (a local rule).
- plate, greedy + hints: buy a hint while gold allows and push the hinted cell, else greedy.
- wall, hill-climb: change one ring (not a known one) of the best guess so far.
- wall, consistent: guess a combination that agrees with every answer so far (Mastermind).
- wall, agreeing symbols: set each ring to a random symbol the observation marks as agreeing
  (`puzzle` "agreeing symbols"): the consistent guesser as a one-step rule on what is shown.
"""

from __future__ import annotations

import argparse
import itertools

import gymnasium as gym
import numpy as np

import delve_env  # noqa: F401  (registers the ids)
from agents.random_legal import RandomLegalAgent
from agents.vault_oracles import apply_push, wall_answer
from delve_env.engine.core.actions import A_HINT, A_PUSH, A_RING
from delve_env.engine.core.tables import WALL_RINGS
from delve_env.engine.outputs.layout import PUZZLE_AGREEING
from delve_env.engine.rules.vaults import num_symbols, plate_size
from delve_env.stats import wilson
from training.evaluate import EVAL_SEED


def plate_policy(hints: bool):
    def act(env, f, rng):
        s, n = env.engine.state, plate_size(f)
        if s.plate_hint[0, f] >= 0:
            return A_PUSH + int(s.plate_hint[0, f])
        if hints and env.action_masks()[A_HINT]:
            return A_HINT
        lit, pushed = s.plate_lit[0, f, :n, :n], s.plate_pushed[0, f, :n, :n]
        scores = [apply_push(lit, r, c).sum() + 100 * pushed[r, c] + 0.1 * rng.random()
                  for r in range(n) for c in range(n)]  # fmt: skip
        return A_PUSH + int(np.argmin(scores))

    return act


def shown_guesses(s, f) -> list[tuple[tuple[int, ...], int]]:
    rows = s.wall_history[0, f]
    return [(tuple(int(v) for v in h[:WALL_RINGS]), int(h[WALL_RINGS])) for h in rows if h[0] >= 0]


def wall_policy(consistent: bool):
    plans = {}  # the guesses shown -> the rings of the next guess

    def plan(s, f, rng) -> list[int]:
        n, known = num_symbols(f), int(s.wall_num_set[0, f])  # a Rogue's first ring is set
        preset = [int(v) for v in s.wall_set[0, f, :known]]
        history = shown_guesses(s, f)
        if consistent:
            codes = [c for c in itertools.product(range(n), repeat=WALL_RINGS)
                     if list(c[:known]) == preset and all(
                         wall_answer(c, g) == right for g, right in history)]  # fmt: skip
            return list(codes[rng.integers(len(codes))])
        if not history:
            return preset + [int(v) for v in rng.integers(n, size=WALL_RINGS - known)]
        rings = list(max(history, key=lambda gr: gr[1])[0])  # the best guess (latest of equals)
        i = int(rng.integers(known, WALL_RINGS))
        rings[i] = (rings[i] + 1 + int(rng.integers(n - 1))) % n
        return rings

    def act(env, f, rng):
        s = env.engine.state
        shown = s.wall_history[0, f].tobytes()
        if shown not in plans:
            plans.clear()
            plans[shown] = plan(s, f, rng)
        return A_RING + plans[shown][int(s.wall_num_set[0, f])]

    return act


def agreeing_policy():
    """Each ring: a random one of the symbols the observation shows as agreeing."""

    def act(env, f, rng):
        puzzle = env.engine.obs["puzzle"][0]
        flags = puzzle[PUZZLE_AGREEING : PUZZLE_AGREEING + num_symbols(f)]
        return A_RING + int(rng.choice(np.flatnonzero(flags)))

    return act


def random_policy(seed: int):
    agent = RandomLegalAgent(seed)
    return lambda env, f, rng: int(agent.act(env.action_masks()))


def play(lock: str, floor: int, policy, episodes: int) -> tuple[int, int]:
    env = gym.make("Delve-Vault-v0", lock=lock, floor=floor).unwrapped
    rng, wins = np.random.default_rng(0), 0
    for i in range(episodes):
        env.reset(seed=EVAL_SEED + i)
        done = False
        while not done:
            _, _, terminated, truncated, info = env.step(policy(env, floor, rng))
            done = terminated or truncated
        wins += bool(info["episode_stats"]["won"])
    return wins, episodes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--floors", type=int, nargs="+", default=[1, 3])
    parser.add_argument("--episodes", type=int, default=200)
    args = parser.parse_args()
    rows = [("plate", "random-legal", lambda: random_policy(EVAL_SEED)),
            ("plate", "greedy", lambda: plate_policy(False)),
            ("plate", "greedy + hints", lambda: plate_policy(True)),
            ("wall", "random-legal", lambda: random_policy(EVAL_SEED)),
            ("wall", "hill-climb", lambda: wall_policy(False)),
            ("wall", "consistent", lambda: wall_policy(True)),
            ("wall", "agreeing symbols", agreeing_policy)]  # fmt: skip
    print(f"| lock | strategy | {' | '.join(f'floor {f}' for f in args.floors)} |")
    print("|---|---|" + "---|" * len(args.floors))
    for lock, name, make in rows:
        cells = []
        for f in args.floors:
            wins, n = play(lock, f, make(), args.episodes)
            low, high = wilson(wins, n)
            cells.append(f"{wins / n:.1%} ({low:.1%}-{high:.1%})")
        print(f"| {lock} | {name} | {' | '.join(cells)} |")


if __name__ == "__main__":
    main()
