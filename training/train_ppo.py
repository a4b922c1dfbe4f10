"""Train MaskablePPO (sb3-contrib) on Delve through the batched SB3 adapter.

python -m training.train_ppo --timesteps 200000 --num-envs 16 --out runs/ppo_delve
"""

import argparse
from pathlib import Path

from sb3_contrib import MaskablePPO

from delve_env.sb3 import DelveSB3VecEnv


def main(argv: list[str] | None = None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--timesteps", type=int, default=200_000)
    parser.add_argument("--num-envs", type=int, default=16)
    parser.add_argument("--difficulty", default="easy")
    parser.add_argument("--depth", type=int, default=2)
    parser.add_argument("--reward-mode", default="shaped")
    parser.add_argument("--max-steps", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs/ppo_delve")
    args = parser.parse_args(argv)
    env = DelveSB3VecEnv(args.num_envs, seed=args.seed, difficulty=args.difficulty,
                         depth=args.depth, reward_mode=args.reward_mode, max_steps=args.max_steps)  # fmt: skip
    model = MaskablePPO("MultiInputPolicy", env, n_steps=256, batch_size=512, seed=args.seed,
                        verbose=1)  # fmt: skip
    model.learn(total_timesteps=args.timesteps)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    print(f"saved {out}.zip")
    return out


if __name__ == "__main__":
    main()
