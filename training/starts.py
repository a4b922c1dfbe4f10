"""Starting states for training: where the scripted expert arrives on a deep floor.

python -m training.starts Delve-Hard-v0 --floors 7 --games 400 --out runs/hard-starts.npz

Plays the scripted expert (agents/scripted.py) on seeds `--seed`, `--seed + 1`, ... and keeps
the whole game's state (delve_env/snapshot.py) each time its party first arrives on one of
`--floors` going down. `delve train --starts FILE` then begins some of its training games
there: a policy that meets the fights of the last floors a few times a game meets them in
every such game, with the party as the expert brings it (docs/LEARNING.md).

The file is an .npz of one uint8 array per state (`state_0`, `state_1`, ...); each snapshot
records the config it was played under (`DelveEnv.save_state`), checked when it is loaded.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np


def collect(task: str, config: dict, floors: tuple[int, ...], games: int, seed: int) -> list:
    """Snapshot bytes of each first arrival on one of `floors` (without the king) in `games`
    expert games from `seed` on."""
    import gymnasium as gym

    from agents.scripted import ScriptedAgent

    env = gym.make(task, **config).unwrapped
    agent = ScriptedAgent()
    starts = []
    for g in range(games):
        env.reset(seed=seed + g)
        seen, done = set(), False
        while not done:
            s = env.engine.state
            f = int(s.floor[0])
            if f in floors and f not in seen and not s.has_king[0]:
                seen.add(f)
                starts.append(env.save_state())
            _, _, term, trunc, _ = env.step(agent.act(env))
            done = term or trunc
    return starts


def save(path: Path, starts: list) -> None:
    np.savez_compressed(path, **{f"state_{i}": np.frombuffer(b, dtype=np.uint8)
                                 for i, b in enumerate(starts)})  # fmt: skip


def load(path: Path) -> list[bytes]:
    """The snapshot bytes of a `save`d file."""
    with np.load(path) as data:
        n = sum(1 for k in data.files if k.startswith("state_"))
        return [data[f"state_{i}"].tobytes() for i in range(n)]


def main(argv: list[str] | None = None) -> int:
    from training.tasks import resolve_config, task_parser

    parser = task_parser(__doc__, "python -m training.starts")
    parser.add_argument("--floors", default="7", help="comma-separated floors (default 7)")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=100_000,
                        help="first seed (default 100000: apart from the evaluation's 1000-1499)")  # fmt: skip
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        config = resolve_config(args)
        floors = tuple(int(f) for f in args.floors.split(","))
    except ValueError as err:
        parser.error(str(err))
    starts = collect(args.task, config, floors, args.games, args.seed)
    save(args.out, starts)
    print(f"{len(starts)} starting states from {args.games} games -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
