"""`Engine`: N envs' state, parameters and preallocated output buffers, stepped in one call.

This is the only Python the hot path touches: it hands arrays to the compiled step. With
`num_threads` > 1 the envs are cut into that many contiguous ranges, each stepped by the
compiled code on its own thread (it runs without the GIL; the first range on the caller's).
Every env has its own RNG, so the results are the same bytes for every thread count.
"""

from concurrent.futures import ThreadPoolExecutor
from functools import partial
from operator import index

import numpy as np

from .compiled.jit import CompileNotice
from .compiled.struct import IO, IO_FIELDS, compiled_io, compiled_view
from .core.actions import NUM_ACTIONS
from .core.params import P_DEPTH, P_HEIGHT, P_WIDTH
from .core.state import allocate
from .outputs.layout import OBS_BYTES, views
from .outputs.privileged import STATE_BYTES, write_states
from .step import refresh_batch, reset_batch, step_batch

_READY = set()  # the entry points compiled or loaded in this process
_IO_NAMES = {"obs": "obs_record"}  # struct.IO's fields that the Engine names otherwise


class Engine:
    """A batch of `num_envs` Delve games sharing one parameter vector and party."""

    def __init__(self, num_envs: int, params: np.ndarray, party: np.ndarray, num_threads: int = 1):
        self.num_envs = num_envs
        self.params = params
        self.party = party
        depth, height, width = int(params[P_DEPTH]), int(params[P_HEIGHT]), int(params[P_WIDTH])
        self._arrays = allocate(num_envs, depth, height, width)
        self.obs_record = np.zeros((num_envs, OBS_BYTES), dtype=np.uint8)  # layout.py
        self.masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.bool_)
        self._bind_views()
        # the explore row an open selection replaced, and whether one is kept (legal_mask)
        self.kept_rows = np.zeros((num_envs, NUM_ACTIONS), dtype=np.bool_)
        self.kept = np.zeros(num_envs, dtype=np.bool_)
        self.rewards = np.zeros(num_envs, dtype=np.float32)
        self.terminated = np.zeros(num_envs, dtype=np.bool_)
        self.truncated = np.zeros(num_envs, dtype=np.bool_)
        self.invalid = np.zeros(num_envs, dtype=np.bool_)
        self.paces = np.zeros(num_envs, dtype=np.int32)  # paces of each slot's last step
        # the step's inputs: callers' arrays are copied in, or written here in place
        self.actions = np.zeros(num_envs, dtype=np.int64)
        self.needs_reset = np.zeros(num_envs, dtype=np.bool_)
        self._set_threads(num_threads)

    def _set_threads(self, num_threads: int) -> None:
        self.num_threads = max(1, min(num_threads, self.num_envs))
        cuts = np.linspace(0, self.num_envs, self.num_threads + 1).astype(int)
        self._ranges = [(int(a), int(b)) for a, b in zip(cuts[:-1], cuts[1:])]
        self._pool = ThreadPoolExecutor(self.num_threads - 1) if self.num_threads > 1 else None
        # what Python reads and writes and hands to engine functions (struct.StateView)
        self.state = compiled_view(self._arrays)
        self._io = compiled_io(IO(*(getattr(self, _IO_NAMES.get(k, k)) for k in IO_FIELDS)))
        self._direct = None  # one thread: the compiled step bound to these arrays (step)

    def _bind_views(self) -> None:
        self.obs = views(self.obs_record)  # the Dict's keys, views into the record
        # slot 0's keys and mask, for the single env: each key's bound `copy` (in layout.KEYS'
        # order) is the cheapest fresh observation (cutting one copied record costs more)
        self.first_obs_copies = tuple(v.copy for v in views(self.obs_record[0]).values())
        self.first_mask = self.masks[0]

    def __getstate__(self) -> dict:
        # the compiled view and the thread pool are handles to this process: rebuilt from
        # the arrays, never pickled
        skip = ("state", "_io", "_pool", "_ranges", "obs", "first_obs_copies", "first_mask",
                "_direct")  # fmt: skip
        return {k: v for k, v in self.__dict__.items() if k not in skip}

    def __setstate__(self, d: dict) -> None:
        self.__dict__.update(d)
        self._bind_views()
        self._set_threads(self.num_threads)

    def _run(self, fn, *args, copies=None) -> None:
        """Call compiled `fn(state, io, *args, lo, hi)` over every env range, one thread each; with
        `copies` (record, masks), each thread then copies its range of the outputs there."""

        if fn not in _READY:
            self.compile(fn)
        if self._pool is None:  # one thread: a direct call (the single env feels every us)
            self._job(fn, args, copies, 0, self.num_envs)
            return
        # the first range runs on this thread while the pool's threads run the others (one
        # wake-up fewer: with a few hundred envs, waking a thread costs what it saves)
        jobs = [self._pool.submit(self._job, fn, args, copies, lo, hi)
                for lo, hi in self._ranges[1:]]  # fmt: skip
        try:
            self._job(fn, args, copies, *self._ranges[0])
        finally:  # never return while another thread still writes
            for j in jobs:
                j.result()

    def _job(self, fn, args, copies, lo: int, hi: int) -> None:
        """One thread's range: the compiled call, then its slice of the copies."""
        fn(self.state, self._io, *args, lo, hi)
        if copies is not None:
            copies[0][lo:hi] = self.obs_record[lo:hi]
            copies[1][lo:hi] = self.masks[lo:hi]

    def compile(self, *entries) -> None:
        """Compile (or load from numba's cache) the entry points not yet ready in this process,
        by default all three, each called on an empty range of envs, under one notice. The
        first call of each compiles it anyway; this lets a caller choose when."""
        todo = [fn for fn in (entries or (reset_batch, step_batch, refresh_batch))
                if fn not in _READY]  # fmt: skip
        if not todo:
            return
        none = np.zeros(self.num_envs, dtype=np.bool_)
        args = {reset_batch: (np.zeros(0, dtype=np.uint64), none), step_batch: (),
                refresh_batch: (none,)}  # fmt: skip
        with CompileNotice(*todo):
            for fn in todo:
                fn(self.state, self._io, *args[fn], 0, 0)
                _READY.add(fn)

    def reset(self, seeds: np.ndarray, which: np.ndarray) -> None:
        """Start new runs in the slots flagged in `which`, from their uint64 seeds (an empty
        `seeds` draws each slot's next seed from its own RNG)."""
        self._run(reset_batch, seeds, which)

    def step(self, actions: np.ndarray, needs_reset: np.ndarray, copy: bool = False):
        """Step every slot with its action; slots flagged in `needs_reset` start a new run;
        a slot whose action is `HOLD` (and not flagged) is left untouched.

        With `copy`, returns fresh copies of the observation record and the masks (what a
        vector env hands out), made by the threads that stepped each range."""
        if actions is not self.actions:
            self.actions[:] = actions
        if needs_reset is not self.needs_reset:
            self.needs_reset[:] = needs_reset
        if self._direct is not None:
            self._direct()
            return (self.obs_record.copy(), self.masks.copy()) if copy else None
        copies = (np.empty_like(self.obs_record), np.empty_like(self.masks)) if copy else None
        self._run(step_batch, copies=copies)
        if self._pool is None:
            self._direct = bound_entry(step_batch, self.state, self._io, 0, self.num_envs)
        return copies

    def privileged(self) -> np.ndarray:
        """Every slot's privileged record (outputs/privileged.py), computed now: (N,
        STATE_BYTES) uint8. Nothing on the step's path reads or writes it."""
        out = np.empty((self.num_envs, STATE_BYTES), dtype=np.uint8)
        write_states(self.state, self.obs_record, out)
        return out

    def refresh(self, which: np.ndarray) -> None:
        """Recompute from scratch the observations and masks of the flagged slots."""
        self._run(refresh_batch, which)


def bound_entry(fn, *args):
    """`fn(*args)` as a call of no arguments into the machine code numba compiled for these
    arguments' types, past its dispatcher: the dispatcher types every argument at every call,
    a cost the single env's step would pay each time. Only for arguments that are always these objects;
    the state's and the buffers' views go as their addresses (`index`, struct.StateView: an
    int unboxes quicker), so the caller keeps the views alive. (Without the JIT, the function
    itself.)"""
    overloads = getattr(fn, "overloads", None)
    if overloads is None:
        return partial(fn, *args)
    compiled = overloads.get(tuple(fn.typeof_pyval(a) for a in args))
    if compiled is None:
        return partial(fn, *args)
    return partial(compiled.entry_point, *map(index, args))
