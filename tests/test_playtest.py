"""The playtest (delve_env/tools/playtest/): presets and variants, the players and their
ladder, paired comparisons of each variant with its base, adaptation, resuming, bad input."""

import json

import numpy as np
import pytest
from conftest import random_policy_net

from delve_env.policy import RUNGS, PolicyNet, shipped
from delve_env.tools import playtest
from delve_env.tools.cli import main
from delve_env.tools.playtest import players as players_module
from delve_env.tools.playtest.report import compare, comparisons, difficulty_order
from delve_env.tools.playtest.variants import parse_sweep, plan, sweep_points

SMALL = {"depth": 2, "max_steps": 400}  # games of a few hundred steps at most


def test_playtest_tiny_table_has_every_column(tmp_path):
    presets = playtest.standard_presets(("easy", "hard"), depth=2)
    runs = playtest.play_all(presets, ["scripted", "random"], range(3), workers=1, progress=False)
    assert len(runs) == 2 * 2 * 3
    text = playtest.report(runs, presets, tmp_path)
    header = text.splitlines()[0]
    for column in playtest.COLUMNS:
        assert f" {column} |" in header
    rows = playtest.summarize(runs)
    assert [(r["preset"], r["policy"]) for r in rows] == [
        ("easy", "scripted"), ("easy", "random"), ("hard", "scripted"), ("hard", "random")
    ]  # fmt: skip
    for r in rows:
        lost = sum(r[f"lost: {c}"] for c in players_module.LOSS_CAUSES)
        assert lost == round(r["runs"] * (1 - r["win %"] / 100))  # every loss has one cause
    assert (tmp_path / "playtest.png").stat().st_size > 0
    assert len(json.loads((tmp_path / "playtest.json").read_text())["runs"]) == len(runs)
    assert "DIFF-1" in text


def test_playtest_runs_do_not_depend_on_workers():
    presets = playtest.standard_presets(("normal",), depth=2)
    one = playtest.play_all(presets, ["scripted", "fog"], range(4), workers=1, progress=False)
    two = playtest.play_all(presets, ["scripted", "fog"], range(4), workers=2, progress=False)
    assert one == two


def test_diff_1_names_a_broken_step():
    rows = [{"preset": "easy", "policy": "p", "win %": 40.0, "95% interval": (35.0, 45.0)},
            {"preset": "normal", "policy": "p", "win %": 60.0, "95% interval": (55.0, 65.0)}]  # fmt: skip
    (line,) = difficulty_order(rows)
    assert "BROKEN" in line
    rows[1]["win %"], rows[1]["95% interval"] = 30.0, (25.0, 35.0)
    assert "kept" in difficulty_order(rows)[0]


def test_custom_presets_are_validated_and_compared_with_their_difficulty(tmp_path):
    good = tmp_path / "brutal.json"
    good.write_text(json.dumps({"name": "brutal", "difficulty": "hard", "guard_chance": 0.9}))
    brutal = playtest.load_preset(good)
    assert brutal == playtest.Preset("brutal", {"difficulty": "hard", "guard_chance": 0.9},
                                     "hard", {"guard_chance": 0.9})  # fmt: skip
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"name": "bad", "guard_chance": 3}))
    with pytest.raises(ValueError, match="guard_chance"):
        playtest.load_preset(bad)
    assert playtest.parse_overrides(["guard_chance=0.5", "party=[\"hero\"]"]) == {
        "guard_chance": 0.5, "party": ("hero",)
    }  # fmt: skip
    with pytest.raises(ValueError, match="guard_chanse"):
        playtest.parse_overrides(["guard_chanse=0.5"])
    # a preset file's base joins the plan (not swept), with the --set overrides on both
    presets = plan(["easy"], {"depth": 3}, None, [("band_size", [2, 3])], (), [brutal])
    assert [(p.name, p.base) for p in presets] == [
        ("easy", None), ("hard", None), ("easy band_size=3", "easy"), ("brutal", "hard")
    ]  # fmt: skip
    assert presets[1].config == {"depth": 3, "difficulty": "hard"}
    assert presets[3].config == {"depth": 3, "difficulty": "hard", "guard_chance": 0.9}


def test_a_sweep_makes_one_variant_per_value_and_the_preset_s_own_value_is_the_base():
    easy = playtest.standard_presets(("easy",))[0]
    own = easy.canonical()["band_size"]
    points = sweep_points(easy, [parse_sweep(f"band_size={own},{own + 2},{own + 4}")])
    assert [p.changes for p in points] == [{"band_size": own + 2}, {"band_size": own + 4}]
    assert all(p.base == "easy" and p.config["difficulty"] == "easy" for p in points)
    # the base's value not given: the base still plays (it is a base), every value a variant
    points = sweep_points(easy, [parse_sweep(f"band_size={own + 1},{own + 2}")])
    assert len(points) == 2
    # a grid: every combination, the base's own left out
    grid = sweep_points(easy, [parse_sweep(f"band_size={own},{own + 1}"),
                               parse_sweep("guard_chance=0.2,0.9")])  # fmt: skip
    assert len(grid) == 4 and all(len(p.changes) == 2 for p in grid)


def test_named_variants_apply_to_every_base_and_are_named_apart():
    presets = plan(["easy", "normal"], {}, None, (), [("crowded", {"guard_chance": 0.9})])
    assert [p.name for p in presets] == ["easy", "normal", "easy crowded", "normal crowded"]
    assert presets[3].config == {"difficulty": "normal", "guard_chance": 0.9}
    (one,) = plan(["easy"], {}, None, (), [("crowded", {"guard_chance": 0.9})])[1:]
    assert one.name == "crowded" and one.base == "easy"


def saved_net(tmp_path, seed: int = 1) -> str:
    path = tmp_path / f"net{seed}.zip"
    random_policy_net(seed, 0.5).save(path)
    return str(path)


def test_every_variant_and_player_plays_the_same_seeds(tmp_path):
    presets = plan(["easy"], SMALL, None, [("band_size", [2, 4, 6])])
    cast = ["scripted", "random", f"sampled:{saved_net(tmp_path)}"]
    runs = playtest.play_all(presets, cast, range(7, 12), progress=False)
    seeds = {}
    for r in runs:
        seeds.setdefault((r["preset"], r["policy"]), []).append(r["seed"])
    assert len(seeds) == 3 * 3
    assert all(s == list(range(7, 12)) for s in seeds.values())


def test_a_variant_that_cannot_change_play_plays_the_very_same_games():
    """With no vaults, the vaults' loot changes nothing: every run is the base's, byte for
    byte, and the comparison says so (difference 0, an interval holding 0, p = 1)."""
    presets = plan(["easy"], {**SMALL, "vault_chance": 0.0}, None, (),
                   [("loot", {"vault_items": 0, "vault_gold_factor": 9})])  # fmt: skip
    assert presets[1].canonical() != presets[0].canonical()  # a real variant of the config
    runs = playtest.play_all(presets, ["scripted", "random", "trained"], range(30),
                             progress=False)  # fmt: skip
    base = [r for r in runs if r["preset"] == "easy"]
    variant = [r for r in runs if r["preset"] == "loot"]
    assert [{**r, "preset": "x"} for r in base] == [{**r, "preset": "x"} for r in variant]
    for c in comparisons(runs, {"loot": "easy"}):
        assert c["difference"] == 0.0 and c["interval"][0] < 0 < c["interval"][1]
        assert c["p"] == 1.0 and not c["real"]


def test_a_harder_variant_comes_out_harder_for_the_shipped_and_the_adapted_policy(tmp_path):
    """Bands of up to 6 on floors 1-3 of easy: the shipped easy policy and the one adapted
    to each config lose more, with paired intervals that leave out 0."""
    presets = plan(["easy"], {}, None, (), [("bands6", {"band_size": 6})])
    runs = playtest.play_all(presets, ["trained"], range(1000, 1060), progress=False,
                             adapt=4096, out=tmp_path)  # fmt: skip
    found = {c["policy"]: c for c in comparisons(runs, {"bands6": "easy"})}
    assert set(found) == {"trained", "adapted"}
    for c in found.values():
        assert c["real"] and c["interval"][1] < 0 and c["difference"] < -15
        assert c["p"] < 0.001
    text = playtest.report(runs, presets, tmp_path)
    assert "bands6 | easy | trained" in text and " *" in text


def test_an_adapted_policy_records_its_variant_and_is_reused(tmp_path, monkeypatch):
    from training import adapt

    config = {"difficulty": "easy", "depth": 2, "band_size": 4}
    updates = []
    path = adapt.adapted("easy-bands", config, 4096, tmp_path, on_update=updates.append)
    assert updates and updates[-1] >= 4096
    record = json.loads((path / adapt.RECORD).read_text())
    assert record["variant"] == "easy-bands"
    assert record["key"]["config"]["band_size"] == 4 and record["key"]["steps"] == 4096
    assert (
        record["key"]["config"]["depth"] == 2 and record["key"]["init"]["policy"] == "shipped easy"
    )
    policy = PolicyNet.load(path / "model.zip")
    assert policy.meta["config"]["band_size"] == 4 and policy.meta["init"]["seed"] == 0
    for f in RUNGS:  # the run's own ladder
        assert PolicyNet.load(path / f"ladder/{round(100 * f):02d}.zip").meta["rung"] == f
    assert (path / "curve.csv").exists() and (path / "run.json").exists()
    # asked again: the same folder, no training
    monkeypatch.setattr("training.train_ppo.train", lambda *a, **k: pytest.fail("retrained"))
    assert adapt.adapted("easy-bands", config, 4096, tmp_path) == path
    # another question trains anew (another folder)
    other = adapt.folder(tmp_path, "easy-bands", adapt.record({**config, "band_size": 5}, 4096, 0))
    assert other != path


def test_an_interrupted_playtest_goes_on_from_what_it_wrote(tmp_path, monkeypatch):
    from training import adapt

    presets = plan(["easy"], SMALL, None, [("band_size", [2, 4])])
    seeds = range(3)
    first = playtest.play_all(presets, ["scripted", "random"], seeds, progress=False,
                              out=tmp_path)  # fmt: skip
    kept = sorted((tmp_path / "runs").rglob("*.json"))
    assert len(kept) == 4
    kept[0].unlink()  # as if interrupted before this (preset, player) was written
    played = []
    real = players_module.play_run
    monkeypatch.setattr(players_module, "play_run", lambda job: played.append(job) or real(job))
    again = playtest.play_all(presets, ["scripted", "random"], seeds, workers=1,
                              progress=False, out=tmp_path)  # fmt: skip
    assert again == first
    assert len(played) <= len(seeds)  # only the missing (preset, player) played again
    # a half-trained adaptation (its .partial folder) is never taken for a finished one
    key = adapt.record({"difficulty": "easy", "depth": 2}, 4096, 0)
    folder = adapt.folder(tmp_path / "adapted", "easy", key)
    partial = folder.with_name(folder.name + ".partial")
    partial.mkdir(parents=True)
    (partial / "model.zip").write_bytes(b"half")
    assert not adapt.finished(folder, key) and not adapt.finished(partial, key)


def test_best_of_k_plays_independent_streams_and_reports_both_rates():
    presets = [playtest.Preset("easy", {"difficulty": "easy", "depth": 3, "band_size": 5})]
    one = playtest.play_all(presets, ["trained"], range(20), progress=False)
    three = playtest.play_all(presets, ["trained"], range(20), attempts=3, progress=False)
    assert [r for r in three if r["attempt"] == 0] == one  # the first attempt is the same game
    firsts = [r["steps"] for r in three if r["attempt"] == 0]
    seconds = [r["steps"] for r in three if r["attempt"] == 1]
    assert firsts != seconds  # another stream, another game
    (row,) = playtest.summarize(three)
    wins = {s: [r["won"] for r in three if r["seed"] == s] for s in range(20)}
    assert row["attempts"] == 3 and row["runs"] == 20
    assert row["win %"] == pytest.approx(100 * np.mean([w for ws in wins.values() for w in ws]))
    assert row["best of K %"] == pytest.approx(100 * np.mean([any(ws) for ws in wins.values()]))
    assert 0 < row["win %"] < row["best of K %"]  # some seeds won only in a later attempt


def test_compare_pairs_seeds_and_counts_the_discordant_ones():
    def runs(won):
        return [{"seed": s, "attempt": 0, "won": w} for s, w in enumerate(won)]

    base = runs([True] * 10 + [False] * 10)
    variant = runs([True] * 4 + [False] * 6 + [True] * 2 + [False] * 8)
    c = compare(variant, base)
    assert c["table"] == (4, 2, 6, 8)  # both, only the variant, only the base, neither
    assert c["difference"] == pytest.approx(-20.0)
    assert c["p"] == pytest.approx(2 * (1 + 8 + 28) / 256)
    with pytest.raises(ValueError, match="same seeds"):
        compare(variant[:-1], base)


def test_the_ladder_is_the_shipped_policy_s_rungs_for_every_difficulty():
    cast = playtest.lineup(["ladder"])
    assert [p.name for p in cast] == ["ladder 5%", "ladder 15%", "ladder 40%", "trained"]
    for difficulty in ("easy", "normal", "hard"):
        top = shipped(difficulty)
        steps = [shipped(difficulty, f).meta["timesteps"] for f in RUNGS]
        assert steps == sorted(steps) and steps[-1] < top.meta["timesteps"]
        for f in RUNGS:
            assert shipped(difficulty, f).meta["rung"] == f
    with pytest.raises(ValueError, match="rung"):
        shipped("easy", 0.5)
    adapted = playtest.lineup(["ladder", "scripted"], adapt=True)
    assert [p.name for p in adapted][-4:] == ["adapted 5%", "adapted 15%", "adapted 40%", "adapted"]


@pytest.mark.fast
@pytest.mark.parametrize("args, says", [
    (["--sweep", "band_sise=2,3"], "band_sise"),
    (["--sweep", "band_size=2,99"], "band_size must be an integer"),
    (["--sweep", "band_size="], "at least two values"),
    (["--sweep", "band_size=4"], "at least two values"),
    (["--sweep", "band_size=4,4"], "given twice"),
    (["--variant", "same:band_size=2", "--presets", "easy"], "very game of its base"),
    (["--variant", "nothing"], "NAME:KEY=V"),
    (["--variant", "x:difficulty=hard"], "--presets"),
    (["--adapt", "--policy", "scripted"], "--adapt"),
    (["--adapt", "0", "--policy", "trained"], "--adapt STEPS"),
    (["--sweep", "band_size=1,2,3,4", "--sweep", "guard_chance=0.1,0.2,0.3,0.4"], "at most 12"),
    (["--attempts", "0"], "--attempts"),
    (["--seeds", "0"], "--seeds"),
    (["--policy", "modle:x.zip"], "model:PATH.zip"),
    (["--policy", "model:no/such/file.zip"], "no/such/file.zip"),
    (["--set", "nope=1"], "nope"),
])  # fmt: skip
def test_bad_input_is_refused_before_any_game(args, says, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(players_module, "play_run", lambda job: pytest.fail("a game was played"))
    monkeypatch.setattr("delve_env.policy.play", lambda *a, **k: pytest.fail("a game was played"))
    assert main(["playtest", "--seeds", "1", *args, "--out", str(tmp_path)]) == 2
    assert says in capsys.readouterr().err
    assert not (tmp_path / "adapted").exists()


def test_playtest_plays_a_model_batched_the_same_games_as_alone(tmp_path):
    """An SB3 model's runs are played in one batched engine (slot i on seed i), on float
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
        alone = playtest.run_record(
            env.engine.state, 0, "easy", spec, run["seed"], steps, truncated
        )
        assert run == alone
    sampled = f"sampled:{path}"  # the policy's actions sampled, torch seeded: reproducible
    twice = [playtest.play_all([preset], [sampled], range(3), progress=False) for _ in "ab"]
    assert twice[0] == twice[1] and [r["policy"] for r in twice[0]] == [sampled] * 3


@pytest.mark.parametrize("kind", ["model", "sampled", "random"])
def test_batched_players_play_the_same_games_as_alone(kind, tmp_path):
    """A `delve train` policy's runs (likeliest or sampled) and the random player's are each
    the game it plays alone in the single env on that seed, with the same draws."""
    from delve_env.engine.outputs.layout import KEYS
    from delve_env.env import DelveEnv
    from delve_env.policy import choose, uniforms

    policy = random_policy_net(2, 0.5)
    path = tmp_path / "policy.zip"
    policy.save(path)
    config = {"difficulty": "easy", "depth": 2, "max_steps": 60}
    spec = "random" if kind == "random" else f"{kind}:{path}"
    runs = playtest.play_all([playtest.Preset("easy", config)], [spec], range(4), progress=False)
    env = DelveEnv(**config)
    for run in runs:
        obs, info = env.reset(seed=run["seed"])
        steps, done = 0, False
        while not done:
            record = np.concatenate([obs[k.name].ravel() for k in KEYS])[None]
            mask = info["action_mask"][None]
            logits = players_module.uniform(record, mask) if kind == "random" else \
                policy.logits(record, mask)  # fmt: skip
            u = uniforms(np.array([run["seed"]]), np.array([steps])) if kind != "model" else None
            obs, _, terminated, truncated, info = env.step(int(choose(logits, u)[0]))
            steps += 1
            done = terminated or truncated
        assert run == playtest.run_record(env.engine.state, 0, "easy", spec, run["seed"], steps,
                                          truncated)  # fmt: skip


def test_a_sweep_from_the_command_line_writes_its_report(tmp_path, capsys):
    out = tmp_path / "sweep"
    code = main(["playtest", "--presets", "easy", "--depth", "2", "--set", "max_steps=300",
                 "--sweep", "band_size=2,4", "--policy", "random", "--policy", "scripted",
                 "--seeds", "3", "--workers", "1", "--out", str(out), "--no-progress"])  # fmt: skip
    assert code == 0
    text = capsys.readouterr().out
    assert text == (out / "playtest.md").read_text()
    assert "| easy band_size=4 | easy | random |" in text
    assert "| easy band_size=4 | easy | scripted |" in text
    data = json.loads((out / "playtest.json").read_text())
    assert data["players"] == ["random", "scripted"] and data["seeds"] == [1000, 3]
    assert [p["name"] for p in data["presets"]] == ["easy", "easy band_size=4"]
    assert len(data["runs"]) == 2 * 2 * 3 and len(data["comparisons"]) == 2
    assert (out / "playtest.png").stat().st_size > 0
