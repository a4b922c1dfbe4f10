"""Replays (delve_env/tools/replay.py, `delve record` / `delve replay`): a game recorded in one
process replays byte-identically in another, and a tampered one fails at the changed step."""

import json
import subprocess
import sys

import numpy as np
import pytest

from delve_env.tools import replay
from delve_env.tools.cli import main


def random_policy(seed):
    rng = np.random.default_rng(seed)
    return lambda env, info: int(rng.choice(np.flatnonzero(info["action_mask"])))


@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """A random-legal game of 300 steps, recorded in another Python process."""
    path = tmp_path_factory.mktemp("replay") / "game.json"
    code = ("import sys; from delve_env.tools.cli import main; "
            "sys.exit(main(['record', '--agent', 'random', '--seed', '7', '--steps', '300', "
            f"'--difficulty', 'easy', '--out', {str(path)!r}]))")  # fmt: skip
    subprocess.run([sys.executable, "-c", code], check=True, capture_output=True)
    return path


def test_replay_recorded_in_another_process_matches_every_step(recorded, capsys):
    data = replay.load(recorded)
    assert len(data["actions"]) == 300 and len(data["hashes"]) == 301
    assert replay.replay(data).ok
    assert main(["replay", str(recorded)]) == 0
    assert "every state hash matches" in capsys.readouterr().out


def test_replay_of_a_tampered_action_fails_at_that_step(recorded, tmp_path, capsys):
    data = replay.load(recorded)
    k = 120  # change the 120th action to another legal one
    env_actions = []
    verdict = replay.replay(
        data, lambda env, step, a: env_actions.append(env.action_masks().copy())
    )
    assert verdict.ok
    legal = np.flatnonzero(env_actions[k - 2])  # the mask the 120th action was chosen from
    data["actions"][k - 1] = int(next(a for a in legal if a != data["actions"][k - 1]))
    verdict = replay.replay(data)
    assert not verdict.ok and verdict.bad_step == k and verdict.steps == k - 1
    bad = tmp_path / "tampered.json"
    replay.save(data, bad)
    assert main(["replay", str(bad)]) == 1
    assert "FAILED at step 120" in capsys.readouterr().err


def test_replay_of_a_tampered_hash_or_seed_fails_where_it_differs(recorded):
    data = replay.load(recorded)
    data["hashes"][55] = "0" * 32
    assert replay.replay(data).bad_step == 55
    data = replay.load(recorded)
    data["seed"] += 1
    assert replay.replay(data).bad_step == 0


def test_replay_records_in_process_the_same_as_another_process(recorded):
    data = replay.load(recorded)
    actions = iter(data["actions"])
    again = replay.record({"difficulty": "easy"}, 7, lambda env, info: next(actions), max_steps=300)
    assert again == data


def test_replay_load_rejects_what_is_not_a_replay(tmp_path):
    path = tmp_path / "x.json"
    path.write_text(json.dumps({"format": "something else"}))
    with pytest.raises(ValueError, match="not a replay file"):
        replay.load(path)
    path.write_text("{")
    with pytest.raises(ValueError, match="not JSON"):
        replay.load(path)
    path.write_text(json.dumps({"format": "delve-replay", "version": 1, "config": {},
                                "seed": 1, "actions": [1], "hashes": []}))  # fmt: skip
    with pytest.raises(ValueError, match="one hash per step"):
        replay.load(path)
    assert main(["replay", str(path)]) == 2


def test_record_takes_every_player_and_refuses_a_bad_one_in_a_line(tmp_path, capsys):
    """`delve record --agent` plays any player of `delve playtest`; a file that is not a
    policy and an output folder that does not exist are refused before any game."""
    from delve_env.policy import shipped_path
    from delve_env.tools.cli import main

    for agent in ("fog", f"model:{shipped_path('easy')}", f"sampled:{shipped_path('easy')}"):
        out = tmp_path / "game.json"
        assert main(["record", "--agent", agent, "--difficulty", "easy", "--depth", "2",
                     "--steps", "40", "--out", str(out)]) == 0  # fmt: skip
        assert agent in capsys.readouterr().out
        assert main(["replay", str(out)]) == 0
    bad = tmp_path / "bad.zip"
    bad.write_text("not a zip")
    for args, says in ((["--agent", f"model:{bad}"], "not a Delve policy file"),
                       (["--out", str(tmp_path / "no" / "such" / "x.json")], "no such folder")):  # fmt: skip
        argv = ["record", "--out", str(tmp_path / "x.json"), *args]
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert says in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x.json").exists()


def test_replay_html_writes_a_page_and_refuses_a_changed_game(tmp_path, capsys):
    import json

    from delve_env.tools.cli import main

    game = tmp_path / "game.json"
    assert main(["record", "--agent", "random", "--difficulty", "easy", "--depth", "2",
                 "--steps", "30", "--out", str(game)]) == 0  # fmt: skip
    page = tmp_path / "game.html"
    assert main(["replay", str(game), "--html", str(page)]) == 0
    text = page.read_text()
    assert text.startswith("<!doctype html>") and "http" not in text.replace("http-equiv", "")
    assert '"steps":[' in text and text.count("data:image/png;base64,") == 1
    data = json.loads(game.read_text())
    data["actions"][5] = (data["actions"][5] + 1) % 257  # a different game from step 6
    game.write_text(json.dumps(data))
    assert main(["replay", str(game), "--html", str(tmp_path / "changed.html")]) == 1
    assert "differs from this Delve at step 6" in capsys.readouterr().err
    assert not (tmp_path / "changed.html").exists()
