"""The first run: a game on screen while the engine compiles.

With numba's cache empty (a fresh install, or sources changed since the cache was written),
`delve watch` and `delve play` start the whole-engine compile (warm.py) in a process of its
own and play their game with the engine interpreted (`NUMBA_DISABLE_JIT=1`: the same code,
so the same game, tested step by step), so that the first frame comes in about a second
rather than after minutes. The compile goes on by itself, its output in a log; from the next
run on the engine loads from the cache. Numba keys its cache by each source file's contents,
so nothing stale runs, and an index it cannot read means a compile, never a failure.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
from pathlib import Path

INTERPRETED = "NUMBA_DISABLE_JIT"


def engine_cached() -> bool:
    """Whether the engine's entry points (reset, step, refresh) load from numba's cache."""
    from ..step import refresh_batch, reset_batch, step_batch
    from .jit import is_cached

    return all(is_cached(fn) for fn in (reset_batch, step_batch, refresh_batch))


def compile_log() -> Path:
    """Where the background compile of this install writes: one file per install, by the
    package's path."""
    package = Path(__file__).resolve().parents[2]
    tag = hashlib.sha256(str(package).encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"delve-compile-{tag}.log"


def compiling_now(log: Path) -> bool:
    """Whether a background compile started for this install is still running."""
    try:
        os.kill(int(log.with_suffix(".pid").read_text()), 0)
    except (OSError, ValueError):
        return False
    return True


def compile_in_background() -> Path:
    """Start warm.py in a session of its own (it finishes on its own, the terminal free;
    one at a time an install); returns its log."""
    log = compile_log()
    if compiling_now(log):
        return log
    with open(log, "w") as out:
        proc = subprocess.Popen([sys.executable, "-m", "delve_env.engine.compiled.warm"],
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                                start_new_session=True)  # fmt: skip
    log.with_suffix(".pid").write_text(str(proc.pid))
    return log


def play_while_compiling(argv: list[str]) -> None:
    """If the engine is not in the cache: start its compile in the background and run this
    command again with the engine interpreted (does not return); else return at once."""
    if os.environ.get(INTERPRETED) or engine_cached():
        return
    log = compile_in_background()
    sys.stderr.write(
        "Delve: the engine is compiling in the background (a few minutes on 2 cores, once for "
        f"this install; progress in {log}); this game runs interpreted, the next compiled\n"
    )
    sys.stderr.flush()
    os.environ[INTERPRETED] = "1"
    os.execv(sys.executable, [sys.executable, "-m", "delve_env", *argv])
