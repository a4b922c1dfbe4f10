"""`delve play`: a person plays Delve in a full-screen terminal UI, with the keyboard alone.

`PlayUI` is the whole UI as a state machine (keys in, a screen of text out), so tests drive it
with scripted key presses; `run` is the terminal loop around it (rich's full-screen Live, keys
read raw from the terminal, one at a time, no Enter).

Keys: arrows or w/a/s/d move; . wait; f search; > stairs; g loot; o explore; G travel to the
stair down, U to the stair up; z rest; 1-6 attack foe k (in a fight), Tab autofight; r run;
b bribe; Enter opens the menu of every legal action (up/down, Enter takes one, x adds the
masked ones, greyed, each with why it is masked; Esc closes); m member status, u quest status,
k bestiary, e effects (left/right walk the pages; any key closes a report); ? help; q quit (y
to confirm). A key whose action is masked is refused with the reason (`DelveEnv.why`: the
rule that refuses it).
"""

from __future__ import annotations

import sys
from collections import deque

import numpy as np

from ..engine.core.actions import (
    A_ATTACK,
    A_AUTOFIGHT,
    A_BRIBE,
    A_EXPLORE,
    A_GIVE,
    A_LOOT,
    A_MOVE,
    A_REST,
    A_RUN,
    A_SEARCH,
    A_SELECT,
    A_STAIRS,
    A_TRAVEL_DOWN,
    A_TRAVEL_UP,
    A_WAIT,
    ACTION_NAMES,
)
from ..engine.core.tables import CHOICE, EVENT_NAMES, FIGHT, MAX_FOES, NUM_ITEM_SLOTS
from .text import item_name

MOVE_KEYS = {"up": 0, "w": 0, "right": 1, "d": 1, "down": 2, "s": 2, "left": 3, "a": 3}
ACTION_KEYS = {".": A_WAIT, "f": A_SEARCH, ">": A_STAIRS, "g": A_LOOT, "r": A_RUN, "b": A_BRIBE,
               "o": A_EXPLORE, "G": A_TRAVEL_DOWN, "U": A_TRAVEL_UP, "z": A_REST,
               "\t": A_AUTOFIGHT}  # fmt: skip
REPORT_KEYS = {"m": "member", "u": "quest", "k": "bestiary", "e": "effects"}
LOG_LINES = 8
MENU_ROWS = 14
MASKED_ROW = r"(?m)^ [ >] ~ .*$"  # a masked action's row in the menu (greyed on the terminal)
HELP = (
    "arrows/wasd move  . wait  f search  > stairs  g loot  o explore  G/U travel down/up\n"
    "z rest  1-6 attack  Tab autofight  r run  b bribe  p the trained policy's move\n"
    "Enter: every legal action (x: the masked ones, and why)  m members  u quest  k bestiary  "
    "e effects  ? help  q quit"
)


class PlayUI:
    """One game and what the person sees of it: the screen, a menu or a report, the log."""

    def __init__(self, env, seed: int = 0):
        self.env = env
        _, info = env.reset(seed=seed)
        self.log: deque[str] = deque(maxlen=LOG_LINES)
        self.menu: list[int] | None = None  # legal actions shown, when the menu is open
        self.cursor = 0
        self.masked_shown = False  # the menu lists the masked actions too, with their reasons
        self.report: str | None = None  # the report open, if any
        self.page = 0
        self.quitting = False
        self.done = False  # the person quit
        self.over = False  # the game ended
        self.steps = 0
        self.seed = seed
        self._advisor = None  # the shipped policy, loaded at the first move (its memory, if
        # it has one, reads the whole game)
        self._heard(info)

    # --- keys ----------------------------------------------------------------------------
    def key(self, k: str) -> None:
        """One key press: 'up', 'down', 'left', 'right', 'enter', 'esc', or a character."""
        if self.quitting:
            self.done = k == "y"
            self.quitting = False
            return
        if self.report is not None:
            self._report_key(k)
        elif self.menu is not None:
            self._menu_key(k)
        elif k == "q":
            self.quitting = True
        elif k == "?":
            self.log.append(HELP)
        elif k in REPORT_KEYS:
            self.report, self.page = REPORT_KEYS[k], 0
            self.env.report(self.report)  # reading it is noted (SIX-1)
        elif self.over:
            self.log.append("The game is over: q quits.")
        elif k == "enter" or self.mode() == CHOICE:
            self.open_menu()
        elif k == "p":
            self.hand_over()
        elif k in MOVE_KEYS:
            self.take(A_MOVE + MOVE_KEYS[k])
        elif k in ACTION_KEYS:
            self.take(ACTION_KEYS[k])
        elif k.isdigit() and 1 <= int(k) <= MAX_FOES and self.mode() == FIGHT:
            self.take(A_ATTACK + int(k) - 1)

    def _report_key(self, k: str) -> None:
        if self.report == "effects" and k in ("left", "right"):
            self.page += 1 if k == "right" else -1
        else:
            self.report = None

    def _menu_key(self, k: str) -> None:
        if k == "esc":
            self.menu = None
        elif k in ("up", "down"):
            self.cursor = (self.cursor + (1 if k == "down" else -1)) % len(self.menu)
        elif k == "enter":
            action = self.menu[self.cursor]
            self.menu = None
            self.take(action)
        elif k == "x":
            self.masked_shown = not self.masked_shown
            self.open_menu()

    def open_menu(self) -> None:
        """The menu: every legal action, then (after x) every masked one."""
        mask = self.env.action_masks()
        self.menu = [int(a) for a in mask.nonzero()[0]]
        if self.masked_shown:
            self.menu += [int(a) for a in (~mask).nonzero()[0]]
        self.cursor = 0

    # --- acting --------------------------------------------------------------------------
    def mode(self) -> int:
        return int(self.env.engine.state.mode[0])

    def take(self, action: int) -> None:
        """Take an action if it is legal, else say so; log what happened."""
        if not self.env.action_masks()[action]:
            self.log.append(f"Not now ({ACTION_NAMES[action]}): {self.env.unwrapped.why(action)}.")
            return
        if self.advisor() is not None:
            self._advisor.remember(self.env)  # the observation this action is taken on
        _, reward, terminated, truncated, info = self.env.step(action)
        self.steps += 1
        self.log.append(f"> {self.action_text(action)}" + (f"  ({reward:+g})" if reward else ""))
        self._heard(info)
        if self.mode() == CHOICE and not (terminated or truncated):
            self.open_menu()  # CHOICE-1: nothing else happens until the option is taken
        if terminated or truncated:
            self.over = True
            won = info["episode_stats"]["won"]
            self.log.append("You won: the king is home!" if won else "The run is over.")

    def hand_over(self) -> None:
        """The trained policy shipped for this difficulty takes one turn, its likeliest
        action, and the log shows its three likeliest with their probabilities."""
        if self.advisor() is None:
            self.log.append(self._no_advisor)
            return
        p = self._advisor.probabilities(self.env)
        top = [int(a) for a in np.argsort(-p, kind="stable")[:3] if p[a] > 0]
        self.log.append("Trained policy: " + ", ".join(f"{self.action_text(a)} {p[a]:.0%}"
                                                       for a in top))  # fmt: skip
        self.take(top[0])

    def advisor(self):
        """The shipped policy for this difficulty as an `Agent`, or None where none ships."""
        if self._advisor is None:
            from ..policy import Agent, shipped

            try:
                self._advisor = Agent(shipped(self.env.unwrapped.config.difficulty), self.seed,
                                      sampled=False)  # fmt: skip
            except ValueError as err:  # asked again at each move: one may be saved meanwhile
                self._no_advisor = str(err)
        return self._advisor

    def _heard(self, info: dict) -> None:
        self.log.extend(heard(info))

    def action_text(self, a: int) -> str:
        """An action's name, with the item it selects or the power it is."""
        s = self.env.engine.state
        if A_SELECT <= a < A_GIVE:
            m, slot = divmod(a - A_SELECT, NUM_ITEM_SLOTS)
            return f"{ACTION_NAMES[a]} ({item_name(s, 0, s.item[0, m, slot])})"
        return ACTION_NAMES[a]

    # --- the screen ----------------------------------------------------------------------
    def screen(self) -> str:
        """What the terminal shows now, as text."""
        if self.report is not None:
            body = self.env.unwrapped.report(self.report, self.page)
            hint = (
                "left/right: pages, any other key: back"
                if self.report == "effects"
                else "any key: back"
            )
            return f"{body}\n\n({hint}; reports cost no time)"
        parts = [self.env.render_text()]
        if self.menu is not None:
            parts.append(self.menu_text())
        parts.append("-" * 40)
        parts += list(self.log)
        if self.quitting:
            parts.append("Quit? y / n")
        else:
            parts.append("Enter: actions  m u k e: reports  ?: help  q: quit")
        return "\n".join(parts)

    def menu_text(self) -> str:
        top = max(0, min(self.cursor - MENU_ROWS // 2, len(self.menu) - MENU_ROWS))
        more = "hide" if self.masked_shown else "show"
        rows = [f"ACTIONS (up/down, Enter takes, x: {more} the masked ones, Esc closes)"]
        mask = self.env.action_masks()
        for i, a in enumerate(self.menu[top : top + MENU_ROWS], start=top):
            mark = ">" if i == self.cursor else " "
            if mask[a]:
                rows.append(f" {mark} {self.action_text(a)}")
            else:  # greyed on the terminal (MASKED_ROW)
                rows.append(f" {mark} ~ {ACTION_NAMES[a]}: {self.env.unwrapped.why(a)}")
        if len(self.menu) > MENU_ROWS:
            rows.append(f"   ({self.cursor + 1} of {len(self.menu)})")
        return "\n".join(rows)


def heard(info: dict) -> list[str]:
    """The log lines for a step's info: its events, and what Sixpence said."""
    events = [n for i, n in enumerate(EVENT_NAMES) if (info.get("events", 0) >> i) & 1]
    lines = ["  " + ", ".join(events)] if events else []
    for said in info.get("keeper", []):  # SIX-2: a person reads Sixpence's hint
        lines.append(f"  Sixpence ({said['event']}; gift: {said['gift']}): {said['hint']}")
    return lines


# --- the terminal -----------------------------------------------------------------------------

_ESCAPES = {"[A": "up", "[B": "down", "[C": "right", "[D": "left"}


def read_key(stream) -> str:
    """One key from a raw terminal: arrows and Enter/Esc by name, else the character."""
    ch = stream.read(1)
    if ch in ("\r", "\n"):
        return "enter"
    if ch == "\x1b":
        rest = stream.read(2)
        return _ESCAPES.get(rest, "esc")
    if ch in ("\x03", ""):  # Ctrl-C, or the end of input
        return "q-now"
    return ch


def styled(screen: str):
    """The screen as rich Text, the menu's masked rows greyed."""
    from rich.text import Text

    text = Text(screen)
    text.highlight_regex(MASKED_ROW, "dim")
    return text


def run(env, seed: int = 0) -> int:
    """Play full-screen until the person quits (needs a terminal)."""
    import termios
    import tty

    from rich.console import Console
    from rich.live import Live

    ui = PlayUI(env, seed)
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    console = Console()
    try:
        tty.setcbreak(fd)
        with Live(styled(ui.screen()), console=console, screen=True, auto_refresh=False) as live:
            while not ui.done:
                k = read_key(sys.stdin)
                if k == "q-now":
                    break
                ui.key(k)
                live.update(styled(ui.screen()), refresh=True)
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    console.print(f"Played {ui.steps} steps.")
    return 0
