"""Compile the whole engine into numba's cache on two cores (CI's first step):

    python -m delve_env.engine.compiled.warm

Numba compiles in one thread, and the entry points share most of their trees (a step can start
a new run, and both write the outputs): two processes each compiling an entry point would
both compile nearly all of the engine. Here it is cut in two parts: a new run with its outputs
(`reset_batch`, `refresh_batch`) and the actions (the step's own callees), which share about a
third of their compile time. Each compiles in a process of its own and writes every function
it compiled to the cache; the entry point left, `step_batch`, then compiles only its own body
and loads the rest. On 2 cores that takes about 210 s, where one process compiling everything
takes about 250 and the entry points side by side 300. Run before the tests, no test worker
compiles.
"""

import subprocess
import sys
import time

import numba
from numba import typeof

from ... import make_vec
from ..step import (
    autofight,
    count_free,
    one_action,
    refresh_batch,
    reset_batch,
    step_reward,
    travel,
)
from .jit import cache_compiled

PARTS = ("reset", "actions")


@numba.njit
def _actions(s, io):
    """Compiled by signature, never run: it types the step's callees as step_batch calls
    them (integers widened by the engine's dispatcher, so 0 stands for any env or action)."""
    p = io.params
    one_action(s, p, 0, 0, s.rng)
    travel(s, p, 0, 0, s.rng)
    autofight(s, p, 0, s.rng)
    count_free(s, p, 0, s.mode[0], True)
    step_reward(s, p, 0)


def compile_part(part: str) -> None:
    """Compile one part ("reset" or "actions") and write all it compiled to the cache."""
    if part not in PARTS:
        raise ValueError(f"unknown part {part!r}: expected one of {PARTS}")
    start = time.perf_counter()
    engine = make_vec(1).engine
    if part == "reset":
        engine.compile(reset_batch, refresh_batch)
        engine.privileged()  # the privileged state (a critic's), small beside the rest
    else:
        _actions.compile((typeof(engine.state), typeof(engine._io)))
    cache_compiled()
    print(f"delve: {part} part compiled in {time.perf_counter() - start:.0f} s", flush=True)


def main() -> None:
    start = time.perf_counter()
    parts = [subprocess.Popen([sys.executable, "-m", f"{__package__}.warm", p]) for p in PARTS]
    if any([part.wait() != 0 for part in parts]):  # a list: wait for both
        sys.exit("delve: compiling a part of the engine failed (its error is above)")
    make_vec(1).engine.compile()  # step_batch, on the parts in the cache
    print(f"delve: engine compiled into numba's cache in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        compile_part(sys.argv[1])
    else:
        main()
