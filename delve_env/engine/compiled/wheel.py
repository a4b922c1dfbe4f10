"""A wheel that carries the compiled engine, so that an install starts without compiling:

    python -m delve_env.engine.compiled.wheel [--out dist]   # builds the wheel
    python -m delve_env.engine.compiled.wheel --check        # where it is installed

The build copies the project (less its caches, builds and dot-folders) to a temporary folder,
compiles the engine there into numba's cache for the fixed CPU baseline (`NUMBA_CPU_NAME=
generic`, jit.BASELINE_CPU: any CPU of the platform), plays `delve watch --steps 1` there so
that everything the first game calls is in it, builds the wheel of that copy and adds the
cache's files to it, tagged for this Python and platform (the only ones its machine code runs
on). Installed, the engine's cache folder holds them: it is named after a hash of the
engine's sources and each file's place in the project (jit.py), which the installed copy
shares, and numba's index checks the numba version, the source file's bytes and each
function's bytecode, so nothing stale loads (a different numba compiles, as without it).

`--check` plays `delve watch --steps 1` and fails, naming them, if any engine function
compiled: the wheel's machine code was not used.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import zipfile
from pathlib import Path

from .jit import BASELINE_CPU, PROJECT

FIRST_GAME = ["watch", "--steps", "1"]


def compile_into(stage: Path) -> Path:
    """Compile the engine of the project copy at `stage` for the baseline CPU, into its own
    cache; returns the cache's folder."""
    env = {**os.environ, "PYTHONPATH": str(stage), "NUMBA_CPU_NAME": BASELINE_CPU}
    for name in ("NUMBA_CACHE_DIR", "NUMBA_DISABLE_JIT", "NUMBA_CPU_FEATURES"):
        env.pop(name, None)
    run = dict(env=env, cwd=stage, check=True)
    subprocess.run([sys.executable, "-m", "delve_env.engine.compiled.warm"], **run)
    subprocess.run([sys.executable, "-m", "delve_env", *FIRST_GAME], stdout=subprocess.DEVNULL,
                   **run)  # fmt: skip
    (cache,) = (stage / "delve_env" / "engine" / "__pycache__").glob("numba-*")
    return cache


def _record_line(name: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{name},sha256={digest},{len(data)}"


def with_cache(wheel: Path, cache: Path, stage: Path, out: Path) -> Path:
    """The pure wheel `wheel` plus the files of `cache` (at their places under `stage`),
    tagged for this Python and platform, written into `out`."""
    python = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    name, version = wheel.name.split("-")[:2]
    target = out / f"{name}-{version}-{python}-{python}-{platform}.whl"
    with zipfile.ZipFile(wheel) as src, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as dst:
        record_name = next(n for n in src.namelist() if n.endswith(".dist-info/RECORD"))
        lines = [ln for ln in src.read(record_name).decode().splitlines()
                 if ln and not ln.startswith(record_name.rsplit("/", 1)[0] + "/WHEEL,")]  # fmt: skip
        for item in src.infolist():
            if item.filename == record_name:
                continue
            data = src.read(item)
            if item.filename.endswith(".dist-info/WHEEL"):
                data = data.replace(b"Tag: py3-none-any", f"Tag: {python}-{python}-{platform}"
                                    .encode()).replace(b"Root-Is-Purelib: true",
                                                       b"Root-Is-Purelib: false")  # fmt: skip
                lines.append(_record_line(item.filename, data))
            dst.writestr(item, data)
        for path in sorted(cache.rglob("*.nb[ic]")):
            arcname = path.relative_to(stage).as_posix()
            data = path.read_bytes()
            dst.writestr(arcname, data)
            lines.append(_record_line(arcname, data))
        dst.writestr(record_name, "\n".join([*lines, f"{record_name},,"]) + "\n")
    return target


def build(out: Path) -> Path:
    """Build the wheel with its compiled engine into `out`; returns its path."""
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="delve-wheel-") as tmp:
        stage = Path(tmp) / "project"
        shutil.copytree(PROJECT, stage, ignore=shutil.ignore_patterns(
            ".*", "__pycache__", "*.egg-info", "build", "dist", "runs"))  # fmt: skip
        cache = compile_into(stage)
        subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", tmp,
                        str(stage)], check=True)  # fmt: skip
        (pure,) = Path(tmp).glob("*.whl")
        return with_cache(pure, cache, stage, out)


def check() -> int:
    """Play `delve watch --steps 1`; 1 (naming them) if any engine function compiled."""
    from numba.core import event

    from ...tools.cli import main
    from .first_run import engine_cached

    if not engine_cached():
        print("delve: the engine is not in numba's cache here", file=sys.stderr)
        return 1
    with event.install_recorder("numba:compile") as rec:
        main(FIRST_GAME)
    compiled = sorted({str(e.data["dispatcher"].py_func.__qualname__)
                       for _, e in rec.buffer if e.is_end})  # fmt: skip
    if compiled:
        print(f"delve: compiled, not loaded from the cache: {', '.join(compiled)}", file=sys.stderr)
        return 1
    print("delve: the first game loaded the whole engine from numba's cache")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=Path("dist"), help="the wheel's folder")
    parser.add_argument("--check", action="store_true",
                        help="play `delve watch --steps 1` and fail if anything compiles")  # fmt: skip
    args = parser.parse_args()
    if args.check:
        return check()
    print(build(args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
