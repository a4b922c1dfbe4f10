"""Evaluate a saved model (a `delve train` policy or an SB3 MaskablePPO), or a baseline agent,
on any Delve id.

delve eval Delve-Vault-v0 runs/vault-plate-f1/model.zip --lock plate --floor 1 --episodes 200
delve eval Delve-Combat-v0 --agent random
delve eval Delve-Easy-v0 --agent scripted --json

Every episode plays one seed (--seed, --seed + 1, ...) with the model's likeliest legal
action (--stochastic samples it). A model plays all its episodes at once, one per slot of the
batched engine (slot i plays seed + i, the same game as `gym.make(TASK, **config)` reset with
that seed: determinism holds in any slot), with one forward pass per step for all of them; a
sampled game draws from its own stream (`delve_env.policy.uniforms`), so it plays the same
alone or in any batch. The baselines play their episodes one by one in the single env. Prints
the win rate with its 95% Wilson interval, the mean return and the mean episode length.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import gymnasium as gym
import numpy as np

from delve_env.stats import wilson
from delve_env.wrappers import FloatObservation
from training.tasks import EVAL_SEED, SUBTASKS, resolve_config, task_parser

Policy = Callable[[dict, dict, gym.Env], int]  # (observation, info, env) -> action


def make_env(task: str, config: dict) -> gym.Env:
    """The single env of `task` with float observations (what the models are trained on)."""
    return FloatObservation(gym.make(task, **config))


def model_policy(model) -> Policy:
    """A MaskablePPO model's deterministic, masked action."""

    def act(obs: dict, info: dict, env: gym.Env) -> int:
        action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
        return int(action)

    return act


def random_policy(seed: int | None) -> Policy:
    """The random-legal baseline (agents/random_legal.py)."""
    from agents.random_legal import RandomLegalAgent

    agent = RandomLegalAgent(seed)
    return lambda obs, info, env: int(agent.act(info["action_mask"]))


def scripted_policy(fog: bool = False) -> Policy:
    """The scripted expert (agents/scripted.py; whole-game ids only), or with `fog` the same
    play on the party's knowledge (agents/fog.py)."""
    from agents.fog import FogExpert
    from agents.scripted import ScriptedAgent

    agent = FogExpert() if fog else ScriptedAgent()
    return lambda obs, info, env: int(agent.act(env))


def play(env: gym.Env, policy: Policy, episodes: int, seed: int = EVAL_SEED) -> dict:
    """Play `episodes` episodes on seeds seed, seed + 1, ... and summarize them.

    Returns:
        episodes, wins, win_rate, win_low, win_high (95% Wilson), mean_return, mean_length.
    """
    wins, returns, lengths, ends = 0, [], [], []
    for i in range(episodes):
        obs, info = env.reset(seed=seed + i)
        total, steps, done = 0.0, 0, False
        while not done:
            obs, reward, terminated, truncated, info = env.step(policy(obs, info, env))
            total += reward
            steps += 1
            done = terminated or truncated
        wins += bool(info["episode_stats"]["won"])
        returns.append(total)
        lengths.append(steps)
        ends.append(info["episode_stats"])
    return summarize(wins, returns, lengths, ends)


def summarize(wins: int, returns, lengths, ends: list[dict] | None = None) -> dict:
    """episodes, wins, win_rate, win_low, win_high (95% Wilson), mean_return, mean_length;
    with the episodes' `ends` (their `episode_stats`), also the Delve score with its 95%
    interval (`delve_env.score`), each achievement's rate in percent and the mean deepest
    floor."""
    episodes = len(returns)
    low, high = wilson(wins, episodes)
    out = {
        "episodes": episodes,
        "wins": wins,
        "win_rate": wins / episodes if episodes else 0.0,
        "win_low": low,
        "win_high": high,
        "mean_return": float(np.mean(returns)) if episodes else 0.0,
        "mean_length": float(np.mean(lengths)) if episodes else 0.0,
    }
    if ends:
        from delve_env.score import score

        got = score([e["achievements"] for e in ends])
        out.update({"score": got["score"], "score_low": got["interval"][0],
                    "score_high": got["interval"][1], "achievements": got["rates"],
                    "deepest_floor": float(np.mean([e["deepest_floor"] for e in ends]))})  # fmt: skip
    return out


def play_batched(task: str, config: dict, model, episodes: int, seed: int = EVAL_SEED,
                 deterministic: bool = True) -> dict:  # fmt: skip
    """`play` for a MaskablePPO model, every episode in its own slot of one batched engine.

    Returns the same summary as `play` (the same games: slot i plays seed + i). With
    `deterministic=False` the actions are sampled from the policy (torch seeded with `seed`;
    a deterministic evaluation leaves torch's generator alone, as training goes on after it).
    """
    import torch

    from delve_env.sb3 import DelveSB3VecEnv

    if not deterministic:
        torch.manual_seed(seed)
    venv = DelveSB3VecEnv(episodes, seed=seed, **config)
    obs = venv.reset()
    done = np.zeros(episodes, dtype=bool)
    won = np.zeros(episodes, dtype=bool)
    returns = np.zeros(episodes)
    lengths = np.zeros(episodes, dtype=np.int64)
    ends: list = [None] * episodes
    while not done.all():
        actions, _ = model.predict(obs, action_masks=venv.action_masks(),
                                   deterministic=deterministic)  # fmt: skip
        obs, rewards, dones, infos = venv.step(actions)
        playing = ~done
        returns[playing] += rewards[playing]
        lengths[playing] += 1
        for e in np.flatnonzero(playing & dones):
            won[e] = infos[e]["is_success"]
            ends[e] = infos[e].get("episode_stats")
        done |= dones
    venv.close()
    return summarize(int(won.sum()), returns, lengths, ends if all(ends) else None)


def play_model_file(task: str, config: dict, path: str | Path, episodes: int,
                    seed: int = EVAL_SEED, sampled: bool = False) -> dict:  # fmt: skip
    """`summarize` of a saved model's episodes, all in one batch: a `delve train` policy
    (numpy, `delve_env.policy.play`) or an SB3 model (`play_batched`)."""
    from delve_env.policy import PolicyNet

    model = load_model(path)
    if isinstance(model, PolicyNet):
        return play_policy_batched(model, config, episodes, seed, sampled)
    return play_batched(task, config, model, episodes, seed, deterministic=not sampled)


def load_model(path: str | Path):
    """A `delve train` policy (`PolicyNet`) or an SB3 MaskablePPO model from `path`; a file
    that is neither (not a zip, cut short, another kind of zip) raises ValueError saying so."""

    from delve_env.policy import PolicyNet, is_policy_file

    try:
        if is_policy_file(path):
            return PolicyNet.load(path)
        from sb3_contrib import MaskablePPO

        return MaskablePPO.load(path, device="cpu")
    except Exception as err:  # noqa: BLE001 - whatever a bad file makes the loaders raise
        raise ValueError(
            f"{path}: not a model this Delve can play (a model.zip of delve "
            f"train, or an SB3 MaskablePPO zip): {str(err).splitlines()[0]}"
        ) from None


def play_policy_batched(policy, config: dict, episodes: int, seed: int = EVAL_SEED,
                        sampled: bool = True) -> dict:  # fmt: skip
    """`summarize` of a policy's episodes (a `PolicyNet` or `(records, masks) -> masked
    logits`, as `delve_env.policy.play` takes) on seeds seed, seed + 1, ... in one batch."""
    from delve_env.policy import play

    runs = play(policy, config, range(seed, seed + episodes), sampled)
    return summarize(sum(r["won"] for r in runs), [r["return"] for r in runs],
                     [r["length"] for r in runs], runs)  # fmt: skip


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    parser = task_parser(__doc__, prog)
    parser.add_argument("model", metavar="MODEL.zip", nargs="?", help="a saved model")
    parser.add_argument("--agent", choices=("model", "trained", "random", "scripted", "fog"),
                        help="default: model when MODEL.zip is given; trained: the policy "
                        "shipped for the config's difficulty, sampled")  # fmt: skip
    parser.add_argument("--episodes", type=int, default=200, help="default 200")
    parser.add_argument("--seed", type=int, default=EVAL_SEED, help=f"first seed ({EVAL_SEED})")
    parser.add_argument("--stochastic", action="store_true",
                        help="sample the model's actions instead of taking the likeliest")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    return parser


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """`delve eval`: returns the exit status (2 for bad input)."""
    parser = build_parser(prog)
    args = parser.parse_intermixed_args(argv)  # TASK, options and MODEL.zip in any order
    agent = args.agent or ("model" if args.model else None)
    if agent is None:
        parser.error("give MODEL.zip or --agent random|scripted")
    if agent == "model" and not args.model:
        parser.error("--agent model needs MODEL.zip")
    if args.stochastic and agent != "model":
        parser.error(f"--stochastic samples a model's actions; --agent {agent} has no model")
    if agent != "model" and args.model:
        parser.error(f"MODEL.zip is for --agent model, not --agent {agent}")
    if agent in ("scripted", "fog", "trained") and args.task in SUBTASKS:
        parser.error(f"the {agent} agent plays the whole game, not {args.task}")
    if args.model and not Path(args.model).is_file():
        parser.error(f"no such model file: {args.model}")
    if args.episodes < 1:
        parser.error("--episodes must be at least 1")
    try:
        config = resolve_config(args)
    except ValueError as err:
        parser.error(str(err))
    if agent == "model":
        try:
            load_model(args.model)
        except ValueError as err:
            parser.error(str(err))
        result = play_model_file(args.task, config, args.model, args.episodes, args.seed,
                                 sampled=args.stochastic)  # fmt: skip
    elif agent == "trained":
        from delve_env.config import Config
        from delve_env.policy import shipped

        try:
            policy = shipped(Config.from_kwargs(**config).difficulty)
        except ValueError as err:
            parser.error(str(err))
        result = play_policy_batched(policy, config, args.episodes, args.seed, sampled=True)
    else:
        policy = random_policy(args.seed) if agent == "random" else \
            scripted_policy(fog=agent == "fog")  # fmt: skip
        result = play(make_env(args.task, config), policy, args.episodes, args.seed)
    result = {"id": args.task, "version": args.task.rsplit("-", 1)[-1], "task": args.task,
              "config": config, "agent": agent, "model": args.model,
              "stochastic": args.stochastic or agent == "trained", "seed": args.seed,
              "seeds": [args.seed, args.episodes], **result}  # fmt: skip
    if args.json:
        print(json.dumps(result))
    else:
        print(format_result(result))
    return 0


def format_result(r: dict) -> str:
    """The result as a few readable lines."""
    what = r["model"] if r["agent"] == "model" else f"{r['agent']} agent"
    if r.get("stochastic"):
        what += " (sampled actions)"
    config = ", ".join(f"{k}={v}" for k, v in r["config"].items())
    return (
        f"{r['task']} ({config}): {what}, {r['episodes']} episodes from seed {r['seed']}\n"
        f"  win rate     {r['win_rate']:.3f}  (95% CI {r['win_low']:.3f}-{r['win_high']:.3f},"
        f" {r['wins']} won)\n"
        f"  mean return  {r['mean_return']:.3f}\n"
        f"  mean length  {r['mean_length']:.1f} steps"
        + (
            f"\n  Delve score  {r['score']:.1f}  (95% CI {r['score_low']:.1f}-{r['score_high']:.1f};"
            f" deepest floor {r['deepest_floor']:.2f} on average)"
            if "score" in r
            else ""
        )
    )


if __name__ == "__main__":
    sys.exit(main())
