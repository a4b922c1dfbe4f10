"""The playtest report (delve_env/tools/playtest.py): its table, presets and overrides."""

import json

import pytest
from conftest import random_policy_net

from delve_env.tools import playtest
from delve_env.tools.cli import main


def test_playtest_tiny_table_has_every_column(tmp_path):
    presets = playtest.standard_presets(("easy", "hard"), depth=2)
    runs = playtest.play_all(presets, ["scripted", "random"], range(3), workers=1, progress=False)
    assert len(runs) == 2 * 2 * 3
    text = playtest.report(runs, tmp_path)
    header = text.splitlines()[0]
    for column in playtest.COLUMNS:
        assert f" {column} |" in header
    rows = playtest.summarize(runs)
    assert [(r["preset"], r["policy"]) for r in rows] == [
        ("easy", "scripted"), ("easy", "random"), ("hard", "scripted"), ("hard", "random")
    ]  # fmt: skip
    for r in rows:
        lost = sum(r[f"lost: {c}"] for c in playtest.LOSS_CAUSES)
        assert lost == round(r["runs"] * (1 - r["win %"] / 100))  # every loss has one cause
    assert (tmp_path / "playtest.png").stat().st_size > 0
    assert len(json.loads((tmp_path / "playtest.json").read_text())) == len(runs)
    assert "DIFF-1" in text


def test_playtest_runs_do_not_depend_on_workers():
    presets = playtest.standard_presets(("normal",), depth=2)
    one = playtest.play_all(presets, ["scripted"], range(4), workers=1, progress=False)
    two = playtest.play_all(presets, ["scripted"], range(4), workers=2, progress=False)
    assert one == two


def test_playtest_ladder_names_a_broken_step():
    rows = [{"preset": "easy", "policy": "p", "win %": 40.0, "95% interval": (35.0, 45.0)},
            {"preset": "normal", "policy": "p", "win %": 60.0, "95% interval": (55.0, 65.0)}]  # fmt: skip
    (line,) = playtest.difficulty_ladder(rows)
    assert "BROKEN" in line
    rows[1]["win %"], rows[1]["95% interval"] = 30.0, (25.0, 35.0)
    assert "kept" in playtest.difficulty_ladder(rows)[0]


def test_playtest_custom_presets_are_validated(tmp_path):
    good = tmp_path / "brutal.json"
    good.write_text(json.dumps({"name": "brutal", "difficulty": "hard", "guard_chance": 0.9}))
    assert playtest.load_preset(good) == playtest.Preset(
        "brutal", {"difficulty": "hard", "guard_chance": 0.9}
    )
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "bad", "guard_chance": 3}))
    with pytest.raises(ValueError, match="guard_chance"):
        playtest.load_preset(bad)
    assert playtest.parse_overrides(["guard_chance=0.5", "party=[\"hero\"]"]) == {
        "guard_chance": 0.5, "party": ("hero",)
    }  # fmt: skip
    with pytest.raises(ValueError, match="guard_chanse"):
        playtest.parse_overrides(["guard_chanse=0.5"])


def test_playtest_cli_reports_a_bad_override(capsys):
    assert main(["playtest", "--set", "nope=1", "--seeds", "1"]) == 2
    assert "nope" in capsys.readouterr().err


def test_playtest_plays_a_model_batched_the_same_games_as_alone(tmp_path):
    """A model's runs are played in one batched engine (slot i on seed i), on float
    observations: each is the game the model plays alone in the single env on that seed."""
    pytest.importorskip("sb3_contrib")
    from sb3_contrib import MaskablePPO

    from delve_env.env import DelveEnv
    from delve_env.sb3 import DelveSB3VecEnv
    from delve_env.wrappers import float_scales, to_float

    config = {"difficulty": "easy", "depth": 2, "max_steps": 40}
    model = MaskablePPO("MultiInputPolicy", DelveSB3VecEnv(1, **config), seed=0, device="cpu")
    path = tmp_path / "model.zip"
    model.save(path)
    spec = f"model:{path}"
    preset = playtest.Preset("easy", config)
    runs = playtest.play_all([preset], ["scripted", spec], range(3), progress=False)
    assert [(r["policy"], r["seed"]) for r in runs] == [("scripted", 0), ("scripted", 1),
                                                        ("scripted", 2), (spec, 0), (spec, 1),
                                                        (spec, 2)]  # fmt: skip
    env, scales = DelveEnv(**config), float_scales()
    model = MaskablePPO.load(path, device="cpu")
    for run in runs[3:]:
        obs, info = env.reset(seed=run["seed"])
        steps, done = 0, False
        while not done:
            obs_f = {k: v[None] for k, v in to_float(obs, scales).items()}
            action, _ = model.predict(obs_f, action_masks=info["action_mask"][None],
                                      deterministic=True)  # fmt: skip
            obs, _, terminated, truncated, info = env.step(int(action[0]))
            steps += 1
            done = terminated or truncated
        alone = playtest.run_record(env.state, 0, "easy", spec, run["seed"], steps, truncated)
        assert run == alone
    with pytest.raises(ValueError, match="model:PATH.zip"):
        playtest.play_all([preset], ["modle:x.zip"], range(1), progress=False)
    sampled = f"sampled:{path}"  # the policy's actions sampled, torch seeded: reproducible
    twice = [playtest.play_all([preset], [sampled], range(3), progress=False) for _ in "ab"]
    assert twice[0] == twice[1] and [r["policy"] for r in twice[0]] == [sampled] * 3


@pytest.mark.parametrize("kind", ["model", "sampled"])
def test_playtest_plays_a_trained_policy_batched_the_same_games_as_alone(kind, tmp_path):
    """A `delve train` policy's runs, likeliest or sampled, are each the game the policy plays
    alone in the single env on that seed, with the same draws (`policy.uniforms`)."""
    import numpy as np

    from delve_env.engine.outputs.layout import KEYS
    from delve_env.env import DelveEnv
    from delve_env.policy import choose, uniforms

    policy = random_policy_net(2, 0.5)
    path = tmp_path / "policy.zip"
    policy.save(path)
    config = {"difficulty": "easy", "depth": 2, "max_steps": 60}
    spec = f"{kind}:{path}"
    runs = playtest.play_all([playtest.Preset("easy", config)], [spec], range(4), progress=False)
    env = DelveEnv(**config)
    for run in runs:
        obs, info = env.reset(seed=run["seed"])
        steps, done = 0, False
        while not done:
            record = np.concatenate([obs[k.name].ravel() for k in KEYS])[None]
            u = uniforms(np.array([run["seed"]]), np.array([steps])) if kind == "sampled" else None
            action = choose(policy.logits(record, info["action_mask"][None]), u)[0]
            obs, _, terminated, truncated, info = env.step(int(action))
            steps += 1
            done = terminated or truncated
        assert run == playtest.run_record(env.state, 0, "easy", spec, run["seed"], steps,
                                          truncated)  # fmt: skip
