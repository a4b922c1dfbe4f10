"""Observation and action spaces, and what an env reports beside them (stats, snapshots)."""

import numpy as np
from gymnasium import spaces

from .engine.actions import NUM_ACTIONS
from .engine.batch import OBS_SHAPES
from .engine.observe import MAX_MAP_CODE
from .engine.state import FIELDS, State
from .engine.tables import EVENT_NAMES, KING_SLOT

SNAPSHOT_VERSION = 1


def observation_space() -> spaces.Dict:
    """ENV.md's Dict of fixed-shape arrays: map codes as uint8, the rest float32 in [0, 1]."""
    boxes = {}
    for key, (shape, dtype) in OBS_SHAPES.items():
        high = MAX_MAP_CODE if dtype == np.uint8 else 1.0
        boxes[key] = spaces.Box(0, high, shape=shape, dtype=dtype)
    return spaces.Dict(boxes)


def action_space() -> spaces.Discrete:
    return spaces.Discrete(NUM_ACTIONS)


def episode_stats(s: State, e: int) -> dict:
    """What a finished episode of slot e achieved (ENV.md, Rewards, info, metrics)."""
    achieved = int(s.achieved[e])
    return {
        "won": bool(s.outcome[e] == 1),
        "king_alive": bool(s.has_king[e] and s.hp[e, KING_SLOT] > 0),
        "book_home": bool(s.outcome[e] == 1 and s.has_book[e]),
        "deepest_floor": int(s.stat_deepest[e]),
        "rooms_explored": int(s.stat_rooms[e]),
        "kills": int(s.stat_kills[e]),
        "members_lost": int(s.stat_lost[e]),
        "raises_used": int(s.raised[e].sum()),
        "gold": int(s.gold[e]),
        "paces": int(s.pace[e]),
        "fights": int(s.stat_fights[e]),
        "bribes": 0,
        "vaults_opened": int(s.stat_vaults[e]),
        "flights": int(s.stat_flights[e]),
        "achievements": [n for i, n in enumerate(EVENT_NAMES) if (achieved >> i) & 1],
    }


def snapshot(s: State, e: int) -> dict:
    """A compact, picklable copy of slot e's whole state."""
    return {
        "version": SNAPSHOT_VERSION,
        "arrays": {name: np.array(a[e]) for name, a in zip(FIELDS, s)},
    }


def restore(s: State, e: int, snap: dict) -> None:
    """Load a snapshot into slot e; a snapshot of another shape or version raises ValueError."""
    if not isinstance(snap, dict) or snap.get("version") != SNAPSHOT_VERSION:
        raise ValueError(f"not a Delve snapshot of version {SNAPSHOT_VERSION}")
    arrays = snap.get("arrays", {})
    for name, a in zip(FIELDS, s):
        saved = arrays.get(name)
        if not isinstance(saved, np.ndarray) or saved.shape != a[e].shape or saved.dtype != a.dtype:
            raise ValueError(f"snapshot field {name!r} is missing or does not fit this config")
    for name, a in zip(FIELDS, s):
        a[e] = arrays[name]
