"""Loot, pages and the run: LOOT-1, PAGE-1, RUN-1..7, COURT-1, START-1, DIFF-1."""

from __future__ import annotations

import math

import numpy as np
import pytest

from delve_env import DelveEnv
from delve_env.engine.core import params as params_module
from delve_env.engine.core.actions import A_LOOT, A_MOVE, A_SEARCH, A_STAIRS, A_TRAIN, A_WAIT
from delve_env.engine.core.params import P_PAGES_PER_FLOOR, PRESETS, make_params
from delve_env.engine.core.tables import (
    DAGGER,
    EV_FIGHT,
    EV_HUNTING,
    EV_LOOT,
    EV_WANDER,
    EXPLORE,
    KING_SLOT,
    LAMP,
    LEATHER,
    M_TIER,
    MEDICINAL_ALE,
    MONSTERS,
    NUM_EQUIP,
    NUM_MONSTERS,
    NUM_SPELLS,
    ROBES,
    SHORT_BOW,
    STAFF,
    STORE,
    SWORD,
    WOODEN_SHIELD,
    tier_of,
)
from delve_env.engine.rules.loot import add_page
from delve_env.engine.rules.monsters import monster_hearts
from delve_env.engine.rules.party import join_king

# --- LOOT-1 --------------------------------------------------------------------------------


def plain_room(scene, f=1):
    """A room of floor f that is neither the book's nor the king's nor the map's."""
    s = scene.s
    for r in range(s.num_rooms[0, f]):
        book = f == s.book_floor[0] and r == s.book_room[0]
        king = f == scene.depth and r == s.king_room[0]
        if not (book or king or s.room_map[0, f, r]):
            return r
    raise AssertionError("no plain room")


def stock(scene, f, r, gold=0, items=(), pages=(), has_map=False):
    s = scene.s
    s.room_gold[0, f, r] = gold
    s.room_items[0, f, r] = 0
    s.room_items[0, f, r, : len(items)] = items
    s.room_pages[0, f, r] = -1
    s.room_pages[0, f, r, : len(pages)] = pages
    s.room_map[0, f] = False
    s.room_map[0, f, r] = has_map


def test_loot_1_loot_takes_gold_items_pages_and_the_map(scene):
    """LOOT-1: one LOOT takes everything in the room: gold to the purse, items to packs,
    pages to the party, the map read; the room is then empty and LOOT no longer offered."""
    s = scene.s
    r = plain_room(scene)
    scene.clear_band(1, r)
    stock(scene, 1, r, gold=7, items=(DAGGER, SWORD, LEATHER), pages=(3, 5), has_map=True)
    scene.stand_in_room(1, r)
    gold = int(s.gold[0])
    scene.act(A_LOOT)
    assert s.events[0] & EV_LOOT
    assert s.gold[0] == gold + 7
    assert list(s.item[0, 0, NUM_EQUIP : NUM_EQUIP + 3]) == [DAGGER, SWORD, LEATHER]
    assert s.pages_held[0, 3] == 1 and s.pages_held[0, 5] == 1
    assert s.maps_held[0] >> 1 & 1
    assert s.room_gold[0, 1, r] == 0 and (s.room_items[0, 1, r] == 0).all()
    assert (s.room_pages[0, 1, r] == -1).all() and not s.room_map[0, 1, r]
    assert not scene.legal(A_LOOT)


def test_loot_1_items_go_to_the_first_free_pack_slot_of_standing_members_in_order(scene):
    """LOOT-1: with the first marcher's pack full and the second marcher dead, the items go
    to the third marcher's free slots, in order."""
    s = scene.s
    r = plain_room(scene)
    scene.clear_band(1, r)
    s.order[0, :4] = [1, 0, 2, 3]  # rogue, hero, wizard, cleric
    s.item[0, 1, NUM_EQUIP:] = MEDICINAL_ALE  # the rogue's pack is full
    s.hp[0, 0] = 0  # the hero is dead
    s.item[0, 2, NUM_EQUIP:] = 0
    s.item[0, 2, NUM_EQUIP] = LAMP  # the wizard's first pack slot is taken
    stock(scene, 1, r, items=(DAGGER, SWORD))
    scene.stand_in_room(1, r)
    scene.act(A_LOOT)
    assert list(s.item[0, 2, NUM_EQUIP : NUM_EQUIP + 3]) == [LAMP, DAGGER, SWORD]
    assert (s.item[0, 0, NUM_EQUIP:] == 0).all()


def test_loot_1_what_does_not_fit_stays_and_pages_take_no_slot(scene):
    """LOOT-1: with one free pack slot in the party, the first item is taken and the others
    stay in the room; pages are taken regardless of room in packs. LOOT is then offered only
    once a pack has room (no free stall)."""
    s = scene.s
    r = plain_room(scene)
    scene.clear_band(1, r)
    s.item[0, :4, NUM_EQUIP:] = MEDICINAL_ALE
    s.item[0, 3, NUM_EQUIP + 7] = 0  # one free slot, the cleric's last
    stock(scene, 1, r, items=(DAGGER, SWORD, LEATHER), pages=(1,))
    scene.stand_in_room(1, r)
    scene.act(A_LOOT)
    assert s.item[0, 3, NUM_EQUIP + 7] == DAGGER
    assert sorted(s.room_items[0, 1, r][s.room_items[0, 1, r] > 0]) == sorted([SWORD, LEATHER])
    assert s.pages_held[0, 1] == 1
    assert not scene.legal(A_LOOT)
    s.item[0, 0, NUM_EQUIP] = 0
    assert scene.legal(A_LOOT)


# --- PAGE-1 --------------------------------------------------------------------------------


def test_page_1_about_two_pages_lie_on_every_floor(scene_factory):
    """PAGE-1: spell pages are scattered over all floors, about 2 per floor (tunable), each
    one spell of the 12."""
    counts = []
    for seed in range(30):
        sc = scene_factory(depth=6, seed=seed)
        assert sc.p[P_PAGES_PER_FLOOR] == 2
        pages = sc.s.room_pages[0]
        for f in range(1, 7):
            on_floor = pages[f][pages[f] >= 0]
            assert (on_floor < NUM_SPELLS).all()
            counts.append(len(on_floor))
    assert min(counts) >= 1
    assert 1.5 <= np.mean(counts) <= 2.5


def test_page_1_pages_found_before_the_book_are_held_then_go_into_it(scene):
    """PAGE-1: two copies of a page and another found before the book are held; looting
    the book puts every held page into it and empties the hand."""
    s = scene.s
    r = plain_room(scene)
    scene.clear_band(1, r)
    stock(scene, 1, r, pages=(2, 2))
    scene.stand_in_room(1, r)
    scene.act(A_LOOT)
    add_page(s, 0, 9)
    assert s.pages_held[0, 2] == 2 and s.pages_held[0, 9] == 1
    assert not s.book_pages[0].any()
    f, b = int(s.book_floor[0]), int(s.book_room[0])
    scene.clear_band(f, b)
    stock(scene, f, b)
    scene.stand_in_room(f, b)
    assert scene.legal(A_LOOT)
    scene.act(A_LOOT)
    assert s.has_book[0]
    assert s.book_pages[0, 2] == 2 and s.book_pages[0, 9] == 1
    assert not s.pages_held[0].any()


def test_page_1_pages_found_after_the_book_go_straight_in(scene):
    """PAGE-1: once the book is held, a looted page goes into the book, not the hand."""
    s = scene.s
    s.has_book[0] = True
    r = plain_room(scene)
    scene.clear_band(1, r)
    stock(scene, 1, r, pages=(7,))
    scene.stand_in_room(1, r)
    scene.act(A_LOOT)
    assert s.book_pages[0, 7] == 1 and s.pages_held[0, 7] == 0


# --- RUN-1 ---------------------------------------------------------------------------------


def test_run_1_the_default_depth_is_6():
    """RUN-1: by default the dungeon has floors 1..6 below the courtyard."""
    env = DelveEnv()
    env.reset(seed=0)
    assert env.engine.state.floor_visited.shape[1] == 7


@pytest.mark.parametrize("depth", [2, 12])
def test_run_1_depth_ranges_from_2_to_12(depth):
    """RUN-1: depths 2 and 12 make dungeons of that many floors."""
    env = DelveEnv(depth=depth)
    env.reset(seed=3)
    assert env.engine.state.floor_visited.shape[1] == depth + 1


@pytest.mark.parametrize("depth", [0, 1, 13])
def test_run_1_depths_outside_2_to_12_are_refused(depth):
    """RUN-1: depth outside 2..12 raises ValueError."""
    with pytest.raises(ValueError):
        DelveEnv(depth=depth)


def test_run_1_a_run_goes_down_floor_by_floor_and_back_up(scene_factory):
    """RUN-1: from the courtyard the stairs lead to floor 1, 2, 3 in turn, and back up
    2, 1, 0."""
    sc = scene_factory(depth=3)
    s = sc.s
    s.maps_held[0] = 0b1110
    floors = []
    for _ in range(3):
        if s.floor[0] > 0:
            sc.put(int(s.floor[0]), *(int(v) for v in s.stair_down[0, s.floor[0]]))
        sc.act(A_STAIRS)
        floors.append(int(s.floor[0]))
    for _ in range(3):
        sc.put(int(s.floor[0]), *(int(v) for v in s.stair_up[0, s.floor[0]]))
        sc.act(A_STAIRS)
        floors.append(int(s.floor[0]))
    assert floors == [1, 2, 3, 2, 1, 0]
    assert s.stat_deepest[0] == 3


def test_run_1_there_is_no_way_below_the_deepest_floor(scene):
    """RUN-1: the descent ends at floor D: standing on floor D's stair down with every map,
    the stairs are not offered (there is no floor D + 1)."""
    s = scene.s
    D = scene.depth
    s.maps_held[0] = (1 << (D + 1)) - 2
    scene.put(D, *(int(v) for v in s.stair_down[0, D]))
    assert not scene.legal(A_STAIRS)


# --- RUN-2 ---------------------------------------------------------------------------------


@pytest.mark.parametrize("depth", [2, 3, 5, 6, 9, 12])
def test_run_2_the_book_lies_halfway_down_and_the_king_on_the_deepest_floor(depth):
    """RUN-2: the book is in a room of floor ceil(D/2), the king in a room of floor D; both
    are ordinary rooms (not vaults)."""
    env = DelveEnv(depth=depth)
    for seed in range(5):
        env.reset(seed=seed)
        s = env.engine.state
        assert s.book_floor[0] == math.ceil(depth / 2)
        assert 0 <= s.book_room[0] < s.num_rooms[0, s.book_floor[0]]
        assert 0 <= s.king_room[0] < s.num_rooms[0, depth]
        vault = getattr(s, "vault_room", None)
        if vault is not None:
            assert vault[0, s.book_floor[0]] != s.book_room[0]
            assert vault[0, depth] != s.king_room[0]


def test_run_2_book_and_king_rooms_are_guarded_like_any_other_room(scene_factory):
    """RUN-2: the quest rooms' bands are drawn like any room's, monsters of the floor's tier,
    with one more guard at most (MON-2: the king's and the book's rooms are guarded well)."""
    ordinary_max, quest_max = 0, 0
    for seed in range(60):
        sc = scene_factory(depth=3, seed=seed)
        s = sc.s
        for f in range(1, 4):
            for r in range(s.num_rooms[0, f]):
                band = s.band_kind[0, f, r]
                band = band[band >= 0]
                assert (MONSTERS[band, M_TIER] == tier_of(f)).all()
                quest = (f == s.book_floor[0] and r == s.book_room[0]) or (
                    f == 3 and r == s.king_room[0]
                )
                if quest:
                    quest_max = max(quest_max, len(band))
                else:
                    ordinary_max = max(ordinary_max, len(band))
    assert quest_max <= ordinary_max + 1


# --- RUN-3 ---------------------------------------------------------------------------------


def king_in_party(scene):
    join_king(scene.s, 0, scene.rng(1))


@pytest.mark.nojit
@pytest.mark.parametrize("book, reward", [(False, 1.0), (True, 1.5)])
def test_run_3_standing_in_the_courtyard_with_the_king_wins(scene, book, reward):
    """RUN-3: the moment the party arrives in the courtyard with the king alive and in the
    party the run is won (+1, +0.5 more with the book); what it carries is left as is."""
    s = scene.s
    king_in_party(scene)
    s.has_book[0] = book
    scene.put(1, *(int(v) for v in s.stair_up[0, 1]))
    gold, rations = int(s.gold[0]), int(s.rations[0])
    _, r, terminated, truncated, info = scene.act(A_STAIRS)
    assert terminated and not truncated
    assert s.outcome[0] == 1 and r == reward
    assert info["episode_stats"]["won"]
    assert s.gold[0] == gold and s.rations[0] == rations


def test_run_3_the_courtyard_without_the_king_is_no_win(scene):
    """RUN-3/COURT-1: coming up without the king ends nothing."""
    s = scene.s
    s.has_book[0] = True
    scene.put(1, *(int(v) for v in s.stair_up[0, 1]))
    _, r, terminated, _, _ = scene.act(A_STAIRS)
    assert s.floor[0] == 0 and not terminated and r == 0 and s.outcome[0] == 0


# --- RUN-4 ---------------------------------------------------------------------------------


def hungry_step_until(scene, done):
    """Wait once per RNG seed from the same scene until `done()`; returns the step result."""
    s = scene.s
    snap = scene.save()
    for seed in range(1, 100):
        scene.load(snap)
        s.rng[0] = scene.rng(seed)[0]
        result = scene.act(A_WAIT)
        if done():
            return result
    raise AssertionError("never happened")


def test_run_4_the_run_is_lost_when_every_member_is_dead(scene):
    """RUN-4: the last standing member starves to death: the run ends lost (-1)."""
    s = scene.s
    scene.calm()
    r = plain_room(scene)
    scene.clear_band(1, r)
    scene.stand_in_room(1, r)
    s.hp[0, :3] = 0
    s.hp[0, 3], s.luck[0, 3] = 1, 0
    s.rations[0] = 0
    s.meal_clock[0] = scene.p[params_module.P_MEAL_PACES] - 1
    _, reward, terminated, _, info = hungry_step_until(scene, lambda: s.hp[0, 3] == 0)
    assert terminated and s.outcome[0] == 2 and reward == -1.0
    assert not info["episode_stats"]["won"]


def test_run_4_the_run_is_lost_when_the_king_dies(scene):
    """RUN-4: the king starves while the others live: the run is lost."""
    s = scene.s
    scene.calm()
    king_in_party(scene)
    r = plain_room(scene)
    scene.clear_band(1, r)
    scene.stand_in_room(1, r)
    s.hp[0, KING_SLOT], s.luck[0, KING_SLOT] = 1, 0
    s.rations[0] = 0
    s.meal_clock[0] = scene.p[params_module.P_MEAL_PACES] - 1
    _, reward, terminated, _, _ = hungry_step_until(scene, lambda: s.hp[0, KING_SLOT] == 0)
    assert (s.hp[0, :4] > 0).all()
    assert terminated and s.outcome[0] == 2 and reward == -1.0


def test_run_4_the_run_goes_on_while_someone_stands(scene):
    """RUN-4: three dead and one standing is not a loss."""
    s = scene.s
    scene.calm()
    r = plain_room(scene)
    scene.clear_band(1, r)
    scene.stand_in_room(1, r)
    s.hp[0, :3] = 0
    _, _, terminated, _, _ = scene.act(A_WAIT)
    assert not terminated and s.outcome[0] == 0


# --- RUN-5 ---------------------------------------------------------------------------------


def test_run_5_the_env_truncates_at_its_step_cap(scene_factory):
    """RUN-5: with max_steps=3 the third step truncates (not terminates) the episode."""
    sc = scene_factory(depth=2, max_steps=3)
    sc.calm()
    assert not sc.act(A_STAIRS)[3]
    assert not sc.act(A_WAIT)[3]
    _, _, terminated, truncated, _ = sc.act(A_WAIT)
    assert truncated and not terminated


def test_run_5_the_run_itself_has_no_time_limit(scene):
    """RUN-5: 480 paces of waiting (4 hours x 2) end nothing: no loss, no truncation, only
    the meals eaten (16 rations)."""
    s = scene.s
    scene.calm()
    r = plain_room(scene)
    scene.clear_band(1, r)
    scene.stand_in_room(1, r)
    scene.refresh()
    for _ in range(480):
        _, _, terminated, truncated, _ = scene.env.step(A_WAIT)
        assert not terminated and not truncated
    assert s.pace[0] == 480 and s.rations[0] == 4 and s.outcome[0] == 0


# --- RUN-6 ---------------------------------------------------------------------------------


def loot_book(scene):
    s = scene.s
    f, b = int(s.book_floor[0]), int(s.book_room[0])
    scene.clear_band(f, b)
    scene.stand_in_room(f, b)
    scene.act(A_LOOT)
    assert s.has_book[0]


def find_king(scene):
    s = scene.s
    D, r = scene.depth, int(s.king_room[0])
    scene.clear_band(D, r)
    scene.enter_room(D, r)
    assert s.has_king[0]


@pytest.mark.parametrize("book_first", [True, False])
def test_run_6_hunting_starts_once_both_king_and_book_are_held(scene, book_first):
    """RUN-6: holding only one of the two, nobody hunts; the moment the second is in hand
    hunting starts."""
    s = scene.s
    scene.calm()
    first, second = (loot_book, find_king) if book_first else (find_king, loot_book)
    first(scene)
    assert not s.hunting[0]
    scene.act(A_WAIT)
    assert not s.hunting[0]
    second(scene)
    assert s.hunting[0] and s.events[0] & EV_HUNTING


def test_run_6_hunting_never_stops(scene):
    """RUN-6: once started, hunting lasts through waits, searches, walks and stairs."""
    s = scene.s
    scene.calm()
    loot_book(scene)
    find_king(scene)
    assert s.hunting[0]
    for a in (A_WAIT, A_SEARCH, A_WAIT):
        scene.act(a)
        assert s.hunting[0]
    scene.put(2, *(int(v) for v in s.stair_up[0, 2]))
    scene.act(A_STAIRS)
    assert s.floor[0] == 1 and s.hunting[0]
    d = next(d for d in range(4) if scene.legal(A_MOVE + d))
    scene.act(A_MOVE + d)
    assert s.hunting[0] and not s.events[0] & EV_HUNTING  # started once, not again


# --- RUN-7 ---------------------------------------------------------------------------------


def test_run_7_one_seed_fixes_the_dungeon_and_the_trajectory():
    """RUN-7: two envs reset with the same seed hold the same dungeon, and the same actions
    give the same observations and rewards."""
    a, b = DelveEnv(depth=3), DelveEnv(depth=3)
    obs_a, _ = a.reset(seed=42)
    obs_b, _ = b.reset(seed=42)
    for x, y in zip(a.engine.state, b.engine.state):
        assert np.array_equal(x, y)
    pick = np.random.default_rng(0)
    steps = 0
    for _ in range(400):
        mask = a.action_masks()
        assert np.array_equal(mask, b.action_masks())
        action = int(pick.choice(np.flatnonzero(mask)))
        ra, rb = a.step(action), b.step(action)
        for key in ra[0]:
            assert np.array_equal(ra[0][key], rb[0][key])
        assert ra[1:4] == rb[1:4]
        steps += 1
        if ra[2] or ra[3]:
            break
    for x, y in zip(a.engine.state, b.engine.state):
        assert np.array_equal(x, y)
    assert steps > 10


def test_run_7_different_seeds_give_different_dungeons():
    """RUN-7: another seed, another dungeon."""
    a, b = DelveEnv(depth=2), DelveEnv(depth=2)
    a.reset(seed=1)
    b.reset(seed=2)
    assert not np.array_equal(a.engine.state.tiles, b.engine.state.tiles)


# --- COURT-1 -------------------------------------------------------------------------------


def test_court_1_every_run_starts_in_the_courtyard(scene):
    """COURT-1: at reset the party stands on floor 0, exploring, with the clock at 0."""
    s = scene.s
    assert s.floor[0] == 0 and s.mode[0] == EXPLORE and s.pace[0] == 0
    assert s.floor_visited[0, 0] and not s.floor_visited[0, 1:].any()


def test_court_1_the_courtyard_costs_no_time_and_has_no_wandering_bands(scene):
    """COURT-1: every action legal in the courtyard leaves the clock at 0 and starts no fight
    (even with wandering chances forced to 1)."""
    s = scene.s
    for i in (
        params_module.P_HALL_WANDER,
        params_module.P_JUNCTION_WANDER,
        params_module.P_HALL_WANDER_HUNT,
        params_module.P_JUNCTION_WANDER_HUNT,
    ):
        scene.p[i] = 1.0
    mask = scene.refresh().copy()
    snap = scene.save()
    legal = np.flatnonzero(mask)
    assert len(legal) > 1
    for a in legal:
        scene.load(snap)
        scene.act(int(a))
        assert s.pace[0] == 0
        if a == A_TRAIN:  # COURT-2: the training ground's practice bout, no wandering band
            assert s.practice[0] and not s.events[0] & EV_WANDER
            continue
        assert not s.events[0] & (EV_FIGHT | EV_WANDER)
        assert s.mode[0] in (EXPLORE, STORE)  # the courtyard's store is a screen (STORE-1)


def test_court_1_the_courtyard_stair_down_is_always_open(scene):
    """COURT-1 (project rule): with no map at all, the stair down to floor 1 is open."""
    scene.s.maps_held[0] = 0
    assert scene.legal(A_STAIRS)
    scene.act(A_STAIRS)
    assert scene.s.floor[0] == 1


def test_court_1_coming_back_up_without_the_king_and_going_down_again(scene):
    """COURT-1: the party may come back to the courtyard without the king and go down again,
    arriving at floor 1's stair up."""
    s = scene.s
    scene.act(A_STAIRS)
    scene.act(A_STAIRS)
    assert s.floor[0] == 0 and s.outcome[0] == 0
    scene.act(A_STAIRS)
    assert s.floor[0] == 1 and (s.x[0], s.y[0]) == tuple(s.stair_up[0, 1])


# --- START-1 -------------------------------------------------------------------------------


@pytest.mark.parametrize("difficulty, factor", [("easy", 4), ("normal", 2), ("hard", 1)])
@pytest.mark.parametrize(
    "party", [("hero",), ("rogue", "namer"), ("hero", "rogue", "wizard", "cleric")]
)
def test_start_1_purse_is_5_gold_a_member_times_the_preset_factor_and_20_rations(
    difficulty, factor, party
):
    """START-1: the party purse starts at 5 gold per member x 4 / 2 / 1 (easy / normal /
    hard), with 20 rations."""
    env = DelveEnv(difficulty=difficulty, depth=2, party=party)
    env.reset(seed=5)
    assert env.engine.state.gold[0] == 5 * factor * len(party)
    assert env.engine.state.rations[0] == 20


START_KIT = {  # class: (worn items, pack items at least, HP range, mana well)
    "hero": ({SWORD, WOODEN_SHIELD, LEATHER}, [], (16, 21), 3),
    "rogue": ({DAGGER}, [SHORT_BOW], (12, 12), 3),
    "wizard": ({STAFF, ROBES}, [], (11, 11), 6),
    "cleric": ({STAFF, ROBES}, [], (12, 12), 6),
    "namer": ({DAGGER}, [LAMP], (12, 12), 7),
}


@pytest.mark.parametrize("cls", sorted(START_KIT))
def test_start_1_members_start_with_class_gear_and_full_hp_and_mana(cls):
    """START-1: each class starts with its gear (rogue: two daggers and a short bow), its
    starting HP as current HP and ceiling, and a full mana well."""
    worn, pack, (lo, hi), well = START_KIT[cls]
    hps = set()
    for seed in range(40):
        env = DelveEnv(depth=2, party=(cls,))
        env.reset(seed=seed)
        s = env.engine.state
        items = s.item[0, 0]
        assert set(items[:NUM_EQUIP][items[:NUM_EQUIP] > 0]) == worn
        for kind in pack:
            assert kind in items[NUM_EQUIP:]
        if cls == "rogue":
            assert list(items).count(DAGGER) == 2
        assert lo <= s.hp[0, 0] <= hi and s.hp[0, 0] == s.ceiling[0, 0]
        assert s.mana[0, 0] == s.well[0, 0] == well
        hps.add(int(s.hp[0, 0]))
    assert len(hps) == hi - lo + 1  # the hero's d6 shows every face


# --- DIFF-1 --------------------------------------------------------------------------------

HARDER = {  # +1: a bigger number is harder; -1: a smaller number is harder
    "P_DEPTH": +1,
    "P_PURSE_FACTOR": -1,
    "P_XP_FACTOR": +1,
    "P_MONSTER_HEARTS": +1,
    "P_MONSTER_ATK": +1,
    "P_TRAP_AVOID_STEP": +1,
    "P_WALL_WOUND": +1,
}


def param_name(index):
    return next(n for n, v in vars(params_module).items() if n.startswith("P_") and v == index)


def test_diff_1_a_harder_preset_is_never_easier_in_any_number():
    """DIFF-1: every number that differs between presets moves toward harder from easy to
    normal to hard; every other number is the same in all three."""
    keys = set(PRESETS["easy"]) | set(PRESETS["normal"]) | set(PRESETS["hard"])
    for preset in PRESETS.values():
        assert set(preset) == keys
    for index in keys:
        name = param_name(index)
        assert name in HARDER, f"{name} differs by preset: say which way is harder"
        values = [HARDER[name] * PRESETS[d][index] for d in ("easy", "normal", "hard")]
        assert values == sorted(values), name
    vectors = [make_params(d) for d in ("easy", "normal", "hard")]
    for index in range(len(vectors[0])):
        if index not in keys:
            assert vectors[0][index] == vectors[1][index] == vectors[2][index]


def test_diff_1_monsters_are_never_weaker_on_a_harder_preset():
    """DIFF-1: every kind has at least as many hearts on normal as on easy, and on hard as
    on normal."""
    for kind in range(NUM_MONSTERS):
        hearts = [monster_hearts(make_params(d), kind) for d in ("easy", "normal", "hard")]
        assert hearts == sorted(hearts)


def test_diff_1_monster_hearts_round_half_up():
    """DIFF-1: a kind's hearts times the preset's monster strength (0.75 easy, 1.25 hard),
    rounded half up, at least 1; some kinds land on a fraction of a half or more."""
    from fractions import Fraction

    from delve_env.engine.core.params import P_MONSTER_HEARTS
    from delve_env.engine.core.tables import M_HEARTS

    rounded_up = 0
    for d in ("easy", "hard"):
        p = make_params(d)
        factor = Fraction(str(float(p[P_MONSTER_HEARTS])))
        for kind in range(NUM_MONSTERS):
            exact = int(MONSTERS[kind, M_HEARTS]) * factor
            want = max(1, math.floor(exact + Fraction(1, 2)))
            assert monster_hearts(p, kind) == want, (d, kind)
            rounded_up += want > max(1, math.floor(exact))
    assert rounded_up > 0


def test_mon_1_the_books_and_kings_guards_are_one_more(scene):
    """MON-1: the book's (and the king's) room draws a band one bigger: on floor 1 (bands of
    1-2) the book's guards number 2-3, every other room's 1-2 (200 stockings, guards sure)."""
    from delve_env.engine.core.params import P_GUARD_CHANCE
    from delve_env.engine.rules.loot import stock_floor

    s = scene.s
    p = scene.p
    p[P_GUARD_CHANCE] = 1.0
    s.book_floor[0], s.book_room[0] = 1, 0
    g = scene.rng(77)
    book, other = set(), set()
    for _ in range(200):
        stock_floor(s, p, 0, 1, g)
        for r in range(int(s.num_rooms[0, 1])):
            n = int((s.band_kind[0, 1, r] >= 0).sum())
            (book if r == 0 else other).add(n)
    assert book == {2, 3} and other == {1, 2}
