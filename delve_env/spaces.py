"""Observation and action spaces, and the episode statistics an env reports beside them."""

import numpy as np
from gymnasium import spaces

from .engine.core.actions import NUM_ACTIONS
from .engine.core.state import State
from .engine.core.tables import EVENT_NAMES, KING_SLOT
from .engine.outputs.layout import highs
from .engine.outputs.privileged import highs as privileged_highs
from .score import achievements


def observation_space() -> spaces.Dict:
    """ENV.md's Dict of fixed-shape arrays: uint8 codes, counts and capped amounts, each value
    bounded by its field's high (engine/outputs/layout.py)."""
    return spaces.Dict(
        {k: spaces.Box(0, high, shape=high.shape, dtype=np.uint8) for k, high in highs().items()}
    )


def float_observation_space() -> spaces.Dict:
    """The same Dict as float32 in [0, 1] (what `FloatObservation` gives)."""
    return spaces.Dict(
        {k: spaces.Box(0.0, 1.0, shape=high.shape, dtype=np.float32) for k, high in highs().items()}
    )


def state_space() -> spaces.Box:
    """The privileged state's record (`state()`, engine/outputs/privileged.py)."""
    high = privileged_highs()
    return spaces.Box(0, high, shape=high.shape, dtype=np.uint8)


def action_space() -> spaces.Discrete:
    return spaces.Discrete(NUM_ACTIONS)


def episode_stats(s: State, e: int) -> dict:
    """What a finished episode of slot e achieved (ENV.md, Rewards, info, metrics): its
    `achievements` (`score.ACHIEVEMENTS`) and its `events` (every event flag raised)."""
    achieved = int(s.achieved[e])
    return {
        "won": bool(s.outcome[e] == 1),
        "king_alive": bool(s.has_king[e] and s.hp[e, KING_SLOT] > 0),
        "book_home": bool(s.outcome[e] == 1 and s.has_book[e]),
        "deepest_floor": int(s.stat_deepest[e]),
        "rooms_explored": int(s.stat_rooms[e]),
        "tiles_seen": int(s.stat_tiles[e]),
        "kills": int(s.stat_kills[e]),
        "members_lost": int(s.stat_lost[e]),
        "raises_used": int(s.raised[e].sum()),
        "gold": int(s.gold[e]),
        "paces": int(s.pace[e]),
        "fights": int(s.stat_fights[e]),
        "bribes": int(s.stat_bribes[e]),
        "listens": int(s.stat_listens[e]),
        "sneaks": int(s.stat_sneaks[e]),
        "vaults_opened": int(s.stat_vaults[e]),
        "flights": int(s.stat_flights[e]),
        "chests_opened": int(s.stat_chests[e]),
        "traps_sprung": int(s.stat_traps[e]),
        "items_bought": int(s.stat_bought[e]),
        "items_sold": int(s.stat_sold[e]),
        "statue_bids": int(s.stat_bids[e]),
        "baths": int(s.stat_baths[e]),
        "rations_eaten": int(s.stat_eaten[e]),
        "practice_bouts": int(s.stat_bouts[e]),
        "achievements": achievements(s, e),
        "events": [n for i, n in enumerate(EVENT_NAMES) if (achieved >> i) & 1],
    }
