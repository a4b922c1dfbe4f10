"""The random-legal policy: a uniformly random unmasked action (the benchmark baseline)."""

import numpy as np


class RandomLegalAgent:
    """Picks uniformly among the legal actions of `info["action_mask"]` (one env or a batch)."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act(self, mask: np.ndarray) -> np.ndarray | int:
        """One legal action for a (A,) mask, or one per row of an (N, A) mask."""
        if mask.ndim == 1:
            return int(self.rng.choice(np.flatnonzero(mask)))
        noise = self.rng.random(mask.shape)
        return np.argmax(np.where(mask, noise, -1.0), axis=1)
