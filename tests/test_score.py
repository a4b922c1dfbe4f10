"""Achievements and the Delve score (delve_env/score.py): each achievement read off the state
it names, none a loss, the score's formula against worked numbers, its bootstrap interval, and
the figures `delve eval --json` and a playtest row report."""

import json
import math

import numpy as np
import pytest

from delve_env.engine.core.tables import EV_BOOK, EV_KILL, EV_SECRET
from delve_env.env import DelveEnv
from delve_env.score import ACHIEVEMENTS, NAMES, achievements, delve_score, score


def test_the_score_is_crafter_s_formula_by_hand():
    # two achievements at 100% and 0%: exp((ln 101 + ln 1) / 2) - 1 = sqrt(101) - 1
    assert delve_score([100.0, 0.0]) == pytest.approx(math.sqrt(101) - 1)
    assert delve_score([50.0] * 20) == pytest.approx(50.0)
    assert delve_score([0.0] * 20) == 0.0 and delve_score([100.0] * 20) == pytest.approx(100.0)
    # Crafter's own reading: a geometric mean rewards the rare achievements; 10% of one and
    # 90% of another score under their arithmetic mean of 50
    assert delve_score([10.0, 90.0]) == pytest.approx(math.sqrt(11 * 91) - 1)
    assert delve_score([10.0, 90.0]) < 50


def test_the_score_s_interval_is_a_bootstrap_over_episodes():
    every = [list(NAMES)] * 10
    got = score(every)
    assert got["score"] == pytest.approx(100.0) and got["interval"] == pytest.approx((100, 100))
    half = [list(NAMES)] * 50 + [[]] * 50  # every achievement in half the episodes
    got = score(half)
    assert got["score"] == pytest.approx(50.0)
    assert got["interval"][0] < 50 < got["interval"][1]
    assert all(r == 50.0 for r in got["rates"].values())
    wide = score([list(NAMES)] * 5 + [[]] * 5)["interval"]
    assert wide[1] - wide[0] > got["interval"][1] - got["interval"][0]  # fewer episodes, wider
    with pytest.raises(ValueError, match="at least one episode"):
        score([])


def test_no_achievement_is_a_loss_and_each_names_a_rule():
    for name, rule, meaning, _ in ACHIEVEMENTS:
        assert not any(w in name for w in ("lost", "death", "hunger", "bite", "drain", "wound"))
        assert rule.split("-")[0].isupper() and rule.split("-")[1].isdigit(), name
        assert meaning
    assert len(set(NAMES)) == len(NAMES) == 20


# what sets each achievement on a fresh game's state, and the others it implies
SETS = {
    "enter the dungeon": (lambda s: s.stat_deepest.__setitem__(0, 1), ()),
    "reach floor 2": (lambda s: s.stat_deepest.__setitem__(0, 2), ("enter the dungeon",)),
    "reach the book's floor": (
        lambda s: s.stat_deepest.__setitem__(0, s.book_floor[0]),
        ("enter the dungeon", "reach floor 2"),
    ),
    "reach the bottom": (
        lambda s: s.stat_deepest.__setitem__(0, s.floor_visited.shape[1] - 1),
        ("enter the dungeon", "reach floor 2", "reach the book's floor"),
    ),
    "find a map": (lambda s: s.maps_held.__setitem__(0, 1 << 2), ()),
    "find a page": (lambda s: s.achieved.__setitem__(0, 1 << 7), ()),
    "take the book": (lambda s: s.achieved.__setitem__(0, EV_BOOK), ()),
    "first kill": (lambda s: s.achieved.__setitem__(0, EV_KILL), ()),
    "find a secret door": (lambda s: s.achieved.__setitem__(0, EV_SECRET), ()),
    "sneak into a room": (lambda s: s.stat_sneaks.__setitem__(0, 1), ()),
    "open a chest": (lambda s: s.stat_chests.__setitem__(0, 2), ()),
    "buy at a store": (lambda s: s.stat_bought.__setitem__(0, 1), ()),
    "use a power": (lambda s: s.stat_casts.__setitem__(0, 3), ()),
    "the king home": (lambda s: s.outcome.__setitem__(0, 1), ()),
}


@pytest.mark.parametrize("name", list(SETS))
def test_each_achievement_reads_the_state_its_rule_names(name):
    env = DelveEnv(difficulty="normal")
    env.reset(seed=5)
    s = env.engine.state
    assert achievements(s, 0) == []  # a new game has reached nothing
    setter, implied = SETS[name]
    setter(s)
    assert set(achievements(s, 0)) == {name, *implied}


def test_the_book_home_needs_the_win_and_the_book():
    env = DelveEnv(difficulty="easy")
    env.reset(seed=1)
    s = env.engine.state
    s.has_book[0] = True
    assert "the book home" not in achievements(s, 0)
    s.outcome[0] = 1
    assert {"the book home", "the king home"} <= set(achievements(s, 0))
    s.outcome[0] = -1  # a loss, book in hand: neither
    assert not {"the book home", "the king home"} & set(achievements(s, 0))


def test_a_whole_game_reports_its_achievements_and_events_apart():
    from agents.scripted import ScriptedAgent

    env = DelveEnv(difficulty="easy", depth=2)
    agent = ScriptedAgent()
    env.reset(seed=2)
    done = False
    while not done:
        _, _, terminated, truncated, info = env.step(agent.act(env))
        done = terminated or truncated
    stats = info["episode_stats"]
    assert stats["won"] and "the king home" in stats["achievements"]
    assert "won" in stats["events"] and "won" not in stats["achievements"]
    assert set(stats["achievements"]) <= set(NAMES)


def test_delve_eval_json_has_the_score_and_the_protocol_s_figures(capsys):
    from training.evaluate import main

    assert main(["Delve-Easy-v0", "--agent", "random", "--episodes", "4", "--depth", "2",
                 "--json"]) == 0  # fmt: skip
    r = json.loads(capsys.readouterr().out)
    assert (r["id"], r["version"], r["seeds"], r["episodes"]) == (
        "Delve-Easy-v0",
        "v0",
        [1000, 4],
        4,
    )
    for key in ("win_rate", "win_low", "win_high", "score", "score_low", "score_high",
                "deepest_floor"):  # fmt: skip
        assert isinstance(r[key], float), key
    assert set(r["achievements"]) == set(NAMES) and r["score_low"] <= r["score"] <= r["score_high"]


def test_a_playtest_row_has_the_score_of_its_games():
    from delve_env.tools import playtest

    presets = playtest.standard_presets(("easy",), depth=2)
    runs = playtest.play_all(presets, ["scripted"], range(3), workers=1, progress=False)
    (row,) = playtest.summarize(runs)
    expected = score([r["achievements"] for r in runs])
    assert row["score"] == pytest.approx(expected["score"])
    assert row["score"] > 0
    assert row["score interval"] == pytest.approx(expected["interval"])
    assert np.isfinite(row["score"])


def test_observation_doc_lists_the_achievements():
    from pathlib import Path

    from delve_env.score import markdown

    page = (Path(__file__).resolve().parents[1] / "docs" / "OBSERVATION.md").read_text()
    assert markdown() in page, "paste delve_env.score.markdown() into docs/OBSERVATION.md"
