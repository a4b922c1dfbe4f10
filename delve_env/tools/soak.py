"""Delve reliability: random-agent soaks with invariants, determinism digests, generation checks.

The invariant checker, soak runners and digests the tests import (tests/test_reliability.py,
tests/test_determinism.py and the rule tests), and the long runs' command
(`benchmarks/soak.py` runs this module's `main`):

    python benchmarks/soak.py                # CI sizes: a quick pass of everything (~1 min)
    python benchmarks/soak.py --long         # long sizes: 10^7 legal + 10^6 strict steps per id,
                                             # 10,000 generated dungeons per preset, determinism
                                             # of 100 seeds x 10^4 steps at batch sizes 1/4/16/64,
                                             # and benchmarks/memory.py at full size
    python benchmarks/soak.py --only soak,generation --ids Delve-v0
    python benchmarks/soak.py digest --id Delve-v0 --seeds 0:20 --steps 10000 [--runner single]
                                             # one JSON object of per-seed sha256 digests (used by
                                             # the cross-process determinism tests)

Every check reports violations instead of stopping at the first, so a table of figures comes out
even when something breaks; the exit status is 1 if anything was found.

## The invariants (checked from the engine state after every step of every slot)
HP never above the ceiling + 6 (only Aid goes past it, HP-1) and never negative; the ceiling at least 1 for every member in the
party; gold and rations never negative; no member raised more than 3 times, the king never
raised; a selected item slot (PARTY-4) never empty; pages never lost (pages held + pages in the book never decrease within an episode); the
book never lost; the clock (pace) monotone within an episode; a step taken in FIGHT mode leaves
the pace unchanged; the step counter goes up by exactly one per step; mode, outcome and floor in
range; the party on a walkable tile of its floor. Chests, baths and bouts (CHEST-1, BATH-1,
COURT-2): every chest state in range, no chest in a feature's room or the vault; a member
bathed only on a floor with a bath; a practice bout only in the courtyard and only in a fight,
nobody marked down outside one; no member dies and the run is never lost in a bout step.
Magic (SPELL-1, NAME-1): true names only for Namers, known and spent spells only for Wizards
(mage spells), wand casts 0..3 and only with wand magic, mana never negative, at most 3
illusions, an ally a monster kind or the familiar, no foe status bits but the three marks.

## The determinism digest
One sha256 per seed over the records of its first `steps` steps: the observation bytes (keys in
a fixed order), the reward as float64, terminated, truncated, the action mask and the event bits.
A reset (the first one, and each autoreset) counts as a record: obs, reward 0, False, False,
mask, events. Actions come from a stateless hash of (seed, number of actions the game has taken)
that picks one of the legal actions, so the same game gets the same actions under every runner
(single env, any batch size, the SB3 adapter).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import struct
import subprocess
import sys
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

import delve_env
from delve_env.config import Config
from delve_env.engine.actions import NUM_ACTIONS
from delve_env.engine.batch import Engine
from delve_env.engine.fights import FAMILIAR
from delve_env.engine.floors import walk_distances
from delve_env.engine.layout import KEYS
from delve_env.engine.reach import sets_as_walked
from delve_env.engine.spells import AID_OVER, MAX_DECOYS
from delve_env.engine.tables import (
    CHEST_NONE,
    CHEST_OPEN,
    CHOICE,
    CLERIC,
    DOOR,
    EXPLORE,
    FEAT_BATH,
    FEAT_NONE,
    FEAT_STATUE,
    FEAT_STORE,
    FIGHT,
    FS_BLIND,
    FS_BOUND,
    FS_MARKED,
    HALL,
    I_DV,
    ITEMS,
    KING,
    KING_SLOT,
    MAGE_SPELLS,
    NAMER,
    NUM_ITEMS,
    NUM_KEEPER_EVENTS,
    NUM_MODES,
    NUM_NAMES,
    NUM_OPTIONS,
    ROCK,
    ROOM,
    SECRET,
    STAIR_DOWN,
    STAIR_UP,
    STATUE,
    STORE,
    WARD,
    WIZARD,
)
from delve_env.engine.traits import ARMORER_DV, CLERIC_HOLY_WEAPON, NAMER_BLOOD, WAND_CASTS
from delve_env.engine.travel import find_ways
from delve_env.spaces import observation_space

ROOT = Path(__file__).resolve().parents[2]  # the checkout
GOLDEN_DIR = ROOT / "tests" / "golden"
PRESETS: dict[str, dict] = {k: dict(v) for k, v in delve_env.IDS.items()}
OBS_KEYS = tuple(k.name for k in KEYS)  # the fixed order of observation keys in a digest record
WALKABLE = np.array([HALL, ROOM, DOOR, STAIR_DOWN, STAIR_UP])
MAX_EFFECT_PACES = 10000  # config.TUNABLES: the most lantern_paces / scroll_paces may be
MAX_RAISES = 3  # RAISE-1
POLICY_VERSION = "splitmix64-legal-v1"  # change it if the digest policy below ever changes

# ------------------------------------------------------------------------------------------
# A stateless policy: the k-th action of seed s is a hash of (s, k)
# ------------------------------------------------------------------------------------------
_M64 = (1 << 64) - 1
_GOLD = 0x9E3779B97F4A7C15
_C1, _C2 = 0xBF58476D1CE4E5B9, 0x94D049BB133111EB


def mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser on a uint64 array (wrapping arithmetic)."""
    x = np.asarray(x, dtype=np.uint64)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(_C1)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(_C2)
    return x ^ (x >> np.uint64(31))


def mix64_int(x: int) -> int:
    """`mix64` on one Python int (the single-env runners use it: no numpy call per step)."""
    x &= _M64
    x = ((x ^ (x >> 30)) * _C1) & _M64
    x = ((x ^ (x >> 27)) * _C2) & _M64
    return x ^ (x >> 31)


def noise(seeds: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """The policy's random word for game `seeds[i]` taking its `counts[i]`-th action."""
    s = np.asarray(seeds, dtype=np.uint64)
    k = np.asarray(counts, dtype=np.uint64)
    return mix64(mix64(s * np.uint64(_GOLD) + np.uint64(1)) ^ k)


def noise_int(seed: int, count: int) -> int:
    return mix64_int(mix64_int((seed * _GOLD + 1) & _M64) ^ count)


def choose_legal(masks: np.ndarray, words: np.ndarray) -> np.ndarray:
    """Per row, the (word % legal count)-th legal action (rows of an (N, A) mask)."""
    counts = masks.sum(axis=1)
    if not counts.all():
        raise AssertionError(f"empty action mask in slots {np.flatnonzero(counts == 0)}")
    idx = (np.asarray(words, dtype=np.uint64) % counts.astype(np.uint64)).astype(np.int64)
    return np.argmax(np.cumsum(masks, axis=1) > idx[:, None], axis=1).astype(np.int64)


def choose_legal_one(mask: np.ndarray, word: int) -> int:
    legal = np.flatnonzero(mask)
    if len(legal) == 0:
        raise AssertionError("empty action mask")
    return int(legal[word % len(legal)])


# ------------------------------------------------------------------------------------------
# Invariants
# ------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Violation:
    slot: int
    rule: str
    detail: str

    def __str__(self) -> str:
        return f"slot {self.slot}: {self.rule} ({self.detail})"


def pages_total(s) -> np.ndarray:
    return s.pages_held.astype(np.int64).sum(axis=1) + s.book_pages.astype(np.int64).sum(axis=1)


class InvariantChecker:
    """Checks every slot of an engine state after every step (see the module docstring).

    Call `check(state, new_episode)` after each step; `new_episode[i]` marks slots whose step
    started a new game (a reset, an autoreset or a state load), where the within-episode
    comparisons with the previous step are skipped. The first call only checks the state.
    """

    def __init__(self, limit: int = 50):
        self.limit = limit  # violations kept (the count goes on)
        self.violations: list[Violation] = []
        self.count = 0
        self.checks = 0
        self._prev: dict | None = None

    def reset_baseline(self) -> None:
        self._prev = None

    def _add(self, slots: Iterable[int], rule: str, detail: Callable[[int], str]) -> None:
        for e in slots:
            self.count += 1
            if len(self.violations) < self.limit:
                self.violations.append(Violation(int(e), rule, detail(int(e))))

    def _check_effects(self, s, now: dict, prev: dict | None, new_episode) -> None:
        """EFFECT-1, ITEM-2, STATUE-1: effect counts in range and spent one a pace, the
        foul flag only while WARD runs, known kinds real and never forgotten, the statue
        screen only in a statue's room, thresholds in [P/4, P]."""
        n = len(s.mode)
        bad = lambda cond: np.flatnonzero(cond)  # noqa: E731
        effects = now["effects"]
        self._add(
            bad(((effects < 0) | (effects > MAX_EFFECT_PACES)).any(axis=1)),
            "effect count out of range",
            lambda e: f"effects {effects[e].tolist()}",
        )
        self._add(
            bad(s.ward_foul & (effects[:, WARD] == 0)),
            "foul lantern without WARD",
            lambda e: f"effects {effects[e].tolist()}",
        )
        known = now["known"]
        self._add(
            bad((known & ~np.int64((1 << NUM_ITEMS) - 2)) != 0),
            "known kinds outside the item kinds",
            lambda e: f"known_kinds {known[e]:#x}",
        )
        f = np.clip(s.floor, 0, s.tiles.shape[1] - 1).astype(np.int64)
        x = np.clip(s.x, 0, s.tiles.shape[3] - 1).astype(np.int64)
        y = np.clip(s.y, 0, s.tiles.shape[2] - 1).astype(np.int64)
        rows = np.arange(n)
        room = s.room_of[rows, f, y, x].astype(np.int64)
        feature = s.room_feature[rows, f, np.maximum(room, 0)]
        self._add(
            bad((s.mode == STATUE) & ((room < 0) | (feature != FEAT_STATUE))),
            "statue screen outside a statue room",
            lambda e: f"floor {s.floor[e]} x {s.x[e]} y {s.y[e]}",
        )
        price, threshold = s.statue_price.astype(np.int64), s.statue_threshold.astype(np.int64)
        self._add(
            bad(((price > 0) & ((threshold < price // 4) | (threshold > price))).any(axis=1)),
            "statue threshold outside [P/4, P]",
            lambda e: f"price {price[e].tolist()} threshold {threshold[e].tolist()}",
        )
        if prev is None or len(prev["pace"]) != n:
            return
        same = ~np.broadcast_to(np.asarray(new_episode, bool), (n,))
        ticks = (now["pace"] - prev["pace"])[:, None]
        fell = prev["effects"] - effects
        self._add(
            bad(same & (ticks[:, 0] > 0) & (s.free_streak != 0)),
            "free streak kept across a pace",
            lambda e: f"free_streak {s.free_streak[e]} after {ticks[e, 0]} paces",
        )
        spent = (fell == ticks) | ((effects == 0) & (fell <= ticks))  # one a pace, to 0 at most
        spent[:, WARD] |= prev["foul"] & ~s.ward_foul & (effects[:, WARD] == 0)  # dispelled
        self._add(
            bad(same & ((fell > 0) & ~spent).any(axis=1)),
            "effect spent but by one pace",
            lambda e: f"effects {prev['effects'][e].tolist()} -> {effects[e].tolist()}",
        )
        self._add(
            bad(same & ((prev["known"] & ~known) != 0)),
            "known kind forgotten",
            lambda e: f"known_kinds {prev['known'][e]:#x} -> {known[e]:#x}",
        )
        self._add(
            bad(same & (now["bids"] < prev["bids"])),
            "statue bids went down",
            lambda e: f"bids {prev['bids'][e]} -> {now['bids'][e]}",
        )

    def check(self, s, new_episode=False, stepped=True) -> list[Violation]:
        """Check the state now; returns the violations found by this call (all of them are
        also kept in `violations` up to `limit`, and counted in `count`).

        `new_episode` (a bool or per-slot bools): the slot started a new game since the last
        call (reset, autoreset or load). `stepped` (a bool or per-slot bools): the slot took
        exactly one step since the last call; if not, it must not have moved at all (same
        clock, step count, pages and book)."""
        before = self.count
        first_new = len(self.violations)
        n = len(s.mode)
        self.checks += n
        hp, ceiling, in_party = s.hp, s.ceiling, s.in_party
        bad = lambda cond: np.flatnonzero(cond)  # noqa: E731
        self._add(
            bad((hp > ceiling + AID_OVER).any(axis=1)),  # HP-1: only aid goes past, by <= 6
            "hp above ceiling + 6",
            lambda e: f"hp {hp[e].tolist()} ceiling {ceiling[e].tolist()}",
        )
        self._add(bad((hp < 0).any(axis=1)), "hp negative", lambda e: f"hp {hp[e].tolist()}")
        self._add(
            bad((in_party & (ceiling < 1)).any(axis=1)),
            "ceiling below 1",
            lambda e: f"ceiling {ceiling[e].tolist()} in_party {in_party[e].tolist()}",
        )
        self._add(bad(s.gold < 0), "gold negative", lambda e: f"gold {s.gold[e]}")
        self._add(bad(s.rations < 0), "rations negative", lambda e: f"rations {s.rations[e]}")
        self._add(bad(s.free_streak < 0), "free streak negative", lambda e: f"{s.free_streak[e]}")
        self._add(bad(searched_from_nowhere(s)), "searched beside no tile of this floor seen",
                  lambda e: f"floor {s.floor[e]}, searched at {np.argwhere(s.searched[e]).tolist()[:4]}")  # fmt: skip
        self._add(
            bad(((s.raised > MAX_RAISES) | (s.raised < 0)).any(axis=1)),
            "raised more than 3 times",
            lambda e: f"raised {s.raised[e].tolist()}",
        )
        self._add(
            bad(s.raised[:, KING_SLOT] != 0),
            "king raised",
            lambda e: f"raised {s.raised[e].tolist()}",
        )
        picked = s.sel_member >= 0
        held = s.item[np.arange(n), np.maximum(s.sel_member, 0), np.maximum(s.sel_slot, 0)]
        self._add(
            bad(picked & ((s.sel_slot < 0) | (held == 0))),
            "selected an empty item slot",
            lambda e: f"selected member {s.sel_member[e]} slot {s.sel_slot[e]}",
        )
        self._add(
            bad((s.pages_held < 0).any(axis=1) | (s.book_pages < 0).any(axis=1)),
            "pages negative",
            lambda e: f"held {s.pages_held[e].tolist()} book {s.book_pages[e].tolist()}",
        )
        self._add(
            bad((s.mode < 0) | (s.mode >= NUM_MODES)),
            "mode out of range",
            lambda e: f"mode {s.mode[e]}",
        )
        self._add(
            bad((s.outcome < 0) | (s.outcome > 2)),
            "outcome out of range",
            lambda e: f"outcome {s.outcome[e]}",
        )
        depth = s.tiles.shape[1] - 1
        H, W = s.tiles.shape[2], s.tiles.shape[3]
        self._add(
            bad((s.floor < 0) | (s.floor > depth)),
            "floor out of range",
            lambda e: f"floor {s.floor[e]}",
        )
        f = np.clip(s.floor, 0, depth).astype(np.int64)
        inside = (s.x >= 0) & (s.x < W) & (s.y >= 0) & (s.y < H)
        x, y = np.clip(s.x, 0, W - 1).astype(np.int64), np.clip(s.y, 0, H - 1).astype(np.int64)
        tile = s.tiles[np.arange(n), f, y, x]
        off = (f > 0) & (~inside | ~np.isin(tile, WALKABLE))
        self._add(
            bad(off),
            "party off the walkable floor",
            lambda e: f"floor {s.floor[e]} x {s.x[e]} y {s.y[e]} tile {tile[e]}",
        )
        placed = (s.floor >= 0) & (s.floor <= depth) & ~off  # (the compiled search trusts it)
        self._add(bad(stale_ways(s, placed)), "travel's kept ways not those of the known map",
                  lambda e: f"kept {s.ways_known[e]}, searched now {find_ways(s, e)}")  # fmt: skip
        self._add(bad(reach_apart(s, placed)), "the known map's sets not those a walk finds",
                  lambda e: f"floor {s.floor[e]}")  # fmt: skip
        self._add(bad(room_unseen(s, placed)), "the party in a room it has not seen whole",
                  lambda e: f"floor {s.floor[e]} x {s.x[e]} y {s.y[e]}")  # fmt: skip
        self._check_rooms_and_bouts(s, n, bad)
        self._check_keeper(s, bad)
        self._check_classes(s, n, bad)
        self._check_magic(s, bad)
        self._check_fights_in_full(s, bad)
        now = {
            "practice": s.practice.copy(),
            "lost": s.stat_lost.astype(np.int64),
            "outcome": s.outcome.copy(),
            "pace": s.pace.astype(np.int64),
            "mode": s.mode.copy(),
            "book": s.has_book.copy(),
            "pages": pages_total(s),
            "steps": s.steps.astype(np.int64),
            "effects": s.effects.astype(np.int64),
            "foul": s.ward_foul.copy(),
            "known": s.known_kinds.astype(np.int64),
            "bids": s.stat_bids.astype(np.int64),
            "bought": s.stat_bought.astype(np.int64),
            "sold": s.stat_sold.astype(np.int64),
        }
        prev = self._prev
        self._check_effects(s, now, prev, new_episode)
        same = None
        if prev is not None and len(prev["pace"]) == n:
            same = ~np.broadcast_to(np.asarray(new_episode, bool), (n,))
        self._check_stores(s, f, x, y, prev if same is not None else None, now, same)
        if same is not None:
            moved = np.broadcast_to(np.asarray(stepped, bool), (n,))
            self._add(
                bad(same & ~moved & (now["pace"] != prev["pace"])),
                "clock moved without a step",
                lambda e: f"pace {prev['pace'][e]} -> {now['pace'][e]}",
            )
            self._add(
                bad(
                    same
                    & ~moved
                    & ((now["pages"] != prev["pages"]) | (now["book"] != prev["book"]))
                ),
                "quest items changed without a step",
                lambda e: "",
            )
            self._add(
                bad(same & (now["pace"] < prev["pace"])),
                "clock went back",
                lambda e: f"pace {prev['pace'][e]} -> {now['pace'][e]}",
            )
            self._add(
                bad(same & (prev["mode"] == FIGHT) & (now["pace"] != prev["pace"])),
                "a fight step moved the clock",
                lambda e: f"pace {prev['pace'][e]} -> {now['pace'][e]}",
            )
            self._add(
                bad(same & (now["pages"] < prev["pages"])),
                "pages lost",
                lambda e: f"pages {prev['pages'][e]} -> {now['pages'][e]}",
            )
            self._add(bad(same & prev["book"] & ~now["book"]), "book lost", lambda e: "")
            in_bout = same & prev["practice"]  # COURT-2: nobody can die in a practice bout
            self._add(
                bad(in_bout & ((now["lost"] != prev["lost"]) | (now["outcome"] == 2))),
                "a death or a lost run in a practice bout",
                lambda e: f"lost {prev['lost'][e]} -> {now['lost'][e]} outcome {now['outcome'][e]}",
            )
            self._add(
                bad(same & (now["steps"] != prev["steps"] + moved)),
                "step counter off",
                lambda e: f"steps {prev['steps'][e]} -> {now['steps'][e]}",
            )
        self._prev = now
        if self.count == before:
            return []
        return self.violations[first_new:]

    def _check_keeper(self, s, bad) -> None:
        """SIX-1: a gift is only ever handed over for an event that happened, and events are
        the keeper's own."""
        self._add(
            bad((s.keeper_given & ~s.keeper_seen) != 0),
            "a keeper gift without its event",
            lambda e: f"seen {s.keeper_seen[e]:#x} given {s.keeper_given[e]:#x}",
        )
        self._add(
            bad((s.keeper_seen >> NUM_KEEPER_EVENTS) != 0),
            "a keeper event out of range",
            lambda e: f"seen {s.keeper_seen[e]:#x}",
        )

    def _check_rooms_and_bouts(self, s, n: int, bad) -> None:
        """CHEST-1, BATH-1, COURT-2: chest states, where chests and baths are, practice bouts."""
        chest = s.room_chest
        self._add(
            bad(((chest < CHEST_NONE) | (chest > CHEST_OPEN)).any(axis=(1, 2))),
            "chest state out of range",
            lambda e: f"room_chest {chest[e].tolist()}",
        )
        rooms = np.arange(chest.shape[2])
        vault = rooms[None, None, :] == s.vault_room[:, :, None]
        misplaced = (chest != CHEST_NONE) & ((s.room_feature != FEAT_NONE) | vault)
        self._add(
            bad(misplaced.any(axis=(1, 2))),
            "a chest in a feature's room or the vault",
            lambda e: f"floors {np.flatnonzero(misplaced[e].any(axis=1)).tolist()}",
        )
        has_bath = (s.room_feature == FEAT_BATH).any(axis=2)
        self._add(
            bad((s.bathed.any(axis=2) & ~has_bath).any(axis=1)),
            "bathed on a floor without a bath",
            lambda e: f"bathed floors {np.flatnonzero(s.bathed[e].any(axis=1)).tolist()}",
        )
        fighting = (s.mode == FIGHT) | ((s.mode == CHOICE) & (s.choice_from == FIGHT))  # CHOICE-1
        self._add(
            bad(s.practice & ((s.floor != 0) | ~fighting)),
            "a practice bout outside a courtyard fight",
            lambda e: f"floor {s.floor[e]} mode {s.mode[e]}",
        )
        self._add(
            bad(~s.practice & s.bout_down.any(axis=1)),
            "down from a bout that is over",
            lambda e: f"bout_down {s.bout_down[e].tolist()} hp {s.hp[e].tolist()}",
        )

    def _check_classes(self, s, n: int, bad) -> None:
        """CLASS-1, CHOICE-1 and the features: each option taken is one its class offers at
        that level and only once the level is reached (the king takes none); primed bits are
        tables.PRIME_*; the holy sword is a standing Cleric's with the holy weapon option, or
        -1; blood magic only by a Namer who took it; no piece's DV below
        the Armorer's floor."""
        cls = np.where(s.in_party, s.cls, KING).astype(np.int64)  # empty slots: no options
        opts = s.options.astype(np.int64)
        for lv in range(2):
            offered = NUM_OPTIONS[cls, lv]
            wrong = (opts[:, :, lv] >= offered) | (opts[:, :, lv] < -1)
            wrong |= (opts[:, :, lv] >= 0) & (s.level < lv + 2)
            self._add(
                bad(wrong.any(axis=1)),
                f"level {lv + 2} option out of range for the class or level",
                lambda e: (
                    f"cls {s.cls[e].tolist()} level {s.level[e].tolist()} "
                    f"options {s.options[e].tolist()}"
                ),
            )
        self._add(
            bad((s.primed & ~np.uint8(0x3F) != 0).any(axis=1)),
            "primed bits outside tables.PRIME_*",
            lambda e: f"primed {s.primed[e].tolist()}",
        )
        sword = s.holy_sword.astype(np.int64)
        who = np.maximum(sword, 0)
        rows = np.arange(n)
        ok = (
            (s.hp[rows, who] > 0)
            & s.in_party[rows, who]
            & (s.cls[rows, who] == CLERIC)
            & (s.options[rows, who, 0] == CLERIC_HOLY_WEAPON)
        )
        self._add(
            bad((sword < -1) | (sword >= 5) | ((sword >= 0) & ~ok)),
            "holy sword of no standing holy-weapon Cleric",
            lambda e: f"holy_sword {s.holy_sword[e]} hp {s.hp[e].tolist()}",
        )
        blood_ok = (s.cls == NAMER) & (s.options[:, :, 0] == NAMER_BLOOD)
        self._add(
            bad((s.blood_used & ~blood_ok).any(axis=1)),
            "blood magic used by a member without it",
            lambda e: f"blood {s.blood_used[e].tolist()} cls {s.cls[e].tolist()}",
        )
        self._add(
            bad((s.item_dv < -ARMORER_DV).any(axis=(1, 2))),
            "DV below the Armorer's floor",
            lambda e: f"dv {s.item_dv[e].tolist()}",
        )

    def _check_magic(self, s, bad) -> None:
        """SPELL-1, NAME-1: true names only for Namers (36 of them); known and spent spells
        only for Wizards, mage spells only; wand casts 0..3 and only with wand magic, both on
        the floor and as each floor reached keeps them (CLASS-1); mana never negative; at
        most 3 illusions; an ally is a monster kind or the familiar, with hearts while it
        stands (the familiar 1) and none once gone (ALLY-1); only the three spell marks on
        foes."""
        namer = s.cls == NAMER
        wizard = s.cls == WIZARD
        wand = wizard & (s.options[:, :, 0] == 0)
        self._add(
            bad(
                ((s.names_known != 0) & ~namer).any(axis=1)
                | (s.names_known >> NUM_NAMES).any(axis=1)
            ),
            "true names outside a Namer",
            lambda e: f"names {s.names_known[e].tolist()} cls {s.cls[e].tolist()}",
        )
        spells = s.spells_known.astype(np.int64) | s.spells_spent.astype(np.int64)
        self._add(
            bad((((spells != 0) & ~wizard) | (spells >> MAGE_SPELLS != 0)).any(axis=1)),
            "known or spent spells outside a Wizard's mage spells",
            lambda e: f"known {s.spells_known[e].tolist()} spent {s.spells_spent[e].tolist()}",
        )
        self._add(
            bad(
                (
                    (s.wand_casts < 0) | (s.wand_casts > WAND_CASTS) | ((s.wand_casts > 0) & ~wand)
                ).any(axis=1)
            ),
            "wand casts out of range",
            lambda e: f"wand {s.wand_casts[e].tolist()} options {s.options[e].tolist()}",
        )
        per_floor = s.floor_spent.astype(np.int64)
        self._add(
            bad(
                (((per_floor != 0) & ~wizard[:, None]) | (per_floor >> MAGE_SPELLS != 0)).any(
                    axis=(1, 2)
                )
                | (
                    (s.floor_wand < 0)
                    | (s.floor_wand > WAND_CASTS)
                    | ((s.floor_wand > 0) & ~wand[:, None])
                ).any(axis=(1, 2))
                | (((per_floor != 0) | (s.floor_wand != 0)).any(axis=2) & ~s.floor_visited).any(
                    axis=1
                )
            ),
            "a floor's spent spells or wand casts out of range",
            lambda e: (
                f"floor_spent {s.floor_spent[e].tolist()} floor_wand "
                f"{s.floor_wand[e].tolist()} visited {s.floor_visited[e].tolist()}"
            ),
        )
        self._add(
            bad((s.mana < 0).any(axis=1)), "mana negative", lambda e: f"mana {s.mana[e].tolist()}"
        )
        self._add(
            bad(
                (s.decoys < 0)
                | (s.decoys > MAX_DECOYS)
                | (s.ally_kind < -1)
                | (s.ally_kind > FAMILIAR)
            ),
            "illusions or ally out of range",
            lambda e: f"decoys {s.decoys[e]} ally {s.ally_kind[e]}",
        )
        self._add(
            bad(
                ((s.ally_kind >= 0) & (s.ally_hp < 1))
                | ((s.ally_kind < 0) & (s.ally_hp != 0))
                | ((s.ally_kind == FAMILIAR) & (s.ally_hp != 1))
            ),
            "ally hearts out of range",
            lambda e: f"ally {s.ally_kind[e]} hearts {s.ally_hp[e]}",
        )
        self._add(
            bad((s.foe_status & ~np.uint8(FS_MARKED | FS_BLIND | FS_BOUND) != 0).any(axis=1)),
            "unknown foe status bits",
            lambda e: f"foe_status {s.foe_status[e].tolist()}",
        )

    def _check_fights_in_full(self, s, bad) -> None:
        """Issue 10: the bestiary record (kills never past meetings' worth of kinds met, learned
        flags only the kind's own), lingering wandering bands (RUN-AWAY-1: real kinds with
        hearts in 1..full, packed to the front, on a walkable tile of the floor), the log."""
        from delve_env.engine.fightlog import LOG_SIZE
        from delve_env.engine.tables import M_FLAGS, MONSTERS, NUM_MONSTERS

        flags = MONSTERS[:, M_FLAGS].astype(np.int64)
        self._add(
            bad((s.kind_met < 0).any(axis=1) | (s.kind_killed < 0).any(axis=1)),
            "bestiary count negative",
            lambda e: f"met {s.kind_met[e].tolist()} killed {s.kind_killed[e].tolist()}",
        )
        self._add(
            bad(((s.kind_learned.astype(np.int64) & ~flags[None, :]) != 0).any(axis=1)),
            "bestiary learned a flag the kind has not",
            lambda e: f"learned {s.kind_learned[e].tolist()}",
        )
        self._add(
            bad(((s.kind_killed > 0) & (s.kind_met == 0)).any(axis=1)),
            "a kind killed but never met",
            lambda e: f"met {s.kind_met[e].tolist()} killed {s.kind_killed[e].tolist()}",
        )
        kind, hp = s.linger_kind.astype(np.int64), s.linger_hp.astype(np.int64)
        alive = kind >= 0
        full = np.where(alive, MONSTERS[np.clip(kind, 0, NUM_MONSTERS - 1), 1], 0) * 2
        wrong = (kind >= NUM_MONSTERS) | (kind < -1) | (alive != (hp > 0)) | (hp > full)
        gap = np.diff(alive.astype(np.int8), axis=2) > 0  # a gap before a living one
        self._add(
            bad(wrong.any(axis=(1, 2)) | gap.any(axis=(1, 2))),
            "lingering band out of range",
            lambda e: f"kinds {s.linger_kind[e].tolist()} hp {s.linger_hp[e].tolist()}",
        )
        H, W = s.tiles.shape[2], s.tiles.shape[3]
        xs, ys = s.linger_xy[:, :, 0].astype(np.int64), s.linger_xy[:, :, 1].astype(np.int64)
        inside = (xs >= 0) & (xs < W) & (ys >= 0) & (ys < H)
        envs, floors = np.indices(xs.shape)
        tile = s.tiles[envs, floors, np.clip(ys, 0, H - 1), np.clip(xs, 0, W - 1)]
        walkable = inside & (tile != 0) & (tile != SECRET)
        self._add(
            bad((alive[:, :, 0] & ~walkable).any(axis=1)),
            "lingering band off the walkable floor",
            lambda e: f"xy {s.linger_xy[e].tolist()}",
        )
        self._add(
            bad((s.log_n < -1) | (s.log[:, :LOG_SIZE, 0] < 0).any(axis=1)),
            "fight log count or code out of range",
            lambda e: f"log_n {s.log_n[e]}",
        )

    def _check_stores(self, s, f, x, y, prev, now, same) -> None:
        """STORE-1..2: mode STORE only at a store (the courtyard or a store room); no repair
        leaves an item past its full durability; the purchase and sale counts never fall; a
        step in a store moves no clock (TIME-2)."""
        n = len(s.mode)
        room = s.room_of[np.arange(n), f, y, x].astype(np.int64)
        feature = s.room_feature[np.arange(n), f, np.maximum(room, 0)]
        at_store = (f == 0) | ((room >= 0) & (feature == FEAT_STORE))
        bad = lambda cond: np.flatnonzero(cond)  # noqa: E731
        self._add(
            bad((s.mode == STORE) & ~at_store),
            "in a store where there is none",
            lambda e: f"floor {s.floor[e]} room {room[e]} feature {feature[e]}",
        )
        full_dv = ITEMS[s.item.astype(np.int64), I_DV]
        self._add(
            bad(((s.item_dv > full_dv) | (s.item_wear < 0)).any(axis=(1, 2))),
            "item past full durability or with negative wear",
            lambda e: f"dv {s.item_dv[e].tolist()} wear {s.item_wear[e].tolist()}",
        )
        self._add(
            bad((s.stat_bought < 0) | (s.stat_sold < 0)),
            "store counts negative",
            lambda e: f"bought {s.stat_bought[e]} sold {s.stat_sold[e]}",
        )
        if prev is None:
            return
        self._add(
            bad(same & ((now["bought"] < prev["bought"]) | (now["sold"] < prev["sold"]))),
            "store counts fell",
            lambda e: f"bought {prev['bought'][e]} -> {now['bought'][e]}",
        )
        self._add(
            bad(same & (prev["mode"] == STORE) & (now["pace"] != prev["pace"])),
            "a store step moved the clock",
            lambda e: f"pace {prev['pace'][e]} -> {now['pace'][e]}",
        )


WALKABLE = (HALL, ROOM, DOOR, STAIR_DOWN, STAIR_UP)  # floors.is_walkable


def stale_ways(s, placed: np.ndarray) -> np.ndarray:
    """Per slot: travel's kept ways (`ways_known`, fresh at each step's end) are not those a
    search of the known map finds now; only where the party is `placed` on its floor."""
    return np.array([placed[e] and s.ways_known[e] != find_ways(s, e) for e in range(len(placed))])


def reach_apart(s, placed: np.ndarray) -> np.ndarray:
    """Per slot: the known map's sets (`reach`, engine/reach.py) are not the party's floor's
    remembered walkable tiles joined as a walk over them joins them; only where the party is
    `placed`."""
    return np.array([placed[e] and not sets_as_walked(s, e) for e in range(len(placed))])


def room_unseen(s, placed: np.ndarray) -> np.ndarray:
    """Per slot: the party stands in a room some tile of which, or of its walls, is not
    remembered (a pace within a room looks at nothing new: moving.step_party)."""
    out = np.zeros(len(placed), dtype=np.bool_)
    for e in np.flatnonzero(placed & (s.floor > 0)):
        f, x, y = int(s.floor[e]), int(s.x[e]), int(s.y[e])
        r = int(s.room_of[e, f, y, x])
        if r >= 0:
            x0, y0, x1, y1 = (int(v) for v in s.room_rect[e, f, r])
            out[e] = (s.fog[e, f, y0 - 1 : y1 + 2, x0 - 1 : x1 + 2] == 0).any()
    return out


def searched_from_nowhere(s) -> np.ndarray:
    """Per slot: a tile counted as searched beside (`searched`) with no walkable tile of the
    party's floor, seen, orthogonally next to it: searches are this floor visit's, made from
    where the party stood."""
    n = len(s.floor)
    f = np.clip(
        np.asarray(s.floor, dtype=np.int64), 0, s.tiles.shape[1] - 1
    )  # a bad floor: its own check
    tiles, fog = s.tiles[np.arange(n), f], s.fog[np.arange(n), f]
    stood = (fog != 0) & np.isin(tiles, WALKABLE)
    near = np.zeros_like(stood)
    near[:, 1:] |= stood[:, :-1]
    near[:, :-1] |= stood[:, 1:]
    near[:, :, 1:] |= stood[:, :, :-1]
    near[:, :, :-1] |= stood[:, :, 1:]
    return ((s.searched > 0) & ~near).any(axis=(1, 2))


def check_obs_batch(obs: dict, n: int, space=None) -> list[str]:
    """Every observation of a batch inside the single space, with the exact dtype and shape."""
    space = space or observation_space()
    errors = []
    if set(obs) != set(space.spaces):
        return [f"observation keys {sorted(obs)} != {sorted(space.spaces)}"]
    for key, box in space.spaces.items():
        a = obs[key]
        if not isinstance(a, np.ndarray) or a.dtype != box.dtype or a.shape != (n, *box.shape):
            errors.append(
                f"{key}: {type(a).__name__} {getattr(a, 'dtype', None)} "
                f"{getattr(a, 'shape', None)} != {box.dtype} {(n, *box.shape)}"
            )
            continue
        if a.dtype.kind == "f" and not np.isfinite(a).all():
            errors.append(
                f"{key}: not finite in slots "
                f"{np.flatnonzero(~np.isfinite(a).reshape(n, -1).all(1))}"
            )
        low_bad = (a < box.low).reshape(n, -1).any(1)
        high_bad = (a > box.high).reshape(n, -1).any(1)
        if low_bad.any() or high_bad.any():
            slots = np.flatnonzero(low_bad | high_bad)
            errors.append(
                f"{key}: outside [{box.low.min()}, {box.high.max()}] in slots {slots[:8]}"
                f" (min {a.min()}, max {a.max()})"
            )
    return errors


def check_obs_single(obs: dict, space=None) -> list[str]:
    """One observation: inside the space and with the exact dtype of each box."""
    space = space or observation_space()
    errors = (
        check_obs_batch({k: v[None] for k, v in obs.items()}, 1, space)
        if isinstance(obs, dict)
        else [f"observation is a {type(obs).__name__}"]
    )
    return errors


def state_copy(s) -> list[bytes]:
    """Every field's bytes (cheaper to take and compare than array copies)."""
    return [a.tobytes() for a in s]


def state_diff(s, saved: list[bytes], ignore: tuple[str, ...] = ()) -> list[str]:
    """The fields of `s` whose bytes differ from a `state_copy`."""
    now = state_copy(s)
    if now == saved:
        return []
    return [name for name, a, b in zip(s._fields, now, saved) if name not in ignore and a != b]


# ------------------------------------------------------------------------------------------
# Soaks
# ------------------------------------------------------------------------------------------
@dataclass
class SoakReport:
    name: str
    env_id: str
    slots: int
    calls: int = 0
    steps: int = 0  # actions taken (autoreset steps not counted)
    episodes: int = 0
    terminated: int = 0
    truncated: int = 0
    refusals: int = 0  # masked actions refused with ValueError (strict mode)
    noops: int = 0  # masked actions taken as no-ops (noop mode)
    fights: int = 0  # steps taken in FIGHT mode
    visits: dict = field(default_factory=dict)  # what random play reached (`VISITS`) -> count
    exceptions: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)  # invariant and API violations
    problem_count: int = 0
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.exceptions and self.problem_count == 0

    def add_problem(self, msg: str, limit: int = 50) -> None:
        self.problem_count += 1
        if len(self.problems) < limit:
            self.problems.append(msg)

    def row(self) -> dict:
        return {
            "check": self.name,
            "id": self.env_id,
            "slots": self.slots,
            "steps": self.steps,
            "episodes": self.episodes,
            "term": self.terminated,
            "trunc": self.truncated,
            "fight steps": self.fights,
            **{what: self.visits.get(what, 0) for what in VISITS},
            "refused": self.refusals,
            "noops": self.noops,
            "problems": self.problem_count,
            "exceptions": len(self.exceptions),
            "seconds": round(self.seconds, 1),
            "steps/s": int(self.steps / max(self.seconds, 1e-9)),
        }


# What the rooms' features and the economy saw in a soak: entries into a mode, or the rise of an
# episode statistic (issue 9: random play must reach every one of them).
VISITS = {
    "stores": lambda s: s.mode == STORE,
    "statues": lambda s: s.mode == STATUE,
    "chests": lambda s: s.stat_chests,
    "traps": lambda s: s.stat_traps,
    "bought": lambda s: s.stat_bought,
    "sold": lambda s: s.stat_sold,
    "bids": lambda s: s.stat_bids,
    "baths": lambda s: s.stat_baths,
    "bouts": lambda s: s.stat_bouts,
}


def count_visits(visits: dict, before: dict, s, same: np.ndarray) -> dict:
    """Add to `visits` what each slot still in its episode (`same`) reached since `before`
    (the `VISITS` values then); returns the values now."""
    now = {what: np.asarray(get(s)).astype(np.int64) for what, get in VISITS.items()}
    for what, value in now.items():
        visits[what] = visits.get(what, 0) + int(np.maximum(value - before[what], 0)[same].sum())
    return now


def soak_vector(
    env_id: str = "Delve-v0",
    slots: int = 100,
    calls: int = 10_000,
    seed: int = 0,
    agent: str = "legal",
    config: dict | None = None,
    hook: Callable | None = None,
    check_every: int = 1,
) -> SoakReport:
    """Random play in the native vector env with the invariants checked after every call.

    agent="legal": a uniformly random legal action per slot (mask respected).
    agent="strict": a uniformly random action of the whole space per slot with
    invalid_action="raise": whenever a live slot's action is masked the call must raise
    ValueError naming the first such slot, its action and mode, and leave state, observations
    and masks unchanged; then the masked picks are replaced by legal ones and the call is made.
    `hook(venv, call)` runs after every call, before the checks (negative controls plant
    defects there).
    """
    cfg = {**PRESETS[env_id], **(config or {})}
    if agent == "strict":
        cfg["invalid_action"] = "raise"
    rep = SoakReport(f"vector-{agent}", env_id, slots)
    t0 = time.perf_counter()
    venv = delve_env.make_vec(slots, **cfg)
    space = venv.single_observation_space
    checker = InvariantChecker()
    rng = np.random.default_rng(seed)
    try:
        obs, info = venv.reset(seed=seed)
        for msg in check_obs_batch(obs, slots, space):
            rep.add_problem(f"reset: {msg}")
        checker.check(venv.state, np.ones(slots, bool))
        done = np.zeros(slots, bool)
        mask = info["action_mask"]
        seen = count_visits(rep.visits, {w: 0 for w in VISITS}, venv.state, np.zeros(slots, bool))
        for call in range(calls):
            if agent == "strict":
                actions = rng.integers(0, NUM_ACTIONS, size=slots)
                bad = np.flatnonzero(~done & ~mask[np.arange(slots), actions])
                if len(bad):
                    _strict_refusal(venv, actions, int(bad[0]), rep, call)
                    legal = choose_legal(mask, rng.integers(0, 2**63, size=slots, dtype=np.uint64))
                    actions[bad] = legal[bad]
            else:
                actions = choose_legal(mask, rng.integers(0, 2**63, size=slots, dtype=np.uint64))
            in_fight = (venv.state.mode == FIGHT) & ~done
            obs, rew, term, trunc, info = venv.step(actions)
            rep.calls += 1
            rep.steps += int((~done).sum())
            rep.fights += int(in_fight.sum())
            if hook is not None:
                hook(venv, call)
            new_episode = done
            seen = count_visits(rep.visits, seen, venv.state, ~done & ~(term | trunc))
            mask = info["action_mask"]
            if call % check_every == 0 or done.any() or term.any() or trunc.any():
                for msg in check_vector_outputs(obs, rew, term, trunc, info, done, space):
                    rep.add_problem(f"call {call}: {msg}")
            for v in checker.check(venv.state, new_episode):
                rep.add_problem(f"call {call}: {v}")
            for msg in check_kept(venv.engine):
                rep.add_problem(f"call {call}: {msg}")
            ended = term | trunc
            rep.terminated += int(term.sum())
            rep.truncated += int(trunc.sum())
            rep.episodes += int(ended.sum())
            done = ended
    except Exception as ex:  # a crash is a finding, reported with where it happened
        rep.exceptions.append(f"call {rep.calls}: {type(ex).__name__}: {ex}")
    rep.problem_count += checker.count - len(checker.violations)  # those past its limit
    rep.seconds = time.perf_counter() - t0
    return rep


def check_kept(engine) -> list[str]:
    """The explore row kept for an open selection (`mask.legal_mask`): kept only while an item
    or a caster is selected, on an exploring screen of a run under way."""
    s = engine.state
    holding = ((s.sel_member >= 0) | (s.caster >= 0)) & (s.mode == EXPLORE) & (s.outcome == 0)
    return [f"slot {e}: an explore row kept with no selection open"
            for e in np.flatnonzero(engine.kept & ~holding)]  # fmt: skip


def check_vector_outputs(obs, rew, term, trunc, info, done, space=None) -> list[str]:
    """One vector step's outputs: observations in the space with exact dtypes, finite float32
    rewards, bool flags, exact-shape non-empty bool masks, no legal action called invalid, an
    autoreset step a fresh start, episode stats at every end. `done`: the slots that ended on
    the previous call (so autoreset on this one)."""
    n = len(done)
    out = check_obs_batch(obs, n, space)
    if not isinstance(rew, np.ndarray) or rew.dtype != np.float32 or rew.shape != (n,):
        out.append(f"rewards are {type(rew).__name__} {getattr(rew, 'dtype', None)}")
    elif not np.isfinite(rew).all():
        out.append(f"rewards not finite in slots {np.flatnonzero(~np.isfinite(rew))}")
    for name, flag in (("terminated", term), ("truncated", trunc)):
        if not isinstance(flag, np.ndarray) or flag.dtype != np.bool_ or flag.shape != (n,):
            out.append(f"{name} is {type(flag).__name__} {getattr(flag, 'dtype', None)}")
    mask = info.get("action_mask")
    if not isinstance(mask, np.ndarray) or mask.shape != (n, NUM_ACTIONS) or mask.dtype != bool:
        out.append(f"mask is {getattr(mask, 'dtype', None)} {getattr(mask, 'shape', None)}")
    elif not mask.any(axis=1).all():
        out.append(f"empty mask in slots {np.flatnonzero(~mask.any(1))}")
    if np.asarray(info.get("invalid_action", np.zeros(n, bool)))[~done].any():
        out.append("a legal action was reported invalid")
    if (term & trunc).any():
        out.append(f"terminated and truncated at once in slots {np.flatnonzero(term & trunc)}")
    if (done & (term | trunc | (rew != 0))).any():
        out.append("an autoreset step was not a fresh start")
    ended = term | trunc
    if ended.any():
        stats, has = info.get("episode_stats"), info.get("_episode_stats")
        if stats is None or has is None or not np.array_equal(has, ended):
            out.append("no episode_stats for the slots that ended")
        elif not all(isinstance(stats[e], dict) for e in np.flatnonzero(ended)):
            out.append("episode_stats entries are not dicts")
    return out


def _strict_refusal(venv, actions, first_bad: int, rep: SoakReport, call: int) -> None:
    """A batch with a masked action must raise ValueError and change nothing."""
    saved = state_copy(venv.state)
    obs_before = {k: v.copy() for k, v in venv.engine.obs.items()}
    masks_before = venv.engine.masks.copy()
    try:
        venv.step(actions)
    except ValueError as ex:
        rep.refusals += 1
        msg = str(ex)
        a = int(actions[first_bad])
        if f"env {first_bad}: action {a}" not in msg or "not legal in mode" not in msg:
            rep.add_problem(
                f"call {call}: refusal message {msg!r} does not name env {first_bad} and action {a}"
            )
    else:
        rep.add_problem(
            f"call {call}: masked action {int(actions[first_bad])} of env "
            f"{first_bad} was not refused"
        )
        return
    changed = state_diff(venv.state, saved)
    if changed:
        rep.add_problem(f"call {call}: a refused step changed state fields {changed}")
    if not np.array_equal(venv.engine.masks, masks_before) or any(
        not np.array_equal(venv.engine.obs[k], obs_before[k]) for k in obs_before
    ):
        rep.add_problem(f"call {call}: a refused step changed observations or masks")


def soak_single(
    env_id: str = "Delve-v0",
    seeds: Iterable[int] = range(4),
    steps: int = 10_000,
    agent: str = "legal",
    config: dict | None = None,
) -> SoakReport:
    """Random play through `gymnasium.make` (the user's path) with API and invariant checks.

    agent="legal": random legal actions. agent="noop": random actions of the whole space with
    invalid_action="noop" (a masked one must change nothing but the step count, report
    `invalid_action`, keep the clock). agent="strict": the same with invalid_action="raise" (a
    masked one must raise ValueError naming the action and mode and change nothing).
    """
    import gymnasium as gym

    cfg = dict(config or {})
    if agent in ("noop", "strict"):
        cfg["invalid_action"] = "noop" if agent == "noop" else "raise"
    seeds = list(seeds)
    rep = SoakReport(f"single-{agent}", env_id, len(seeds))
    t0 = time.perf_counter()
    env = gym.make(env_id, **cfg)
    base = env.unwrapped
    space = env.observation_space
    checker = InvariantChecker()
    try:
        for seed in seeds:
            rng = np.random.default_rng(seed)
            obs, info = env.reset(seed=seed)
            _check_single_output(rep, obs, 0.0, False, False, info, space, "reset")
            checker.check(base.state, np.ones(1, bool))
            for t in range(steps):
                mask = info["action_mask"]
                a = (
                    int(rng.integers(NUM_ACTIONS))
                    if agent != "legal"
                    else choose_legal_one(mask, int(rng.integers(2**63)))
                )
                legal = bool(mask[a])
                in_fight = base.state.mode[0] == FIGHT
                saved = None if legal else state_copy(base.state)
                if not legal and agent == "strict":
                    try:
                        env.step(a)
                    except ValueError as ex:
                        rep.refusals += 1
                        if f"action {a}" not in str(ex) or "not legal in mode" not in str(ex):
                            rep.add_problem(f"seed {seed} t {t}: refusal says {ex}")
                    else:
                        rep.add_problem(f"seed {seed} t {t}: masked action {a} not refused")
                    changed = state_diff(base.state, saved)
                    if changed:
                        rep.add_problem(f"seed {seed} t {t}: refused step changed {changed}")
                    a = choose_legal_one(mask, int(rng.integers(2**63)))
                    legal, saved = True, None
                obs_before = {k: v.copy() for k, v in obs.items()} if not legal else None
                obs, rew, term, trunc, info = env.step(a)
                rep.calls += 1
                rep.steps += 1
                rep.fights += int(in_fight)
                _check_single_output(rep, obs, rew, term, trunc, info, space, f"seed {seed} t {t}")
                if info.get("invalid_action") is not (not legal):
                    rep.add_problem(
                        f"seed {seed} t {t}: invalid_action "
                        f"{info.get('invalid_action')!r} for legal={legal}"
                    )
                if not legal:  # noop mode: only the step counter (and the step's outputs) move
                    rep.noops += 1
                    changed = state_diff(base.state, saved, ignore=("steps", "events", "reward"))
                    if changed:
                        rep.add_problem(f"seed {seed} t {t}: a masked no-op changed {changed}")
                    if rew != 0.0 and not (term or trunc):
                        rep.add_problem(f"seed {seed} t {t}: a masked no-op was rewarded {rew}")
                    if not (term or trunc) and any(
                        not np.array_equal(obs[k], obs_before[k]) for k in obs
                    ):
                        rep.add_problem(f"seed {seed} t {t}: a masked no-op changed the obs")
                for v in checker.check(base.state):
                    rep.add_problem(f"seed {seed} t {t}: {v}")
                if term or trunc:
                    rep.episodes += 1
                    rep.terminated += int(term)
                    rep.truncated += int(trunc)
                    if "episode_stats" not in info:
                        rep.add_problem(f"seed {seed} t {t}: no episode_stats at the end")
                    obs, info = env.reset()
                    _check_single_output(rep, obs, 0.0, False, False, info, space, "autoreset")
                    checker.check(base.state, np.ones(1, bool))
    except Exception as ex:
        rep.exceptions.append(f"step {rep.calls}: {type(ex).__name__}: {ex}")
    env.close()
    rep.seconds = time.perf_counter() - t0
    return rep


def _check_single_output(rep, obs, rew, term, trunc, info, space, where) -> None:
    for msg in check_obs_single(obs, space):
        rep.add_problem(f"{where}: {msg}")
    if type(rew) is not float or not np.isfinite(rew):
        rep.add_problem(f"{where}: reward {rew!r} is not a finite Python float")
    if type(term) is not bool or type(trunc) is not bool:
        rep.add_problem(f"{where}: terminated/truncated {term!r}/{trunc!r} are not Python bools")
    mask = info.get("action_mask")
    if not isinstance(mask, np.ndarray) or mask.dtype != np.bool_ or mask.shape != (NUM_ACTIONS,):
        rep.add_problem(f"{where}: action_mask {type(mask)} {getattr(mask, 'dtype', None)}")
    elif not mask.any():
        rep.add_problem(f"{where}: empty action mask")


# ------------------------------------------------------------------------------------------
# Determinism digests
# ------------------------------------------------------------------------------------------
_PACK = struct.Struct("<d??")


def record_bytes(obs: dict, reward, term, trunc, mask, events, keys=OBS_KEYS) -> bytes:
    """The bytes of one step's record (None for mask or events leaves them out, with a marker;
    `keys=()` leaves out the observation: the dynamics alone)."""
    parts = [np.ascontiguousarray(obs[k]).tobytes() for k in keys]
    parts.append(_PACK.pack(float(reward), bool(term), bool(trunc)))
    parts.append(b"-" if mask is None else np.ascontiguousarray(mask, dtype=np.bool_).tobytes())
    parts.append(b"-" if events is None else struct.pack("<q", int(events)))
    return b"".join(parts)


class Streams:
    """One running sha256 per seed over its first `length` records."""

    def __init__(self, seeds: Iterable[int], length: int):
        self.length = length
        self.h = {int(s): hashlib.sha256() for s in seeds}
        self.n = dict.fromkeys(self.h, 0)

    def wants(self, seed: int) -> bool:
        return seed in self.n and self.n[seed] < self.length

    def add(self, seed: int, data: bytes) -> None:
        if self.wants(seed):
            self.h[seed].update(data)
            self.n[seed] += 1

    @property
    def complete(self) -> bool:
        return all(n >= self.length for n in self.n.values())

    def digests(self) -> dict[str, str]:
        if not self.complete:
            short = {s: n for s, n in self.n.items() if n < self.length}
            raise AssertionError(f"streams not complete: {short}")
        return {str(s): h.hexdigest() for s, h in self.h.items()}


def combined(digests: dict[str, str]) -> str:
    return hashlib.sha256(
        "".join(digests[k] for k in sorted(digests, key=int)).encode()
    ).hexdigest()


def digest_vector(
    env_id: str = "Delve-v0",
    seeds: range = range(20),
    steps: int = 10_000,
    batch: int | None = None,
    config: dict | None = None,
    lite: bool = False,
    hook: Callable | None = None,
    dynamics: dict | None = None,
) -> dict[str, str]:
    """Digests from the native vector env: seeds are played `batch` at a time (slot i of
    `reset(seed=b)` plays seed b + i), with next-step autoreset (a reset is one record).

    lite=True leaves out the event bits, and the mask of an episode's last record (what the SB3
    adapter cannot report). `hook(venv, call)` runs after each call (negative controls). A
    `dynamics` dict is filled with digests of the same records without the observation
    (rewards, flags, masks, events), so a change of layout alone can be told from a change of
    the game."""
    seeds = range(seeds.start, seeds.stop) if isinstance(seeds, range) else seeds
    batch = batch or len(seeds)
    cfg = {**PRESETS[env_id], **(config or {})}
    streams = Streams(seeds, steps)
    bare = Streams(seeds, steps) if dynamics is not None else None

    def add(seed: int, *record) -> None:
        streams.add(seed, record_bytes(*record))
        if bare is not None:
            bare.add(seed, record_bytes(*record, keys=()))

    venv = delve_env.make_vec(batch, **cfg)
    for b0 in range(seeds.start, seeds.stop, batch):
        slot_seeds = np.arange(b0, b0 + batch, dtype=np.uint64)
        live = [i for i in range(batch) if streams.wants(b0 + i)]
        obs, info = venv.reset(seed=b0)
        mask, events = info["action_mask"], venv.state.events
        for i in live:
            o = {k: v[i] for k, v in obs.items()}
            add(b0 + i, o, 0.0, False, False, mask[i], None if lite else events[i])
        counts = np.zeros(batch, dtype=np.uint64)
        done = np.zeros(batch, bool)
        for call in range(steps - 1):
            actions = choose_legal(mask, noise(slot_seeds, counts))
            obs, rew, term, trunc, info = venv.step(actions)
            if hook is not None:
                hook(venv, call)
            counts += (~done).astype(np.uint64)
            mask, events = info["action_mask"], venv.state.events
            ended = term | trunc
            for i in live:
                o = {k: v[i] for k, v in obs.items()}
                last = lite and ended[i]
                add(b0 + i, o, rew[i], term[i], trunc[i], None if last else mask[i],
                    None if lite else events[i])  # fmt: skip
            done = ended
    venv.close()
    if bare is not None:
        dynamics.update(bare.digests())
    return streams.digests()


def digest_single(
    env_id: str = "Delve-v0",
    seeds: Iterable[int] = range(20),
    steps: int = 10_000,
    config: dict | None = None,
    env=None,
    render_every: int = 0,
    make: str = "gym",
) -> dict[str, str]:
    """Digests from one env through the Gymnasium API, seeds played one after another in the
    given order (`env` reused if given: a reset with the same seed must replay the game). An
    ended game is followed by `reset()` without a seed, as the vector env's autoreset does.
    render_every=k calls `env.render()` every k steps (rendering must change nothing)."""
    import gymnasium as gym

    cfg = {**PRESETS[env_id], **(config or {})}
    if env is None:
        env = gym.make(env_id, **(config or {})) if make == "gym" else delve_env.DelveEnv(**cfg)
    seeds = list(seeds)
    streams = Streams(seeds, steps)
    for seed in seeds:
        obs, info = env.reset(seed=seed)
        streams.add(seed, record_bytes(obs, 0.0, False, False, info["action_mask"], info["events"]))
        k, done = 0, False
        for t in range(steps - 1):
            if done:
                obs, info = env.reset()
                rew, term, trunc, done = 0.0, False, False, False
            else:
                a = choose_legal_one(info["action_mask"], noise_int(seed, k))
                k += 1
                obs, rew, term, trunc, info = env.step(a)
                done = term or trunc
            if render_every and t % render_every == 0:
                env.render()
            streams.add(
                seed, record_bytes(obs, rew, term, trunc, info["action_mask"], info["events"])
            )
    return streams.digests()


def digest_sb3(
    env_id: str = "Delve-v0",
    seeds: range = range(20),
    steps: int = 10_000,
    config: dict | None = None,
) -> dict[str, str]:
    """Lite digests (see `digest_vector`) from the SB3 VecEnv adapter (same-step autoreset:
    an episode's end gives two records, its last step from `terminal_observation` and the
    first observation of the next game)."""
    from delve_env.sb3 import DelveSB3VecEnv

    cfg = {**PRESETS[env_id], **(config or {})}
    n = len(seeds)
    venv = DelveSB3VecEnv(n, seed=seeds.start, float_obs=False, **cfg)
    streams = Streams(seeds, steps)
    slot_seeds = np.arange(seeds.start, seeds.stop, dtype=np.uint64)
    obs = venv.reset()
    mask = venv.action_masks()
    for i in range(n):
        streams.add(
            seeds.start + i,
            record_bytes({k: v[i] for k, v in obs.items()}, 0.0, False, False, mask[i], None),
        )
    counts = np.zeros(n, dtype=np.uint64)
    while not streams.complete:
        actions = choose_legal(mask, noise(slot_seeds, counts))
        obs, rew, dones, infos = venv.step(actions)
        counts += np.uint64(1)
        mask = venv.action_masks()
        for i in range(n):
            s = seeds.start + i
            if dones[i]:
                trunc = bool(infos[i].get("TimeLimit.truncated", False))
                streams.add(
                    s,
                    record_bytes(
                        infos[i]["terminal_observation"], rew[i], not trunc, trunc, None, None
                    ),
                )
                streams.add(
                    s,
                    record_bytes(
                        {k: v[i] for k, v in obs.items()}, 0.0, False, False, mask[i], None
                    ),
                )
            else:
                streams.add(
                    s,
                    record_bytes(
                        {k: v[i] for k, v in obs.items()}, rew[i], False, False, mask[i], None
                    ),
                )
    venv.close()
    return streams.digests()


def mismatches(got: dict[str, str], want: dict[str, str]) -> list[str]:
    """Seeds whose digests differ (or are missing on either side)."""
    keys = sorted(set(got) | set(want), key=int)
    return [k for k in keys if got.get(k) != want.get(k)]


def golden_path(name: str) -> Path:
    return GOLDEN_DIR / f"{name}.json"


# The golden runs: name -> (env id, config overrides). "short" games (max_steps 500) cover
# truncation and autoreset inside the digests.
GOLDEN_RUNS = {
    "Delve-v0": ("Delve-v0", {}),
    "Delve-Easy-v0": ("Delve-Easy-v0", {}),
    "Delve-Hard-v0": ("Delve-Hard-v0", {}),
    "Delve-v0-short-shaped": ("Delve-v0", {"max_steps": 500, "reward_mode": "shaped"}),
}
GOLDEN_SEEDS = range(20)
GOLDEN_STEPS = 10_000


def golden_record(name: str, digests: dict[str, str], dynamics: dict[str, str]) -> dict:
    """A golden file: the digests with the observation and, apart, those of the dynamics."""
    env_id, config = GOLDEN_RUNS[name]
    return {
        "name": name,
        "id": env_id,
        "config": config,
        "seeds": [GOLDEN_SEEDS.start, GOLDEN_SEEDS.stop],
        "steps": GOLDEN_STEPS,
        "policy": POLICY_VERSION,
        "num_actions": NUM_ACTIONS,
        "combined": combined(digests),
        "digests": digests,
        "dynamics_combined": combined(dynamics),
        "dynamics": dynamics,
        "regenerate": "DELVE_REGEN_GOLDEN=1 pytest tests/test_determinism.py "
        "(and say in the commit message which rule changed)",
    }


# ------------------------------------------------------------------------------------------
# Generation
# ------------------------------------------------------------------------------------------
@dataclass
class GenerationReport:
    env_id: str
    seeds: int = 0
    floors: int = 0
    rooms: int = 0
    secret_doors: int = 0
    problems: list[str] = field(default_factory=list)
    problem_count: int = 0
    seconds: float = 0.0

    def add(self, msg: str) -> None:
        self.problem_count += 1
        if len(self.problems) < 50:
            self.problems.append(msg)

    def row(self) -> dict:
        return {
            "check": "generation",
            "id": self.env_id,
            "seeds": self.seeds,
            "floors": self.floors,
            "rooms": self.rooms,
            "secret doors": self.secret_doors,
            "problems": self.problem_count,
            "seconds": round(self.seconds, 1),
        }


def check_floor(s, e: int, f: int, dist: np.ndarray) -> list[str]:
    """One generated floor: its edge rock (travel's searches trust it), connected once secret
    doors are found, every room reachable from the stair up, one stair up, one stair down
    (none on the deepest floor, RUN-1), exactly one map."""
    out = []
    deepest = f == s.tiles.shape[1] - 1
    tiles = s.tiles[e, f].copy()
    edge = np.concatenate([tiles[0], tiles[-1], tiles[:, 0], tiles[:, -1]])
    if (edge != ROCK).any():
        out.append("a tile on the floor's edge is not rock")
    tiles[tiles == SECRET] = DOOR
    ux, uy = (int(v) for v in s.stair_up[e, f])
    dx, dy = (int(v) for v in s.stair_down[e, f])
    if (tiles == STAIR_UP).sum() != 1 or tiles[uy, ux] != STAIR_UP:
        out.append(f"stair up at ({ux}, {uy}) is not the one STAIR_UP tile")
        return out
    if deepest:
        if (tiles == STAIR_DOWN).any():
            out.append("a stair down on the deepest floor")
    elif (tiles == STAIR_DOWN).sum() != 1 or tiles[dy, dx] != STAIR_DOWN:
        out.append(f"stair down at ({dx}, {dy}) is not the one STAIR_DOWN tile")
    walk_distances(tiles, ux, uy, dist)
    walkable = np.isin(tiles, WALKABLE)
    cut = walkable & (dist < 0)
    if cut.any():
        ys, xs = np.nonzero(cut)
        out.append(
            f"{len(xs)} walkable tiles unreachable from the stair up, e.g. ({xs[0]}, {ys[0]})"
        )
    if not deepest and dist[dy, dx] < 0:
        out.append("stair down unreachable")
    n = int(s.num_rooms[e, f])
    room_of = s.room_of[e, f]
    for r in range(n):
        inside = room_of == r
        if not inside.any():
            out.append(f"room {r} has no tiles")
        elif (dist[inside] < 0).any():
            out.append(f"room {r} unreachable")
    maps = s.room_map[e, f]
    if int(maps[:n].sum()) != 1 or maps[n:].any():
        out.append(f"{int(maps.sum())} maps on the floor (rooms {np.flatnonzero(maps).tolist()})")
    return out


def check_generation(
    env_id: str = "Delve-v0",
    seeds: range = range(300),
    batch: int = 250,
    config: dict | None = None,
    hook: Callable | None = None,
) -> GenerationReport:
    """Generate every seed's dungeon (a reset) and check each floor with `check_floor`."""
    rep = GenerationReport(env_id)
    t0 = time.perf_counter()
    cfg = Config.from_kwargs(**{**PRESETS[env_id], **(config or {})})
    seeds = list(seeds)
    batch = min(batch, len(seeds))
    eng = Engine(batch, cfg.params(), cfg.party_classes())
    s = eng.state
    depth = s.tiles.shape[1] - 1
    dist = np.empty(s.tiles.shape[2:], dtype=np.int64)
    for i in range(0, len(seeds), batch):
        chunk = seeds[i : i + batch]
        which = np.zeros(batch, bool)
        which[: len(chunk)] = True
        arr = np.zeros(batch, dtype=np.uint64)
        arr[: len(chunk)] = chunk
        eng.reset(arr, which)
        if hook is not None:
            hook(eng)
        for e, seed in enumerate(chunk):
            rep.seeds += 1
            for f in range(1, depth + 1):
                rep.floors += 1
                rep.rooms += int(s.num_rooms[e, f])
                rep.secret_doors += int((s.tiles[e, f] == SECRET).sum())
                for msg in check_floor(s, e, f, dist):
                    rep.add(f"seed {seed} floor {f}: {msg}")
    rep.seconds = time.perf_counter() - t0
    return rep


# ------------------------------------------------------------------------------------------
# Command line
# ------------------------------------------------------------------------------------------
def print_table(rows: list[dict]) -> None:
    if not rows:
        return
    cols = list(dict.fromkeys(k for r in rows for k in r))
    width = {c: max(len(c), *(len(str(r.get(c, ""))) for r in rows)) for c in cols}
    print("  ".join(c.rjust(width[c]) for c in cols))
    for r in rows:
        print("  ".join(str(r.get(c, "")).rjust(width[c]) for c in cols))
    sys.stdout.flush()


def _progress(row: dict) -> None:
    print("  done: " + ", ".join(f"{k} {v}" for k, v in row.items()), flush=True)


def _digest_cli(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="soak.py digest")
    ap.add_argument("--id", default="Delve-v0")
    ap.add_argument("--seeds", default="0:20", help="start:stop")
    ap.add_argument("--steps", type=int, default=GOLDEN_STEPS)
    ap.add_argument("--runner", choices=("vector", "single"), default="vector")
    ap.add_argument("--batch", type=int, default=None)
    ap.add_argument("--config", default="{}", help="JSON config overrides")
    ap.add_argument(
        "--perturb",
        default=None,
        metavar="SEED:CALL",
        help="negative control: five more gold for that seed at that call",
    )
    a = ap.parse_args(argv)
    start, stop = (int(x) for x in a.seeds.split(":"))
    cfg = json.loads(a.config)
    hook = None
    if a.perturb:
        p_seed, p_call = (int(x) for x in a.perturb.split(":"))
        batch = a.batch or (stop - start)

        def hook(venv, call):
            if call == p_call:
                venv.state.gold[(p_seed - start) % batch] += 5  # one more unit of the obs

        if a.runner != "vector" or (p_seed - start) // batch != 0:
            raise SystemExit("--perturb needs the vector runner and a seed of the first batch")
    if a.runner == "vector":
        d = digest_vector(a.id, range(start, stop), a.steps, a.batch, cfg, hook=hook)
    else:
        d = digest_single(a.id, range(start, stop), a.steps, cfg)
    print(
        json.dumps(
            {
                "digests": d,
                "hashseed": os.environ.get("PYTHONHASHSEED"),
                "jit_disabled": os.environ.get("NUMBA_DISABLE_JIT", "0"),
            }
        )
    )
    return 0


def run_determinism(ids: list[str], seeds: range, steps: int) -> tuple[list[dict], list[str]]:
    """Vector digests of `seeds` at batch sizes 64, 16, 4, 1 (and the single env), compared
    with each other and, where they cover the golden run, with the golden files."""
    rows, problems = [], []
    for env_id in ids:
        t0 = time.perf_counter()
        ref = digest_vector(env_id, seeds, steps, batch=64)
        for b in (16, 4, 1):
            got = digest_vector(env_id, seeds, steps, batch=b)
            bad = mismatches(got, ref)
            if bad:
                problems.append(f"{env_id}: batch {b} differs from batch 64 on seeds {bad[:10]}")
        single = digest_single(env_id, seeds, steps)
        bad = mismatches(single, ref)
        if bad:
            problems.append(f"{env_id}: single env differs from batch 64 on seeds {bad[:10]}")
        gp = golden_path(env_id)
        golden_ok = "-"
        if gp.exists() and steps == GOLDEN_STEPS:
            g = json.loads(gp.read_text())
            sub = {k: v for k, v in ref.items() if k in g["digests"]}
            bad = mismatches(sub, {k: v for k, v in g["digests"].items() if k in sub})
            golden_ok = "yes" if not bad else "NO"
            if bad:
                problems.append(f"{env_id}: differs from {gp.name} on seeds {bad[:10]}")
        rows.append(
            {
                "check": "determinism",
                "id": env_id,
                "seeds": len(seeds),
                "steps": steps,
                "batches": "64/16/4/1+single",
                "golden": golden_ok,
                "problems": sum(env_id in p for p in problems),
                "seconds": round(time.perf_counter() - t0, 1),
            }
        )
    return rows, problems


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "digest":
        return _digest_cli(argv[1:])
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--long", action="store_true", help="the long sizes (about an hour on 2 cores)")
    ap.add_argument("--ids", default=",".join(PRESETS), help="comma-separated env ids")
    ap.add_argument(
        "--only",
        default="soak,single,generation,determinism,memory",
        help="comma-separated parts to run",
    )
    a = ap.parse_args(argv)
    ids = a.ids.split(",")
    parts = set(a.only.split(","))
    if a.long:
        legal = (100, 100_000)  # 10^7 steps per id
        strict = (100, 10_000)  # 10^6 steps per id
        single = (range(4), 25_000)  # 10^5 steps per id and agent through gym.make
        gen_seeds = range(10_000)
        det = (range(100), 10_000)
    else:
        legal = (100, 10_000)
        strict = (100, 2_000)
        single = (range(2), 5_000)
        gen_seeds = range(300)
        det = (range(20), 2_000)
    rows: list[dict] = []
    problems: list[str] = []
    print(
        f"delve reliability {'long' if a.long else 'CI'} run, ids {ids}, "
        f"{os.cpu_count()} CPUs, python {sys.version.split()[0]}\n",
        flush=True,
    )
    for env_id in ids:
        reports = []
        if "soak" in parts:
            reports.append(soak_vector(env_id, *legal, agent="legal"))
            reports.append(soak_vector(env_id, *strict, agent="strict"))
        if "single" in parts:
            for agent in ("legal", "noop", "strict"):
                reports.append(soak_single(env_id, single[0], single[1], agent=agent))
        for r in reports:
            rows.append(r.row())
            problems += [f"{r.name} {env_id}: {p}" for p in r.exceptions + r.problems]
            _progress(r.row())
        if "generation" in parts:
            g = check_generation(env_id, gen_seeds)
            rows.append(g.row())
            problems += [f"generation {env_id}: {p}" for p in g.problems]
            _progress(g.row())
    if "determinism" in parts:
        drows, dprob = run_determinism(ids, *det)
        rows += drows
        problems += dprob
    print("\nsummary")
    groups: dict[tuple, list[dict]] = {}
    for r in rows:
        groups.setdefault(tuple(r), []).append(r)
    for group in groups.values():
        print()
        print_table(group)
    if "memory" in parts:
        cmd = [sys.executable, str(ROOT / "benchmarks" / "memory.py")] + (
            [] if a.long else ["--quick"]
        )
        print(f"\n$ {' '.join(cmd)}", flush=True)
        rc = subprocess.call(cmd)
        if rc:
            problems.append(f"memory.py exited {rc}")
    print(f"\n{len(problems)} problems")
    for p in problems[:100]:
        print(" ", p)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
