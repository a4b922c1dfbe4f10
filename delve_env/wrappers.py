"""Observation wrappers: the compact uint8 observation as float32 in [0, 1], for users and
networks that want floats (each value divided by its field's high, engine/outputs/layout.py)."""

import gymnasium as gym
import numpy as np

from .engine.outputs.layout import highs
from .spaces import float_observation_space


def float_scales() -> dict[str, np.ndarray]:
    """Per key, the float32 factor that maps each value into [0, 1] (1 / its high)."""
    return {k: (1.0 / np.maximum(h, 1)).astype(np.float32) for k, h in highs().items()}


def to_float(obs: dict, scales: dict[str, np.ndarray]) -> dict:
    """A uint8 observation Dict (one env or a batch) as float32 in [0, 1]."""
    return {k: v * scales[k] for k, v in obs.items()}


class FloatObservation(gym.ObservationWrapper):
    """`DelveEnv` with float32 observations in [0, 1]:

    >>> env = FloatObservation(gym.make("Delve-v0"))
    """

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self.observation_space = float_observation_space()
        self._scales = float_scales()

    def observation(self, observation: dict) -> dict:
        return to_float(observation, self._scales)
