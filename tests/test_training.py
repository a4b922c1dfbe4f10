"""Tests for `delve train` / `delve eval` (training/): a --quick run end to end, evaluation
of the saved model and of the baselines, the Wilson interval, and usage errors."""

from __future__ import annotations

import csv
import json
import sys
from dataclasses import replace

import pytest

pytest.importorskip("sb3_contrib")

from curriculum import trains_a_floor_deeper_at_each_winning_point  # noqa: E402

from delve_env.stats import wilson  # noqa: E402
from delve_env.tools import cli  # noqa: E402

VAULT = ["Delve-Vault-v0", "--lock", "plate", "--floor", "1"]


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    """One --quick training run of the plate vault on floor 1 with SB3's MaskablePPO, through
    the CLI (tests/test_ppo.py covers the default trainer's)."""
    out = tmp_path_factory.mktemp("quick")
    code = cli.main(["train", *VAULT, "--quick", "--trainer", "sb3", "--n-epochs", "3",
                     "--no-progress", "--out", str(out)])  # fmt: skip
    return code, out


def test_quick_train_writes_model_curve_plot_and_checkpoint(quick_run, capsys):
    code, out = quick_run
    assert code == 0
    for name in ("model.zip", "curve.csv", "curve.png", "progress.csv", "run.json"):
        assert (out / name).is_file(), name
    assert list((out / "checkpoints").glob("model_*_steps.zip"))
    with (out / "curve.csv").open() as f:
        rows = list(csv.DictReader(f))
    assert rows[0]["timesteps"] == "0" and int(rows[-1]["timesteps"]) >= 2000
    assert all(0.0 <= float(r["win_rate"]) <= 1.0 for r in rows)
    assert (out / "curve.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    run = json.loads((out / "run.json").read_text())
    assert run["config"]["lock"] == "plate" and run["config"]["reward_mode"] == "shaped"
    assert "win_rate" in run["baseline_random"]
    assert run["hyperparameters"]["n_epochs"] == 3  # the option over --quick's 2


def test_eval_loads_the_model_and_reports_an_interval(quick_run, capsys):
    _, out = quick_run
    capsys.readouterr()
    code = cli.main(["eval", *VAULT, str(out / "model.zip"), "--episodes", "3", "--json"])
    assert code == 0
    result = json.loads(capsys.readouterr().out)
    assert result["episodes"] == 3 and result["agent"] == "model"
    assert 0.0 <= result["win_low"] <= result["win_rate"] <= result["win_high"] <= 1.0
    assert result["mean_length"] > 0


def test_batched_evaluation_plays_the_same_games_as_the_single_env(quick_run):
    """`delve eval` plays a model's episodes in the batched engine, slot i on seed + i: the
    same games, step for step, as the single env reset with each seed."""
    from sb3_contrib import MaskablePPO

    from training.evaluate import make_env, model_policy, play, play_batched
    from training.tasks import EVAL_SEED

    _, out = quick_run
    model = MaskablePPO.load(out / "model.zip", device="cpu")
    config = {"task": "vault", "max_steps": 500, "reward_mode": "shaped", "lock": "plate",
              "floor": 1}  # fmt: skip
    single = play(make_env("Delve-Vault-v0", config), model_policy(model), 6, EVAL_SEED)
    batched = play_batched("Delve-Vault-v0", config, model, 6, EVAL_SEED)
    assert batched.pop("achievements") == single.pop("achievements")
    assert batched == pytest.approx(single)


def test_stochastic_eval_samples_the_model_reproducibly(quick_run, capsys):
    _, out = quick_run
    results = []
    for _ in range(2):
        capsys.readouterr()
        args = ["eval", *VAULT, str(out / "model.zip"), "--episodes", "4", "--stochastic"]
        assert cli.main([*args, "--json"]) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0] == results[1] and results[0]["stochastic"] is True
    assert (
        cli.main(["eval", *VAULT, str(out / "model.zip"), "--episodes", "2", "--stochastic"]) == 0
    )
    assert "(sampled actions)" in capsys.readouterr().out


def test_eval_random_agent_on_combat(capsys):
    code = cli.main(["eval", "Delve-Combat-v0", "--agent", "random", "--episodes", "5"])
    assert code == 0
    out = capsys.readouterr().out
    assert "random agent, 5 episodes" in out and "95% CI" in out and "mean length" in out


def test_eval_is_deterministic(capsys):
    args = ["eval", "Delve-Combat-v0", "--floor", "2", "--agent", "random", "--episodes", "4",
            "--json"]  # fmt: skip
    results = []
    for _ in range(2):
        assert cli.main(args) == 0
        results.append(json.loads(capsys.readouterr().out))
    assert results[0] == results[1]
    assert results[0]["config"]["floor"] == 2


def test_wilson_interval_known_values():
    low, high = wilson(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    low, high = wilson(10, 10)
    assert low == pytest.approx(0.7225, abs=1e-4) and high == 1.0
    low, high = wilson(81, 263)
    assert low == pytest.approx(0.2553, abs=1e-4) and high == pytest.approx(0.3662, abs=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["train", "Delve-Nope-v0", "--quick"], "unknown task id 'Delve-Nope-v0'"),
        (["eval", "Delve-Combat-v0", "--agent", "random", "--stochastic"], "--stochastic"),
        (["eval", "Delve-Nope-v0", "--agent", "random"], "registered ids"),
        (["train", "Delve-Vault-v0", "--floor", "13", "--quick"], "floor must be"),
        (["eval", "Delve-Combat-v0", "--floor", "0", "--agent", "random"], "floor must be"),
        (["train", "Delve-Vault-v0", "--floor", "two"], "invalid int value"),
        (["train", "Delve-Vault-v0", "--n-steps", "0", "--quick"], "--n-steps must be positive"),
        (["train", "Delve-v0", "--floor", "2"], "--floor applies to the sub-tasks only"),
        (["eval", "Delve-Combat-v0", "--lock", "wall", "--agent", "random"], "does not apply"),
        (["eval", "Delve-Vault-v0", "--agent", "scripted"], "whole game"),
        (["eval", "Delve-Vault-v0"], "give MODEL.zip"),
        (["eval", "Delve-Vault-v0", "missing.zip"], "no such model file"),
        (["eval", "Delve-Vault-v0", "--agent", "trained"], "whole game"),
        (["train", "Delve-Combat-v0", "--ent-coef", "-0.1", "--quick"], "at least 0"),
        (["train", "Delve-Combat-v0", "--learning-rate", "0", "--quick"], "must be positive"),
        (["train", "Delve-Combat-v0", "--device", "nope", "--quick"], "--device nope"),
        (["train", "Delve-Combat-v0", "--extractor", "flat", "--quick"], "--trainer sb3"),
        (["train", "Delve-Combat-v0", "--trainer", "jax", "--quick"], "invalid choice"),
        (["train", "Delve-Combat-v0", "--gamma", "0", "--quick"], "--gamma must be in (0, 1]"),
        (["train", "Delve-Combat-v0", "--gamma", "1.5", "--quick"], "--gamma must be in (0, 1]"),
        (["train", "Delve-Combat-v0", "--gae-lambda", "1.1", "--quick"], "must be in [0, 1]"),
        (["train", "Delve-Combat-v0", "--loss-weight", "-1", "--quick"], "must be at least 0"),
        (["train", "Delve-Vault-v0", "--win-weight", "2", "--quick"], "for --trainer ppo"),
        (["train", "Delve-Combat-v0", "--num-env-runners", "2", "--quick"], "--trainer rllib"),
        (["train", "Delve-Combat-v0", "--num-learners", "1", "--quick"], "--trainer rllib"),
        (["train", "Delve-Combat-v0", "--ray-address", "auto", "--quick"], "--trainer rllib"),
        (
            ["train", "Delve-Combat-v0", "--trainer", "rllib", "--memory", "gru", "--quick"],
            "--memory and --critic are for --trainer ppo",
        ),
        (
            ["train", "Delve-Combat-v0", "--trainer", "rllib", "--init", "easy", "--quick"],
            "--init is for --trainer ppo",
        ),
        (
            [
                "train",
                "Delve-Combat-v0",
                "--trainer",
                "rllib",
                "--num-env-runners",
                "999",
                "--quick",
            ],
            "--num-env-runners must be in 0..",
        ),
        (
            ["train", "Delve-Combat-v0", "--trainer", "rllib", "--num-learners", "-1", "--quick"],
            "--num-learners must be in 0..",
        ),
    ],
)
def test_bad_input_exits_2_with_a_clear_message(args, message, capsys):
    assert cli.main(args) == 2
    assert message in capsys.readouterr().err


def test_trainer_rllib_without_ray_names_the_extra(capsys, monkeypatch):
    """`--trainer rllib` where Ray is not installed: exit 2 naming the extra, before training."""
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray.rllib` raises ImportError
    assert cli.main(["train", "Delve-Combat-v0", "--trainer", "rllib", "--quick"]) == 2
    assert 'needs Ray: pip install -e ".[rllib]"' in capsys.readouterr().err


def test_train_help_exits_0(capsys):
    assert cli.main(["train", "--help"]) == 0
    out = capsys.readouterr().out
    assert "--quick" in out and "--floor" in out and "Delve-Combat-v0" in out


@pytest.mark.parametrize("trainer", ["ppo", "sb3"])
def test_the_curriculum_goes_one_floor_deeper_at_each_point_that_wins(trainer, tmp_path,
                                                                      monkeypatch):  # fmt: skip
    """The whole game's curriculum (tests/curriculum.py) with either trainer."""
    from training import callbacks, ppo

    module, name = (callbacks, "play_batched") if trainer == "sb3" else (ppo, "evaluate")
    trains_a_floor_deeper_at_each_winning_point(module, name, trainer, tmp_path, monkeypatch)


def test_the_curriculum_is_off_for_sub_tasks_and_when_asked():
    from training.tasks import task_defaults
    from training.train_ppo import curriculum

    game = task_defaults("Delve-v0")
    assert [c["depth"] for c in curriculum("Delve-v0", {}, game)] == [2, 3, 4, 5, 6]
    assert curriculum("Delve-v0", {"depth": 3}, replace(game, start_depth=3)) == [{"depth": 3}]
    assert curriculum("Delve-v0", {}, replace(game, curriculum=False)) == [{}]
    assert curriculum("Delve-Combat-v0", {"task": "combat"}, game) == [{"task": "combat"}]


def test_the_vault_trains_with_maskableppo_unless_told_and_each_trainer_keeps_its_rate(tmp_path):
    """Delve-Vault-v0's row names MaskablePPO (it learns the locks far better, LEARNING.md),
    every other id's training/ppo.py; `--trainer` overrides the row. The vault's rate (1e-3)
    is training/ppo.py's; `--trainer sb3` keeps its own on every task, and `--learning-rate`
    overrides either (run.json records what was used)."""
    from delve_env import IDS
    from training.tasks import SB3_LEARNING_RATE, task_defaults

    assert {task: task_defaults(task).trainer for task in IDS} == {
        task: "sb3" if task == "Delve-Vault-v0" else "ppo" for task in IDS
    }
    assert task_defaults("Delve-Vault-v0").learning_rate == SB3_LEARNING_RATE == 3e-4
    assert task_defaults("Delve-Vault-v0", trainer="ppo").learning_rate == 1e-3
    assert task_defaults("Delve-Vault-v0", quick=True, trainer="ppo").learning_rate == 1e-3
    assert task_defaults("Delve-v0").learning_rate == 3e-4
    for task in ("Delve-Vault-v0", "Delve-v0", "Delve-Combat-v0"):
        assert task_defaults(task, trainer="sb3").learning_rate == SB3_LEARNING_RATE
    for trainer, rate, given in ((None, 3e-4, []), ("ppo", 1e-3, []), ("sb3", 3e-4, []),
                                 ("ppo", 5e-4, ["--learning-rate", "5e-4"])):  # fmt: skip
        out = tmp_path / f"{trainer}-{rate}"
        chosen = ["--trainer", trainer] if trainer else []
        argv = ["train", "Delve-Vault-v0", "--quick", *chosen, "--threads", "1", "--no-progress",
                "--out", str(out)]  # fmt: skip
        assert cli.main(argv + given) == 0
        run = json.loads((out / "run.json").read_text())
        assert run["trainer"] == (trainer or "sb3")
        assert run["hyperparameters"]["trainer"] == run["trainer"]
        assert run["hyperparameters"]["learning_rate"] == rate


@pytest.mark.parametrize("gamma, gae_lambda", [(0.9, 0.5), (0.999, 0.99)])
def test_gamma_and_lambda_given_are_the_ones_trained_with(gamma, gae_lambda, tmp_path):
    """`--gamma` and `--gae-lambda` replace the row's (0.99 and 0.95 for combat); run.json
    records them."""
    out = tmp_path / "run"
    argv = ["train", "Delve-Combat-v0", "--floor", "1", "--quick", "--gamma", str(gamma),
            "--gae-lambda", str(gae_lambda), "--threads", "1", "--out", str(out)]  # fmt: skip
    assert cli.main(argv) == 0
    hp = json.loads((out / "run.json").read_text())["hyperparameters"]
    assert (hp["gamma"], hp["gae_lambda"]) == (gamma, gae_lambda)
