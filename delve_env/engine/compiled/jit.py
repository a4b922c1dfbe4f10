"""`njit`: numba's, tuned for a tree of a few hundred small functions compiled once.

Two things would make numba's first run slow and its cache large, and this module mends both:

- Numba compiles a function again for every new tuple of argument types it is called with,
  and from compiled code a constant has its own type (`heal(s, e, m, 1)` is `Literal[int](1)`,
  a value read from an int8 field is int8), so a small function would be compiled many
  times over. Here a call from compiled code is typed with every integer widened to int64
  and every literal to its plain type; the call site converts the arguments, which numba's
  arithmetic does to them anyway, so no result changes.
- Each compiled function carries the machine code of its whole call tree, and numba caches
  every function it compiles, so the cache would hold the engine many times over. Here only a
  function called from Python (an entry point: the batch step, a test's direct call) is
  written to the cache, when Python first calls it; what it calls lives inside it. Only
  `cache_compiled` writes the inner ones too, for the processes of a parallel compile (warm.py).

The cache travels: its folders are named by each source's path inside the project, not the
absolute path numba would use, so the cache written beside a copy of the sources (wheel.py
builds one into a wheel) is found wherever that copy is installed; machine code compiled for
the wheel's fixed CPU baseline (`BASELINE_CPU`) is loaded where none was compiled for the
machine's own CPU.

`CompileNotice` says on stderr that the engine is being compiled, before a first run does it.
"""

import os
import sys
from contextlib import suppress
from pathlib import Path

from numba.core import config, event, sigutils, types
from numba.core.caching import CompileResultCacheImpl, FunctionCache, UserProvidedCacheLocator
from numba.core.registry import CPUDispatcher

_DISPATCHERS: list = []  # every engine function, for the progress count


def _widened(t):
    t = types.unliteral(t)
    if isinstance(t, types.Integer) and t.bitwidth < 64:
        return types.int64
    return t


BASELINE_CPU = "generic"  # NUMBA_CPU_NAME of shipped machine code: any CPU of its platform
PROJECT = Path(__file__).resolve().parents[3]  # the folder holding the package


class _ProjectLocator(UserProvidedCacheLocator):
    """Numba's cache folder of a source file in the project: the cache root (the engine's
    `numba-<sources' hash>`, or NUMBA_CACHE_DIR) joined with the file's folder inside the
    project, where numba's own locator would name it by a hash of its absolute path."""

    def __init__(self, py_func, py_file):
        super().__init__(py_func, py_file)
        inside = Path(py_file).resolve().parent.relative_to(PROJECT)
        self._cache_path = os.path.join(config.CACHE_DIR, *inside.parts)

    @classmethod
    def from_function(cls, py_func, py_file):
        if not Path(py_file).resolve().is_relative_to(PROJECT):
            return None
        return super().from_function(py_func, py_file)


class _ProjectCacheImpl(CompileResultCacheImpl):
    _locator_classes = [_ProjectLocator, *CompileResultCacheImpl._locator_classes]


class _Baseline:
    """Stands for a codegen in a cache key: the machine's target triple, the baseline CPU."""

    def __init__(self, codegen):
        self.triple = codegen.magic_tuple()[0]

    def magic_tuple(self):
        return (self.triple, BASELINE_CPU, "")


class _EntryCache(FunctionCache):
    """Numba's cache, written only for a compile that a call from Python asked for, found by
    the source's place in the project, and read for the baseline CPU's machine code where
    none is there for this machine's."""

    _impl_class = _ProjectCacheImpl

    def __init__(self, py_func, dispatcher):
        super().__init__(py_func)
        self._dispatcher = dispatcher

    def save_overload(self, sig, data):
        if not self._dispatcher._inner:
            super().save_overload(sig, data)

    def load_overload(self, sig, target_context):
        """The cached machine code, or None (compile) where the cache cannot be read: an index
        left unreadable (a disk filled, a file cut short) is dropped and written anew."""
        try:
            return super().load_overload(sig, target_context) or self._load_baseline(
                sig, target_context
            )
        except Exception:  # noqa: BLE001 - whatever the cache holds, a compile is the answer
            with suppress(OSError):
                os.unlink(self._cache_file._index_path)
            return None

    def _load_baseline(self, sig, target_context):
        data = self._cache_file.load(self._index_key(sig, _Baseline(target_context.codegen())))
        return None if data is None else self._impl.rebuild(target_context, data)


class EngineDispatcher(CPUDispatcher):
    """Calls from compiled code use the widened argument types and leave the cache alone; a
    version compiled for compiled code is handed to Python, and cached, on Python's first
    call for it."""

    _inner = 0  # > 0 while compiled code's typing asks for this function

    def get_call_template(self, args, kws):
        args = tuple(_widened(a) for a in args)
        kws = {k: _widened(v) for k, v in kws.items()}
        self._inner += 1
        try:
            return super().get_call_template(args, kws)
        finally:
            self._inner -= 1

    def add_overload(self, cres):
        if self._inner:  # not yet callable from Python: its first call comes through compile
            self.overloads[tuple(cres.signature.args)] = cres
        else:
            super().add_overload(cres)

    def compile(self, sig):
        if not self._inner:
            args, _ = sigutils.normalize_signature(sig)
            cres = self.overloads.get(tuple(args))
            if cres is not None:  # compiled for compiled code: now Python's too, and cached
                super().add_overload(cres)
                with suppress(RuntimeError, ValueError):  # from the cache: it is there already
                    self._cache.save_overload(sig, cres)
                return cres.entry_point
        return super().compile(sig)


def njit(fn=None, **options):
    """`numba.njit` with the engine's dispatcher (the same options; `@njit` or `@njit(...)`)."""
    if fn is None:
        return lambda f: njit(f, **options)
    if config.DISABLE_JIT:
        return fn
    cache = options.pop("cache", False)
    disp = EngineDispatcher(py_func=fn, locals={}, targetoptions={"nopython": True, **options})
    if cache:
        disp._cache = _EntryCache(fn, disp)
    _DISPATCHERS.append(disp)
    return disp


def cache_compiled() -> None:
    """Write every engine function compiled in this process to numba's cache, inner ones too,
    so that another process compiling a caller loads them rather than compiling them again."""
    for fn in _DISPATCHERS:
        for sig in list(fn.overloads):
            fn.compile(sig)


def interpreted(fn):
    """The plain Python function behind an engine function (itself when the JIT is off): for
    Python code that reads a few values from a state numba has no compiled version for."""
    return getattr(fn, "py_func", fn)


def is_cached(fn) -> bool:
    """Whether a compiled function has machine code in memory or in numba's cache."""
    if config.DISABLE_JIT or fn.overloads:
        return True
    try:
        return bool(fn._cache._cache_file._load_index())
    except Exception:  # noqa: BLE001 - an unreadable index means: it will compile
        return False


class _Progress(event.Listener):
    """Counts engine functions compiled and shows the count on a terminal."""

    done = 0  # in this process, across notices: the count goes on where the last one stopped

    def __init__(self, stream):
        self.stream = stream

    def on_start(self, ev):
        pass

    def on_end(self, ev):
        if isinstance(ev.data.get("dispatcher"), EngineDispatcher):
            _Progress.done += 1
            if self.stream.isatty():
                total = max(len(_DISPATCHERS), self.done)
                self.stream.write(f"\r  {self.done} of about {total} functions ")
                self.stream.flush()


class CompileNotice:
    """Around a first call of the engine's entry points: if any is not in numba's cache,
    one line on stderr first (what compiles, that it happens once), a count on a terminal."""

    said = False

    def __init__(self, *entries):
        self.compiling = not all(is_cached(fn) for fn in entries)

    def __enter__(self):
        if self.compiling:
            self.listener = _Progress(sys.stderr)
            if not CompileNotice.said:  # one line a process
                CompileNotice.said = True
                sys.stderr.write(
                    "Delve: compiling the game engine with numba, once for this install "
                    "(a few minutes on 2 cores; later runs load it from numba's cache)\n"
                )
                sys.stderr.flush()
            event.register("numba:compile", self.listener)
        return self

    def __exit__(self, *exc):
        if self.compiling:
            event.unregister("numba:compile", self.listener)
            if sys.stderr.isatty():
                sys.stderr.write("\n")
            sys.stderr.flush()
        return False
