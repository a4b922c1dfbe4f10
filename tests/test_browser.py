"""The replay page in a real browser: Debian's Chromium driven by Playwright (never a
downloaded browser), the page opened from disk. Skipped, with the reason, where no Chromium is
installed; CI installs it (.ci/run)."""

import base64
import shutil

import numpy as np
import pytest

from delve_env.engine.core.actions import ACTION_NAMES
from delve_env.env import DelveEnv
from delve_env.fightlog import line
from delve_env.tools import replay
from delve_env.tools.cli import main

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
