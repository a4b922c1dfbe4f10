"""The first run (engine/compiled/first_run.py): with an empty cache `delve watch` plays at once
with the engine interpreted while the compile goes on in a session of its own; the
interpreted game is the compiled one, state hash for state hash; an unreadable cache index
means a compile, not a failure."""

import contextlib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(args: list[str], env: dict, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=timeout, cwd=ROOT,
                          env={**os.environ, **env})  # fmt: skip


def test_an_interpreted_game_is_the_compiled_game_state_hash_for_state_hash(tmp_path):
    """A game recorded with the compiled engine (a state hash after every step) replays with
    the engine interpreted, every hash equal."""
    game = tmp_path / "game.json"
    recorded = run([sys.executable, "-m", "delve_env", "record", "--out", str(game), "--seed",
                    "3", "--difficulty", "hard", "--steps", "300"], {})  # fmt: skip
    assert recorded.returncode == 0, recorded.stderr[-2000:]
    replayed = run([sys.executable, "-m", "delve_env", "replay", str(game)],
                   {"NUMBA_DISABLE_JIT": "1"})  # fmt: skip
    assert replayed.returncode == 0, replayed.stdout[-2000:] + replayed.stderr[-2000:]
    assert "300" in replayed.stdout


def test_with_an_empty_cache_watch_plays_at_once_and_compiles_aside(tmp_path):
    """An empty numba cache: `delve watch` says the engine compiles in the background, plays
    its steps interpreted, and leaves the compile running in a session of its own (stopped
    here); a second call while it runs starts no other."""
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache"), "TMPDIR": str(tmp_path)}
    env.pop("NUMBA_DISABLE_JIT", None)
    watch = [
        sys.executable,
        "-c",
        "import sys; from delve_env.tools.cli import main; "
        "sys.argv = ['delve', 'watch', '--steps', '40', '--fps', '1000']; sys.exit(main())",
    ]
    pids = []
    try:
        for _ in range(2):
            done = run(watch, env, timeout=120)
            assert done.returncode == 0, done.stderr[-2000:]
            assert "the engine is compiling in the background" in done.stderr
            assert "=== scripted agent, seed 0, step 40 ===" in done.stdout
            pid_files = list(tmp_path.glob("delve-compile-*.pid"))
            assert len(pid_files) == 1
            pids.append(int(pid_files[0].read_text()))
        assert pids[0] == pids[1]  # one compile an install
        os.kill(pids[0], 0)  # still running after the command ended ...
        assert os.getsid(pids[0]) != os.getsid(0)  # ... in a session of its own
    finally:
        for pid in set(pids):
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)


def test_an_unreadable_cache_index_means_a_compile_not_a_failure(tmp_path):
    """An engine function's cache index cut short: the cache reads as cold, the function
    compiles and runs, and its index is written anew (read by the next process)."""
    code = (
        "import sys\n"
        "import numpy as np\n"
        "from pathlib import Path\n"
        "from delve_env.engine.rules.travel import spread\n"
        "from delve_env.engine.compiled.jit import is_cached\n"
        "index = Path(spread._cache._cache_file._index_path)\n"
        "if sys.argv[1] == 'cut':\n"
        "    index.write_bytes(index.read_bytes()[:10])\n"
        "print(is_cached(spread))\n"
        "dist = np.full(9, -2, dtype=np.int64); dist[4] = 0\n"
        "queue = np.zeros(9, dtype=np.int32); queue[0] = 4\n"
        "spread(dist, queue, 1, 3)\n"
        "print(int(dist[1]))\n"
    )
    env = {"NUMBA_CACHE_DIR": str(tmp_path / "cache")}
    seen = []
    for step in ("first", "cut", "again"):
        done = run([sys.executable, "-c", code, step], env)
        assert done.returncode == 0, done.stderr[-2000:]
        seen.append(done.stdout.split())
    assert seen == [["False", "1"], ["False", "1"], ["True", "1"]]


def test_a_cached_engine_or_an_interpreted_run_goes_on_in_this_process(monkeypatch):
    """Nothing is started and nothing runs again where the cache holds the engine, or where
    this run is the interpreted one already."""
    from delve_env.engine.compiled import first_run

    monkeypatch.setattr(first_run.os, "execv", lambda *a: pytest.fail("ran again"))
    monkeypatch.setattr(first_run, "compile_in_background", lambda: pytest.fail("compiled"))
    monkeypatch.delenv("NUMBA_DISABLE_JIT", raising=False)
    monkeypatch.setattr(first_run, "engine_cached", lambda: True)
    first_run.play_while_compiling(["watch"])
    monkeypatch.setenv("NUMBA_DISABLE_JIT", "1")
    monkeypatch.setattr(first_run, "engine_cached", lambda: pytest.fail("asked the cache"))
    first_run.play_while_compiling(["play"])
