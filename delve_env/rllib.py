"""Delve for RLlib (the optional `rllib` extra), for users who outgrow one machine.

    from delve_env.rllib import register, ppo_config
    register()                                                 # "Delve-v0" ... in RLlib
    algo = ppo_config("Delve-Easy-v0", num_env_runners=8).build_algo()   # on a Ray cluster
    algo.train()

RLlib runs one env per worker slot and reads legal actions from the observation, so the env
it gets is `MaskedObservation`: the whole observation as one float32 vector in [0, 1] under
"observations" and the legal-action mask under "action_mask", the layout of RLlib's
action-masking RLModule (`ray.rllib.examples.rl_modules.classes.action_masking_rlm`).
Everything else (ids, config keys, determinism) is the Gymnasium env's.

The party as agents (`delve_env.pettingzoo`, with the `multiagent` extra too): `register()`
also registers "Delve-v0-party" ... (each id's config, one agent per delver), and
`party_ppo_config` trains one policy shared by the delvers, each agent's observation the
same two keys (its member's one-hot after the party's view), given only when it acts.

    algo = party_ppo_config("Delve-Easy-v0").build_algo()
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np

from .engine.core.actions import NUM_ACTIONS
from .engine.core.tables import MAX_MEMBERS
from .engine.outputs.layout import KEYS, OBS_BYTES, highs

# each value of the record over its field's high: the observation in [0, 1]
_SCALE = np.concatenate([1.0 / np.maximum(highs()[k.name].ravel(), 1) for k in KEYS])
_SCALE = _SCALE.astype(np.float32)


def scaled(observation: dict) -> np.ndarray:
    """The Dict observation as one float32 vector in [0, 1], in the record's order."""
    return np.concatenate([observation[k.name].ravel() for k in KEYS]) * _SCALE


def masked_space(size: int) -> gym.spaces.Dict:
    """RLlib's action-masking layout: `size` floats and the mask."""
    return gym.spaces.Dict(
        {
            "observations": gym.spaces.Box(0.0, 1.0, (size,), np.float32),
            "action_mask": gym.spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


class MaskedObservation(gym.ObservationWrapper):
    """`DelveEnv` with {"observations": float32 (OBS_BYTES,), "action_mask": int8 (A,)}."""

    def __init__(self, env: gym.Env):
        super().__init__(env)
        self.observation_space = masked_space(OBS_BYTES)

    def observation(self, observation: dict) -> dict:
        return {
            "observations": scaled(observation),
            "action_mask": self.env.unwrapped.action_masks().astype(np.int8),
        }


def env_creator(env_config: dict | None = None) -> gym.Env:
    """RLlib's env creator: `env_config` is {"id": a Delve id (default "Delve-v0"), plus any
    config keys}. Each worker gets its own seed stream from RLlib's reset seeds."""
    config = dict(env_config or {})
    env_id = config.pop("id", "Delve-v0")
    return MaskedObservation(gym.make(env_id, **config))


def party_env_creator(env_config: dict | None = None):
    """RLlib's multi-agent env creator: the PettingZoo view of `env_config`'s id (as
    `env_creator`), each agent's observation in `MaskedObservation`'s two keys."""
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv

    from .pettingzoo import parallel_env

    config = dict(env_config or {})
    env_id = config.pop("id", "Delve-v0")
    return ParallelPettingZooEnv(MaskedAgents(parallel_env(**{**gym.spec(env_id).kwargs,
                                                               **config})))  # fmt: skip


class MaskedAgents:
    """A `DelveParallelEnv` for RLlib, turn by turn as RLlib's turn-based examples are: each
    step observes only the agent that acts next (the rest of the party waits, summing the
    team's rewards until its turn comes), and at a cut every agent still in play, which RLlib
    needs to bootstrap its value. An observation is {"observations": float32 (the party's
    view scaled into [0, 1], then the member's one-hot), "action_mask": int8}."""

    def __init__(self, env):
        self.env = env
        self.metadata = env.metadata
        self.possible_agents = env.possible_agents
        self._space = masked_space(OBS_BYTES + MAX_MEMBERS)

    @property
    def agents(self):
        return self.env.agents

    def observation_space(self, agent):
        return self._space

    def action_space(self, agent):
        return self.env.action_space(agent)

    def _masked(self, obs: dict, infos: dict, cut: dict | None = None) -> tuple[dict, dict]:
        out = {}
        for agent, o in obs.items():
            if infos[agent]["acting"] or (cut or {}).get(agent):
                view = o["observation"]
                flat = np.concatenate([scaled(view), view["member"]]).astype(np.float32)
                out[agent] = {"observations": flat, "action_mask": o["action_mask"]}
        return out, {a: infos[a] for a in out}

    def reset(self, seed=None, options=None):
        return self._masked(*self.env.reset(seed=seed, options=options))

    def step(self, actions):
        waiting = {a: 0 for a in self.env.agents if a != self.env.acting()}  # ignored
        obs, rewards, terminations, truncations, infos = self.env.step({**waiting, **actions})
        obs, infos = self._masked(obs, infos, truncations)
        return obs, rewards, terminations, truncations, infos

    def state(self):
        return self.env.state()

    def render(self):
        return self.env.render()

    def close(self):
        self.env.close()


def register(ids=None) -> list[str]:
    """Register every Delve id (or the given ones) with RLlib's env registry, and with the
    `multiagent` extra installed each one's party view as "<id>-party"."""
    from ray.tune.registry import register_env

    import delve_env  # registers the Gymnasium ids

    names = list(ids or delve_env.IDS)
    for name in names:
        register_env(name, lambda cfg, name=name: env_creator({"id": name, **dict(cfg or {})}))
        register_env(f"{name}-party",
                     lambda cfg, name=name: party_env_creator({"id": name, **dict(cfg or {})}))  # fmt: skip
    return names


def ppo_config(env_id: str = "Delve-v0", num_env_runners: int = 2, **env_config):
    """A PPO config for Delve on `num_env_runners` workers (each on its own core or node), with
    RLlib's action-masking module so only legal actions are sampled."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    register([env_id])
    return (
        PPOConfig()
        .environment(env_id, env_config=env_config)
        .env_runners(num_env_runners=num_env_runners)
        .rl_module(rl_module_spec=RLModuleSpec(module_class=ActionMaskingTorchRLModule))
    )


def party_ppo_config(env_id: str = "Delve-v0", num_env_runners: int = 2, **env_config):
    """A multi-agent PPO config on the party view of `env_id`: one policy ("delver") shared by
    every delver, RLlib's action-masking module; an agent is observed, and acts, on its turns
    (`MaskedAgents`)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import (
        ActionMaskingTorchRLModule,
    )

    register([env_id])
    spec = RLModuleSpec(module_class=ActionMaskingTorchRLModule)
    return (
        PPOConfig()
        .environment(f"{env_id}-party", env_config=env_config)
        .env_runners(num_env_runners=num_env_runners)
        .multi_agent(policies={"delver"}, policy_mapping_fn=lambda agent_id, *a, **k: "delver")
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={"delver": spec}))
    )
