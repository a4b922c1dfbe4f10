"""Training on from the shipped hard policy with the shaping's pay for tiles explored taken
out (kept for the record of docs/LEARNING.md).

    python quality/probes/no_tiles.py SEED OUT_DIR
"""

import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from delve_env.engine.outputs.rewards import GAME_TILE_REWARD
from delve_env.policy import shipped
from training.ppo import PPO, Games, write_log_header
from training.tasks import DEFAULTS


class NoTileGames(Games):
    """The training games with each step's reward less GAME_TILE_REWARD per tile explored."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        eng, engine_step = self.engine, self.engine.step
        self.tile_delta = np.zeros(eng.num_envs, dtype=np.int64)

        def step(actions, no_reset):  # the tiles counted before Games.step resets a slot
            before = eng.state.stat_tiles.astype(np.int64)
            engine_step(actions, no_reset)
            self.tile_delta = eng.state.stat_tiles.astype(np.int64) - before

        eng.step = step

    def step(self, actions):
        rewards, dones, won = super().step(actions)
        return rewards - GAME_TILE_REWARD * self.tile_delta, dones, won


if __name__ == "__main__":
    seed, out = int(sys.argv[1]), Path(sys.argv[2])
    torch.set_num_threads(1)
    config = {"difficulty": "hard", "reward_mode": "shaped"}
    hp = replace(
        DEFAULTS["Delve-Hard-v0"],
        gamma=0.999,
        learning_rate=1e-4,
        timesteps=3_000_000,
        curriculum=False,
    )
    out.mkdir(parents=True, exist_ok=True)
    ppo = PPO(hp, seed, "cpu", shipped("hard"))
    games = NoTileGames(config, hp.num_envs, seed)
    f, log = write_log_header(out / "progress.csv")
    started = time.perf_counter()
    meta = dict(shipped("hard").meta)
    with f:
        while ppo.num_timesteps < hp.timesteps:
            ppo.train(games, hp.eval_every, log, started, hp.timesteps)
            f.flush()
            ppo.net.export(meta).save(out / "model.zip")
            print(ppo.num_timesteps, round(time.perf_counter() - started), flush=True)
    print("done", round(time.perf_counter() - started))
