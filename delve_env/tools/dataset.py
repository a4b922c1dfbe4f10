"""`delve dataset`: a Minari dataset of a player's games, for offline RL and imitation.

delve dataset --agent scripted --preset easy --episodes 100 --out delve/easy-scripted-v0

Each episode is the single env of the preset (`gym.make` of its id) reset with seed
`--seed + i`, played to its end by the agent: the scripted expert (`scripted`), the same
play on the party's knowledge (`fog`, agents/fog.py), the policy shipped for the preset
(`trained`, sampled from the seed's stream) or random legal actions (`random`). Minari keeps
the Dict observations, the actions, rewards, terminations and truncations, and in infos the
action mask and the episode's seed; the config is in the dataset's metadata, so the env that
made it is `minari.load_dataset(NAME).recover_environment()`. A dataset is written whole or
not at all; an existing NAME is refused unless `--force`. Needs `pip install -e ".[datasets]"`.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import gymnasium as gym
import numpy as np

from ..engine.core.params import DIFFICULTIES
from .args import Parser
from .files import writable_folder

AGENTS = ("scripted", "fog", "trained", "random")
IDS = {"easy": "Delve-Easy-v0", "normal": "Delve-v0", "hard": "Delve-Hard-v0"}


class DatasetInfo(gym.Wrapper):
    """infos of the same keys at every step (Minari asks it): the action mask and the
    episode's seed."""

    def reset(self, *, seed=None, options=None):
        obs, info = self.env.reset(seed=seed, options=options)
        self.seed_now = -1 if seed is None else int(seed)
        return obs, self._info(info)

    def step(self, action):
        obs, reward, terminated, truncated, info = self.env.step(action)
        return obs, reward, terminated, truncated, self._info(info)

    def _info(self, info: dict) -> dict:
        return {"action_mask": info["action_mask"].astype(np.int8),
                "seed": np.int64(self.seed_now)}  # fmt: skip


def player(name: str, difficulty: str, seed: int):
    """`act(env, info) -> action` for one episode of `name`."""
    if name == "scripted":
        from agents.scripted import ScriptedAgent

        agent = ScriptedAgent()
        return lambda env, info: int(agent.act(env))
    if name == "fog":
        from agents.fog import FogExpert

        agent = FogExpert()
        return lambda env, info: int(agent.act(env))
    if name == "trained":
        from ..policy import Agent, shipped

        return Agent(shipped(difficulty), seed)
    from agents.random_legal import RandomLegalAgent

    rand = RandomLegalAgent(seed)
    return lambda env, info: int(rand.act(info["action_mask"]))


def play_episode(env, act, seed: int):
    """One game as Minari's episode buffer: T + 1 observations and infos, T of the rest."""
    from minari.data_collector import EpisodeBuffer

    obs, info = env.reset(seed=seed)
    observations, infos, actions, rewards, terms, cuts = [obs], [info], [], [], [], []
    done = False
    while not done:
        action = act(env, info)
        obs, reward, terminated, truncated, info = env.step(action)
        observations.append(obs)
        infos.append(info)
        actions.append(action)
        rewards.append(float(reward))
        terms.append(bool(terminated))
        cuts.append(bool(truncated))
        done = terminated or truncated

    def stacked(rows: list[dict]) -> dict:
        return {k: np.stack([r[k] for r in rows]) for k in rows[0]}

    return EpisodeBuffer(seed=seed, observations=stacked(observations),
                         actions=np.array(actions, dtype=np.int64), rewards=rewards,
                         terminations=terms, truncations=cuts, infos=stacked(infos))  # fmt: skip


def write(name: str, agent: str, preset: str, episodes: int, seed: int = 0,
          force: bool = False, progress: bool = True):  # fmt: skip
    """Play and write the dataset; returns it (a `minari.MinariDataset`)."""
    import minari

    if agent not in AGENTS:
        raise ValueError(f"unknown agent {agent!r}: one of {', '.join(AGENTS)}")
    if preset not in DIFFICULTIES:
        raise ValueError(f"unknown preset {preset!r}: one of {', '.join(DIFFICULTIES)}")
    if episodes < 1:
        raise ValueError(f"--episodes must be at least 1, got {episodes}")
    if seed < 0:
        raise ValueError(f"--seed must be at least 0, got {seed}")
    if "/" not in name or not name.rsplit("-v", 1)[-1].isdigit():
        raise ValueError(f"--out {name!r}: a dataset name is NAMESPACE/NAME-vN, e.g. "
                         f"delve/easy-{agent}-v0")  # fmt: skip
    root = Path(os.environ.get("MINARI_DATASETS_PATH") or Path.home() / ".minari" / "datasets")
    writable_folder(root, "the datasets' folder (MINARI_DATASETS_PATH)")  # before any game
    if name in minari.list_local_datasets() and not force:
        raise ValueError(f"dataset {name!r} exists (--force replaces it)")
    env_id = IDS[preset]
    env = DatasetInfo(gym.make(env_id))
    bar = _bar(episodes) if progress else None
    buffers = []
    try:
        for i in range(episodes):
            buffers.append(play_episode(env, player(agent, preset, seed + i), seed + i))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    if name in minari.list_local_datasets():
        minari.delete_dataset(name)  # --force: the games are played, the old data goes now
    return minari.create_dataset_from_buffers(
        dataset_id=name, buffer=buffers, env=env_id, algorithm_name=f"delve {agent}",
        eval_env=env_id, author="Delve", data_format="hdf5",
        description=f"{episodes} games of {env_id} ({preset}) played by the {agent} player, "
                    f"seeds {seed}..{seed + episodes - 1}; infos: action_mask, seed")  # fmt: skip


def _bar(total: int):
    try:
        from tqdm import tqdm
    except ImportError:
        return None
    return tqdm(total=total, unit="game", file=sys.stderr)


def main(argv: list[str] | None = None, prog: str = "delve dataset") -> int:
    parser = Parser(prog=prog, description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    parser.add_argument("--agent", choices=AGENTS, default="scripted")
    parser.add_argument("--preset", choices=DIFFICULTIES, default="easy")
    parser.add_argument("--episodes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0, help="the first episode's seed (0)")
    parser.add_argument("--out", required=True, metavar="NAME",
                        help="the Minari dataset id, NAMESPACE/NAME-vN")  # fmt: skip
    parser.add_argument("--force", action="store_true", help="replace a dataset of that name")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    try:
        data = write(args.out, args.agent, args.preset, args.episodes, args.seed, args.force,
                     not args.no_progress)  # fmt: skip
    except (ValueError, ImportError) as err:
        print(f"{prog}: {err}", file=sys.stderr)
        return 2
    print(f"wrote {args.out}: {data.total_episodes} episodes, {data.total_steps} steps "
          f"(minari.load_dataset({args.out!r}))")  # fmt: skip
    return 0
