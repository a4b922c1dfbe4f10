"""training/imitate.py: the scripted expert's steps as data (legal actions, discounted
returns), the fit that copies them, and a start for `delve train --init`."""

import json

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from delve_env.policy import PolicyNet  # noqa: E402
from delve_env.tools import cli  # noqa: E402
from training import imitate  # noqa: E402
from training.net import Net  # noqa: E402

CONFIG = {"difficulty": "easy", "depth": 2, "reward_mode": "shaped"}


def test_the_expert_s_steps_are_legal_and_their_returns_discounted():
    flat = imitate.collect("Delve-Easy-v0", CONFIG, 1, 100, gamma=0.0)  # returns = rewards
    half = imitate.collect("Delve-Easy-v0", CONFIG, 1, 100, gamma=0.5)
    n = len(flat["actions"])
    assert n > 50 and flat["records"].shape[0] == flat["masks"].shape[0] == n
    assert flat["masks"][np.arange(n), flat["actions"]].all()  # every action was legal
    np.testing.assert_array_equal(flat["actions"], half["actions"])  # the expert is deterministic
    r = flat["returns"]
    assert np.count_nonzero(r) > 5
    np.testing.assert_allclose(half["returns"][:-1], r[:-1] + 0.5 * half["returns"][1:], atol=1e-6)
    assert half["returns"][-1] == pytest.approx(r[-1])
    assert flat["games"] == 1 and flat["won"] == 1


def test_the_fit_copies_the_expert_and_starts_a_training_run(tmp_path):
    data = imitate.collect("Delve-Easy-v0", CONFIG, 2, 100, gamma=0.99)
    torch.manual_seed(0)
    net = Net(64)
    rows = imitate.fit(net, data, epochs=15, batch_size=64, learning_rate=3e-3, seed=0,
                       log=lambda row: None)  # fmt: skip
    assert rows[-1]["loss"] < 0.4 * rows[0]["loss"]
    assert rows[-1]["agree"] > rows[0]["agree"] + 0.3
    assert rows[-1]["value_loss"] < rows[0]["value_loss"]
    # through the command line: the saved steps reused, the model a start for `delve train`
    out = tmp_path / "imitate"
    args = ["Delve-Easy-v0", "--depth", "2", "--games", "1", "--seed", "100", "--epochs", "1",
            "--net", "tiny"]  # fmt: skip
    assert imitate.main([*args, "--out", str(out)]) == 0
    again = tmp_path / "again"
    assert imitate.main([*args, "--data", str(out / "steps.npz"), "--out", str(again)]) == 0
    first, second = PolicyNet.load(out / "model.zip"), PolicyNet.load(again / "model.zip")
    for name in first.w:
        np.testing.assert_array_equal(first.w[name], second.w[name])
    assert first.meta["trainer"] == "imitation" and first.meta["expert_games"] == 1
    run = tmp_path / "run"
    assert cli.main(["train", "Delve-Easy-v0", "--quick", "--threads", "1", "--no-progress",
                     "--device", "cpu", "--no-curriculum", "--depth", "2", "--init",
                     str(out / "model.zip"), "--out", str(run)]) == 0  # fmt: skip
    assert json.loads((run / "run.json").read_text())["init"]["config"] == CONFIG
