"""The Delve engine: batch-first numpy state and numba-compiled mechanics, one module each.

`step.py` resets and steps N envs in one compiled call and `batch.py` holds their buffers;
the rest is in wings: `core/` (the state, the rules tables, the tunables, the random streams,
the action table), `rules/` (one module per mechanic), `generation/` (the dungeon of a run),
`outputs/` (observation, mask and why, rewards, fight log) and `compiled/` (numba's plumbing).

Numba's on-disk cache notices a change to a function's own file, but not to the functions it
calls from other files. The cache therefore lives in a folder named after a hash of every
engine source, so any edit starts a fresh cache instead of running stale machine code.

Under NUMBA_DISABLE_JIT=1 the same code runs on numpy scalars: a value read from an int8 or
int16 field stays int8 or int16 in arithmetic (it wraps, and a Python int out of its range
raises), where compiled code computes in int64. Widen such a value with `int()` before
arithmetic that can leave its dtype's range (`HINT_PRICE * int(f)`, `1 << int(f)`).
"""

import hashlib
import os
from pathlib import Path

from numba import config


def _source_hash() -> str:
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.rglob("*.py")):
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


if not os.environ.get("NUMBA_CACHE_DIR"):
    config.CACHE_DIR = str(Path(__file__).parent / "__pycache__" / f"numba-{_source_hash()}")
