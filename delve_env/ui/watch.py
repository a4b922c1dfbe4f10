"""`delve watch`: a policy plays one whole game, shown live.

On a terminal the game plays full-screen (as `delve play` looks) at `fps` frames a second,
with the log of what happened under the map; elsewhere (a pipe, a file) every frame is printed
one after another, at once. Either way it ends with the outcome and the episode's summary.
"""

from __future__ import annotations

import sys
import time
from collections import deque
from collections.abc import Callable

from ..engine.core.actions import ACTION_NAMES
from .play import LOG_LINES, heard


def frame(env, name: str, seed: int, step: int, log) -> str:
    """One frame: a title line, the screen as text, the latest log lines."""
    title = f"=== {name} agent, seed {seed}, step {step} ==="
    return "\n".join([title, env.render_text(), "-" * 40, *log])


def play_through(env, policy: Callable, name: str, seed: int, steps: int | None, show):
    """Play until the game ends or `steps` steps (None: the game's own cap), calling
    `show(frame_text)` after the reset and after every step. Returns (steps taken, total reward,
    whether the game ended, the last info, the last step's truncated)."""
    _, info = env.reset(seed=seed)
    log = deque(heard(info), maxlen=LOG_LINES)
    show(frame(env, name, seed, 0, log))
    total, step, done, truncated = 0.0, 0, False, False
    while not done and (steps is None or step < steps):
        action = policy(env, info)
        _, reward, terminated, truncated, info = env.step(action)
        total, step, done = total + reward, step + 1, terminated or truncated
        log.append(f"> {ACTION_NAMES[action]}" + (f"  ({reward:+g})" if reward else ""))
        log.extend(heard(info))
        if done:
            log.append("Won: the king is home!" if info["episode_stats"]["won"] else "Lost.")
        show(frame(env, name, seed, step, log))
    return step, total, done, info, truncated


def watch(env, policy: Callable, name: str, seed: int, steps: int | None, fps: float):
    """`play_through`, shown full-screen at `fps` on a terminal, else printed frame by frame;
    the last frame stays on screen. Returns what `play_through` returns."""
    if not sys.stdout.isatty():
        return play_through(env, policy, name, seed, steps, lambda text: print(text, flush=True))
    from rich.console import Console
    from rich.live import Live
    from rich.text import Text

    console, last = Console(), [""]
    # A first run compiles the engine: reset first and show its frame, then the step, with
    # the notice and its count under that frame, before the screen goes full
    env.reset(seed=seed)
    print(frame(env, name, seed, 0, ()), flush=True)
    env.unwrapped.engine.compile()
    with Live(console=console, screen=True, auto_refresh=False) as live:
        next_at = [time.monotonic()]

        def show(text: str) -> None:
            last[0] = text
            live.update(Text(text), refresh=True)
            next_at[0] += 1 / fps
            time.sleep(max(0.0, next_at[0] - time.monotonic()))

        result = play_through(env, policy, name, seed, steps, show)
    console.print(Text(last[0]))
    return result
