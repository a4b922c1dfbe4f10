"""Evaluate a saved MaskablePPO model on Delve: win rate and mean episode stats.

python -m training.evaluate runs/ppo_delve.zip --episodes 50
"""

import argparse

import numpy as np
from sb3_contrib import MaskablePPO

from delve_env.env import DelveEnv


def evaluate(model_path: str, episodes: int, seed: int = 0, **config) -> dict:
    """Play `episodes` games with the model's masked, deterministic policy."""
    model = MaskablePPO.load(model_path)
    env = DelveEnv(**config)
    stats = []
    for i in range(episodes):
        obs, info = env.reset(seed=seed + i)
        done = False
        while not done:
            action, _ = model.predict(obs, action_masks=info["action_mask"], deterministic=True)
            obs, _, terminated, truncated, info = env.step(int(action))
            done = terminated or truncated
        stats.append(info["episode_stats"])
    return {
        "episodes": episodes,
        "win_rate": float(np.mean([s["won"] for s in stats])),
        "mean_deepest_floor": float(np.mean([s["deepest_floor"] for s in stats])),
        "mean_rooms": float(np.mean([s["rooms_explored"] for s in stats])),
        "mean_kills": float(np.mean([s["kills"] for s in stats])),
    }


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("model")
    parser.add_argument("--episodes", type=int, default=20)
    parser.add_argument("--difficulty", default="easy")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--max-steps", type=int, default=2000)
    args = parser.parse_args(argv)
    result = evaluate(args.model, args.episodes, difficulty=args.difficulty, depth=args.depth,
                      max_steps=args.max_steps)  # fmt: skip
    print(result)
    return result


if __name__ == "__main__":
    main()
