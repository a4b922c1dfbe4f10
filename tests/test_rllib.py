"""Delve under RLlib (the optional `rllib` extra): the registered env builds and steps.

Skipped where Ray is not installed (`pip install -e .[rllib]`); the rest of the suite never
needs it."""

import numpy as np
import pytest

pytest.importorskip("ray.rllib")

from ray.tune.registry import ENV_CREATOR, _global_registry  # noqa: E402

from delve_env.engine.core.actions import NUM_ACTIONS  # noqa: E402
from delve_env.engine.outputs.layout import OBS_BYTES  # noqa: E402
from delve_env.rllib import env_creator, ppo_config, register  # noqa: E402


def test_rllib_env_registers_builds_and_steps():
    assert "Delve-Easy-v0" in register()
    env = _global_registry.get(ENV_CREATOR, "Delve-Easy-v0")({"depth": 2})
    obs, _ = env.reset(seed=3)
    rng = np.random.default_rng(0)
    for _ in range(50):
        assert env.observation_space.contains(obs)
        assert obs["observations"].shape == (OBS_BYTES,)
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) > 0 and obs["action_mask"].shape == (NUM_ACTIONS,)
        obs, _, terminated, truncated, info = env.step(int(rng.choice(legal)))
        assert (obs["action_mask"] == info["action_mask"]).all()
        if terminated or truncated:
            obs, _ = env.reset()


def test_rllib_ppo_config_names_the_env_and_workers():
    config = ppo_config("Delve-Combat-v0", num_env_runners=3, floor=2)
    assert config.env == "Delve-Combat-v0"
    assert config.num_env_runners == 3
    assert config.env_config == {"floor": 2}
    env = env_creator({"id": "Delve-Combat-v0", **config.env_config})
    assert env.unwrapped.config.floor == 2


def trains_one_iteration(config) -> None:
    """One small PPO iteration of `config` samples its batch and trains."""
    config = config.training(train_batch_size_per_learner=256, minibatch_size=64, num_epochs=1)
    algo = config.env_runners(rollout_fragment_length=128).build_algo()
    try:
        result = algo.train()
        assert result["env_runners"]["num_env_steps_sampled_lifetime"] >= 256
    finally:
        algo.stop()


def test_rllib_ppo_trains_one_iteration_with_the_mask():
    trains_one_iteration(ppo_config("Delve-Combat-v0", num_env_runners=1))


def test_rllib_party_view_registers_and_trains_one_multi_agent_iteration():
    """The party as agents under RLlib: the view registers and steps turn by turn (only the
    acting agent observed, in the masked layout, with legal actions; every agent in play
    observed at a cut, as RLlib needs to bootstrap), and one PPO iteration trains one policy
    shared by the delvers."""
    from delve_env.rllib import party_env_creator, party_ppo_config

    env = party_env_creator({"id": "Delve-Combat-v0", "floor": 2, "max_cycles": 10})
    obs, _ = env.reset(seed=1)
    rng = np.random.default_rng(0)
    actors, cuts = set(), 0
    for _ in range(200):
        assert len(obs) == 1
        ((acting, o),) = obs.items()
        actors.add(acting)
        assert o["observations"].shape == (OBS_BYTES + 5,) and o["action_mask"].any()
        obs, _, terminated, truncated, _ = env.step(
            {acting: int(rng.choice(np.flatnonzero(o["action_mask"])))}
        )
        if truncated["__all__"]:
            cuts += 1
            assert set(obs) == {a for a in truncated if a != "__all__"}
        if terminated["__all__"] or truncated["__all__"]:
            obs, _ = env.reset()
    assert len(actors) > 1 and cuts > 0  # members took turns; games were cut
    trains_one_iteration(party_ppo_config("Delve-Combat-v0", num_env_runners=1, floor=2))
