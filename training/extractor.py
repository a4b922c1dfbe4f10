"""A features extractor for Delve's Dict observation (float observations in [0, 1]).

The map's two 15 x 15 channels hold categorical codes (channel 0: the crop's tile codes
0..10, channel 1: the coarse floor view's codes 0..5), scaled by 1/10 like every field. The
extractor turns them back into integers, one-hot encodes them (11 + 6 planes) and runs a
small CNN over the planes. The puzzle's codes (the wall's ring symbols and answers, its best
guess, the hinted plate cell) are one-hot encoded too: as scalars, "symbol 3" sat between "2"
and "4" and the hint's cell was one number, not a place on the plate. The other keys (`party`,
`status`, `fight`, `pack`, `shop`: every key but `map`, whatever the Dict holds) are flattened,
concatenated and go through a linear layer. Both parts are concatenated into the features.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import torch
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor
from torch import nn

from delve_env.engine.outputs.layout import (
    COARSE_PARTY,
    MAX_MAP_CODE,
    PUZZLE,
    PUZZLE_BEST,
    PUZZLE_HINT,
    PUZZLE_HISTORY,
    PUZZLE_RINGS,
    highs,
)

NUM_TILE_CODES = MAX_MAP_CODE + 1  # channel 0
NUM_COARSE_CODES = COARSE_PARTY + 1  # channel 1
# the puzzle's categorical values: (offset, count) of each run of codes, one-hot encoded
PUZZLE_CODES = [(at, count) for at, count, *_ in PUZZLE.fields if at in
                (PUZZLE_RINGS, PUZZLE_HISTORY, PUZZLE_BEST, PUZZLE_HINT)]  # fmt: skip


class DelveExtractor(BaseFeaturesExtractor):
    """One-hot map planes through a small CNN, the vector keys through a linear layer.

    Args:
        observation_space: The float observation Dict (`float_observation_space()`).
        channels: Output channels of the two 3x3 conv layers (the second has stride 2).
        map_dim: Features out of the map part.
        vec_dim: Features out of the vector part.
    """

    def __init__(self, observation_space: gym.spaces.Dict, channels: tuple[int, int] = (16, 32),
                 map_dim: int = 128, vec_dim: int = 128):  # fmt: skip
        super().__init__(observation_space, features_dim=map_dim + vec_dim)
        # the factor that turns each channel's float back into its code (its field's high)
        map_high = highs()["map"].reshape(2, -1).max(axis=1).astype(np.float32)
        self.register_buffer("map_high", torch.as_tensor(map_high))
        self.vec_keys = [k for k in observation_space.spaces if k != "map"]
        vec_size = sum(int(np.prod(observation_space[k].shape)) for k in self.vec_keys)
        puzzle_high = highs()["puzzle"]
        code_at = np.concatenate([np.arange(at, at + n) for at, n in PUZZLE_CODES])
        self.register_buffer("code_at", torch.as_tensor(code_at))
        self.register_buffer("code_high", torch.as_tensor(puzzle_high[code_at].astype(np.float32)))
        self.num_codes = int(puzzle_high[code_at].max()) + 1
        vec_size += len(code_at) * self.num_codes
        c1, c2 = channels
        self.cnn = nn.Sequential(
            nn.Conv2d(NUM_TILE_CODES + NUM_COARSE_CODES, c1, 3, padding=1),
            nn.ReLU(),
            nn.Conv2d(c1, c2, 3, stride=2, padding=1),
            nn.ReLU(),
            nn.Flatten(),
        )
        with torch.no_grad():
            probe = torch.as_tensor(observation_space["map"].sample()[None])
            n_flat = self.cnn(self.map_planes(probe)).shape[1]
        self.map_head = nn.Sequential(nn.Linear(n_flat, map_dim), nn.ReLU())
        self.vec_head = nn.Sequential(nn.Linear(vec_size, vec_dim), nn.ReLU())

    def map_planes(self, obs_map: torch.Tensor) -> torch.Tensor:
        """(B, 2, H, W) floats -> (B, 17, H, W) one-hot planes of the tile and coarse codes."""
        tiles = torch.round(obs_map[:, 0] * self.map_high[0]).long().clamp(0, MAX_MAP_CODE)
        coarse = torch.round(obs_map[:, 1] * self.map_high[1]).long().clamp(0, COARSE_PARTY)
        planes = torch.cat(
            [
                nn.functional.one_hot(tiles, NUM_TILE_CODES),
                nn.functional.one_hot(coarse, NUM_COARSE_CODES),
            ],
            dim=-1,
        )
        return planes.permute(0, 3, 1, 2).float()

    def forward(self, observations: dict[str, torch.Tensor]) -> torch.Tensor:
        maps = self.map_head(self.cnn(self.map_planes(observations["map"])))
        codes = torch.round(observations["puzzle"][:, self.code_at] * self.code_high).long()
        one_hot = nn.functional.one_hot(codes.clamp(0, self.num_codes - 1), self.num_codes)
        vec = torch.cat(
            [observations[k].flatten(1) for k in self.vec_keys] + [one_hot.flatten(1).float()],
            dim=1,
        )
        return torch.cat([maps, self.vec_head(vec)], dim=1)
