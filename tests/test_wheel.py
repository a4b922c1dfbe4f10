"""The compiled engine travels (jit.py's cache, wheel.py): machine code compiled for the baseline
CPU beside a copy of the sources loads, with nothing compiled, wherever that copy is moved (as a
wheel's files are installed); an edited source compiles anew; a wheel holds the cache's files."""

import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from delve_env.engine.compiled import jit
from delve_env.engine.compiled.wheel import with_cache

ENGINE = Path(jit.__file__).resolve().parents[1]

TOY = """
from .compiled.jit import njit


@njit(cache=True)
def triple(x):
    return 3 * x
"""

PROBE = """
from numba.core import event
from delve_env.engine.toy import triple
with event.install_recorder("numba:compile") as rec:
    value = triple(14)
print(value, sum(1 for _, e in rec.buffer if e.is_end))
"""


def toy_project(root: Path) -> None:
    """A project with the engine's numba plumbing (its cache folder, jit.py) and one function."""
    compiled = root / "delve_env" / "engine" / "compiled"
    compiled.mkdir(parents=True)
    (root / "delve_env" / "__init__.py").write_text("")
    shutil.copy(ENGINE / "__init__.py", compiled.parent / "__init__.py")
    (compiled / "__init__.py").write_text("")
    shutil.copy(ENGINE / "compiled" / "jit.py", compiled / "jit.py")
    (compiled.parent / "toy.py").write_text(TOY)


def probe(root: Path, **env) -> tuple[int, int]:
    """(triple(14), engine functions compiled) in a fresh process on the project at `root`."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("NUMBA_")}
    out = subprocess.run([sys.executable, "-c", PROBE], cwd=root, capture_output=True,
                         text=True, check=True, env={**clean, "PYTHONPATH": str(root), **env})  # fmt: skip
    value, compiled = out.stdout.split()
    return int(value), int(compiled)


def test_baseline_machine_code_loads_where_the_sources_move_and_nothing_stale_runs(tmp_path):
    built = tmp_path / "build" / "project"
    toy_project(built)
    value, compiled = probe(built, NUMBA_CPU_NAME=jit.BASELINE_CPU)
    assert value == 42 and compiled > 0  # compiled for the baseline, into the cache
    installed = tmp_path / "site-packages"
    shutil.move(built, installed)
    assert probe(installed) == (42, 0)  # this machine's CPU: the baseline's code, loaded
    assert probe(installed) == (42, 0)  # and again (loading wrote nothing that breaks it)
    toy = installed / "delve_env" / "engine" / "toy.py"
    toy.write_text(TOY.replace("3 * x", "3 * x + 1"))
    value, compiled = probe(installed)
    assert value == 43 and compiled > 0  # an edited source: compiled, never the old code


def test_the_wheel_carries_the_cache_tagged_for_this_python_and_platform(tmp_path):
    """`with_cache`: the pure wheel's files, the cache's files at their places in the project,
    the WHEEL tag of this interpreter and platform, and a RECORD that lists every file."""
    pure = tmp_path / "delve_env-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(pure, "w") as z:
        z.writestr("delve_env/__init__.py", "")
        z.writestr("delve_env-0.1.0.dist-info/WHEEL",
                   "Wheel-Version: 1.0\nRoot-Is-Purelib: true\nTag: py3-none-any\n")  # fmt: skip
        z.writestr("delve_env-0.1.0.dist-info/RECORD", "delve_env/__init__.py,sha256=x,0\n")
    stage = tmp_path / "stage"
    cache = stage / "delve_env" / "engine" / "__pycache__" / "numba-0123"
    (cache / "delve_env" / "engine").mkdir(parents=True)
    (cache / "delve_env" / "engine" / "step.f-1.py311.nbi").write_bytes(b"index")
    (cache / "delve_env" / "engine" / "step.f-1.py311.1.nbc").write_bytes(b"code")
    out = tmp_path / "out"
    out.mkdir()
    wheel = with_cache(pure, cache, stage, out)
    python = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    assert wheel.name.startswith(f"delve_env-0.1.0-{python}-{python}-")
    with zipfile.ZipFile(wheel) as z:
        names = set(z.namelist())
        tag = z.read("delve_env-0.1.0.dist-info/WHEEL").decode()
        record = z.read("delve_env-0.1.0.dist-info/RECORD").decode()
    inside = "delve_env/engine/__pycache__/numba-0123/delve_env/engine/step.f-1.py311"
    assert {f"{inside}.nbi", f"{inside}.1.nbc", "delve_env/__init__.py"} <= names
    assert f"Tag: {python}-{python}-" in tag and "Root-Is-Purelib: false" in tag
    assert "py3-none-any" not in tag
    listed = {line.split(",")[0] for line in record.splitlines()}
    assert listed == names


@pytest.mark.fast
def test_a_source_outside_the_project_keeps_numbas_own_cache_folder(tmp_path):
    """Only the project's sources get folders by their place in it; any other file keeps
    numba's locators (a folder per absolute path)."""
    outside = tmp_path / "mod.py"
    outside.write_text("def f():\n    return 1\n")
    ns: dict = {}
    exec(compile(outside.read_text(), str(outside), "exec"), ns)
    assert jit._ProjectLocator.from_function(ns["f"], str(outside)) is None
    inside = jit._ProjectLocator.from_function(jit.interpreted, jit.__file__)
    assert Path(inside.get_cache_path()).parts[-3:] == ("delve_env", "engine", "compiled")
