"""The default trainer (training/ppo.py) and the numpy policy it saves (delve_env/policy.py):
the masked distribution against a reference, no illegal action ever drawn, the numpy forward
equal to torch's, batched play equal to one game at a time, a reproducible first update, and
a --quick run of each trainer on each id, end to end through the command line."""

import json

import gymnasium as gym
import numpy as np
import pytest

torch = pytest.importorskip("torch")

from delve_env import IDS  # noqa: E402
from delve_env.engine.core.actions import NUM_ACTIONS  # noqa: E402
from delve_env.engine.outputs.layout import KEYS  # noqa: E402
from delve_env.policy import PolicyNet, choose, inputs, is_policy_file, play, uniforms  # noqa: E402
from delve_env.tools import cli  # noqa: E402
from training.net import Net, log_probs_entropy, sample  # noqa: E402
from training.ppo import PPO, Games  # noqa: E402
from training.tasks import task_defaults  # noqa: E402


def real_records(task: str = "Delve-Easy-v0", n: int = 64, steps: int = 40, seed: int = 5):
    """Observation records and masks of `n` games after `steps` random legal steps each."""
    from delve_env.vector import DelveVectorEnv

    venv = DelveVectorEnv(n, **gym.spec(task).kwargs)
    venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    records, masks = [], []
    for _ in range(steps):
        m = venv.engine.masks
        records.append(venv.engine.obs_record.copy())
        masks.append(m.copy())
        actions = np.array([rng.choice(np.flatnonzero(row)) for row in m])
        venv.step(actions)
    return np.concatenate(records), np.concatenate(masks)


def reference_log_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """log p(a) over the legal actions alone, in float64, by the textbook formula."""
    out = np.full(logits.shape, -np.inf)
    for i, (row, legal) in enumerate(zip(logits.astype(np.float64), mask)):
        z = row[legal]
        out[i, legal] = z - (z.max() + np.log(np.exp(z - z.max()).sum()))
    return out


def test_masked_log_probs_and_entropy_equal_a_reference_on_a_batch():
    rng = np.random.default_rng(0)
    logits = rng.normal(0, 3, (50, NUM_ACTIONS)).astype(np.float32)
    mask = rng.random((50, NUM_ACTIONS)) < 0.1
    mask[np.arange(50), rng.integers(0, NUM_ACTIONS, 50)] = True
    mask[0] = False
    mask[0, 7] = True  # one legal action: log p = 0, entropy 0
    ref = reference_log_softmax(logits, mask)
    actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
    logp, entropy = log_probs_entropy(torch.as_tensor(logits), torch.as_tensor(mask),
                                      torch.as_tensor(actions))  # fmt: skip
    assert np.allclose(logp.numpy(), ref[np.arange(50), actions], atol=1e-5)
    p = np.where(mask, np.exp(ref), 0.0)
    ref_entropy = -np.where(mask, p * np.where(mask, ref, 0.0), 0.0).sum(axis=1)
    assert np.allclose(entropy.numpy(), ref_entropy, atol=1e-5)
    assert logp[0].item() == pytest.approx(0.0, abs=1e-6) and entropy[0].item() == 0.0
    assert np.isfinite(entropy.numpy()).all()


def test_an_illegal_action_is_never_sampled():
    """20,000 draws a sampler over rows with one to a few legal actions, the illegal ones'
    logits far above the legal ones' (the mask, not the logits, must decide)."""
    rng = np.random.default_rng(1)
    mask = rng.random((20_000, NUM_ACTIONS)) < 0.02
    mask[np.arange(20_000), rng.integers(0, NUM_ACTIONS, 20_000)] = True
    logits = np.where(mask, -30.0, 30.0).astype(np.float32) + rng.normal(0, 1, mask.shape)
    gen = torch.Generator().manual_seed(0)
    drawn = sample(torch.as_tensor(logits, dtype=torch.float32), torch.as_tensor(mask), gen)
    assert mask[np.arange(20_000), drawn.numpy()].all()
    masked = np.where(mask, logits, -np.inf)
    for u in (uniforms(np.arange(20_000), np.zeros(20_000)), np.zeros(20_000),
              np.full(20_000, 1 - 2.0**-53)):  # fmt: skip
        assert mask[np.arange(20_000), choose(masked, u)].all()
    assert mask[np.arange(20_000), choose(masked, None)].all()


def test_sampling_follows_the_policy_probabilities():
    """Inverse-CDF draws from uniforms land on each action as often as its probability (40,000
    draws: each count within 5 standard deviations)."""
    logits = np.array([[np.log(0.5), np.log(0.3), np.log(0.2), -np.inf]]).repeat(40_000, 0)
    u = uniforms(np.arange(40_000, dtype=np.uint64), np.full(40_000, 3))
    counts = np.bincount(choose(logits, u), minlength=4)
    for k, p in enumerate((0.5, 0.3, 0.2, 0.0)):
        assert abs(counts[k] - 40_000 * p) <= 5 * np.sqrt(40_000 * p * (1 - p)) + 1e-9


def test_the_numpy_forward_gives_the_torch_network_s_probabilities():
    torch.manual_seed(3)
    net = Net(32)
    with torch.no_grad():  # weights far from their init, every input in play
        for param in net.parameters():
            param.normal_(0, 0.1)
    records, masks = real_records(n=32, steps=20)
    with torch.no_grad():
        logits, value, _ = net(torch.as_tensor(records))
    policy = net.export({"note": "test"})
    np_logits, np_value, _ = policy.forward(records, masks)
    ref = torch.log_softmax(torch.where(torch.as_tensor(masks), logits, -torch.inf), -1).numpy()
    got = np_logits - np.log(np.exp(np_logits - np_logits.max(1, keepdims=True)).sum(1,
                              keepdims=True)) - np_logits.max(1, keepdims=True)  # fmt: skip
    assert np.allclose(np.exp(got), np.exp(ref), atol=1e-5)
    assert np.allclose(np_value, value.numpy(), atol=1e-4)
    assert (np_logits[~masks] == -np.inf).all()


def test_the_one_hot_layer_reads_each_categorical_byte_as_its_own_row():
    """Changing one map byte's code changes the first layer by exactly the two rows' difference
    (its one-hot moved); a numeric byte's value enters scaled by 1 / its high."""
    x = inputs()
    net = Net(8)
    policy = net.export()
    records, masks = real_records(n=1, steps=1)
    rec = records[:1].copy()
    j = 0  # the crop's first tile
    before = policy.w["embed"][x.cat_base[j] + rec[0, x.cat_at[j]]]
    rec2 = rec.copy()
    rec2[0, x.cat_at[j]] = (rec[0, x.cat_at[j]] + 1) % 11
    after = policy.w["embed"][x.cat_base[j] + rec2[0, x.cat_at[j]]]

    def first_layer(r):
        h = (r[:, x.num_at] * x.num_scale) @ policy.w["num_w"].T + policy.w["num_b"]
        return h + policy.w["embed"][r[:, x.cat_at].astype(int) + x.cat_base].sum(1)

    assert np.allclose(first_layer(rec2) - first_layer(rec), after - before, atol=1e-6)
    assert len(set(x.cat_at)) == len(x.cat_at) and not set(x.cat_at) & set(x.num_at)
    assert (x.cat_base[1:] > x.cat_base[:-1]).all()


def test_batched_play_equals_one_game_at_a_time():
    """`policy.play` on seeds in one batch (sampled and likeliest) plays each game as the single
    env plays it alone with the same policy and the same draws."""
    torch.manual_seed(0)
    policy = Net(16).export()
    config = {"difficulty": "easy", "depth": 2, "max_steps": 120, "reward_mode": "shaped"}
    seeds = [11, 12, 13, 14]
    for sampled in (True, False):
        batched = play(policy.logits, config, seeds, sampled)
        for seed, got in zip(seeds, batched):
            env = gym.make("Delve-Easy-v0", **config)
            obs, info = env.reset(seed=seed)
            total, steps, done = 0.0, 0, False
            while not done:
                record = np.concatenate([obs[k.name].ravel() for k in KEYS])[None]
                logits = policy.logits(record, info["action_mask"][None])
                u = uniforms(np.array([seed]), np.array([steps])) if sampled else None
                obs, r, term, trunc, info = env.step(int(choose(logits, u)[0]))
                total, steps, done = total + r, steps + 1, term or trunc
            stats = info["episode_stats"]
            assert (got["won"], got["length"], got["paces"]) == (stats["won"], steps,
                                                                 stats["paces"])  # fmt: skip
            assert got["return"] == pytest.approx(total)


def first_update(seed: int) -> dict:
    hp = task_defaults("Delve-Easy-v0", quick=True)
    ppo = PPO(hp, seed)
    games = Games({"difficulty": "easy", "depth": 2, "reward_mode": "shaped"}, hp.num_envs, seed)
    last = ppo.collect(games, np.zeros(hp.num_envs))
    ppo.update(last, hp.learning_rate)
    return {k: v.detach().clone() for k, v in ppo.net.state_dict().items()}


def test_the_same_seed_gives_the_same_first_update():
    a, b, c = first_update(4), first_update(4), first_update(5)
    assert all(torch.equal(a[k], b[k]) for k in a)
    assert not all(torch.equal(a[k], c[k]) for k in a)


def test_a_saved_policy_loads_with_its_meta_and_refuses_other_files(tmp_path):
    net = Net(8)
    path = tmp_path / "p.zip"
    net.export({"task": "Delve-Easy-v0", "seed": 3}).save(path)
    assert is_policy_file(path)
    policy = PolicyNet.load(path)
    assert policy.meta["task"] == "Delve-Easy-v0" and policy.meta["seed"] == 3
    assert all(np.array_equal(policy.w[k], v) for k, v in net.weights().items())
    other = tmp_path / "other.zip"
    other.write_bytes(b"not a zip")
    assert not is_policy_file(other)
    with pytest.raises(ValueError, match="not a Delve policy"):
        np.savez(tmp_path / "plain.npz", a=np.zeros(2))
        PolicyNet.load(tmp_path / "plain.npz")


ARGS = {"Delve-Vault-v0": ["--lock", "wall", "--floor", "1"], "Delve-Explore-v0": ["--floor", "1"],
        "Delve-Combat-v0": ["--floor", "1"]}  # fmt: skip


@pytest.mark.parametrize("trainer", ["ppo", "sb3"])
@pytest.mark.parametrize("task", IDS)
def test_quick_run_of_each_trainer_on_each_id_trains_saves_loads_and_evaluates(
    task, trainer, tmp_path, capsys
):
    extra = ARGS.get(task, [])
    out = tmp_path / "run"
    code = cli.main(["train", task, *extra, "--quick", "--trainer", trainer, "--threads", "1",
                     "--no-progress", "--device", "cpu", "--out", str(out)])  # fmt: skip
    assert code == 0
    run = json.loads((out / "run.json").read_text())
    assert run["trainer"] == trainer and run["timesteps"] >= 2048
    assert is_policy_file(out / "model.zip") == (trainer == "ppo")
    capsys.readouterr()
    code = cli.main(["eval", task, *extra, str(out / "model.zip"), "--episodes", "3", "--json",
                     "--max-steps", "50"])  # fmt: skip
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["episodes"] == 3 and 0 <= result["win_rate"] <= 1


def test_device_auto_takes_cuda_only_where_torch_sees_it():
    from training.train_ppo import resolve_device

    assert resolve_device("auto").type == ("cuda" if torch.cuda.is_available() else "cpu")
    assert resolve_device("cpu").type == "cpu"
    if not torch.cuda.is_available():
        with pytest.raises(ValueError, match="no CUDA device"):
            resolve_device("cuda")


def test_the_shipped_policies_numpy_forward_equals_the_trainer_s_network():
    """Every policy shipped with the package gives the same action probabilities through
    numpy as through the trainer's torch network holding its weights, on real observations."""
    from delve_env.policy import SHIPPED, shipped

    names = sorted(p.stem for p in SHIPPED.glob("*.zip"))
    assert "easy" in names
    records, masks = real_records(n=48, steps=20)
    for name in names:
        policy = shipped(name)
        net = Net.from_policy(policy)
        with torch.no_grad():
            logits, value, _ = net(torch.as_tensor(records))
        want = torch.softmax(torch.where(torch.as_tensor(masks), logits, -torch.inf), -1)
        got_logits, got_value, _ = policy.forward(records, masks)
        got = np.exp(got_logits - got_logits.max(1, keepdims=True))
        got /= got.sum(1, keepdims=True)
        assert np.allclose(got, want.numpy(), atol=1e-5), name
        assert np.allclose(got_value, value.numpy(), atol=1e-3), name
        assert policy.meta["evaluation"]["games"] == 500 and policy.meta["trainer"] == "ppo"


def test_init_starts_training_from_a_trained_policy_and_records_it(tmp_path, capsys):
    from delve_env.policy import shipped
    from training.train_ppo import load_init

    start = Net(16)
    path = tmp_path / "start.zip"
    start.export({"task": "Delve-Easy-v0", "seed": 7, "timesteps": 5}).save(path)
    ppo = PPO(task_defaults("Delve-Easy-v0", quick=True), 0, init=PolicyNet.load(path))
    named = ppo.net.named()
    assert all(torch.equal(named[k], torch.as_tensor(v)) for k, v in start.weights().items())
    assert load_init("easy").meta == shipped("easy").meta
    out = tmp_path / "run"
    code = cli.main(["train", "Delve-Easy-v0", "--quick", "--init", str(path), "--threads", "1",
                     "--no-progress", "--device", "cpu", "--out", str(out)])  # fmt: skip
    assert code == 0
    assert PolicyNet.load(out / "model.zip").meta["init"]["seed"] == 7
    assert json.loads((out / "run.json").read_text())["init"]["timesteps"] == 5
    for bad, says in ((["--init", str(tmp_path / "missing.zip")], "--init"),
                      (["--init", "easy", "--trainer", "sb3"], "--init is for --trainer ppo")):  # fmt: skip
        assert (
            cli.main(["train", "Delve-Easy-v0", "--quick", *bad, "--out", str(tmp_path / "x")]) == 2
        )
        assert says in capsys.readouterr().err


def test_training_games_begin_in_the_expert_s_starts_on_a_fresh_rng(tmp_path, capsys):
    from training import starts as starts_module

    config = {"difficulty": "easy", "depth": 2, "reward_mode": "shaped"}
    states = starts_module.collect("Delve-Easy-v0", config, (2,), 2, 100)
    assert len(states) == 2  # the expert goes down to floor 2 in both games
    saved = gym.make("Delve-Easy-v0", **config).unwrapped
    saved.load_state(states[0])
    assert saved.engine.state.floor[0] == 2 and not saved.engine.state.has_king[0]
    every = Games(config, 6, 0, states, 1.0)
    assert (every.engine.state.floor == 2).all() and every.started == 6
    assert every.engine.state.steps.min() > 0  # the games go on from where the expert was
    rngs = set(int(r) for r in every.engine.state.rng)
    assert len(rngs) == 6 and int(saved.engine.state.rng[0]) not in rngs  # each plays out anew
    none = Games(config, 6, 0)
    assert (none.engine.state.floor == 0).all() and none.started == 0
    some = Games(config, 400, 0, states, 0.25)
    assert 60 < some.started < 140 and (some.engine.state.floor == 2).sum() == some.started
    every.begin(np.array([True, False, False, False, False, False]))
    assert every.started == 7
    # through the command line: the file, its config checked, the run's record
    path = tmp_path / "starts.npz"
    assert starts_module.main(["Delve-Easy-v0", "--depth", "2", "--floors", "2", "--games", "1",
                               "--seed", "100", "--max-steps", "3000", "--out", str(path)]) == 0  # fmt: skip
    assert len(starts_module.load(path)) == 1
    out = tmp_path / "run"
    args = ["train", "Delve-Easy-v0", "--quick", "--threads", "1", "--no-progress", "--device",
            "cpu", "--no-curriculum", "--max-steps", "3000", "--starts", str(path)]  # fmt: skip
    assert cli.main([*args, "--depth", "2", "--out", str(out)]) == 0
    record = json.loads((out / "run.json").read_text())["starts"]
    assert record == {"file": str(path), "states": 1, "share": 0.5}
    assert PolicyNet.load(out / "model.zip").meta["starts"]["states"] == 1
    for bad, says in ((["--depth", "3"], "made under another config: depth: snapshot 2, this env 3"),
                      (["--depth", "2", "--start-share", "0"], "--start-share must be in"),
                      (["--depth", "2", "--trainer", "sb3"], "--starts is for --trainer ppo")):  # fmt: skip
        assert cli.main([*args, *bad, "--out", str(tmp_path / "x")]) == 2
        assert says in capsys.readouterr().err


@pytest.mark.parametrize("win, loss", [(1.0, 1.0), (4.0, 4.0), (2.0, 0.0)])
@pytest.mark.parametrize("book", [False, True])
def test_outcome_weights_multiply_the_win_and_the_loss_not_a_game_cut_short(scene, win, loss,
                                                                             book):  # fmt: skip
    """`Games(outcome_weights=(W, L))`: a win pays W x (1, + 0.5 with the book), a loss -L, a
    game cut short at the step cap 0; each game then starts anew (the scene's sparse reward)."""
    from delve_env.engine.core.actions import A_STAIRS, A_WAIT
    from delve_env.engine.core.params import P_MAX_STEPS, P_MEAL_PACES
    from delve_env.engine.rules.party import join_king

    s = scene.s
    scene.calm()
    games = Games({"depth": 2}, 1, 0, outcome_weights=(win, loss))
    games.engine = scene.env.engine  # the scene's game, set by hand
    start = scene.save()

    join_king(s, 0, scene.rng(1))
    s.has_book[0] = book
    scene.put(1, *(int(v) for v in s.stair_up[0, 1]))
    rewards, dones, won = games.step(np.array([A_STAIRS]))
    assert dones[0] and won[0] and rewards[0] == win * (1.5 if book else 1.0)
    assert s.outcome[0] == 0 and s.floor[0] == 0  # a new game

    room = next(r for r in range(s.num_rooms[0, 1]) if not s.room_map[0, 1, r])
    for seed in range(1, 100):  # the last member starves in a room of floor 1 (drawn damage)
        scene.load(start)
        scene.clear_band(1, room)
        scene.stand_in_room(1, room)
        s.has_book[0] = book
        s.hp[0, :3] = 0
        s.hp[0, 3], s.luck[0, 3], s.rations[0] = 1, 0, 0
        s.meal_clock[0] = scene.p[P_MEAL_PACES] - 1
        s.rng[0] = scene.rng(seed)[0]
        rewards, dones, won = games.step(np.array([A_WAIT]))
        if dones[0]:
            break
    assert dones[0] and not won[0] and rewards[0] == -loss

    scene.load(start)
    s.steps[0] = scene.p[P_MAX_STEPS] - 1
    rewards, dones, won = games.step(np.array([A_WAIT]))
    assert dones[0] and not won[0] and rewards[0] == 0.0


@pytest.mark.parametrize("timesteps", [4096, 12288])
def test_a_run_keeps_its_ladder_at_the_first_update_past_each_fraction(timesteps, tmp_path):
    """`delve train` saves the policy as it stood after the first update at or past 5%, 15%
    and 40% of its steps (one update is 256 steps here): the rungs' steps follow the budget."""
    from delve_env.policy import RUNGS, rung_path

    out = tmp_path / "run"
    code = cli.main(["train", "Delve-Easy-v0", "--quick", "--timesteps", str(timesteps),
                     "--threads", "1", "--no-progress", "--device", "cpu", "--out", str(out)])  # fmt: skip
    assert code == 0
    final = PolicyNet.load(out / "model.zip")
    update = 4 * 64  # --quick: 4 games of 64 steps a rollout
    for fraction in RUNGS:
        rung = PolicyNet.load(out / rung_path(fraction))
        want = -(-round(fraction * timesteps) // update) * update  # the first update past it
        assert rung.meta["rung"] == fraction and rung.meta["timesteps"] == max(want, update)
        assert rung.meta["task"] == final.meta["task"] and rung.meta["seed"] == final.meta["seed"]
        same = all(np.array_equal(rung.w[k], final.w[k]) for k in rung.w)
        assert not same  # a policy of its own, not the final one


def test_a_compact_policy_keeps_its_weights_to_rounding_and_its_games(tmp_path):
    from delve_env.policy import compact

    policy = random_policy_net_wide(4)
    policy.save(tmp_path / "full.zip")
    policy.save(tmp_path / "compact.zip", compact=True)
    small = PolicyNet.load(tmp_path / "compact.zip")
    assert (tmp_path / "compact.zip").stat().st_size < 0.45 * (tmp_path / "full.zip").stat().st_size
    for k, w in policy.w.items():
        step = np.abs(w).max(axis=-1, keepdims=True) / 127 if k == "embed" else np.abs(w) * 1e-3
        assert (np.abs(small.w[k] - w) <= step / 2 + 1e-7).all(), k
    assert set(compact(policy.w)) == {*policy.w, "embed_int8", "embed_scale"} - {"embed"}
    records, masks = real_records(n=16, steps=10)
    assert (
        small.logits(records, masks).argmax(1) == policy.logits(records, masks).argmax(1)
    ).mean() > 0.95


def random_policy_net_wide(seed: int) -> PolicyNet:
    return Net(32).export({"task": "Delve-Easy-v0", "seed": seed})
