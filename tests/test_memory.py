"""A policy with a memory and a critic that reads the privileged state (`delve train --memory
gru --critic state`): the numpy forward equal to torch's over a game's sequence, hidden state
included; the memory reset at each game's start; a recurrent game the same alone or in any
slot; new parts that start at zero; the rollout's segments replaying the memory the games
played with; and the command line end to end."""

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from delve_env.policy import Agent, PolicyNet, play  # noqa: E402
from delve_env.tools import cli  # noqa: E402
from delve_env.vector import DelveVectorEnv  # noqa: E402
from training.net import Net  # noqa: E402
from training.ppo import PPO, Games, policy_of  # noqa: E402
from training.tasks import task_defaults  # noqa: E402

EASY = {"difficulty": "easy", "depth": 2, "max_steps": 150, "reward_mode": "shaped"}


def shaken(net: Net, scale: float = 0.1, seed: int = 3) -> Net:
    """The network with every weight redrawn (the zero-started ones too): all of it in play."""
    torch.manual_seed(seed)
    with torch.no_grad():
        for param in net.parameters():
            param.normal_(0, scale)
    return net


def game_records(seed: int = 4, steps: int = 60):
    """The records, masks and privileged states of one easy game's first steps (random legal
    actions), with the step that began a new game flagged."""
    venv = DelveVectorEnv(1, **EASY)
    venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(steps):
        eng = venv.engine
        out.append((eng.obs_record[0].copy(), eng.masks[0].copy(), venv.state()[0]))
        venv.step(np.array([rng.choice(np.flatnonzero(eng.masks[0]))]))
    return [np.stack(x) for x in zip(*out)]


def test_the_numpy_forward_equals_torch_s_over_a_sequence_hidden_state_included():
    net = shaken(Net(16, memory=True, critic=True))
    policy = net.export()
    records, masks, _ = game_records()
    hidden_np, hidden_t = policy.initial(1), None
    for t in range(len(records)):
        with torch.no_grad():
            logits_t, value_t, hidden_t = net(torch.as_tensor(records[t : t + 1]), hidden_t)
        logits_np, value_np, hidden_np = policy.forward(records[t : t + 1], masks[t : t + 1],
                                                        hidden_np)  # fmt: skip
        legal = masks[t]
        assert np.allclose(logits_np[0, legal], logits_t.numpy()[0, legal], atol=1e-4), t
        assert np.allclose(hidden_np, hidden_t.numpy(), atol=1e-5), t
        assert value_np[0] == pytest.approx(float(value_t[0]), abs=1e-4)
    assert np.abs(hidden_np).max() > 0.1  # the memory moved: a real comparison


def test_the_memory_changes_the_policy_and_a_memoryless_one_ignores_it():
    records, masks, _ = game_records()
    recurrent = shaken(Net(16, memory=True)).export()
    now = records[-1:]
    fresh = recurrent.forward(now, masks[-1:], recurrent.initial(1))[0]
    hidden = recurrent.initial(1)
    for t in range(len(records) - 1):
        hidden = recurrent.forward(records[t : t + 1], masks[t : t + 1], hidden)[2]
    remembered = recurrent.forward(now, masks[-1:], hidden)[0]
    assert not np.allclose(fresh, remembered)
    with pytest.raises(ValueError, match="recurrent policy"):
        recurrent.logits(now, masks[-1:])
    memoryless = shaken(Net(16)).export()
    assert memoryless.memory == 0 and memoryless.initial(3).shape == (3, 0)


def test_a_new_memory_and_critic_start_at_zero_so_the_policy_plays_as_before():
    records, masks, states = game_records(steps=30)
    old = shaken(Net(16)).export()
    grown = Net.from_policy(old, memory=True, critic=True)
    assert grown.memory and grown.critic
    with torch.no_grad():
        logits, value, hidden = grown(torch.as_tensor(records), None, torch.as_tensor(states))
    want_logits, want_value, _ = old.forward(records)
    assert np.allclose(logits.numpy(), want_logits, atol=1e-5)
    assert np.allclose(value.numpy(), want_value, atol=1e-5)
    assert hidden.abs().max() > 0  # the core runs; its output is what starts at zero


def test_the_critic_reads_the_state_and_the_policy_does_not():
    records, masks, states = game_records(steps=20)
    net = shaken(Net(16, critic=True))
    r = torch.as_tensor(records)
    high = DelveVectorEnv(1).single_state_space.high.astype(np.int64)
    drawn = np.random.default_rng(0).integers(0, high + 1, size=states.shape)
    other = torch.as_tensor(drawn.astype(np.uint8))  # any other state, the same observation
    with torch.no_grad():
        logits_a, value_a, _ = net(r, None, torch.as_tensor(states))
        logits_b, value_b, _ = net(r, None, other)
        logits_c, value_c, _ = net(r)
    assert torch.equal(logits_a, logits_b) and torch.equal(logits_a, logits_c)
    assert not torch.allclose(value_a, value_b)
    assert torch.allclose(value_c, torch.as_tensor(net.export().forward(records)[1]), atol=1e-5)


def test_a_recurrent_game_is_the_same_alone_or_in_any_batch_slot():
    """`play` keeps each game's memory in its own slot and starts it from zeros: the games of
    seeds 21-24 in one batch, in another order, and one at a time through `Agent` in the single
    env all play the same actions."""
    policy = shaken(Net(16, memory=True), scale=0.3).export()
    seeds = [21, 22, 23, 24]
    for sampled in (True, False):
        batched = play(policy, EASY, seeds, sampled)
        reordered = play(policy, EASY, seeds[::-1], sampled)[::-1]
        assert [r["length"] for r in batched] == [r["length"] for r in reordered]
        for seed, got in zip(seeds, batched):
            env = gym.make("Delve-Easy-v0", **EASY)
            _, info = env.reset(seed=seed)
            agent = Agent(policy, seed, sampled)
            total, steps, done = 0.0, 0, False
            while not done:
                _, r, term, trunc, info = env.step(agent(env, info))
                total, steps, done = total + r, steps + 1, term or trunc
            assert (got["length"], got["paces"], got["won"]) == (
                steps,
                info["episode_stats"]["paces"],
                info["episode_stats"]["won"],
            )
            assert got["return"] == pytest.approx(total)


def test_an_agent_that_remembers_another_s_moves_reads_as_one_that_made_them():
    policy = shaken(Net(16, memory=True), scale=0.3).export()
    a, b = (gym.make("Delve-Easy-v0", **EASY) for _ in range(2))
    a.reset(seed=6)
    b.reset(seed=6)
    acting, watching = Agent(policy, 6, sampled=False), Agent(policy, 6, sampled=False)
    for _ in range(25):
        action = acting(a)
        watching.remember(b)
        a.step(action)
        b.step(action)
    assert np.array_equal(acting.hidden, watching.hidden)
    assert np.array_equal(acting.probabilities(a), watching.probabilities(b))


def test_the_rollout_s_segments_replay_the_memory_the_games_played_with():
    """Before any update, every segment of a recurrent rollout (its memory carried from the
    stored start, reset where a game began) gives back the log-probabilities and values the
    games were played with; a game ends inside the rollout."""
    hp = task_defaults("Delve-Easy-v0", quick=True)
    ppo = PPO(hp, 0, memory=True, critic=True)
    shaken(ppo.net, 0.05)
    games = Games({**EASY, "max_steps": 40}, hp.num_envs, 0)
    last = ppo.collect(games, np.zeros(hp.num_envs))
    assert ppo.dones.sum() > 0 and ppo.starts[1:].sum() > 0
    size = hp.n_steps * hp.num_envs
    from training.net import log_probs_entropy

    seen = torch.zeros(size, dtype=torch.bool)
    for b in ppo.minibatches():
        with torch.no_grad():
            logits, value = ppo.segments(b)
            logp, _ = log_probs_entropy(logits, ppo.masks.reshape(size, -1)[b],
                                        ppo.actions.reshape(size)[b])  # fmt: skip
        assert torch.allclose(logp, ppo.logps.reshape(size)[b], atol=1e-4)
        assert torch.allclose(value, ppo.values.reshape(size)[b], atol=1e-4)
        seen[b] = True
    assert seen.all()
    stats = ppo.update(last, hp.learning_rate)
    assert np.isfinite(list(stats.values())).all()


def test_the_memory_is_reset_where_a_game_begins_in_the_rollout():
    hp = task_defaults("Delve-Easy-v0", quick=True)
    ppo = PPO(hp, 1, memory=True)
    shaken(ppo.net, 0.05)
    games = Games({**EASY, "max_steps": 30}, hp.num_envs, 1)
    ppo.collect(games, np.zeros(hp.num_envs))
    starts = ppo.starts.bool()
    assert starts[0].all() and starts[1:].any()
    assert (ppo.hidden_at[starts] == 0).all()
    assert (ppo.hidden_at[1:][~starts[1:]].abs().sum(-1) > 0).all()


def test_policy_of_plays_a_recurrent_network_through_its_numpy_policy():
    net = shaken(Net(16, memory=True))
    assert isinstance(policy_of(net), PolicyNet)
    assert not isinstance(policy_of(shaken(Net(16))), PolicyNet)


def test_quick_runs_with_a_memory_and_a_critic_train_save_play_and_go_on(tmp_path, capsys):
    out = tmp_path / "both"
    code = cli.main(["train", "Delve-Easy-v0", "--quick", "--threads", "1", "--memory", "gru",
                     "--critic", "state", "--out", str(out), "--no-progress"])  # fmt: skip
    assert code == 0
    policy = PolicyNet.load(out / "model.zip")
    assert policy.memory == 16 and "critic_out_w" in policy.w
    assert (policy.meta["memory"], policy.meta["critic"]) == ("gru", "state")
    assert PolicyNet.load(out / "ladder" / "05.zip").memory == 16
    assert cli.main(["eval", "Delve-Easy-v0", str(out / "model.zip"), "--episodes", "2",
                     "--depth", "2", "--stochastic"]) == 0  # fmt: skip
    more = tmp_path / "more"  # a run from it keeps both without being asked
    assert cli.main(["train", "Delve-Easy-v0", "--quick", "--threads", "1", "--init",
                     str(out / "model.zip"), "--out", str(more), "--no-progress"]) == 0  # fmt: skip
    again = PolicyNet.load(more / "model.zip")
    assert again.memory == 16 and "critic_out_w" in again.w
    compact = tmp_path / "compact.zip"
    policy.save(compact, compact=True)
    small = PolicyNet.load(compact)
    records, masks, _ = game_records(steps=10)
    h1, h2 = policy.initial(1), small.initial(1)
    for t in range(10):
        l1, _, h1 = policy.forward(records[t : t + 1], masks[t : t + 1], h1)
        l2, _, h2 = small.forward(records[t : t + 1], masks[t : t + 1], h2)
    assert np.allclose(h1, h2, atol=2e-2)
    capsys.readouterr()


@pytest.mark.parametrize("flag", [["--memory", "lstm"], ["--critic", "truth"]])
def test_bad_memory_or_critic_is_refused(flag, capsys):
    assert cli.main(["train", "Delve-Easy-v0", "--quick", *flag]) == 2
    assert f"argument {flag[0]}: invalid choice" in capsys.readouterr().err


def test_memory_and_critic_are_for_the_default_trainer(capsys):
    assert cli.main(["train", "Delve-Easy-v0", "--quick", "--trainer", "sb3", "--memory",
                     "gru"]) == 2  # fmt: skip
    assert "--memory and --critic are for --trainer ppo" in capsys.readouterr().err
