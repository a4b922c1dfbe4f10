"""Training speed: learned steps a second for each trainer, the env's own steps a second beside
them, and evaluation games a second.

    python benchmarks/train_speed.py                     # ppo and sb3 on easy and combat
    python benchmarks/train_speed.py --timesteps 65536 --device cuda
    python benchmarks/train_speed.py --trainers '' --rllib   # --trainer rllib, 1 and 2 runners

Each trainer learns from scratch with its task's defaults (training/tasks.py) for
`--timesteps` steps after one warm-up rollout; a row's "learned steps/s" is steps played and
learned from, over the whole wall time of that (rollouts and updates). "env steps/s" is the
native vector env alone at the trainer's number of games (random-legal, one thread): what
the game itself would allow. "eval games/s" plays `--games` easy games from seed 1000 with a
fresh network's sampled actions in one batch (`delve_env.policy.play` for ppo, the batched
SB3 evaluation for sb3).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time

ROWS = {"whole game (easy)": ("Delve-Easy-v0", {}), "combat, floor 1": ("Delve-Combat-v0",
        {"floor": 1})}  # fmt: skip


def task_config(task: str, extra: dict) -> dict:
    import gymnasium as gym

    return {**gym.spec(task).kwargs, "reward_mode": "shaped", **extra}


def env_speed(config: dict, num_envs: int, seconds: float = 2.0) -> float:
    from delve_env.tools.bench import vector_loop

    run = vector_loop(num_envs, **config)
    run(0.2)
    steps, _, elapsed = run(seconds)
    run.close()
    return steps / elapsed


def ppo_speed(task: str, config: dict, timesteps: int, device: str) -> tuple[float, float]:
    """(learned steps/s, eval games/s) of training/ppo.py."""
    from training.ppo import PPO, Games, evaluate
    from training.tasks import task_defaults

    hp = task_defaults(task, trainer="ppo")
    ppo = PPO(hp, 0, device)
    games = Games(config, hp.num_envs, 0)
    ppo.train(games, 1, None, time.perf_counter(), hp.timesteps)  # warm-up rollout and update
    start, done = time.perf_counter(), ppo.num_timesteps
    ppo.train(games, timesteps, None, start, hp.timesteps)
    learned = (ppo.num_timesteps - done) / (time.perf_counter() - start)
    return learned, eval_speed(lambda n: evaluate(ppo.net, easy(), n, 1000, True))


def sb3_speed(task: str, config: dict, timesteps: int, device: str) -> tuple[float, float]:
    """(learned steps/s, eval games/s) of sb3-contrib's MaskablePPO, as `delve train
    --trainer sb3` builds it."""
    from sb3_contrib import MaskablePPO

    from delve_env.sb3 import DelveSB3VecEnv
    from training.evaluate import play_batched
    from training.tasks import task_defaults
    from training.train_ppo import policy_kwargs

    hp = task_defaults(task, trainer="sb3")
    venv = DelveSB3VecEnv(hp.num_envs, seed=0, **config)
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=hp.n_steps, batch_size=hp.batch_size,
                        n_epochs=hp.n_epochs, policy_kwargs=policy_kwargs("cnn", hp.net),
                        device=device, seed=0)  # fmt: skip
    model.learn(hp.n_steps * hp.num_envs)
    start, done = time.perf_counter(), model.num_timesteps
    model.learn(timesteps, reset_num_timesteps=False)
    learned = (model.num_timesteps - done) / (time.perf_counter() - start)
    return learned, eval_speed(
        lambda n: play_batched("Delve-Easy-v0", easy(), model, n, 1000, deterministic=False)
    )


def rllib_speed(task: str, config: dict, timesteps: int, runners: int) -> float:
    """Learned steps/s of `delve train --trainer rllib` (training/rllib_ppo.py: the default
    recipe on RLlib's PPO) with `runners` env runners, the task's games split among them."""
    import ray

    from training.rllib_ppo import ppo_config
    from training.tasks import task_defaults

    ray.init(num_cpus=runners + 1, include_dashboard=False, log_to_driver=False)
    algo = ppo_config(config, task_defaults(task, trainer="rllib"), 0, runners, 0).build_algo()
    try:
        algo.train()  # warm-up
        start = time.perf_counter()
        before = algo.train()["env_runners"]["num_env_steps_sampled_lifetime"]
        after = before
        while after - before < timesteps:
            after = algo.train()["env_runners"]["num_env_steps_sampled_lifetime"]
        return (after - before) / (time.perf_counter() - start)
    finally:
        algo.stop()
        ray.shutdown()


GAMES = 200


def easy() -> dict:
    return task_config("Delve-Easy-v0", {})


def eval_speed(play_n) -> float:
    start = time.perf_counter()
    play_n(GAMES)
    return GAMES / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    global GAMES
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timesteps", type=int, default=32_768, help="steps timed a row")
    parser.add_argument("--trainers", default="ppo,sb3",
                        help="ppo,sb3 (comma-separated; '' for none, as with --rllib alone in "
                        "RLlib's own environment)")  # fmt: skip
    parser.add_argument("--rllib", action="store_true",
                        help="+ --trainer rllib on 1 and 2 env runners")  # fmt: skip
    parser.add_argument("--device", default="cpu", help="torch device of ppo and sb3")
    parser.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                        help="torch threads (default: every core)")  # fmt: skip
    parser.add_argument("--games", type=int, default=GAMES, help="eval games timed")
    args = parser.parse_args(argv)
    GAMES = args.games
    import numpy as np
    import torch

    torch.set_num_threads(args.threads)
    from training.tasks import task_defaults

    env_speed(task_config("Delve-Easy-v0", {}), 8, 0.5)  # compile or load the engine first
    print(f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores, Python "
          f"{platform.python_version()}, torch {torch.__version__} ({args.threads} threads, "
          f"{args.device}), numpy {np.__version__}; {args.timesteps:,} steps a row\n")  # fmt: skip
    print("| trainer | task | games | learned steps/s | env steps/s | eval games/s |")
    print("|---|---|---:|---:|---:|---:|")
    for trainer in filter(None, args.trainers.split(",")):
        for name, (task, extra) in ROWS.items():
            config = task_config(task, extra)
            n = task_defaults(task).num_envs
            speed = ppo_speed if trainer == "ppo" else sb3_speed
            learned, games = speed(task, config, args.timesteps, args.device)
            shown = f"{games:,.1f}" if task == "Delve-Easy-v0" else ""
            print(f"| {trainer} | {name} | {n} | {learned:,.0f} | {env_speed(config, n):,.0f} | "
                  f"{shown} |", flush=True)  # fmt: skip
    if args.rllib:
        for runners in (1, 2):
            for name, (task, extra) in ROWS.items():
                learned = rllib_speed(task, task_config(task, extra), args.timesteps, runners)
                print(f"| rllib, {runners} env runner{'s' * (runners > 1)} | {name} | "
                      f"{task_defaults(task).num_envs} | {learned:,.0f} | | |", flush=True)  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
