"""The party as agents against one agent for the party, on RLlib: the same PPO, the same number
of env steps, then each policy sampled on the same 500 held-out games.

    python benchmarks/rllib_party.py --preset Delve-Easy-v0 --steps 800000

Run it in an environment with the `rllib` and `multiagent` extras. "single" is
`delve_env.rllib.ppo_config` (one agent drives the party); "party" is `party_ppo_config`
(one policy shared by the delvers, each observed and acting on its own turns). Both: RLlib's
action-masking module, the shaped reward, one env runner of 8 envs, 4,096-step batches,
512-step minibatches, 4 epochs, learning rate 3e-4. Prints a Markdown table.
"""

import argparse
import time

import numpy as np
import torch

from delve_env.stats import wilson

GAMES, FIRST_SEED, CHUNK = 500, 1000, 100


def config(view: str, env_id: str, seed: int):
    from delve_env.rllib import party_ppo_config, ppo_config

    make = party_ppo_config if view == "party" else ppo_config
    return (
        make(env_id, num_env_runners=1, reward_mode="shaped")
        .env_runners(num_envs_per_env_runner=8)
        .training(train_batch_size_per_learner=4096, minibatch_size=512, num_epochs=4, lr=3e-4)
        .debugging(seed=seed)
    )


def train(view: str, env_id: str, steps: int, seed: int):
    """(the trained module, wall seconds, env steps) of one run."""
    algo = config(view, env_id, seed).build_algo()
    start, done = time.perf_counter(), 0
    while done < steps:
        result = algo.train()
        done = result["env_runners"]["num_env_steps_sampled_lifetime"]
        ret = result["env_runners"].get("episode_return_mean", float("nan"))
        print(f"  {view}: {done:,} steps, {time.perf_counter() - start:.0f} s, "
              f"return {ret:.2f}", flush=True)  # fmt: skip
    wall = time.perf_counter() - start
    module = algo.get_module("delver" if view == "party" else None)
    algo.stop()
    return module, wall, done


def game(view: str, env_id: str):
    """(env, its engine state) for one evaluation game of `view`."""
    import gymnasium as gym

    from delve_env.pettingzoo import parallel_env
    from delve_env.rllib import MaskedAgents, MaskedObservation

    if view == "party":
        env = MaskedAgents(parallel_env(**gym.spec(env_id).kwargs))
        return env, env.env.game.engine.state
    env = MaskedObservation(gym.make(env_id))
    return env, env.unwrapped.engine.state


def evaluate(module, view: str, env_id: str, seed: int = 0) -> int:
    """Games won of GAMES held-out seeds, the module's actions sampled, CHUNK games a batch."""
    rng = np.random.default_rng(seed)
    wins = 0
    for first in range(FIRST_SEED, FIRST_SEED + GAMES, CHUNK):
        games = [game(view, env_id) for _ in range(CHUNK)]
        obs = [env.reset(seed=first + i)[0] for i, (env, _) in enumerate(games)]
        playing = list(range(CHUNK))
        while playing:
            inputs = [next(iter(obs[i].values())) if view == "party" else obs[i] for i in playing]
            batch = {"obs": {k: torch.as_tensor(np.stack([o[k] for o in inputs]))
                             for k in ("observations", "action_mask")}}  # fmt: skip
            with torch.no_grad():
                logits = module.forward_inference(batch)["action_dist_inputs"].double().numpy()
            p = np.exp(logits - logits.max(1, keepdims=True))
            p /= p.sum(1, keepdims=True)
            still = []
            for i, probs in zip(playing, p):
                env, _ = games[i]
                action = int(rng.choice(len(probs), p=probs))
                if view == "party":
                    agent = next(iter(obs[i]))
                    obs[i], _, term, trunc, _ = env.step({agent: action})
                    over = not env.agents  # the game's end ends every agent
                else:
                    obs[i], _, term, trunc, _ = env.step(action)
                    over = term or trunc
                if over:
                    wins += int(games[i][1].outcome[0] == 1)
                else:
                    still.append(i)
            playing = still
    return wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--preset", default="Delve-Easy-v0", help="a Delve id")
    parser.add_argument("--steps", type=int, default=800_000, help="env steps a run")
    parser.add_argument("--views", default="single,party", help="single,party")
    parser.add_argument("--seed", type=int, default=0, help="training seed")
    args = parser.parse_args()
    rows = []
    for view in args.views.split(","):
        module, wall, steps = train(view, args.preset, args.steps, args.seed)
        start = time.perf_counter()
        wins = evaluate(module, view, args.preset)
        low, high = wilson(wins, GAMES)
        rows.append(f"| {view} | {int(steps):,} | {wall:.0f} | {100 * wins / GAMES:.1f}% "
                    f"({100 * low:.1f}-{100 * high:.1f}) | {time.perf_counter() - start:.0f} |")  # fmt: skip
    print(f"\n{args.preset}, training seed {args.seed}, {GAMES} sampled games (seeds "
          f"{FIRST_SEED}-{FIRST_SEED + GAMES - 1})\n")  # fmt: skip
    print("| view | env steps | training s | won | evaluation s |")
    print("|---|---|---|---|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
