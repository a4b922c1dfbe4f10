"""Per-task training defaults and the env config the command-line options build.

One table, `DEFAULTS`, holds every registered id's PPO settings; `resolve_config` turns the
`--difficulty/--depth/--lock/--floor/--reward-mode/--max-steps` options into the config that
`gym.make(task, **config)` and `DelveSB3VecEnv(**config)` take, refusing options that do not
apply to the task.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace
from pathlib import Path

import gymnasium as gym

from delve_env import IDS
from delve_env.config import LOCKS, REWARD_MODES, Config
from delve_env.engine.core.params import DIFFICULTIES
from delve_env.tools.args import Parser

EVAL_SEED = 1000  # evaluation episodes play seeds EVAL_SEED, EVAL_SEED + 1, ...
EVAL_SEEDS = 500  # ... the benchmark's held-out games (docs/BASELINES.md): never trained on
QUICK_MAX_STEPS = 300  # --quick caps episodes (a smoke run, also on the whole game)


@dataclass(frozen=True)
class TaskDefaults:
    """PPO and evaluation settings for one task.

    Attributes:
        timesteps: Total environment steps to train for.
        num_envs: Games stepped together by the batched engine.
        n_steps: Steps per env per rollout (a rollout is n_steps * num_envs steps).
        batch_size: Minibatch size of the PPO update.
        n_epochs: Passes over each rollout.
        ent_coef: Entropy bonus.
        gamma: Discount factor.
        eval_every: Timesteps between two points of the learning curve.
        eval_episodes: Episodes per point of the learning curve.
        net: Network size, "small" or "tiny" (see `training.train_ppo.policy_kwargs`).
        sampled: The curve samples the policy's actions (else takes the likeliest).
        curriculum: Whole game: start at depth `start_depth` and go one floor deeper each
            time a curve point's win rate reaches `promote_at`, up to the config's depth.
        start_depth: The curriculum's first depth.
        promote_at: The win rate that moves the curriculum on.
        learning_rate: Adam's step size (training/ppo.py lowers it linearly to 0; `--trainer
            sb3` keeps SB3_LEARNING_RATE).
        gae_lambda, clip, vf_coef, max_grad_norm: PPO's advantage estimate, ratio clip,
            value loss weight and gradient norm cap.
        win_weight, loss_weight: How many times the env's win and loss rewards a training
            game's end pays (training/ppo.py's `Games`).
        trainer: The trainer `delve train` uses unless `--trainer` says: "ppo"
            (training/ppo.py) or "sb3" (sb3-contrib's MaskablePPO).
    """

    timesteps: int
    num_envs: int
    n_steps: int
    batch_size: int
    n_epochs: int
    ent_coef: float
    gamma: float
    eval_every: int
    eval_episodes: int
    net: str = "small"
    sampled: bool = False
    curriculum: bool = False
    start_depth: int = 2
    promote_at: float = 0.3
    learning_rate: float = 3e-4
    gae_lambda: float = 0.95
    clip: float = 0.2
    vf_coef: float = 0.5
    max_grad_norm: float = 0.5
    win_weight: float = 1.0
    loss_weight: float = 1.0
    trainer: str = "ppo"


# The whole game: sampled curves (a likeliest-action policy loops where it is unsure, LEARNING.md)
# and a curriculum over the depth; 64 games of 128 steps a rollout. Easy: 2M steps (about 7
# minutes on 2 cores with the default trainer), normal 4M, hard 6M.
_GAME = TaskDefaults(2_000_000, 64, 128, 1024, 4, 0.01, 0.997, 100_000, 40, sampled=True,
                     curriculum=True)  # fmt: skip
DEFAULTS: dict[str, TaskDefaults] = {
    "Delve-v0": replace(_GAME, timesteps=4_000_000),
    "Delve-Easy-v0": _GAME,
    "Delve-Hard-v0": replace(_GAME, timesteps=6_000_000),
    # the locks collapse to one repeated action with less entropy and fewer epochs;
    # MaskablePPO's CNN learns them from far fewer samples than training/ppo.py's network,
    # which needs a larger step size (1e-3) to learn them at all (LEARNING.md)
    "Delve-Vault-v0": replace(
        TaskDefaults(300_000, 16, 128, 512, 10, 0.05, 0.99, 20_000, 40),
        learning_rate=1e-3,
        trainer="sb3",
    ),
    "Delve-Explore-v0": TaskDefaults(1_000_000, 16, 256, 1024, 4, 0.01, 0.995, 50_000, 10),
    "Delve-Combat-v0": TaskDefaults(200_000, 16, 64, 256, 4, 0.01, 0.99, 10_000, 100),
}
# --quick: a smoke run of any task, end to end in seconds once the engine is compiled
QUICK = dict(timesteps=2048, num_envs=4, n_steps=64, batch_size=64, n_epochs=2,
             eval_every=1024, eval_episodes=2, net="tiny")  # fmt: skip
REWARD_DEFAULT = "shaped"  # training default; the ids' own default is sparse

# which options apply where: sub-tasks set their own depth, only the vault has a lock
SUBTASKS = {"Delve-Vault-v0": ("lock", "floor"), "Delve-Explore-v0": ("floor",),
            "Delve-Combat-v0": ("floor",)}  # fmt: skip


def task_id(text: str) -> str:
    """argparse type: a registered Delve id."""
    if text not in IDS:
        raise argparse.ArgumentTypeError(
            f"unknown task id {text!r}; registered ids: {', '.join(IDS)}"
        )
    return text


def task_parser(doc: str, prog: str | None = None) -> argparse.ArgumentParser:
    """A parser for `delve train` / `delve eval`: its description and epilog from a module
    docstring, TASK and the env config options added."""
    summary, rest = doc.split("\n\n", 1)
    parser = Parser(prog=prog, description=summary, epilog=rest,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)  # fmt: skip
    add_config_options(parser)
    return parser


def add_config_options(parser: argparse.ArgumentParser) -> None:
    """Add TASK and the env config options shared by `delve train` and `delve eval`."""
    parser.add_argument("task", metavar="TASK", type=task_id, help=f"one of {', '.join(IDS)}")
    group = parser.add_argument_group("env config (default: the id's own)")
    group.add_argument("--difficulty", choices=DIFFICULTIES)
    group.add_argument("--depth", type=int, help="floors (whole-game ids only)")
    group.add_argument("--lock", choices=LOCKS, help="the vault's lock (Delve-Vault-v0)")
    group.add_argument("--floor", type=int, help="the sub-task's floor, 1..12")
    group.add_argument("--reward-mode", choices=REWARD_MODES,
                       help=f"default: {REWARD_DEFAULT}")  # fmt: skip
    group.add_argument("--max-steps", type=int, help="episode step limit")


def resolve_config(args: argparse.Namespace) -> dict:
    """The env config for `gym.make(args.task, **config)` from the parsed options.

    Args:
        args: Parsed options of `add_config_options`.

    Returns:
        The id's own kwargs updated with the given options (reward shaped unless given).

    Raises:
        ValueError: An option that does not apply to the task, or a bad value.
    """
    given = {key: getattr(args, key) for key in ("difficulty", "depth", "lock", "floor",
             "reward_mode", "max_steps") if getattr(args, key) is not None}  # fmt: skip
    subtask_keys = SUBTASKS.get(args.task)
    for key in ("depth", "lock", "floor"):
        if key not in given:
            continue
        if subtask_keys is None and key != "depth":
            raise ValueError(f"--{key} applies to the sub-tasks only, not {args.task}")
        if subtask_keys is not None and key not in subtask_keys:
            raise ValueError(f"--{key} does not apply to {args.task}")
    config = dict(gym.spec(args.task).kwargs)
    config["reward_mode"] = REWARD_DEFAULT
    config.update(given)
    Config.from_kwargs(**config)  # ValueError naming the key and what is allowed
    return config


# MaskablePPO keeps its own constant rate on every task: its rows in LEARNING.md were measured
# at it, and the default trainer's rates (which fall to 0 over the run) are tuned for its network
SB3_LEARNING_RATE = 3e-4


def task_defaults(task: str, quick: bool = False, trainer: str | None = None) -> TaskDefaults:
    """The table's settings for `task` and `trainer` ("ppo" or "sb3"; default: the row's own),
    or the --quick preset."""
    hp = DEFAULTS[task]
    hp = replace(hp, trainer=trainer or hp.trainer)
    if hp.trainer == "sb3":
        hp = replace(hp, learning_rate=SB3_LEARNING_RATE)
    return replace(hp, **QUICK) if quick else hp


def default_out(task: str, config: dict) -> Path:
    """runs/<task>[-<lock>][-f<floor>] (the options given), e.g. runs/vault-plate-f1."""
    name = task.removeprefix("Delve-").removesuffix("-v0").lower()
    parts = [name if name != "v0" else "game"]
    if "lock" in config:
        parts.append(config["lock"])
    if "floor" in config:
        parts.append(f"f{config['floor']}")
    return Path("runs") / "-".join(parts)
