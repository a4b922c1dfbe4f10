"""Playing a policy over a batch (policy.play_out): a finished game's slot is held, never
stepped again, and the first layer's sums are exact, so a game followed step by step in a
batch reads the very numbers it reads alone."""

import numpy as np

from delve_env.engine.core.actions import HOLD
from delve_env.env import DelveEnv
from delve_env.policy import Agent, PolicyNet, play, shipped_path
from delve_env.vector import DelveVectorEnv


def real_records(n: int, steps: int, seed: int = 5):
    """Observation records of `n` games of easy over `steps` random legal steps."""
    venv = DelveVectorEnv(n, difficulty="easy")
    venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    records = []
    for _ in range(steps):
        records.append(venv.engine.obs_record.copy())
        venv.step(np.array([rng.choice(np.flatnonzero(row)) for row in venv.engine.masks]))
    return np.concatenate(records)


def slot_bytes(eng, e: int) -> bytes:
    """Every state array's slot e, its observation record and its mask."""
    return b"".join(np.ascontiguousarray(a[e]).tobytes() for a in eng.state) + \
        eng.obs_record[e].tobytes() + eng.masks[e].tobytes()  # fmt: skip


def test_a_held_slot_is_left_untouched_and_the_others_step_as_they_would_without_it():
    config = {"difficulty": "easy", "depth": 2}
    venv = DelveVectorEnv(3, **config)
    venv.reset(seed=[4, 5, 6])
    alone = DelveVectorEnv(3, **config)
    alone.reset(seed=[4, 5, 6])
    eng, ref = venv.engine, alone.engine
    no_reset = np.zeros(3, dtype=np.bool_)
    for _ in range(40):
        held = slot_bytes(eng, 1)
        actions = ref.masks.argmax(axis=1)  # the first legal action of each slot
        ref.step(actions, no_reset)
        eng.step(np.where(np.arange(3) == 1, HOLD, actions), no_reset)
        assert slot_bytes(eng, 1) == held
        for e in (0, 2):
            assert slot_bytes(eng, e) == slot_bytes(ref, e)
    # held but flagged for a reset: the reset wins (a new run starts in the slot)
    eng.step(eng.masks.argmax(axis=1), no_reset)
    assert int(eng.state.steps[1]) == 1
    eng.step(np.full(3, HOLD), np.array([False, True, False]))
    assert int(eng.state.steps[1]) == 0


def test_the_first_layer_s_sums_are_exact_in_any_batch_in_any_order_and_followed():
    policy = PolicyNet.load(shipped_path("easy"))
    records = real_records(n=16, steps=10)
    x = policy.inputs
    sums = policy.sums(records)
    # numpy's integer products give the same integers as the compiled loop
    ref = records[:, x.num_at].astype(np.int64) @ policy._num_q
    ref += policy._embed_q[records[:, x.cat_at].astype(np.int64) + x.cat_base].sum(axis=1)
    assert np.array_equal(sums, ref)
    # a record's sums alone and reversed in a batch are the same bits
    assert np.array_equal(policy.sums(records[7:8])[0], sums[7])
    assert np.array_equal(policy.sums(records[::-1]), sums[::-1])
    # followed from other records (a game's last step), only some rows: the rows' full sums
    seen = records[np.roll(np.arange(len(records)), 5)].copy()
    followed = policy.sums(seen)
    rows = np.array([0, 3, 9, 15])
    policy.follow(records, seen, rows, followed)
    assert np.array_equal(followed[rows], sums[rows])
    assert np.array_equal(seen[rows], records[rows])
    others = np.setdiff1d(np.arange(len(records)), rows)
    assert np.array_equal(followed[others], policy.sums(seen[others]))
    # the forward pass from the sums alone is the forward pass from the records
    by_records, by_sums = policy.forward(records), policy.forward(None, sums=sums)
    assert all(np.array_equal(a, b) for a, b in zip(by_records, by_sums))
    # and they are the float layer of the trained weights, to float32's rounding
    h = (records[:, x.num_at] * x.num_scale).astype(np.float64) @ policy.w["num_w"].T
    h += policy.w["embed"][records[:, x.cat_at].astype(np.int64) + x.cat_base].sum(axis=1)
    want = np.maximum(h + policy.w["num_b"], 0.0)
    assert np.allclose(policy.first(records), want, atol=1e-4, rtol=1e-5)


def test_a_batch_plays_each_shipped_policy_s_game_as_the_agent_plays_it_alone():
    policy = PolicyNet.load(shipped_path("easy"))
    config = {"difficulty": "easy", "depth": 2}
    seeds = [21, 22, 23, 24, 25, 26]
    batched = play(policy, config, seeds)
    for seed, got in zip(seeds, batched):
        env = DelveEnv(**config)
        _, info = env.reset(seed=seed)
        agent, steps, done = Agent(policy, seed), 0, False
        while not done:
            _, _, term, trunc, info = env.step(agent(env, info))
            steps, done = steps + 1, term or trunc
        assert (got["won"], got["length"]) == (info["episode_stats"]["won"], steps)
