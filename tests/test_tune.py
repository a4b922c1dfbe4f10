"""`delve tune` (delve_env/tools/playtest/search.py, tune.py): the search by simulation on
synthetic players with a known curve, then on the game end to end, resuming, the adapted
player's warm start, and every bad input refused before any game."""

import json

import numpy as np
import pytest

from delve_env.stats import wilson
from delve_env.tools.cli import main
from delve_env.tools.playtest import players as players_module
from delve_env.tools.playtest.search import Outcome, cross, grid_values, isotonic, tune, tune_map


def synthetic(curve, seeds, rng):
    """A player whose win chance at value x is `curve(x)`, seed s won where u_s < curve(x):
    each seed's outcomes paired across values as a real seed's are (its dungeon is the same,
    and a harder value loses it no sooner than an easier one)."""
    u = rng.random(seeds)
    return lambda x: Outcome.wins(u < curve(x))


def logistic(x):
    return 1 / (1 + np.exp((x - 0.5) / 0.1))  # 80% at 0.5 - 0.1 ln 4 = 0.3614


GRID = 5 * 500  # the games of a five-value, 500-seed sweep


def test_the_crossing_is_found_within_the_tolerance_on_a_known_curve():
    """200 simulated tunes of a logistic curve (target 80%, tolerance 0.1 of a key in 0..1,
    200 seeds a probe): the crossing within the tolerance in at least 95% (measured: all),
    each at most 40% of a five-value x 500-seed grid's games."""
    truth = 0.5 + 0.1 * np.log(0.25)
    hits, most = 0, 0
    for i in range(200):
        play = synthetic(logistic, 200, np.random.default_rng(i))
        s = tune(play, "k", 0.0, 1.0, 0.8, 200, int(0.4 * GRID), False, seed=i)
        hits += s.crossing is not None and abs(s.crossing - truth) <= s.tolerance
        most = max(most, s.games())
    assert hits >= 190 and most <= 0.4 * GRID


def runs_player(seeds, runs, spread, rng):
    """An adapted player of `runs` training runs: run r plays the logistic curve shifted by its
    own offset (normal, sd `spread` of the key), each (run, seed) its own paired dice."""
    u, offset = rng.random((runs, seeds)), rng.normal(0, spread, runs)
    return lambda x: Outcome.wins(u < logistic(x - offset)[:, None])


def test_the_crossing_s_interval_holds_the_spread_between_training_runs():
    """100 simulated tunes of a player whose training runs scatter (each run's curve shifted by
    a normal offset, sd 0.05: half the curve's own scale): with 3 runs a value the interval
    holds the mean curve's crossing in at least 90% (measured 98; 191 of 200); one run a
    value, whose interval holds the seeds' dice alone, in about half (measured 51)."""
    z = np.random.default_rng(99).normal(0, 1, 100_000)
    low, high = 0.0, 1.0
    for _ in range(50):  # the mean curve over the runs' offsets crosses 80% here
        mid = (low + high) / 2
        low, high = (mid, high) if logistic(mid - 0.05 * z).mean() > 0.8 else (low, mid)
    held = {}
    for runs in (1, 3):
        held[runs] = 0
        for i in range(100):
            play = runs_player(150, runs, 0.05, np.random.default_rng(i))
            s = tune(play, "k", 0.0, 1.0, 0.8, 150 * runs, 6 * 150 * runs, False, seed=i)
            held[runs] += s.interval is not None and s.interval[0] <= low <= s.interval[1]
            assert s.games() <= 6 * 150 * runs and all(o.runs == runs for o in s.probes.values())
    assert held[3] >= 90 and held[1] <= 70, held


def test_a_probe_of_several_runs_reports_each_run_and_the_t_interval_over_them():
    o = Outcome.wins([[1, 1, 1, 0], [1, 0, 1, 0], [1, 1, 1, 1]])  # 75%, 50%, 100%
    assert o.runs == 3 and o.games == 12 and o.run_rates() == [0.75, 0.5, 1.0]
    assert o.rate() == pytest.approx(0.75) and o.rate(np.array([1, 3]), np.array([0, 0])) == 0.5
    # t over 3 runs: 0.75 +- 4.303 * 0.25 / sqrt 3 = 0.129-1.371, kept inside [0, 1]
    assert o.interval() == pytest.approx((0.75 - 4.3027 * 0.25 / 3**0.5, 1.0), abs=1e-3)
    one = Outcome.wins([1, 1, 1, 0])
    assert one.runs == 1 and one.interval() == pytest.approx(wilson(3, 4))


def test_an_integer_key_ends_on_the_two_values_around_the_target():
    rates = {1: 0.97, 2: 0.93, 3: 0.86, 4: 0.70, 5: 0.55, 6: 0.40}
    found = 0
    for i in range(200):
        play = synthetic(lambda x: rates[x], 250, np.random.default_rng(i))
        s = tune(play, "band_size", 1, 6, 0.8, 250, int(0.4 * GRID), True, seed=i)
        assert s.games() <= 0.4 * GRID and all(isinstance(v, int) for v in s.probes)
        found += s.verdict == "found" and s.bracket == (3, 4)
    assert found >= 190
    assert s.tolerance == 1.0 and 3 <= s.crossing <= 4


def test_a_curve_that_dips_and_a_target_out_of_reach_are_said_plainly():
    dip = synthetic(lambda x: 0.95 - 0.5 * x if x < 0.6 else 0.65 + 0.8 * (x - 0.6), 300,
                    np.random.default_rng(0))  # fmt: skip
    s = tune(dip, "k", 0.0, 1.0, 0.8, 300, 3000, False)
    assert s.verdict == "not monotone" and "falls from" in s.note and "k=0.0 to" in s.note
    flat = synthetic(lambda x: 0.3 + 0.4 * x, 300, np.random.default_rng(0))
    s = tune(flat, "k", 0.0, 1.0, 0.9, 300, 3000, False)
    assert s.verdict == "outside" and s.crossing is None and sorted(s.probes) == [0.0, 0.5, 1.0]
    assert "outside the range" in s.note and "at k=0.0" in s.note and "at k=1.0" in s.note


def test_the_budget_stops_a_search_and_says_so():
    play = synthetic(logistic, 100, np.random.default_rng(3))
    s = tune(play, "k", 0.0, 1.0, 0.8, 100, 300, False, tolerance=0.01)
    assert s.verdict == "budget" and s.games() == 300 and "budget of 300" in s.note


def test_the_monotone_fit_and_the_crossing_by_hand():
    assert isotonic([0.9, 0.7, 0.8, 0.3], increasing=False) == pytest.approx([0.9, 0.75, 0.75, 0.3])
    assert isotonic([0.1, 0.3, 0.2], increasing=True) == pytest.approx([0.1, 0.25, 0.25])
    # log-odds halfway: 80% at 0 (logit 1.386), 20% at 1 (-1.386): 50% at 0.5
    assert cross([0, 1], np.array([0.8, 0.2]), 0.5, 100) == pytest.approx(0.5)
    # 90% at 0 (2.197), 50% at 2 (0): 80% (1.386) at 2 * (2.197 - 1.386) / 2.197 = 0.738
    assert cross([0, 2], np.array([0.9, 0.5]), 0.8, 100) == pytest.approx(0.7381, abs=1e-4)
    assert cross([0, 1], np.array([0.9, 0.85]), 0.5, 100) is None


def test_two_keys_map_the_target_s_contour_without_playing_the_whole_grid():
    """A rate falling in both keys, on 300 paired seeds: every cell whose side is said is on
    that side (its rate on the seeds, had it been played), and the contour is mapped playing
    well under the grid's 30 cells; with a cap, the rest are left unknown, never guessed."""
    grids = (grid_values(1, 6, True), grid_values(0.0, 1.0, False))
    assert grids == ([1, 2, 3, 4, 5, 6], [0.0, 0.25, 0.5, 0.75, 1.0])
    for seed in range(20):
        u = np.random.default_rng(seed).random(300)

        def rate(a, b, u=u):
            return u < 1 / (1 + np.exp(-(3 - 0.8 * a - 4 * b)))

        m = tune_map(lambda v, rate=rate: Outcome.wins(rate(*v)), ("band_size", "guard_chance"),
                     grids, 0.8, 30)  # fmt: skip
        assert m.verdict == "mapped" and len(m.side) == 30 and len(m.probes) <= 20
        for (i, j), above in m.side.items():
            assert above == (rate(grids[0][i], grids[1][j]).mean() >= 0.8)
        capped = tune_map(lambda v, rate=rate: Outcome.wins(rate(*v)), ("a", "b"), grids, 0.8, 8)
        assert capped.verdict == "cap" and len(capped.probes) == 8 and len(capped.side) < 30
        assert all(capped.side[c] == m.side[c] for c in capped.side)


def test_delve_tune_of_two_keys_writes_its_map(tmp_path):
    assert main(["tune", "--preset", "easy", "--set", "depth=2", "--key", "band_size", "--key",
                 "guard_chance", "--range", "1,3", "--target", "0.5", "--policy", "random",
                 "--seeds", "6", "--cap", "5", "--html-games", "0", "--no-progress", "--out",
                 str(tmp_path)]) == 0  # fmt: skip
    data = json.loads((tmp_path / "tune.json").read_text())
    assert data["keys"] == ["band_size", "guard_chance"] and data["grids"][0] == [1, 2, 3]
    assert data["played"] <= 5 and len(data["cells"]) == 3 * 5
    assert "out of reach" in (tmp_path / "tune.md").read_text()  # random wins nothing
    assert data["page"]["games"] == 0  # --html-games 0: the map's page holds no game
    assert "easy band_size=1 guard_chance=0.0" in (tmp_path / "tune.html").read_text()
    assert (tmp_path / "tune.png").stat().st_size > 0


def test_delve_tune_on_the_game_writes_its_report_and_resumes(tmp_path, monkeypatch, capsys):
    args = ["tune", "--preset", "easy", "--set", "depth=2", "--key", "band_size", "--target",
            "0.5", "--policy", "scripted", "--seeds", "6", "--workers", "1", "--confirm", "4",
            "--no-progress", "--out", str(tmp_path)]  # fmt: skip
    assert main(args) == 0
    first = capsys.readouterr().out
    data = json.loads((tmp_path / "tune.json").read_text())
    assert data["key"] == "band_size" and data["player"] == "scripted"
    assert data["probes"][0]["value"] == 1 and data["probes"][-1]["value"] == 6
    assert all(p["games"] == 6 for p in data["probes"])
    assert {r["seed"] for r in data["runs"] if r["value"] in (1, 6)} == set(range(1000, 1006))
    assert (tmp_path / "tune.png").stat().st_size > 0
    assert (tmp_path / "tune.md").read_text() == first
    assert "The hazard per floor" in first
    # tune.html holds, of every probe, up to 2 lost games and one won (all won: one a probe)
    assert data["page"]["games"] == len(data["probes"]) and (tmp_path / "tune.html").exists()
    if data["confirmation"]:  # fresh seeds, after the probes'
        assert data["confirmation"][0]["seeds"] == [1006, 4]
    # asked again, it plays nothing: every probe is kept under runs/
    monkeypatch.setattr(players_module, "play_run", lambda job: pytest.fail("a game was played"))
    assert main(args) == 0
    assert capsys.readouterr().out == first


def test_the_confirmation_keeps_its_games_apart_from_the_probes_so_a_tune_resumes(tmp_path,
                                                                               monkeypatch):  # fmt: skip
    """An integer key's confirmation plays a probed value again on fresh seeds: its games are
    kept under OUT/confirmation/, never over the probe's, so asked again nothing is played."""
    args = ["tune", "--preset", "easy", "--set", "depth=2", "--key", "band_size", "--target",
            "0.5", "--floor", "1", "--policy", "random", "--seeds", "8", "--confirm", "4",
            "--html-games", "0", "--no-progress", "--out", str(tmp_path)]  # fmt: skip
    assert main(args) == 0
    data = json.loads((tmp_path / "tune.json").read_text())
    assert data["bracket"] == [1, 2] and [c["value"] for c in data["confirmation"]] == [1, 2]
    probe = json.loads((tmp_path / "runs" / "easy_band_size=1" / "random.json").read_text())
    assert probe["key"]["seeds"] == [1000, 8]
    kept = tmp_path / "confirmation" / "runs" / "easy_band_size=1" / "random.json"
    assert json.loads(kept.read_text())["key"]["seeds"] == [1008, 4]
    monkeypatch.setattr("delve_env.policy.play", lambda *a, **k: pytest.fail("a game was played"))
    assert main(args) == 0


def test_a_floor_s_hazard_can_be_the_target(tmp_path):
    assert main(["tune", "--preset", "easy", "--set", "depth=2", "--key", "guard_chance",
                 "--target", "0.3", "--floor", "1", "--policy", "random", "--seeds", "8",
                 "--html-games", "0", "--no-progress", "--confirm", "0", "--out",
                 str(tmp_path)]) == 0  # fmt: skip
    data = json.loads((tmp_path / "tune.json").read_text())
    assert data["rate"] == "hazard on floor 1" and data["confirmation"] is None
    for p in data["probes"]:  # lost on floor 1 among the games that reached it
        runs = [r for r in data["runs"] if r["value"] == p["value"]]
        reached = [r for r in runs if r["deepest"] >= 1]
        lost = [r for r in reached if r["cause"] is not None and min(r["floor"], 2) == 1]
        assert p["counted"] == len(reached)
        assert p["rate %"] == pytest.approx(100 * len(lost) / len(reached))


def test_the_adapted_player_is_warm_started_from_the_nearest_value(tmp_path, monkeypatch):
    """Each value's training runs (--adapt-runs 2: training seeds 0 and 1): the first value's
    from the shipped policy, each later value's run i from run i of the nearest value."""
    from training import adapt

    calls = []
    real = adapt.adapted

    def spy(name, config, steps, root, seed=0, on_update=None, init=None):
        calls.append((config["guard_chance"], steps, seed, init))
        return real(name, config, steps, root, seed, on_update, init)

    monkeypatch.setattr(adapt, "adapted", spy)
    assert main(["tune", "--preset", "easy", "--set", "depth=2", "--key", "guard_chance",
                 "--target", "0.99", "--policy", "adapted", "--adapt", "2048", "--adapt-runs",
                 "2", "--seeds", "4", "--budget", "24", "--confirm", "0", "--no-progress",
                 "--out", str(tmp_path)]) == 0  # fmt: skip
    assert calls[:2] == [(0.0, 2048, 0, None), (0.0, 2048, 1, None)]  # from the shipped policy
    assert [c[:3] for c in calls[2:4]] == [(1.0, 1024, 0), (1.0, 1024, 1)]
    run0, run1 = calls[2][3].parent, calls[3][3].parent
    assert run0 != run1 and run0.name.startswith("easy_guard")
    # the middle: from the nearest adapted value (0.0 and 1.0 tie: the first adapted)
    assert calls[4:] == [(0.5, 1024, 0, calls[2][3]), (0.5, 1024, 1, calls[3][3])]
    for run, folder in enumerate((run0, run1)):
        record = json.loads((folder / "adapt.json").read_text())
        assert record["key"]["config"]["guard_chance"] == 0.0 and record["key"]["seed"] == run
    data = json.loads((tmp_path / "tune.json").read_text())
    assert data["adapt_runs"] == 2 and all(p["games"] == 8 for p in data["probes"])
    for p in data["probes"]:  # each run's rate on the probe's seeds, their mean the rate
        games = [r for r in data["runs"] if r["value"] == p["value"]]
        assert sorted({r["run"] for r in games}) == [0, 1]
        each = [100 * np.mean([r["won"] for r in games if r["run"] == i]) for i in (0, 1)]
        assert p["runs %"] == pytest.approx(each) and p["rate %"] == pytest.approx(np.mean(each))
    assert "each run %" in (tmp_path / "tune.md").read_text()


@pytest.mark.fast
@pytest.mark.parametrize("args, says", [
    (["--key", "band_sise"], "--key 'band_sise'"),
    (["--key", "band_size", "--range", "0,3"], "band_size"),
    (["--key", "band_size", "--range", "3,3"], "LO must be below HI"),
    (["--key", "band_size", "--range", "3"], "LO,HI"),
    (["--key", "guard_chance", "--target", "1.2"], "--target"),
    (["--key", "guard_chance", "--target", "0"], "--target"),
    (["--key", "guard_chance", "--budget", "5"], "--budget"),
    (["--key", "guard_chance", "--policy", "ladder"], "one rung"),
    (["--key", "guard_chance", "--policy", "ladder 50%"], "ladder 40%"),
    (["--key", "guard_chance", "--policy", "expert"], "--policy 'expert'"),
    (["--key", "guard_chance", "--policy", "model:no/such.zip"], "no/such.zip"),
    (["--key", "guard_chance", "--floor", "7"], "--floor"),
    (["--key", "depth", "--range", "2,6", "--floor", "3"], "--floor"),
    (["--key", "max_steps"], "--range"),
    (["--key", "guard_chance", "--tolerance", "2"], "--tolerance"),
    (["--key", "guard_chance", "--set", "guard_chance=0.2"], "cannot also be set"),
    (["--key", "guard_chance", "--seeds", "0"], "--seeds"),
    (["--key", "guard_chance", "--html-games", "-1"], "--html-games"),
    (["--key", "guard_chance", "--policy", "adapted", "--adapt", "0"], "--adapt"),
    (["--key", "guard_chance", "--policy", "adapted", "--adapt-runs", "0"], "--adapt-runs"),
    (["--key", "guard_chance", "--policy", "adapted", "--seeds", "10", "--budget", "60"],
     "--adapt-runs 3"),
    (["--key", "guard_chance", "--preset-file", "no/such.json"], "--preset-file"),
    (["--key", "guard_chance", "--key", "guard_chance"], "two different keys"),
    (["--key", "a", "--key", "b", "--key", "c"], "two different keys"),
    (["--key", "guard_chance", "--key", "band_size", "--cap", "3"], "--cap"),
    (["--key", "guard_chance", "--range", "0,1", "--range", "0,1"], "one per --key"),
])  # fmt: skip
def test_bad_input_is_refused_before_any_game(args, says, capsys, monkeypatch, tmp_path):
    monkeypatch.setattr(players_module, "play_run", lambda job: pytest.fail("a game was played"))
    monkeypatch.setattr("delve_env.policy.play", lambda *a, **k: pytest.fail("a game was played"))
    assert main(["tune", "--target", "0.8", *args, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


@pytest.mark.fast
def test_an_output_folder_that_cannot_be_written_is_refused_before_any_game(tmp_path, capsys,
                                                                           monkeypatch):  # fmt: skip
    monkeypatch.setattr(players_module, "play_run", lambda job: pytest.fail("a game was played"))
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["tune", "--key", "guard_chance", "--target", "0.5", "--out",
                 str(blocker / "out")]) == 2  # fmt: skip
    assert "--out" in capsys.readouterr().err


def test_a_value_played_again_plays_the_policy_adapted_for_it(tmp_path, monkeypatch):
    """The confirmation plays the value found with the policies adapted for it when it was
    probed, never a further adaptation of them."""
    from types import SimpleNamespace

    from delve_env.tools.playtest.tune import Prober, player_of
    from training import adapt

    calls = []

    def fake(name, config, steps, root, seed=0, on_update=None, init=None):
        calls.append((config["band_size"], seed, init))
        return tmp_path / f"adapted-{config['band_size']}-{seed}"

    monkeypatch.setattr(adapt, "adapted", fake)
    args = SimpleNamespace(adapt=100, warm_steps=None, out=tmp_path, workers=1, seeds=1,
                           first_seed=0, floor=None, no_progress=True, adapt_runs=2)  # fmt: skip
    base = playtest_preset()
    prober = Prober(args, {"base": base, "keys": ["band_size"], "spans": [(True, 1, 6)],
                           "player": player_of("adapted")}, {})  # fmt: skip
    prober.policy(2)
    prober.policy(3)
    assert prober.adapted[3] == [tmp_path / "adapted-3-0", tmp_path / "adapted-3-1"]
    prober.policy(2)
    assert calls == [(2, 0, None), (2, 1, None),
                     (3, 0, tmp_path / "adapted-2-0" / "model.zip"),
                     (3, 1, tmp_path / "adapted-2-1" / "model.zip")]  # fmt: skip


def playtest_preset():
    from delve_env.tools.playtest.variants import Preset

    return Preset("easy", {"difficulty": "easy", "depth": 2})
