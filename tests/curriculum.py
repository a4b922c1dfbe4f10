"""The curriculum's check, shared by every trainer's test (tests/test_training.py, and
tests/test_rllib.py in RLlib's environment)."""

import csv
import json
from dataclasses import replace


def trains_a_floor_deeper_at_each_winning_point(module, name: str, trainer: str, tmp_path,
                                                monkeypatch, **train_options) -> None:  # fmt: skip
    """With `module.name` (the trainer's curve evaluation) scoring points 0, 1, 2, ... as
    0.0, 0.5, 0.2, 1.0, ...: the whole game trains from depth 2 and moves one floor deeper at
    each point that wins `promote_at` (0.5), up to the config's depth; run.json records it."""
    from training.tasks import task_defaults
    from training.train_ppo import train

    real = getattr(module, name)
    wins = iter([0.0, 0.5, 0.2, 1.0, 1.0, 1.0, 1.0])
    monkeypatch.setattr(module, name, lambda *a, **k: {**real(*a, **k), "win_rate": next(wins)})
    hp = replace(task_defaults("Delve-Easy-v0", quick=True), timesteps=4 * 256, eval_every=256,
                 num_envs=4, n_steps=64, promote_at=0.5, trainer=trainer)  # fmt: skip
    config = {"difficulty": "easy", "depth": 4, "reward_mode": "shaped", "max_steps": 50}
    train("Delve-Easy-v0", config, hp, tmp_path, progress=False, **train_options)
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["curriculum"] == [
        {"timesteps": 0, "depth": 2},
        {"timesteps": 256, "depth": 3},
        {"timesteps": 768, "depth": 4},
    ]
    with (tmp_path / "curve.csv").open() as f:
        assert [row["depth"] for row in csv.DictReader(f)] == ["2", "2", "3", "3", "4"]
