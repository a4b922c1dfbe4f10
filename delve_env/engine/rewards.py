"""Rewards: the sparse outcome, plus small documented terms in shaped mode (ENV.md)."""

import numpy as np

from .jit import njit
from .params import P_REWARD_SHAPED
from .tables import EVENT_NAMES, NUM_EVENTS

WIN_REWARD = 1.0
BOOK_BONUS = 0.5  # RUN-3: bringing the book home too is the better win
LOSS_REWARD = -1.0

# Shaped terms, one weight per event bit (tables.EVENT_NAMES); events not named are 0.
SHAPED_WEIGHTS = {
    "new room": 0.02,
    "new floor": 0.1,
    "kill": 0.02,
    "level up": 0.05,
    "death": -0.2,
    "map": 0.05,
    "page": 0.02,
    "book": 0.3,
    "king": 0.3,
}
EVENT_WEIGHTS = np.array([SHAPED_WEIGHTS.get(n, 0.0) for n in EVENT_NAMES], dtype=np.float64)
assert len(EVENT_WEIGHTS) == NUM_EVENTS


@njit(cache=True)
def step_reward(s, p, e):
    """The reward of env e's last step, from its outcome and its event bits."""
    r = 0.0
    if s.outcome[e] == 1:
        r += WIN_REWARD + (BOOK_BONUS if s.has_book[e] else 0.0)
    elif s.outcome[e] == 2:
        r += LOSS_REWARD
    if p[P_REWARD_SHAPED] > 0:
        for i in range(NUM_EVENTS):
            if (s.events[e] >> i) & 1:
                r += EVENT_WEIGHTS[i]
    return r
