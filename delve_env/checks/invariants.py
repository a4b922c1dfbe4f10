"""The state invariants the soaks check after every step, and a step's touch on the state.

`InvariantChecker` checks every slot of an engine state (a vector env's `state`, or a single
env's); the soak runner (delve_env/tools/soak.py), quality/combat_soak.py and the rule tests
(each planting the defect an invariant names) all call it. `state_copy` / `state_diff` tell
whether a step (a refused one, a masked no-op, a refused load) touched any field.

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
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

import numpy as np

from delve_env.engine.core.tables import (
    CHEST_NONE,
    CHEST_OPEN,
    CHOICE,
    CLERIC,
    DOOR,
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
    ROOM,
    SECRET,
    STAIR_DOWN,
    STAIR_UP,
    STATUE,
    STORE,
    WARD,
    WIZARD,
)
from delve_env.engine.rules.fights import FAMILIAR
from delve_env.engine.rules.reach import sets_as_walked
from delve_env.engine.rules.spells import AID_OVER, MAX_DECOYS
from delve_env.engine.rules.traits import ARMORER_DV, CLERIC_HOLY_WEAPON, NAMER_BLOOD, WAND_CASTS
from delve_env.engine.rules.travel import find_ways

MAX_EFFECT_PACES = 10000  # config.TUNABLES: the most lantern_paces / scroll_paces may be
MAX_RAISES = 3  # RAISE-1
WALKABLE = (HALL, ROOM, DOOR, STAIR_DOWN, STAIR_UP)  # floors.is_walkable


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
        from delve_env.engine.core.tables import M_FLAGS, MONSTERS, NUM_MONSTERS
        from delve_env.engine.outputs.fightlog import LOG_SIZE

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


def stale_ways(s, placed: np.ndarray) -> np.ndarray:
    """Per slot: travel's kept ways (`ways_known`, fresh at each step's end) are not those a
    search of the known map finds now; only where the party is `placed` on its floor."""
    return np.array([placed[e] and s.ways_known[e] != find_ways(s, e) for e in range(len(placed))])


def reach_apart(s, placed: np.ndarray) -> np.ndarray:
    """Per slot: the known map's sets (`reach`, engine/rules/reach.py) are not the party's floor's
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


def state_copy(s) -> list[bytes]:
    """Every field's bytes (cheaper to take and compare than array copies)."""
    return [a.tobytes() for a in s]


def state_diff(s, saved: list[bytes], ignore: tuple[str, ...] = ()) -> list[str]:
    """The fields of `s` whose bytes differ from a `state_copy`."""
    now = state_copy(s)
    if now == saved:
        return []
    return [name for name, a, b in zip(s._fields, now, saved) if name not in ignore and a != b]
