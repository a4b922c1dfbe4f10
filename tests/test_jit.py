"""The engine's `njit` (delve_env/engine/compiled/jit.py): one compiled version per function whatever
integer widths and constants its callers pass, only entry points in numba's cache, and the
notice a first compile prints."""

import numpy as np
import pytest
from numba.core import config

from delve_env.engine.compiled import jit

pytestmark = pytest.mark.skipif(config.DISABLE_JIT, reason="about compiling")


def _define(cache_dir):
    """Fresh functions (a callee and two callers), cached under `cache_dir`."""
    old = config.CACHE_DIR
    config.CACHE_DIR = str(cache_dir)
    try:

        @jit.njit(cache=True)
        def add(a, b):
            return a + b

        @jit.njit(cache=True)
        def caller_literal(x):
            return add(x, 1) + add(np.int8(x), np.int16(2))

        @jit.njit(cache=True)
        def caller_array(a):
            return add(a[0], a[1])

    finally:
        config.CACHE_DIR = old
    return add, caller_literal, caller_array


def _cached_files(folder):
    return sorted(p.name.split("-")[0] for p in folder.rglob("*.nbi"))


def test_callers_of_any_integer_width_or_constant_share_one_version(tmp_path):
    add, caller_literal, caller_array = _define(tmp_path)
    assert caller_literal(5) == 6 + 7
    assert caller_array(np.array([3, 4], dtype=np.int8)) == 7
    assert len(add.overloads) == 1  # int64, int64: not int8 / int16 / Literal[int](1)
    assert list(add.overloads)[0] == (jit.types.int64, jit.types.int64)


def test_only_what_python_calls_is_cached_and_python_gets_a_callee_on_first_call(tmp_path):
    add, caller_literal, _ = _define(tmp_path)
    caller_literal(5)
    names = _cached_files(tmp_path)
    assert any("caller_literal" in n for n in names)
    assert not any(n.endswith(".add") or "test_jit.add" in n for n in names), names
    assert add(2, 3) == 5  # compiled for compiled code; now Python's, and cached
    assert any(n.endswith("add") for n in _cached_files(tmp_path)), _cached_files(tmp_path)
    assert len(add.overloads) == 1


def test_a_callee_loaded_from_the_cache_can_then_be_called_from_python(tmp_path):
    add, caller_literal, _ = _define(tmp_path)
    assert add(2, 3) == 5  # cached as an entry point
    add, caller_literal, _ = _define(tmp_path)  # a new process's view
    assert caller_literal(5) == 13  # loads add from the cache as its callee
    assert add(2, 3) == 5  # and Python may call that one too


def test_cache_compiled_writes_inner_functions_that_another_process_then_loads(
    tmp_path, monkeypatch
):
    add, caller_literal, caller_array = _define(tmp_path)
    assert caller_array(np.array([3, 4])) == 7  # add compiled inside it: not in the cache
    assert not any(n.endswith("add") for n in _cached_files(tmp_path))
    monkeypatch.setattr(jit, "_DISPATCHERS", [add, caller_literal, caller_array])
    jit.cache_compiled()  # what each process of warm.py does
    assert any(n.endswith("add") for n in _cached_files(tmp_path)), _cached_files(tmp_path)
    add, caller_literal, _ = _define(tmp_path)  # a new process's view
    assert caller_literal(5) == 13
    assert sum(add._cache_hits.values()) == 1 and not add._cache_misses  # loaded, not compiled


def test_a_part_of_the_parallel_compile_is_named_or_refused():
    from delve_env.engine.compiled import warm

    with pytest.raises(ValueError, match="unknown part 'steps'.*'reset', 'actions'"):
        warm.compile_part("steps")


def test_the_notice_is_printed_once_before_a_compile_and_never_when_cached(tmp_path, capsys):
    add, caller_literal, _ = _define(tmp_path)
    jit.CompileNotice.said = False
    with jit.CompileNotice(caller_literal):
        caller_literal(1)
    assert "compiling the game engine" in capsys.readouterr().err
    with jit.CompileNotice(caller_literal):  # compiled now: nothing to say
        caller_literal(2)
    assert capsys.readouterr().err == ""
    again = _define(tmp_path)[1]  # a new process's view: loaded from the cache
    assert jit.is_cached(again)
