"""The replay page in a real browser: Debian's Chromium driven by Playwright (never a
downloaded browser), the page opened from disk. Skipped, with the reason, where no Chromium is
installed; CI installs it (.ci/run)."""

import base64
import json
import os
import shutil

import numpy as np
import pytest

from delve_env.engine.core.actions import ACTION_NAMES
from delve_env.env import DelveEnv
from delve_env.fightlog import line
from delve_env.tools import replay
from delve_env.tools.cli import main
from delve_env.tools.playtest.players import LOSS_CAUSES

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(CHROMIUM is None, reason="no Chromium installed (apt-get install chromium)"),
]

PIXELS = """() => {
  const c = document.getElementById("frame");
  const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
  let s = "";
  for (let i = 0; i < d.length; i += 4) s += String.fromCharCode(d[i], d[i + 1], d[i + 2]);
  return btoa(s);
}"""


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A whole scripted game of easy at depth 2 with a fight in it, and its page."""
    folder = tmp_path_factory.mktemp("page")
    rec = replay.record({"difficulty": "easy", "depth": 2}, 4, _scripted())
    path = folder / "game.json"
    replay.save(rec, path)
    assert main(["replay", str(path), "--html", str(folder / "game.html")]) == 0
    return rec, folder / "game.html"


def _scripted():
    from agents.scripted import ScriptedAgent

    agent = ScriptedAgent()
    return lambda env, info: agent.act(env)


@pytest.fixture(scope="module")
def browser():
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def open_page(browser, path):
    """The page from file://, with every console error, page error and request past the
    file itself recorded."""
    page = browser.new_page()
    seen = {"errors": [], "requests": []}
    page.on("console", lambda m: seen["errors"].append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: seen["errors"].append(str(e)))

    def route(r):
        url = r.request.url
        if url.startswith(("file:", "data:")):
            return r.continue_()
        seen["requests"].append(url)
        return r.abort()

    page.route("**/*", route)
    page.goto(path.as_uri())
    page.evaluate("window.delveReady")
    return page, seen


def frames_at(rec, steps):
    env = DelveEnv(**{**rec["config"], "party": tuple(rec["config"]["party"])},
                   render_mode="rgb_array")  # fmt: skip
    env.reset(seed=rec["seed"])
    out = {0: env.render()} if 0 in steps else {}
    for k, a in enumerate(rec["actions"], start=1):
        env.step(a)
        if k in steps:
            out[k] = env.render()
    return out


def test_the_page_draws_every_step_as_rgb_array_does(browser, game):
    rec, path = game
    page, seen = open_page(browser, path)
    last = len(rec["actions"])
    steps = (0, last // 2, last, 1, last - 1)  # seeks forward, back and step by step
    frames = frames_at(rec, set(steps))
    for k in steps:
        page.evaluate(f"show({k})")
        got = np.frombuffer(base64.b64decode(page.evaluate(PIXELS)), dtype=np.uint8)
        assert np.array_equal(got.reshape(frames[k].shape), frames[k]), f"step {k}"
        words = page.locator("#words").text_content()
        assert words.startswith(
            f"action: {ACTION_NAMES[rec['actions'][k - 1]]}" if k else "the start"
        )
    assert seen == {"errors": [], "requests": []}


def test_the_fight_log_the_end_and_the_controls(browser, game):
    rec, path = game
    page, seen = open_page(browser, path)
    env = DelveEnv(**{**rec["config"], "party": tuple(rec["config"]["party"])}, fight_log=True)
    env.reset(seed=rec["seed"])
    logged = None
    for k, a in enumerate(rec["actions"], start=1):
        _, _, _, _, info = env.step(a)
        if info.get("log") and logged is None:
            logged = (k, line(info["log"][-1]))
    assert logged is not None, "the game has a fight"
    page.evaluate(f"show({logged[0]})")
    assert page.locator("#words").text_content().endswith(logged[1])
    last = len(rec["actions"])
    page.evaluate(f"show({last})")
    assert "won" in page.locator("#words").text_content()
    # the slider, the arrow keys and play move the step
    page.eval_on_selector("#slider", "e => { e.value = 5; e.dispatchEvent(new Event('input')); }")
    assert page.locator("#at").text_content() == f"step 5 / {last}"
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowLeft")
    assert page.locator("#at").text_content() == f"step 6 / {last}"
    page.select_option("#speed", "30")
    page.click("#play")
    page.wait_for_function("Number(document.getElementById('slider').value) > 10")
    page.keyboard.press(" ")  # pause
    at = page.locator("#at").text_content()
    page.wait_for_timeout(200)
    assert page.locator("#at").text_content() == at
    assert seen == {"errors": [], "requests": []}


@pytest.fixture(scope="module")
def playtest_page(tmp_path_factory):
    """A small sweep's playtest.html: two values, the scripted expert and random."""
    out = tmp_path_factory.mktemp("playtest")
    assert main(["playtest", "--presets", "easy", "--depth", "2", "--sweep", "band_size=2,5",
                 "--policy", "scripted", "--policy", "random", "--seeds", "6", "--workers", "1",
                 "--html-games", "1", "--no-progress", "--out", str(out)]) == 0  # fmt: skip
    return json.loads((out / "playtest.json").read_text()), out / "playtest.html"


def test_playtest_html_charts_hold_the_json_s_numbers_and_its_games_replay(browser,
                                                                          playtest_page):  # fmt: skip
    data, path = playtest_page
    page, seen = open_page(browser, path)
    marks = page.eval_on_selector_all(
        "#wins circle[data-win]", "ms => ms.map(m => [m.dataset.preset, m.dataset.policy, "
        "Number(m.dataset.win), Number(m.dataset.low), Number(m.dataset.high)])")  # fmt: skip
    assert marks == [
        [r["preset"], r["policy"], r["win %"], *r["95% interval"]] for r in data["rows"]
    ]
    hazards = page.eval_on_selector_all(
        "#hazard circle", "ms => ms.map(m => [m.dataset.preset, m.dataset.policy, "
        "Number(m.dataset.floor), Number(m.dataset.hazard)])")  # fmt: skip
    assert sorted(hazards) == sorted([h["preset"], h["policy"], f["floor"], f["hazard %"]]
                                     for h in data["hazard"] for f in h["floors"])  # fmt: skip
    lost = page.eval_on_selector_all("#causes rect[data-lost]", "ms => ms.map(m => "
                                     "[m.dataset.preset, m.dataset.policy, m.dataset.cause, "
                                     "Number(m.dataset.lost)])")  # fmt: skip
    assert sorted(lost) == sorted([r["preset"], r["policy"], c, r[f"lost: {c}"]]
                                  for r in data["rows"] for c in LOSS_CAUSES)  # fmt: skip
    # a click on a mark lists that row's held games; a click on one plays it
    page.click("#wins circle[data-policy='random']")
    listed = page.locator("#chosen").text_content()
    assert listed.startswith("easy, random:") and "scripted" not in listed
    page.click("#chosen a")
    game = page.evaluate("G.seed"), page.evaluate("G.policy"), page.evaluate("G.preset")
    run = next(r for r in data["runs"] if (r["seed"], r["policy"], r["preset"]) == game)
    assert not run["won"] and page.evaluate("G.end.cause") == run["cause"]
    # the scripted expert's held game, drawn as rgb_array draws it at its start, middle, end
    index = page.evaluate("DATA.games.findIndex(g => g.policy === 'scripted')")
    page.evaluate(f"load({index})")
    preset = page.evaluate("G.preset")
    config = next(p["config"] for p in data["presets"] if p["name"] == preset)
    rec = replay.record(config, page.evaluate("G.seed"), _scripted())
    last = len(rec["actions"])
    frames = frames_at(rec, {0, last // 2, last})
    for k in (last // 2, 0, last):
        page.evaluate(f"show({k})")
        got = np.frombuffer(base64.b64decode(page.evaluate(PIXELS)), dtype=np.uint8)
        assert np.array_equal(got.reshape(frames[k].shape), frames[k]), f"step {k}"
    # a table sorts by the column clicked
    page.click("table.sortable th:has-text('win %')")
    wins = page.eval_on_selector_all("table.sortable >> nth=0 >> tbody tr td:nth-child(4)",
                                     "cs => cs.map(c => Number(c.textContent))")  # fmt: skip
    assert wins == sorted(wins)
    assert seen == {"errors": [], "requests": []}
    shots = os.environ.get("DELVE_SCREENSHOTS")  # the docs' pictures, made by this run
    if shots:
        page.set_viewport_size({"width": 1180, "height": 900})
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=f"{shots}/playtest-charts.png")
        fight = page.evaluate("""(() => { for (let i = 0; i < DATA.games.length; i++) {
            const k = DATA.games[i].steps.findIndex(s => s.log.length > 0);
            if (k > 0) return [i, k]; } return null; })()""")
        page.evaluate(f"load({fight[0]}).then(() => show({fight[1]}))")
        page.locator("#player").screenshot(path=f"{shots}/playtest-replay.png")


@pytest.fixture(scope="module")
def tune_page(tmp_path_factory):
    """A small tune's tune.html: the scripted expert's win rate against max_steps."""
    out = tmp_path_factory.mktemp("tune")
    assert main(["tune", "--preset", "easy", "--set", "depth=2", "--key", "max_steps", "--range",
                 "100,600", "--target", "0.5", "--policy", "scripted", "--seeds", "6",
                 "--workers", "1", "--confirm", "0", "--html-games", "1", "--no-progress",
                 "--out", str(out)]) == 0  # fmt: skip
    return json.loads((out / "tune.json").read_text()), out / "tune.html"


def test_tune_html_draws_the_probes_the_target_and_the_crossing_and_replays_their_games(
        browser, tune_page):  # fmt: skip
    data, path = tune_page
    page, seen = open_page(browser, path)
    assert page.locator("h1").text_content() == (path.parent / "tune.md").read_text() \
        .splitlines()[0].lstrip("# ")  # fmt: skip
    probes = page.eval_on_selector_all(
        "#wins circle[data-rate]", "ms => ms.map(m => [Number(m.dataset.value), "
        "Number(m.dataset.rate), Number(m.dataset.low), Number(m.dataset.high)])")  # fmt: skip
    assert probes == [[p["value"], p["rate %"], *p["95% interval"]] for p in data["probes"]]
    # the target's line lies at the target's height, the crossing's band over its interval
    y = page.evaluate("""(() => { const t = document.querySelector('#wins line.target');
        const svg = t.ownerSVGElement, dots = [...svg.querySelectorAll('circle[data-rate]')];
        const a = dots.find(d => Number(d.dataset.rate) === 0);
        const b = dots.find(d => Number(d.dataset.rate) === 100) || dots[dots.length - 1];
        return [Number(t.getAttribute('y1')), Number(a.getAttribute('cy')),
                Number(b.getAttribute('cy')), Number(b.dataset.rate)]; })()""")
    target_y, zero_y, other_y, other = y
    assert target_y == pytest.approx(zero_y + (other_y - zero_y) * data["target %"] / other)
    band = page.eval_on_selector("#wins rect.crossing", "r => [Number(r.getAttribute('x')), "
                                 "Number(r.getAttribute('width'))]")  # fmt: skip
    xs = page.eval_on_selector_all("#wins circle[data-rate]", "ms => ms.map(m => "
                                   "[Number(m.dataset.value), Number(m.getAttribute('cx'))])")  # fmt: skip
    (v0, x0), (v1, x1) = xs[0], xs[-1]
    at = [x0 + (x1 - x0) * (v - v0) / (v1 - v0) for v in data["interval"]]
    assert band == pytest.approx([at[0], at[1] - at[0]])
    # a probe is a row: its mark lists that probe's held games, which replay the probe's run
    rows = page.eval_on_selector_all("#wins circle[data-win]", "ms => ms.map(m => "
                                     "[m.dataset.preset, Number(m.dataset.win)])")  # fmt: skip
    assert [r[0] for r in rows] == [f"easy max_steps={p['value']}" for p in data["probes"]]
    assert [r[1] for r in rows] == pytest.approx([p["rate %"] for p in data["probes"]])
    page.click("#wins circle[data-preset='easy max_steps=100']")
    assert page.locator("#chosen").text_content().startswith("easy max_steps=100, scripted:")
    page.click("#chosen a")
    game = page.evaluate("G.seed"), page.evaluate("G.preset")
    run = next(r for r in data["runs"] if (r["seed"], f"easy max_steps={r['value']}") == game)
    assert not run["won"] and page.evaluate("G.end.cause") == run["cause"] == "out of steps"
    assert page.evaluate("G.steps.length") - 1 == run["steps"] == 100
    assert seen == {"errors": [], "requests": []}
