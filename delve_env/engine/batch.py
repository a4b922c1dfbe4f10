"""`Engine`: N envs' state, parameters and preallocated output buffers, stepped in one call.

This is the only Python the hot path touches: it hands arrays to the compiled step.
"""

import numpy as np

from .actions import NUM_ACTIONS
from .observe import CROP, FIGHT_SIZE, PACK_FEATURES, PARTY_FEATURES, PUZZLE_SIZE, STATUS_SIZE
from .params import P_DEPTH, P_HEIGHT, P_WIDTH
from .state import allocate
from .step import refresh_batch, reset_batch, step_batch
from .struct import compiled_view
from .tables import MAX_MEMBERS, NUM_ITEM_SLOTS

OBS_SHAPES = {
    "map": ((2, CROP, CROP), np.uint8),
    "party": ((MAX_MEMBERS, PARTY_FEATURES), np.float32),
    "status": ((STATUS_SIZE,), np.float32),
    "fight": ((FIGHT_SIZE,), np.float32),
    "puzzle": ((PUZZLE_SIZE,), np.float32),
    "pack": ((MAX_MEMBERS, NUM_ITEM_SLOTS, PACK_FEATURES), np.float32),
}


class Engine:
    """A batch of `num_envs` Delve games sharing one parameter vector and party."""

    def __init__(self, num_envs: int, params: np.ndarray, party: np.ndarray):
        self.num_envs = num_envs
        self.params = params
        self.party = party
        depth, height, width = int(params[P_DEPTH]), int(params[P_HEIGHT]), int(params[P_WIDTH])
        self.state = allocate(num_envs, depth, height, width)  # what Python reads and writes
        self._compiled = compiled_view(self.state)  # the same arrays, for compiled code
        self.obs = {
            k: np.zeros((num_envs, *shape), dtype) for k, (shape, dtype) in OBS_SHAPES.items()
        }
        self.masks = np.zeros((num_envs, NUM_ACTIONS), dtype=np.bool_)
        self.rewards = np.zeros(num_envs, dtype=np.float32)
        self.terminated = np.zeros(num_envs, dtype=np.bool_)
        self.truncated = np.zeros(num_envs, dtype=np.bool_)
        self.invalid = np.zeros(num_envs, dtype=np.bool_)

    def __getstate__(self) -> dict:
        # the compiled view is a handle to native memory: rebuilt, never pickled
        return {k: v for k, v in self.__dict__.items() if k != "_compiled"}

    def __setstate__(self, d: dict) -> None:
        self.__dict__.update(d)
        self._compiled = compiled_view(self.state)

    def reset(self, seeds: np.ndarray, which: np.ndarray) -> None:
        """Start new runs in the slots flagged in `which`, from their uint64 seeds (an empty
        `seeds` draws each slot's next seed from its own RNG)."""
        o = self.obs
        reset_batch(self._compiled, self.params, self.party, seeds, which, self.masks, o["map"],
                    o["party"], o["status"], o["fight"], o["puzzle"], o["pack"])  # fmt: skip

    def step(self, actions: np.ndarray, needs_reset: np.ndarray) -> None:
        """Step every slot with its action; slots flagged in `needs_reset` start a new run."""
        o = self.obs
        step_batch(self._compiled, self.params, self.party, actions, needs_reset, self.masks,
                   self.rewards, self.terminated, self.truncated, self.invalid, o["map"],
                   o["party"], o["status"], o["fight"], o["puzzle"], o["pack"])  # fmt: skip

    def refresh(self, which: np.ndarray) -> None:
        """Recompute observations and masks of the flagged slots from their state."""
        o = self.obs
        refresh_batch(self._compiled, self.params, which, self.masks, o["map"], o["party"],
                      o["status"], o["fight"], o["puzzle"], o["pack"])  # fmt: skip
