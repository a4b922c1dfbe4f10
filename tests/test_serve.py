"""`delve serve` (delve_env/ui/serve.py): a person's game in the browser, kept as a replay
that `delve replay` verifies; bad requests answered with an error that changes nothing; the
server on loopback unless told otherwise. Requests go to 127.0.0.1 only."""

import json
import threading
import urllib.error
import urllib.request

import pytest

from delve_env.tools import replay
from delve_env.ui.serve import serve


@pytest.fixture
def server(tmp_path):
    srv = serve({"difficulty": "easy", "depth": 2}, tmp_path, "127.0.0.1", 0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield srv, f"http://127.0.0.1:{srv.server_address[1]}", tmp_path
    srv.shutdown()
    srv.server_close()


def post(url: str, body) -> tuple[int, dict]:
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data, method="POST")) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def test_the_server_binds_to_loopback_by_default(tmp_path):
    srv = serve({"difficulty": "easy"}, tmp_path, port=0)
    assert srv.server_address[0] == "127.0.0.1"
    srv.server_close()


def test_a_game_played_by_keys_is_kept_as_a_replay_that_verifies(server):
    _, url, out = server
    status, view = post(f"{url}/api/new", {"seed": 7})
    assert status == 200 and view["steps"] == 0 and view["frame"].startswith("data:image/png")
    game = view["game"]
    for key in (">", "o", "o", "o", "z"):
        status, view = post(f"{url}/api/key", {"game": game, "key": key})
        assert status == 200
    data = replay.load(out / view["replay"])
    assert data["player"] == "human" and data["seed"] == 7
    assert len(data["actions"]) == view["steps"] >= 2
    assert replay.replay(data).ok


def test_bad_requests_get_an_error_and_change_nothing(server):
    _, url, out = server
    _, view = post(f"{url}/api/new", {"seed": 1})
    game, path = view["game"], out / view["replay"]
    kept = path.read_text()
    for body, code, says in ((b"{not json", 400, "malformed"), (b"[1, 2]", 400, "JSON object"),
                             ({"game": "game-0-stale", "key": "o"}, 404, "no game"),
                             ({"game": game, "key": "F13"}, 400, "key 'F13'"),
                             ({"game": game}, 400, "key None")):  # fmt: skip
        status, answer = post(f"{url}/api/key", body)
        assert (status, says in answer["error"]) == (code, True), (body, answer)
    assert post(f"{url}/api/new", {"seed": -1})[0] == 400
    assert post(f"{url}/api/nothing", {})[0] == 404
    # a key whose action is masked: refused in the game's log, with why, and nothing taken
    status, view = post(f"{url}/api/key", {"game": game, "key": "U"})
    assert status == 200 and "Not now (travel to the stair up):" in view["text"]
    assert view["steps"] == 0 and path.read_text() == kept


@pytest.mark.browser
def test_keys_pressed_in_the_page_play_a_game_delve_replay_verifies(server):
    import shutil

    chromium = shutil.which("chromium")
    if chromium is None:
        pytest.skip("no Chromium installed (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    from delve_env.tools.cli import main

    _, url, out = server
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page()
        errors = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(f"{url}/?seed=5")
        page.evaluate("window.delveReady")
        page.keyboard.press("U")  # masked in the courtyard: why, and nothing taken
        page.evaluate("window.delveIdle()")
        assert "Not now" in page.locator("#text").text_content()
        for key in (">", "o", "o", "ArrowRight", "z"):
            page.keyboard.press(key)
        page.evaluate("window.delveIdle()")
        steps = page.locator("#steps").text_content()
        browser.close()
    (path,) = out.glob("*.json")
    data = replay.load(path)
    assert f"step {len(data['actions'])}" in steps and len(data["actions"]) >= 2
    assert main(["replay", str(path)]) == 0 and errors == []


def test_playtest_sets_a_person_s_games_beside_the_agents(tmp_path, capsys):
    """`delve playtest --human DIR`: each finished game in DIR counts for the preset it plays
    (here games of the scripted expert's actions, kept as `delve serve` keeps a person's):
    the human row is the scripted row on the same seeds, the variant is paired with its base
    on the seeds both were played on, and an unfinished game or one of no preset is left out
    with a line saying so."""
    from agents.scripted import ScriptedAgent
    from delve_env.tools.cli import main

    people = tmp_path / "people"
    people.mkdir()
    agent = ScriptedAgent()
    for config, seeds in (({"difficulty": "easy", "depth": 2}, (0, 1, 2)),
                          ({"difficulty": "easy", "depth": 2, "band_size": 4}, (1, 2))):  # fmt: skip
        for seed in seeds:
            rec = replay.record(config, seed, lambda env, info: agent.act(env))
            replay.save({**rec, "player": "human"}, people / f"{len(config)}-{seed}.json")
    unfinished = replay.record(
        {"difficulty": "easy", "depth": 2}, 5, lambda env, info: agent.act(env), 10
    )
    replay.save(unfinished, people / "unfinished.json")
    elsewhere = replay.record(
        {"difficulty": "hard", "depth": 2}, 5, lambda env, info: agent.act(env), 3
    )
    replay.save(elsewhere, people / "elsewhere.json")
    out = tmp_path / "out"
    assert main(["playtest", "--presets", "easy", "--depth", "2", "--sweep", "band_size=2,4",
                 "--policy", "scripted", "--seeds", "3", "--first-seed", "0", "--workers", "1",
                 "--human", str(people), "--html-games", "1", "--no-progress", "--out",
                 str(out)]) == 0  # fmt: skip
    err = capsys.readouterr().err
    assert "left out unfinished.json: not finished (10 steps)" in err
    assert "left out elsewhere.json: a game of no preset of this playtest" in err
    data = json.loads((out / "playtest.json").read_text())
    rows = {(r["preset"], r["policy"]): r for r in data["rows"]}
    assert rows[("easy", "human")]["runs"] == 3 and rows[("easy band_size=4", "human")]["runs"] == 2
    for key in ("win %", "deepest", "paces", "score"):
        assert rows[("easy", "human")][key] == rows[("easy", "scripted")][key]
    (human,) = [c for c in data["comparisons"] if c["policy"] == "human"]
    assert sum(human["table"]) == 2  # seeds 1 and 2: played on both
    assert "human" in data["players"]
    page = (out / "playtest.html").read_text()
    assert page.count('"policy":"human"') >= 1  # a person's game held, from its own replay
