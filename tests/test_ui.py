"""`delve play`'s full-screen UI (delve_env/ui/play.py) and the reports (VIEW-1), driven by
scripted key presses: through the first fight and every report."""

import os
import pty
import select
import subprocess
import sys

from conftest import random_policy_net

from agents.scripted import ScriptedAgent
from delve_env import DelveEnv
from delve_env.engine.core.actions import A_ATTACK, A_LUCK, A_MOVE, A_WAIT, NUM_ACTIONS
from delve_env.engine.core.tables import FIGHT
from delve_env.ui.play import MENU_ROWS, MOVE_KEYS, PlayUI

ARROWS = {d: k for k, d in MOVE_KEYS.items() if k in ("up", "right", "down", "left")}


def keys_for(ui: PlayUI, action: int) -> list[str]:
    """The key presses a person would make for `action`: an arrow for a move, a digit for an
    attack, else Enter and down to it in the menu."""
    if A_MOVE <= action < A_WAIT:
        return [ARROWS[action - A_MOVE]]
    if A_ATTACK <= action < A_LUCK:
        return [str(action - A_ATTACK + 1)]
    legal = [int(a) for a in ui.env.action_masks().nonzero()[0]]
    return ["enter"] + ["down"] * legal.index(action) + ["enter"]


def play_to_first_fight_end(ui: PlayUI, limit: int = 3000) -> int:
    """Key presses chosen by the scripted expert until the first fight is over."""
    agent = ScriptedAgent()
    fought = False
    for _ in range(limit):
        fighting = ui.env.engine.state.mode[0] == FIGHT
        if fought and not fighting:
            return ui.steps
        fought = fought or fighting
        for k in keys_for(ui, int(agent.act(ui.env))):
            ui.key(k)
    raise AssertionError("no fight ended")


def test_ui_plays_through_the_first_fight_with_keys_alone():
    ui = PlayUI(DelveEnv(depth=2, difficulty="easy"), seed=4)
    assert "Sixpence" in ui.screen()  # the start's hint, in the log
    steps = play_to_first_fight_end(ui)
    assert steps > 0 and ui.env.engine.state.stat_fights[0] >= 1
    assert "> attack monster" in "\n".join(ui.log) or ui.env.engine.state.stat_flights[0] >= 1
    assert "FIGHT" not in ui.screen().splitlines()[0]


def test_ui_reports_cost_no_time_and_walk_the_effects_pages():
    ui = PlayUI(DelveEnv(depth=2), seed=1)
    ui.key(">")  # down the courtyard stair
    s = ui.env.engine.state
    s.effects[0, 0] = 50
    pace, steps = int(s.pace[0]), int(s.steps[0])
    screens = {}
    for k in ("m", "u", "k", "e"):
        ui.key(k)
        screens[k] = ui.screen()
        ui.key("x")  # any key closes it
    assert screens["m"].startswith("MEMBER STATUS") and "HP " in screens["m"]
    assert "XP to the next" in screens["m"] and "ready hand" in screens["m"]
    assert screens["u"].startswith("QUEST STATUS") and "still to find" in screens["u"]
    assert screens["k"].startswith("BESTIARY")
    assert screens["e"].startswith("EFFECTS: the party") and "WARD: 50 paces" in screens["e"]
    ui.key("e")
    ui.key("right")
    assert ui.screen().startswith("EFFECTS: hero") and "page 2 of" in ui.screen()
    ui.key("left")
    assert ui.screen().startswith("EFFECTS: the party")
    ui.key("esc")
    assert int(s.pace[0]) == pace and int(s.steps[0]) == steps  # no time, no step
    assert s.report_pace[0] == pace  # noted for Sixpence (SIX-1)


def test_ui_menu_lists_only_legal_actions_and_refuses_illegal_keys():
    ui = PlayUI(DelveEnv(depth=2), seed=1)
    ui.key("enter")
    legal = [int(a) for a in ui.env.action_masks().nonzero()[0]]
    assert ui.menu == legal
    ui.key("esc")
    assert ui.menu is None
    ui.key("left")  # no moving in the courtyard: refused, nothing happens
    assert ui.steps == 0 and "Not now" in ui.log[-1]
    ui.key("q")
    ui.key("n")
    assert not ui.done
    ui.key("q")
    ui.key("y")
    assert ui.done


def test_ui_says_why_a_key_is_refused_and_lists_the_masked_actions_with_why():
    """A refused key logs the rule that masks it (`DelveEnv.why`); in the menu x adds every
    masked action after the legal ones, each with its reason, greyed on the terminal, and
    Enter on one refuses it the same way."""
    from delve_env.ui.play import styled

    ui = PlayUI(DelveEnv(depth=2), seed=1)
    ui.key("left")  # the courtyard: no walking about
    why = ui.env.why(A_MOVE + MOVE_KEYS["left"])
    assert why.startswith("COURT-1: ") and ui.log[-1] == f"Not now (move west): {why}."
    ui.key("enter")
    legal = [int(a) for a in ui.env.action_masks().nonzero()[0]]
    assert ui.menu == legal and "x: show the masked ones" in ui.screen()
    ui.key("x")
    assert ui.menu[: len(legal)] == legal and sorted(ui.menu) == list(range(NUM_ACTIONS))
    for _ in legal:
        ui.key("down")
    row = f" > ~ move north: {ui.env.why(A_MOVE)}"
    assert row in ui.screen().splitlines()
    masked_rows = [line for line in ui.screen().splitlines() if line.startswith((" > ~", "   ~"))]
    dim = [span for span in styled(ui.screen()).spans if span.style == "dim"]
    assert len(dim) == len(masked_rows) >= MENU_ROWS // 2
    ui.key("enter")  # a masked one: refused, with its reason
    assert ui.steps == 0 and ui.log[-1].startswith("Not now (move north): COURT-1: ")


def test_ui_runs_full_screen_in_a_terminal():
    """`delve play` on a pseudo-terminal: keys act without Enter, q y quits. Keys are typed
    once the first screen is up and the output is read to the end, so nothing depends on how
    fast the machine is (the limit only stops a hang)."""
    pid, fd = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-m", "delve_env", "play", "--depth", "2"])
    out, typed = b"", False
    try:
        while select.select([fd], [], [], 600)[0]:
            try:
                chunk = os.read(fd, 65536)
            except OSError:  # the child closed the terminal
                break
            if not chunk:
                break
            out += chunk
            if not typed and b"Enter: actions" in out:
                os.write(fd, b"mx>?qy")  # a report, any key back, stairs, help, quit, yes
                typed = True
    finally:
        _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert typed and b"MEMBER STATUS" in out and b"Played" in out


def test_play_lines_flag_keeps_the_prompt():
    done = subprocess.run([sys.executable, "-m", "delve_env", "play", "--lines", "--depth", "2"],
                          input="t\nq\n", capture_output=True, text=True, timeout=600)  # fmt: skip
    assert done.returncode == 0 and "Quit after 1 steps" in done.stdout


def test_ui_travel_keys_explore_travel_and_rest():
    """o explores, G travels to the stair down, U to the stair up, z rests: each one step of
    many paces, as the action it names."""
    from delve_env.engine.core.actions import A_EXPLORE, A_REST, A_TRAVEL_DOWN, A_TRAVEL_UP
    from delve_env.ui.play import ACTION_KEYS

    assert {ACTION_KEYS[k] for k in "oGUz"} == {A_EXPLORE, A_TRAVEL_DOWN, A_TRAVEL_UP, A_REST}
    ui = PlayUI(DelveEnv(depth=2, difficulty="easy"), seed=1)
    ui.key(">")
    s = ui.env.engine.state
    pace, steps = int(s.pace[0]), ui.steps
    ui.key("o")
    assert ui.steps == steps + 1 and int(s.pace[0]) > pace + 1
    x, y = int(s.x[0]), int(s.y[0])
    ui.key("U")  # back to the stair up
    assert (int(s.x[0]), int(s.y[0])) != (x, y) and ui.steps == steps + 2


def test_p_hands_a_turn_to_the_shipped_policy_and_shows_its_three_likeliest(monkeypatch, tmp_path):
    """`p` in `delve play`: the policy shipped for the difficulty takes its likeliest action,
    and the log names its three likeliest with their probabilities; with none shipped, the
    log says which are."""
    import numpy as np

    from delve_env import policy

    monkeypatch.setattr(policy, "SHIPPED", tmp_path)
    ui = PlayUI(DelveEnv(difficulty="easy", depth=2), seed=1)
    ui.key("p")
    assert ui.steps == 0 and "no trained policy ships for difficulty 'easy'" in ui.log[-1]
    random_policy_net(0, 1.0).save(tmp_path / "easy.zip")
    for turn in range(3):
        p = policy.Agent(policy.shipped("easy"), 1, sampled=False).probabilities(ui.env)
        best = int(np.argmax(p))
        ui.key("p")
        assert ui.steps == turn + 1
        shown = ui.log[-2] if ui.log[-1].startswith(">") else ui.log[-3]
        assert shown.startswith("Trained policy: " + ui.action_text(best)) or ui.over
        assert f"{p[best]:.0%}" in shown
