"""Per-slot random numbers: one xorshift64 state per env, threaded explicitly (RUN-7).

Shifts and xors only, so the same code gives the same numbers compiled or under
NUMBA_DISABLE_JIT=1 (no integer overflow to warn about). The high bits are used.
"""

import numpy as np

from ..compiled.jit import njit

_S13, _S7, _S17, _S11 = np.uint64(13), np.uint64(7), np.uint64(17), np.uint64(11)
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_STREAMS = (np.uint64(0x243F6A8885A308D3), np.uint64(0x13198A2E03707344))
GEN, PLAY = 0, 1  # the dungeon-generation stream and the play stream


@njit(cache=True)
def next_u64(rng, e):
    """Advance slot e's state and return it."""
    x = rng[e]
    x ^= x << _S13
    x ^= x >> _S7
    x ^= x << _S17
    rng[e] = x
    return x


@njit(cache=True)
def randint(rng, e, n):
    """Uniform integer in [0, n)."""
    return np.int64((next_u64(rng, e) >> _S11) % np.uint64(n))


@njit(cache=True)
def roll(rng, e, dice, sides=6):
    """Sum of `dice` dice of `sides` sides."""
    total = 0
    for _ in range(dice):
        total += randint(rng, e, sides) + 1
    return total


@njit(cache=True)
def chance(rng, e, p):
    """True with probability p."""
    return (next_u64(rng, e) >> _S11) * (1.0 / 9007199254740992.0) < p


@njit(cache=True)
def seed_state(seed, stream):
    """A nonzero, well-mixed state for one stream of a seed."""
    x = np.uint64(seed) ^ _GOLDEN ^ _STREAMS[stream]
    if x == 0:
        x = _GOLDEN
    mix = np.zeros(1, dtype=np.uint64)
    mix[0] = x
    for _ in range(24):
        next_u64(mix, 0)
    return mix[0]
