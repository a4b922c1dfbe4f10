"""The first run: how long `delve watch` takes to show its first frame from an empty numba
cache (it plays interpreted while the engine compiles in the background) and when that
compile is done, the same warm, and how big the cache is after it; then CI's parallel compile
(`python -m delve_env.engine.compiled.warm`) into another empty cache; with `--wheel`, the
wheel that carries the compiled engine (engine/compiled/wheel.py): built, installed in a new
virtual environment, and `delve watch` from it, first and again.

    python benchmarks/compile.py            # cold, then warm, in a fresh cache folder; warm.py
    python benchmarks/compile.py --tests    # and the README's test command on each cache
    python benchmarks/compile.py --wheel    # and the wheel's rows

Each command runs in a child process with NUMBA_CACHE_DIR set to a new temporary folder (the
default cache lives beside the engine's sources). Wall seconds depend on the machine's load;
CPU seconds (the child's user + system time) much less so. Prints one table.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def folder_mb(path: Path) -> float:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file()) / 1e6


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def first_frame(cache: Path, python: str = sys.executable, cwd: Path = ROOT) -> dict:
    """`delve watch` (piped) from the cache folder: seconds to its first frame and in all; on
    an empty cache the game runs interpreted while the engine compiles in the background
    (engine/compiled/first_run.py), and this waits for that compile too."""
    tmp = Path(tempfile.mkdtemp(prefix="delve-tmp-"))  # where the background compile's pid is
    env = dict(os.environ, TMPDIR=str(tmp))
    env.pop("NUMBA_CACHE_DIR", None)
    if python == sys.executable:
        env["NUMBA_CACHE_DIR"] = str(cache)
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    proc = subprocess.Popen([python, "-m", "delve_env", "watch"], cwd=cwd, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)  # fmt: skip
    proc.stdout.readline()
    first = time.perf_counter() - t0
    proc.stdout.read()
    proc.wait()
    row = {"first frame s": first, "whole game s": time.perf_counter() - t0,
           "cpu s": cpu_seconds() - cpu0}  # fmt: skip
    for pid_file in tmp.glob("delve-compile-*.pid"):
        pid = int(pid_file.read_text())
        while _alive(pid):
            time.sleep(0.2)
        row["background compile done s"] = time.perf_counter() - t0
    row["cache MB"] = folder_mb(cache)
    shutil.rmtree(tmp, ignore_errors=True)
    return row


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    return True


def timed(*command: str, env: dict | None = None, check: bool = True):
    """`command` run from the checkout: the finished process, and a row of its wall and CPU
    seconds."""
    cpu0, t0 = cpu_seconds(), time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, env=env, check=check, capture_output=True,
                          text=True)  # fmt: skip
    return done, {"wall s": time.perf_counter() - t0, "cpu s": cpu_seconds() - cpu0}


def timed_run(cache: Path, *module: str, check: bool = False):
    """`python -m MODULE...` on the cache folder: the finished process, and a row of its wall
    and CPU seconds and the cache's size after it."""
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    done, row = timed(sys.executable, "-m", *module, env=env, check=check)
    return done, {**row, "cache MB": folder_mb(cache)}


def parallel_compile(cache: Path) -> dict:
    """engine/compiled/warm.py (CI's first step) into the cache folder."""
    return timed_run(cache, "delve_env.engine.compiled.warm", check=True)[1]


def wheel_rows(folder: Path) -> list[tuple[str, dict]]:
    """The wheel built into `folder`, installed into a new virtual environment there, and
    `delve watch` from that environment (outside the checkout), first and again."""
    build = timed(sys.executable, "-m", "delve_env.engine.compiled.wheel", "--out", str(folder))[1]
    (wheel,) = folder.glob("*.whl")
    build["wheel MB"] = wheel.stat().st_size / 1e6
    subprocess.run([sys.executable, "-m", "venv", str(folder / "venv")], check=True)
    python = str(folder / "venv" / "bin" / "python")
    install = timed(python, "-m", "pip", "install", "-q", str(wheel))[1]
    site = subprocess.run([python, "-c", "import delve_env, pathlib; print(pathlib.Path("
                           "delve_env.__file__).parent)"], cwd=folder, check=True,
                          capture_output=True, text=True).stdout.strip()  # fmt: skip
    cache = Path(site) / "engine" / "__pycache__"
    rows = [("wheel.py, build", build), ("pip install the wheel", install)]
    rows.append(("delve watch, from the wheel", first_frame(cache, python, folder)))
    rows.append(("delve watch, from the wheel, again", first_frame(cache, python, folder)))
    return rows


def test_run(cache: Path) -> dict:
    done, row = timed_run(cache, "pytest", "-n", "auto")
    row["result"] = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else "?"
    return row


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tests", action="store_true", help="also the test command, cold cache")
    ap.add_argument("--wheel", action="store_true", help="also the wheel's build and first run")
    args = ap.parse_args(argv)
    cache, ci_cache, wheel_folder = (Path(tempfile.mkdtemp(prefix="delve-numba-"))
                                     for _ in range(3))  # fmt: skip
    try:
        rows = [("delve watch, empty cache", first_frame(cache))]
        rows.append(("delve watch, warm", first_frame(cache)))
        if args.tests:
            rows.append(("pytest -n auto, after watch", test_run(cache)))
        rows.append(("warm.py, empty cache", parallel_compile(ci_cache)))
        if args.tests:
            rows.append(("pytest -n auto, after warm.py", test_run(ci_cache)))
        if args.wheel:
            rows += wheel_rows(wheel_folder)
    finally:
        for folder in (cache, ci_cache, wheel_folder):
            shutil.rmtree(folder, ignore_errors=True)
    print(f"machine: {platform.processor() or platform.machine()}, {os.cpu_count()} cores; "
          f"python {platform.python_version()}")  # fmt: skip
    for name, row in rows:
        cells = ", ".join(f"{k} {v:.1f}" if isinstance(v, float) else f"{k}: {v}"
                          for k, v in row.items())  # fmt: skip
        print(f"| {name} | {cells} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
