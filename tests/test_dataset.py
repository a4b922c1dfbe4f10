"""`delve dataset` (delve_env/tools/dataset.py): a Minari dataset of a player's games that
`minari.load_dataset` loads, whose every observation its actions replay from its seed; bad
input refused with nothing written."""

import gymnasium as gym
import numpy as np
import pytest

minari = pytest.importorskip("minari")

from delve_env.tools import cli, dataset  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


@pytest.fixture(autouse=True)
def datasets_here(tmp_path, monkeypatch):
    monkeypatch.setenv("MINARI_DATASETS_PATH", str(tmp_path / "datasets"))


def test_an_expert_dataset_of_100_games_loads_and_replays_observation_for_observation(capsys):
    """100 expert games of easy: minari.load_dataset loads them, each episode holds its seed,
    and five of them (the first, the last and three between) replay from their seeds through
    the env, every observation, mask, reward and end the same."""
    code = cli.main(["dataset", "--agent", "scripted", "--preset", "easy", "--episodes", "100",
                     "--seed", "40", "--out", "delve/easy-scripted-v0", "--no-progress"])  # fmt: skip
    assert code == 0 and "100 episodes" in capsys.readouterr().out
    data = minari.load_dataset("delve/easy-scripted-v0")
    assert data.total_episodes == 100
    assert data.spec.env_spec.id == "Delve-Easy-v0"
    seeds = [int(episode.infos["seed"][0]) for episode in data.iterate_episodes()]
    assert sorted(seeds) == list(range(40, 140))
    wins = sum(bool(ep.terminations[-1]) and ep.rewards[-1] > 0 for ep in data.iterate_episodes())
    assert wins >= 95  # the expert wins easy (100% of seeds 1000-1499)
    for episode in data.iterate_episodes([0, 24, 50, 77, 99]):
        seed = int(episode.infos["seed"][0])
        assert (episode.infos["seed"] == seed).all()
        env = gym.make("Delve-Easy-v0")
        obs, info = env.reset(seed=seed)
        for t, action in enumerate(episode.actions):
            for key in obs:
                assert np.array_equal(episode.observations[key][t], obs[key]), (seed, t, key)
            assert np.array_equal(episode.infos["action_mask"][t], info["action_mask"])
            assert info["action_mask"][action]
            obs, reward, terminated, truncated, info = env.step(int(action))
            assert reward == pytest.approx(episode.rewards[t])
            assert (terminated, truncated) == (episode.terminations[t], episode.truncations[t])
        assert terminated or truncated
        assert all(np.array_equal(episode.observations[k][-1], obs[k]) for k in obs)


@pytest.mark.parametrize("agent", ["trained", "random", "fog"])
def test_every_player_makes_a_dataset(agent):
    data = dataset.write(f"delve/easy-{agent}-v0", agent, "easy", 1, seed=5, progress=False)
    episode = next(data.iterate_episodes())
    assert len(episode.actions) == len(episode.rewards) == len(episode.observations["map"]) - 1
    assert episode.infos["action_mask"][np.arange(len(episode.actions)), episode.actions].all()


def test_an_existing_name_is_refused_unless_forced(capsys):
    name = "delve/easy-random-v0"
    dataset.write(name, "random", "easy", 1, seed=1, progress=False)
    args = ["dataset", "--agent", "random", "--episodes", "2", "--out", name, "--no-progress"]
    assert cli.main(args) == 2
    assert "exists (--force replaces it)" in capsys.readouterr().err
    assert minari.load_dataset(name).total_episodes == 1
    assert cli.main([*args, "--force"]) == 0
    assert minari.load_dataset(name).total_episodes == 2


@pytest.mark.parametrize("args, says", [
    (["--episodes", "0"], "--episodes must be at least 1"),
    (["--out", "no-namespace"], "NAMESPACE/NAME-vN"),
    (["--agent", "oracle"], "invalid choice: 'oracle'"),
    (["--preset", "nightmare"], "invalid choice: 'nightmare'"),
])  # fmt: skip
def test_bad_input_is_refused_with_nothing_written(args, says, capsys):
    base = {"--out": "delve/easy-scripted-v0", "--episodes": "1"}
    for flag, value in zip(args[::2], args[1::2]):
        base[flag] = value
    argv = ["dataset", "--no-progress", *[x for kv in base.items() for x in kv]]
    assert cli.main(argv) == 2
    assert says in capsys.readouterr().err
    assert minari.list_local_datasets() == {}


def test_a_game_that_fails_half_way_leaves_no_dataset(monkeypatch):
    played = []

    def failing(name, difficulty, seed):
        if played:
            raise RuntimeError("the player broke")
        played.append(seed)
        return dataset.player("random", difficulty, seed)

    monkeypatch.setattr(dataset, "player", failing)
    with pytest.raises(RuntimeError, match="the player broke"):
        dataset.write("delve/easy-random-v0", "random", "easy", 3, progress=False)
    assert minari.list_local_datasets() == {}
