"""A Stable-Baselines3 `VecEnv` over the batched engine (needs the `train` extra).

SB3 expects same-step autoreset: a finished slot returns its first observation of the next
run at once, with the last one in `infos[i]["terminal_observation"]`. That is the only thing
translated here; the games are the engine's, so slot i still plays `reset(seed=s+i)`'s game.
"""

import numpy as np
from stable_baselines3.common.vec_env import VecEnv

from .engine.outputs.layout import views
from .spaces import float_observation_space
from .vector import DelveVectorEnv
from .wrappers import float_scales, to_float


class DelveSB3VecEnv(VecEnv):
    """`num_envs` Delve games for SB3 / sb3-contrib (MaskablePPO reads `action_masks`).

    With `float_obs` (the default) observations are float32 in [0, 1] (`FloatObservation`'s
    scaling), what SB3's `MultiInputPolicy` learns from best; else the engine's uint8.
    """

    def __init__(self, num_envs: int = 8, seed: int | None = None, float_obs: bool = True,
                 num_threads: int = 1, **config):  # fmt: skip
        self.venv = DelveVectorEnv(num_envs, num_threads=num_threads, **config)
        self._scales = float_scales() if float_obs else None
        space = float_observation_space() if float_obs else self.venv.single_observation_space
        super().__init__(num_envs, space, self.venv.single_action_space)
        self._seed = seed
        self._actions = np.zeros(num_envs, dtype=np.int64)

    def _convert(self, obs: dict) -> dict:
        return obs if self._scales is None else to_float(obs, self._scales)

    def reset(self):
        obs, _ = self.venv.reset(seed=self._seed)
        self._seed = None  # later resets continue from each slot's own RNG
        return self._convert(obs)

    def step_async(self, actions) -> None:
        self._actions = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)

    def step_wait(self):
        eng = self.venv.engine
        eng.step(self._actions, np.zeros(self.num_envs, dtype=np.bool_))
        dones = eng.terminated | eng.truncated
        infos = [{} for _ in range(self.num_envs)]
        rewards = eng.rewards.copy()
        if dones.any():
            from .spaces import episode_stats

            for e in np.flatnonzero(dones):
                infos[e]["terminal_observation"] = self._convert(views(eng.obs_record[e].copy()))
                infos[e]["TimeLimit.truncated"] = bool(eng.truncated[e] and not eng.terminated[e])
                infos[e]["episode_stats"] = episode_stats(eng.state, e)
                infos[e]["is_success"] = infos[e]["episode_stats"]["won"]
            eng.reset(np.empty(0, dtype=np.uint64), dones)
        obs = self._convert(views(eng.obs_record.copy()))
        return obs, rewards, dones, infos

    def action_masks(self) -> np.ndarray:
        return self.venv.engine.masks.copy()

    def close(self) -> None:
        pass

    def get_attr(self, attr_name, indices=None):
        return [getattr(self.venv, attr_name) for _ in self._indices(indices)]

    def set_attr(self, attr_name, value, indices=None) -> None:
        setattr(self.venv, attr_name, value)

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks":
            masks = self.venv.engine.masks
            return [masks[i].copy() for i in self._indices(indices)]
        raise AttributeError(f"DelveSB3VecEnv has no per-env method {method_name!r}")

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False for _ in self._indices(indices)]

    def seed(self, seed=None):
        self._seed = seed
        return [None if seed is None else seed + i for i in range(self.num_envs)]

    def _indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else indices
