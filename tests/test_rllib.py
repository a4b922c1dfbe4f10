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


# --- delve train --trainer rllib (training/rllib_ppo.py) -----------------------------------


def random_records(steps: int = 40, num_envs: int = 8, **config):
    """(records, masks) met by random legal play of `RecordGames` (uint8, int8 stacks)."""
    from training.rllib_ppo import RecordGames

    games = RecordGames({"difficulty": "easy", "num_envs": num_envs, **config})
    obs, _ = games.reset(seed=5)
    rng = np.random.default_rng(0)
    records, masks = [], []
    for _ in range(steps):
        records.append(obs["observations"])
        masks.append(obs["action_mask"])
        acts = [rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in obs["action_mask"]]
        obs, *_ = games.step(np.array(acts))
    return np.concatenate(records), np.concatenate(masks)


def test_the_rllib_module_and_its_numpy_export_give_the_same_probabilities():
    """The RLModule trained by `--trainer rllib` and the numpy policy exported to model.zip
    give the same action probabilities on real observations; illegal ones exactly 0."""
    import gymnasium as gym
    import torch
    from ray.rllib.core.columns import Columns

    from training.rllib_ppo import DelveModule, record_space

    module = DelveModule(observation_space=record_space(), action_space=gym.spaces.Discrete(
        NUM_ACTIONS), model_config={"hidden": 32})  # fmt: skip
    torch.manual_seed(0)
    with torch.no_grad():
        for p in module.net.parameters():
            p.normal_(0.0, 0.2)  # far from the near-uniform start: the test can tell
    records, masks = random_records()
    batch = {Columns.OBS: {"observations": torch.as_tensor(records),
                           "action_mask": torch.as_tensor(masks)}}  # fmt: skip
    with torch.no_grad():
        logits = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].double()
    ours = torch.softmax(logits, -1).numpy()
    theirs = module.net.export().logits(records, masks.astype(bool)).astype(np.float64)
    theirs = np.exp(theirs - theirs.max(1, keepdims=True))
    theirs /= theirs.sum(1, keepdims=True)
    assert ours.shape == (len(records), NUM_ACTIONS) and ours.max() > 0.2
    np.testing.assert_allclose(ours, theirs, atol=1e-5)
    assert (ours[masks == 0] == 0).all()
    never = np.flatnonzero(~masks.any(0))  # actions illegal in every one of these records
    assert len(never) > 0
    with torch.no_grad():
        module.net.pi.bias[never] += 1e4  # what the network says of them is never read
        again = module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS].double()
    np.testing.assert_array_equal(torch.softmax(again, -1).numpy(), ours)


def test_rllib_never_samples_a_masked_action():
    """Thousands of actions sampled by RLlib's env runner through the module: every one legal
    in the observation it answered."""
    from training.rllib_ppo import ppo_config
    from training.tasks import task_defaults

    hp = task_defaults("Delve-Easy-v0", quick=True)
    config = {"difficulty": "easy", "reward_mode": "shaped", "depth": 2}
    algo = ppo_config(config, hp, seed=1, runners=0, learners=0).build_algo()
    try:
        checked = 0
        for episode in algo.env_runner.sample(num_timesteps=3000, explore=True):
            mask = episode.get_observations(slice(0, len(episode)))["action_mask"]
            actions = episode.get_actions()
            assert mask[np.arange(len(actions)), actions].all()
            checked += len(actions)
        assert checked >= 3000
    finally:
        algo.stop()


def test_record_games_play_the_single_envs_games_and_weigh_the_outcome():
    """Slot i of `RecordGames.reset(seed=s)` is the single env's game of seed s + i; the
    outcome weights change a finished game's last reward by (W - 1) x its outcome, nothing
    else."""
    import gymnasium as gym

    from delve_env.engine.outputs.rewards import outcome_reward
    from training.rllib_ppo import RecordGames

    config = {"task": "combat", "floor": 2, "reward_mode": "shaped"}
    plain = RecordGames({**config, "num_envs": 4})
    weighed = RecordGames({**config, "num_envs": 4, "win_weight": 3.0, "loss_weight": 0.0})
    single = gym.make("Delve-Combat-v0", floor=2)
    obs, _ = plain.reset(seed=11)
    weighed.reset(seed=11)
    for i in range(4):
        single.reset(seed=11 + i)
        assert (obs["observations"][i] == single.unwrapped.engine.obs_record[0]).all()
    rng = np.random.default_rng(2)
    ends = {1: 0, 0: 0}
    for _ in range(300):
        acts = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, r1, term, trunc, _ = plain.step(acts)
        _, r2, term2, _, _ = weighed.step(acts)
        assert (term == term2).all()
        for e in range(4):
            if term[e]:
                won = plain.engine.state.outcome[e] == 1
                ends[int(won)] += 1
                outcome = outcome_reward(plain.engine.state, e)
                assert r2[e] - r1[e] == pytest.approx((2.0 if won else -1.0) * outcome)
            else:
                assert r2[e] == r1[e]
    assert ends[1] > 0 and ends[0] > 0  # both outcomes met


def test_delve_train_trainer_rllib_writes_a_policy_that_plays_without_ray(tmp_path):
    """`delve train ... --trainer rllib` end to end: the default trainer's files, and a
    model.zip that `delve eval` and `delve playtest` play in a process where Ray cannot be
    imported."""
    import json
    import subprocess
    import sys

    from delve_env.policy import PolicyNet
    from delve_env.tools import cli

    out = tmp_path / "run"
    code = cli.main(["train", "Delve-Combat-v0", "--trainer", "rllib", "--quick",
                     "--num-env-runners", "1", "--out", str(out)])  # fmt: skip
    assert code == 0
    for name in ("model.zip", "curve.csv", "curve.png", "progress.csv", "run.json"):
        assert (out / name).exists(), name
    assert list((out / "checkpoints").glob("model_*_steps.zip"))
    run = json.loads((out / "run.json").read_text())
    assert run["trainer"] == "rllib" and run["env_runners"] == 1 and run["timesteps"] >= 2048
    policy = PolicyNet.load(out / "model.zip")
    assert policy.meta["trainer"] == "rllib" and policy.meta["final"] == run["final"]
    model = str(out / "model.zip")
    for command, shown in (
        (["eval", "Delve-Combat-v0", model, "--episodes", "3"], "win rate"),
        (["playtest", "--presets", "easy", "--policy", f"sampled:{model}", "--seeds", "2"],
         f"sampled:{model}"),
    ):  # fmt: skip
        script = ("import sys; sys.modules['ray'] = None; from delve_env.tools.cli import main; "
                  f"sys.exit(main({command!r}))")  # fmt: skip
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert shown in done.stdout


def test_the_rllib_curriculum_moves_every_runner_a_floor_deeper_at_each_winning_point(
    tmp_path, monkeypatch
):
    """As the default trainer's (tests/curriculum.py), with the runner's games remade by
    `move_to` a floor deeper."""
    from curriculum import trains_a_floor_deeper_at_each_winning_point

    from delve_env.engine.core.params import P_DEPTH
    from training import ppo
    from training.rllib_ppo import move_to, ppo_config
    from training.tasks import task_defaults

    trains_a_floor_deeper_at_each_winning_point(ppo, "evaluate", "rllib", tmp_path, monkeypatch,
                                                runners=0)  # fmt: skip
    hp = task_defaults("Delve-Easy-v0", quick=True)
    config = {"difficulty": "easy", "reward_mode": "shaped", "max_steps": 50}
    algo = ppo_config({**config, "depth": 2}, hp, seed=0, runners=0, learners=0).build_algo()
    try:
        assert algo.env_runner.env.unwrapped.engine.params[P_DEPTH] == 2
        move_to(algo, {**config, "depth": 3})
        assert algo.env_runner.env.unwrapped.engine.params[P_DEPTH] == 3
        algo.env_runner.sample(num_timesteps=64)
    finally:
        algo.stop()
