"""Achievements and the Delve score: a figure beside the win rate that tells weak players apart.

The win rate is binary, 0% for random and for most agents early in training, so it cannot
say which of two weak agents is better. An achievement is a milestone of the game a player
reaches (never a loss or a wound), each read off the state at the episode's end and tied to
its rule; `info["episode_stats"]["achievements"]` lists those reached. The Delve score is
Crafter's (Hafner, "Benchmarking the Spectrum of Agent Capabilities", ICLR 2022): the
geometric mean of the achievements' success rates, with each rate s_i in percent and one
added so a rate of 0 does not zero it, exp(mean(ln(1 + s_i))) - 1, in [0, 100]. Its 95%
interval is a bootstrap over the episodes.
"""

from __future__ import annotations

import numpy as np

from .engine.core.tables import (
    EV_BOOK,
    EV_BRIBE,
    EV_HEARD,
    EV_KILL,
    EV_KING,
    EV_LEVEL,
    EV_PAGE,
    EV_SECRET,
    EV_VAULT_OPEN,
)

BOOTSTRAP = 1000  # resamples of the episodes for the score's interval


def _event(bit: int):
    return lambda s, e: bool(int(s.achieved[e]) & bit)


def _depth(s, e) -> int:
    return int(s.floor_visited.shape[1] - 1)


# name, rule, what reaching it means, and how it is read off the state at the episode's end
ACHIEVEMENTS = (
    ("enter the dungeon", "RUN-1", "go down the courtyard's stair to floor 1",
     lambda s, e: int(s.stat_deepest[e]) >= 1),
    ("reach floor 2", "RUN-1", "go down a second stair", lambda s, e: int(s.stat_deepest[e]) >= 2),
    ("reach the book's floor", "RUN-2", "reach the floor halfway down where the book lies",
     lambda s, e: int(s.stat_deepest[e]) >= int(s.book_floor[e])),
    ("reach the bottom", "RUN-1", "reach the deepest floor, where the king is held",
     lambda s, e: int(s.stat_deepest[e]) >= _depth(s, e)),
    ("find a map", "MAP-5", "hold a floor's map (its stair down opens)",
     lambda s, e: int(s.maps_held[e]) != 0),
    ("find a page", "PAGE-1", "pick up a spell page", _event(EV_PAGE)),
    ("take the book", "RUN-3", "take the stolen spellbook", _event(EV_BOOK)),
    ("free the king", "RUN-4", "free the imprisoned king", _event(EV_KING)),
    ("first kill", "XP-1", "kill a monster", _event(EV_KILL)),
    ("gain a level", "XP-2", "a member reaches level 2", _event(EV_LEVEL)),
    ("pay a bribe", "BRIBE-1", "a band takes a bribe and lets the party by",
     _event(EV_BRIBE)),
    ("open a vault", "VAULT-1", "open a vault's lock", _event(EV_VAULT_OPEN)),
    ("find a secret door", "SECRET-1", "find a secret door by searching",
     _event(EV_SECRET)),
    ("hear a band", "LISTEN-1", "hear a band behind a door by listening", _event(EV_HEARD)),
    ("sneak into a room", "SNEAK-1", "sneak into a room whose band was heard",
     lambda s, e: int(s.stat_sneaks[e]) > 0),
    ("open a chest", "CHEST-1", "open a chest", lambda s, e: int(s.stat_chests[e]) > 0),
    ("buy at a store", "STORE-1", "buy an item or rations", lambda s, e: int(s.stat_bought[e]) > 0),
    ("use a power", "SPELL-1", "cast a spell, use a class feature or say a name",
     lambda s, e: int(s.stat_casts[e]) > 0),
    ("the king home", "RUN-4", "bring the king up to the courtyard alive: the game won",
     lambda s, e: int(s.outcome[e]) == 1),
    ("the book home", "RUN-3", "win with the spellbook in hand",
     lambda s, e: int(s.outcome[e]) == 1 and bool(s.has_book[e])),
)  # fmt: skip
NAMES = tuple(a[0] for a in ACHIEVEMENTS)


def achievements(s, e: int) -> list[str]:
    """The achievements slot e's game has reached, in the table's order."""
    return [name for name, _, _, reached in ACHIEVEMENTS if reached(s, e)]


def delve_score(rates: np.ndarray) -> float:
    """Crafter's score of success rates in percent: exp(mean(ln(1 + s_i))) - 1."""
    return float(np.exp(np.mean(np.log1p(np.asarray(rates, dtype=float)))) - 1)


def rates(reached: list[list[str]]) -> np.ndarray:
    """Each achievement's success rate in percent over episodes (each a list of names)."""
    hits = np.array([[name in got for name in NAMES] for got in reached], dtype=float)
    return 100 * hits.mean(axis=0) if len(hits) else np.zeros(len(NAMES))


def score(reached: list[list[str]], seed: int = 0) -> dict:
    """The Delve score of episodes (each the list of achievements it reached), its 95%
    bootstrap interval over the episodes, and each achievement's rate."""
    hits = np.array([[name in got for name in NAMES] for got in reached], dtype=float)
    if not len(hits):
        raise ValueError("the score needs at least one episode")
    point = delve_score(100 * hits.mean(axis=0))
    rng = np.random.default_rng(seed)
    draws = [delve_score(100 * hits[rng.integers(0, len(hits), len(hits))].mean(axis=0))
             for _ in range(BOOTSTRAP)]  # fmt: skip
    low, high = np.percentile(draws, [2.5, 97.5])
    return {"score": point, "interval": (float(low), float(high)),
            "rates": dict(zip(NAMES, (100 * hits.mean(axis=0)).tolist()))}  # fmt: skip


def markdown() -> str:
    """The achievements as a table (docs/OBSERVATION.md)."""
    rows = [f"| {name} | {rule} | {meaning} |" for name, rule, meaning, _ in ACHIEVEMENTS]
    return "\n".join(
        ["| achievement | rule | reached when the party ... |", "|---|---|---|", *rows]
    )
