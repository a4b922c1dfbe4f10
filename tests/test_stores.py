"""Stores: STORE-1..2 (and ITEM-1's store tables and prices as data), on hand-set scenes."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import make_scene

from delve_env.engine.core.actions import (
    A_BID,
    A_BUY,
    A_CANCEL,
    A_LEAVE,
    A_REPAIR,
    A_SELECT,
    A_SELL,
    A_SHOP,
    A_STAIRS,
    A_WAIT,
    NUM_ACTIONS,
    NUM_BIDS,
    select_action,
)
from delve_env.engine.core.params import P_TASK, TASK_EXPLORE
from delve_env.engine.core.tables import (
    ARMOR,
    DAGGER,
    EXPLORE,
    FEAT_NONE,
    FEAT_STORE,
    I_DV,
    I_PRICE,
    ITEMS,
    LEATHER,
    LIGHT_OF_LIFE,
    MAX_STOCK,
    MEDICINAL_ALE,
    NUM_EQUIP,
    NUM_ITEM_SLOTS,
    OFF_HAND,
    RATIONS_CODE,
    READY,
    STORE,
    STORE_STOCK,
    SWORD,
    WOODEN_SHIELD,
)
from delve_env.engine.outputs.layout import (
    LINE_BUYABLE,
    LINE_ITEM,
    LINE_PRICE,
    LINE_ROW,
    PARTY_ARMOR,
    SHOP_FACTOR,
    SHOP_LEVEL,
    SHOP_LINES,
    SHOP_REPAIR,
    SHOP_SELL,
)
from delve_env.engine.rules.stores import MAX_RATIONS

STORE_FLOORS = (0, 3, 6, 9, 12)
FACTORS = {0: 1.0, 3: 1.5, 6: 2.0, 9: 2.5, 12: 3.0}  # STORE-1
LIGHT_LINE = 1  # the light of life's line in every store's list


def half_up(x: float) -> int:
    """x rounded half up (the stores' rounding)."""
    return int(np.floor(x + 0.5))


@pytest.fixture(scope="module")
def deep():
    """A depth-12 scene (seed 0): stores on floors 3, 6, 9 and 12."""
    return make_scene(depth=12, seed=0)


@pytest.fixture
def fresh(deep):
    """The depth-12 scene, restored to its reset state for each test."""
    if not hasattr(deep, "start"):
        deep.start = deep.save(), deep.p.copy()
    deep.load(deep.start[0])
    deep.p[:] = deep.start[1]
    deep.refresh()
    return deep


def store_room(scene, f: int) -> int:
    rooms = np.flatnonzero(scene.s.room_feature[0, f] == FEAT_STORE)
    assert len(rooms) == 1, f"floor {f} has no store"
    return int(rooms[0])


def go_to_store(scene, f: int) -> None:
    """Stand at floor f's store (the courtyard for 0), exploring."""
    if f == 0:
        scene.put(0, 0, 0)
    else:
        scene.stand_in_room(f, store_room(scene, f))


def shop(scene, f: int, gold: int = 10_000) -> None:
    """Enter floor f's store with `gold` in the purse."""
    go_to_store(scene, f)
    scene.s.gold[0] = gold
    scene.act(A_SHOP)
    assert scene.s.mode[0] == STORE


def lines(scene) -> np.ndarray:
    """The shop key's lines as (MAX_STOCK, LINE_ROW)."""
    return scene.obs()["shop"][SHOP_LINES : SHOP_LINES + MAX_STOCK * LINE_ROW].reshape(
        MAX_STOCK, LINE_ROW
    )


def legal(scene) -> set[int]:
    return set(np.flatnonzero(scene.refresh()).tolist())


# --- STORE-1: where the stores are, their factors and stock ---------------------------------


@pytest.mark.parametrize("f", STORE_FLOORS)
def test_store_1_a_store_on_the_courtyard_and_every_third_floor(fresh, f):
    """STORE-1: SHOP is offered in the courtyard and in the store room of floors 3, 6, 9, 12,
    and enters mode STORE; leaving goes back to exploring where the party stood."""
    go_to_store(fresh, f)
    where = (fresh.s.x[0], fresh.s.y[0])
    assert fresh.legal(A_SHOP)
    fresh.act(A_SHOP)
    assert fresh.s.mode[0] == STORE
    fresh.act(A_LEAVE)
    assert fresh.s.mode[0] == EXPLORE and (fresh.s.x[0], fresh.s.y[0]) == where


@pytest.mark.parametrize("f", (1, 2, 3, 4, 6))
def test_store_1_no_store_elsewhere(fresh, f):
    """STORE-1: no SHOP in a room without a store (every room of floors 1, 2 and 4; the other
    rooms of 3 and 6) nor in a hall."""
    for r in range(int(fresh.s.num_rooms[0, f])):
        if fresh.s.room_feature[0, f, r] == FEAT_NONE:
            fresh.stand_in_room(f, r)
            assert not fresh.legal(A_SHOP), (f, r)
    fresh.put(f, *fresh.hall_tile(f, junction=False))
    assert not fresh.legal(A_SHOP)


def test_store_1_no_store_in_the_explore_sub_task(fresh):
    """The explore sub-task's packs stay as they are: no shopping there (docs)."""
    go_to_store(fresh, 3)
    fresh.p[P_TASK] = TASK_EXPLORE
    assert not fresh.legal(A_SHOP)


@pytest.mark.parametrize("f", STORE_FLOORS)
def test_store_1_prices_are_the_table_price_times_the_floor_factor(fresh, f):
    """STORE-1, ITEM-1: every line costs tables.ITEMS' price x the factor (1.0, 1.5, 2.0,
    2.5, 3.0), rounded half up, as shown and as paid."""
    shop(fresh, f)
    level = STORE_FLOORS.index(f)
    shown = lines(fresh)
    assert fresh.obs()["shop"][SHOP_LEVEL] == level + 1
    assert fresh.obs()["shop"][SHOP_FACTOR] == round(2 * FACTORS[f])
    for k, kind in enumerate(STORE_STOCK[level], start=1):
        if kind == 0:
            continue
        price = half_up(ITEMS[kind, I_PRICE] * FACTORS[f])
        assert shown[k, LINE_ITEM] == kind
        assert shown[k, LINE_PRICE] == -(-price // 5)  # in fives, rounded up
        gold = int(fresh.s.gold[0])
        fresh.act(A_BUY + k)
        assert gold - fresh.s.gold[0] == price, (f, kind)
        fresh.s.item[0, :, NUM_EQUIP:] = 0  # room for the next one


def test_store_1_each_store_stocks_all_the_one_above_did_and_more(fresh):
    """STORE-1: each store's list holds every kind of the one above it, at the same line,
    and at least one more."""
    seen = []
    for f in STORE_FLOORS:
        shop(fresh, f)
        kinds = [int(k) for k in lines(fresh)[1:, LINE_ITEM] if k]
        assert kinds[: len(seen)] == seen and len(kinds) > len(seen), f
        seen = kinds
        fresh.act(A_LEAVE)
    assert len(seen) <= MAX_STOCK - 1


# --- STORE-2: rations, the light of life, selling, repairing --------------------------------


@pytest.mark.parametrize("f", STORE_FLOORS)
def test_store_2_ten_rations_for_twenty_gold_times_the_factor(fresh, f):
    """STORE-2: line 0 is ten rations, to the party, for 20 gold x factor."""
    shop(fresh, f, gold=100)
    price = half_up(20 * FACTORS[f])
    assert lines(fresh)[0, LINE_ITEM] == RATIONS_CODE
    rations = int(fresh.s.rations[0])
    fresh.act(A_BUY)
    assert fresh.s.rations[0] == rations + 10 and fresh.s.gold[0] == 100 - price


@pytest.mark.parametrize("f", STORE_FLOORS)
def test_store_2_every_store_sells_the_light_of_life(fresh, f):
    """STORE-2: the light of life is on every store's list (line 1); it goes to the first
    free pack slot of the standing members in marching order, its kind known (ITEM-2)."""
    shop(fresh, f)
    assert lines(fresh)[LIGHT_LINE, LINE_ITEM] == LIGHT_OF_LIFE
    s = fresh.s
    s.known_kinds[0] = 0
    s.hp[0, 0] = 0  # the hero has fallen: the rogue is the first standing member
    s.item[0, 1, NUM_EQUIP:] = 0
    s.item[0, 1, NUM_EQUIP] = DAGGER  # ... and his first pack slot is taken
    bought = int(s.stat_bought[0])
    fresh.act(A_BUY + LIGHT_LINE)
    assert s.item[0, 1, NUM_EQUIP + 1] == LIGHT_OF_LIFE and s.known_kinds[0] >> LIGHT_OF_LIFE & 1
    assert s.known_kinds[0] == 1 << LIGHT_OF_LIFE
    assert s.stat_bought[0] == bought + 1
    assert fresh.obs()["pack"][1, NUM_EQUIP + 1, 0] == LIGHT_OF_LIFE


def test_store_2_buying_needs_the_gold(fresh):
    """STORE-2: a line can be bought when the gold covers its price, not a coin less."""
    shop(fresh, 3, gold=149)  # the light of life costs 150 on floor 3
    assert not fresh.legal(A_BUY + LIGHT_LINE)
    assert lines(fresh)[LIGHT_LINE, LINE_BUYABLE] == 0
    fresh.s.gold[0] = 150
    assert fresh.legal(A_BUY + LIGHT_LINE)
    assert lines(fresh)[LIGHT_LINE, LINE_BUYABLE] == 1
    fresh.s.gold[0] = 29  # ten rations cost 30 there
    assert not fresh.legal(A_BUY) and lines(fresh)[0, LINE_BUYABLE] == 0


def test_store_2_buying_an_item_needs_a_standing_members_pack_room(fresh):
    """STORE-2, LOOT-1: an item needs a free pack slot of a standing member (a fallen
    member's empty pack does not count); rations need none."""
    shop(fresh, 0)
    s = fresh.s
    s.item[0, :4, NUM_EQUIP:] = MEDICINAL_ALE
    assert not any(fresh.legal(A_BUY + k) for k in range(1, MAX_STOCK))
    assert fresh.legal(A_BUY)
    s.item[0, 2, NUM_ITEM_SLOTS - 1] = 0
    s.hp[0, 2] = 0  # the wizard has room but has fallen
    assert not fresh.legal(A_BUY + LIGHT_LINE)
    s.hp[0, 2] = 5
    assert fresh.legal(A_BUY + LIGHT_LINE)
    fresh.act(A_BUY + LIGHT_LINE)
    assert s.item[0, 2, NUM_ITEM_SLOTS - 1] == LIGHT_OF_LIFE


@pytest.mark.parametrize("f", (0, 3, 12))
def test_store_2_stores_buy_at_half_price(fresh, f):
    """STORE-2: any member's item, worn or packed, a fallen member's too, sells for half its
    base (courtyard) price, rounded down, whatever the store's factor; the selection is let
    go."""
    shop(fresh, f, gold=0)
    s = fresh.s
    s.hp[0, 0] = 0  # the hero has fallen: his things are still for sale
    sold = int(s.stat_sold[0])
    for slot, kind in ((READY, SWORD), (OFF_HAND, WOODEN_SHIELD), (ARMOR, LEATHER)):
        assert s.item[0, 0, slot] == kind
        gold = int(s.gold[0])
        fresh.act(select_action(0, slot))
        price = int(ITEMS[kind, I_PRICE]) // 2
        assert fresh.obs()["shop"][SHOP_SELL] == -(-price // 5)
        fresh.act(A_SELL)
        assert s.gold[0] - gold == price
        assert s.item[0, 0, slot] == 0 and s.sel_member[0] == -1
    assert s.stat_sold[0] == sold + 3
    assert (fresh.obs()["pack"][0, :NUM_EQUIP] == 0).all()


def test_store_2_a_sword_sells_for_half_its_base_price_on_floor_3(fresh):
    """STORE-2 worked out: a sword (15) costs 22.5 -> 23 on floor 3 and sells for 7 (15 // 2,
    not half of 23)."""
    shop(fresh, 3, gold=0)
    fresh.act(select_action(0, READY))
    fresh.act(A_SELL)
    assert fresh.s.gold[0] == 7


@pytest.mark.parametrize("f", (3, 12))
def test_store_2_courtyard_goods_carried_down_sell_for_no_profit(fresh, f):
    """STORE-2: a light of life bought at the courtyard for 100 sells for 50 on floor 3
    (factor 1.5) and on floor 12 (factor 3.0), where it costs 150 and 300."""
    shop(fresh, 0, gold=100)
    s = fresh.s
    fresh.act(A_BUY + LIGHT_LINE)
    assert s.gold[0] == 0
    m, slot = (int(v[0]) for v in np.nonzero(s.item[0] == LIGHT_OF_LIFE))
    fresh.act(A_LEAVE)
    shop(fresh, f, gold=0)
    assert lines(fresh)[LIGHT_LINE, LINE_PRICE] == -(-half_up(100 * FACTORS[f]) // 5)
    fresh.act(select_action(m, slot))
    fresh.act(A_SELL)
    assert s.gold[0] == 50


@pytest.mark.parametrize("f", (0, 6))
def test_store_2_repairs_wear_and_durability(fresh, f):
    """STORE-2: a weapon's wear (3 gold a point) and a shield's or armor's wear and lost
    durability (1 gold a point) are mended for that x the factor; the piece is as new."""
    shop(fresh, f, gold=1000)
    s = fresh.s
    s.item_wear[0, 0, READY] = 2  # the sword bitten twice: 6 gold x factor
    s.item_wear[0, 0, OFF_HAND] = 1  # the shield ground once and 4 DV lost: 3 + 4
    s.item_dv[0, 0, OFF_HAND] = 6
    s.item_dv[0, 0, ARMOR] = 5  # the leather armor 10 DV short: 10
    for slot, points in ((READY, 6), (OFF_HAND, 7), (ARMOR, 10)):
        gold = int(s.gold[0])
        fresh.act(select_action(0, slot))
        price = half_up(points * FACTORS[f])
        assert fresh.obs()["shop"][SHOP_REPAIR] == -(-price // 5)
        fresh.act(A_REPAIR)
        assert gold - s.gold[0] == price and s.sel_member[0] == -1
        kind = s.item[0, 0, slot]
        assert s.item_wear[0, 0, slot] == 0 and s.item_dv[0, 0, slot] == ITEMS[kind, I_DV]
    assert fresh.obs()["party"][0, PARTY_ARMOR] == 2  # the shield and armor count again


def test_store_2_repair_only_what_is_worn_down_and_paid_for(fresh):
    """STORE-2: no repair for a piece as new, nor for a consumable, nor without the gold; a
    fallen member's piece is mended like any other."""
    shop(fresh, 0, gold=5)
    s = fresh.s
    fresh.act(select_action(0, READY))  # the sword as new
    assert not fresh.legal(A_REPAIR) and fresh.legal(A_SELL)
    assert fresh.obs()["shop"][SHOP_REPAIR] == 0
    fresh.act(A_CANCEL)
    s.item[0, 0, NUM_EQUIP] = MEDICINAL_ALE
    s.item_wear[0, 0, NUM_EQUIP] = 1  # not a weapon nor armor: wear means nothing
    fresh.act(select_action(0, NUM_EQUIP))
    assert not fresh.legal(A_REPAIR)
    fresh.act(A_CANCEL)
    s.item_wear[0, 0, READY] = 2  # 6 gold
    s.hp[0, 0] = 0
    fresh.act(select_action(0, READY))
    assert not fresh.legal(A_REPAIR)
    s.gold[0] = 6
    assert fresh.legal(A_REPAIR)
    fresh.act(A_REPAIR)
    assert s.gold[0] == 0 and s.item_wear[0, 0, READY] == 0


# --- the store's mask, the observation, the clock ---------------------------------------------


def test_store_mask_is_exact(fresh):
    """In a store exactly these are legal: the lines that can be bought, selecting any
    member's item (each can be sold), leaving. With an item selected: selling it, repairing it
    where it needs and can pay it, putting it back; no buying, no leaving, no bidding."""
    shop(fresh, 0, gold=40)
    s = fresh.s
    expected = {A_LEAVE, A_BUY}  # 20 gold for rations
    expected |= {A_BUY + k for k in range(1, 8) if ITEMS[STORE_STOCK[0, k - 1], I_PRICE] <= 40}
    for m in range(5):
        for slot in range(NUM_ITEM_SLOTS):
            if s.in_party[0, m] and s.item[0, m, slot]:
                expected.add(A_SELECT + m * NUM_ITEM_SLOTS + slot)
    assert legal(fresh) == expected
    assert len(expected) > 8
    fresh.act(select_action(0, ARMOR))
    follow = legal(fresh)
    assert A_SELL in follow and A_CANCEL in follow and A_REPAIR not in follow
    assert not follow & {A_LEAVE, A_SHOP, A_STAIRS, A_WAIT, *range(A_BUY, A_BUY + MAX_STOCK)}
    assert not follow & set(range(A_BID, A_BID + NUM_BIDS))
    fresh.act(A_CANCEL)
    s.item_dv[0, 0, ARMOR] = 0
    fresh.act(select_action(0, ARMOR))
    assert fresh.legal(A_REPAIR)


def test_store_observation_only_in_a_store(fresh):
    """The `shop` key is all zeros outside a store, and again after leaving."""
    go_to_store(fresh, 0)
    assert not fresh.obs()["shop"].any()
    fresh.act(A_SHOP)
    shop_obs = fresh.env.engine.obs["shop"][0]  # as the step wrote it, incrementally
    assert shop_obs[SHOP_LEVEL] == 1 and shop_obs[LINE_ITEM] == RATIONS_CODE
    fresh.act(A_LEAVE)
    assert not fresh.env.engine.obs["shop"][0].any()


def test_store_no_time_passes_in_a_store(fresh):
    """TIME-2: entering, buying, selling, repairing and leaving move no clock."""
    shop(fresh, 3, gold=1000)
    s = fresh.s
    s.item_wear[0, 0, READY] = 1
    clocks = (int(s.pace[0]), int(s.meal_clock[0]), int(s.heal_clock[0]))
    fresh.act(A_BUY)
    fresh.act(A_BUY + LIGHT_LINE)
    fresh.act(select_action(0, READY))
    fresh.act(A_REPAIR)
    fresh.act(select_action(0, OFF_HAND))
    fresh.act(A_SELL)
    fresh.act(A_LEAVE)
    assert (int(s.pace[0]), int(s.meal_clock[0]), int(s.heal_clock[0])) == clocks
    assert s.mode[0] == EXPLORE


def test_store_every_legal_store_action_steps_cleanly(fresh):
    """Random legal play inside the courtyard store (never leaving): the mask is never
    empty, the gold never negative, the mode stays STORE."""
    shop(fresh, 0, gold=300)
    rng = np.random.default_rng(0)
    for _ in range(60):
        mask = fresh.refresh()
        assert mask.any() and mask.shape == (NUM_ACTIONS,)
        a = int(rng.choice(np.flatnonzero(mask)))
        if a == A_LEAVE:
            continue
        fresh.act(a)
        assert fresh.s.gold[0] >= 0 and fresh.s.mode[0] == STORE


# --- the soak's store invariants catch planted defects --------------------------------------


def _soak():
    from delve_env.tools import soak

    return soak


def test_store_invariants_catch_planted_defects(fresh):
    """delve_env/checks/invariants.py's store block: STORE mode away from a store, a piece past
    its full durability, a store step that moved the clock; none on a real store visit."""
    from delve_env.checks import invariants

    s = fresh.s
    checker = invariants.InvariantChecker()
    shop(fresh, 3)
    assert checker.check(s, new_episode=True) == []
    fresh.act(A_BUY)
    assert checker.check(s) == []
    s.pace[0] += 1
    s.steps[0] += 1
    found = {v.rule for v in checker.check(s)}  # the buy was a free action: its streak too
    assert found == {"a store step moved the clock", "free streak kept across a pace"}
    s.item_dv[0, 0, ARMOR] = ITEMS[LEATHER, I_DV] + 1
    found = checker.check(s, new_episode=True)
    assert [v.rule for v in found] == ["item past full durability or with negative wear"]
    s.item_dv[0, 0, ARMOR] = 1
    fresh.put(1, *fresh.hall_tile(1, junction=False))
    s.mode[0] = STORE
    fresh.refresh()  # travel's kept ways, of the new place
    found = checker.check(s, new_episode=True)
    assert [v.rule for v in found] == ["in a store where there is none"]


def test_store_random_play_reaches_the_stores_cleanly():
    """A short random-legal soak enters stores, buys and sells, with every invariant (the
    store block included) holding after every step."""
    rep = _soak().soak_vector(slots=16, calls=1500)
    assert not rep.exceptions and rep.problem_count == 0, rep.problems[:5]
    assert rep.visits["stores"] > 0 and rep.visits["bought"] > 0 and rep.visits["sold"] > 0


def test_store_2_an_unknown_item_sells_as_the_cheapest_kind_of_its_look(scene_factory):
    """STORE-2 with ITEM-2: an unknown mind sharpener (60) sells as a bottle, like an unknown
    ale (10 -> 5 at the courtyard), so the price shown never names it; known, it sells for
    half its own price (30)."""
    from delve_env.engine.core.actions import A_SELL, A_SHOP, select_action
    from delve_env.engine.core.tables import MIND_SHARPENER

    scene = scene_factory()
    s = scene.s
    s.item[0, 2, 5] = MIND_SHARPENER
    s.known_kinds[0] &= ~(1 << MIND_SHARPENER)
    scene.act(A_SHOP)
    gold = int(s.gold[0])
    scene.act(select_action(2, 5))
    scene.act(A_SELL)
    assert int(s.gold[0]) == gold + 5
    s.item[0, 2, 5] = MIND_SHARPENER
    s.known_kinds[0] |= 1 << MIND_SHARPENER
    gold = int(s.gold[0])
    scene.act(select_action(2, 5))
    scene.act(A_SELL)
    assert int(s.gold[0]) == gold + 30


def test_store_2_rations_can_be_bought_up_to_the_cap(fresh):
    """STORE-2: ten rations can be bought while the count is at most MAX_RATIONS (the int16
    count then still holds them), not past it."""
    shop(fresh, 0, gold=100)
    fresh.s.rations[0] = MAX_RATIONS
    assert fresh.legal(A_BUY) and lines(fresh)[0, LINE_BUYABLE] == 1
    fresh.act(A_BUY)
    assert fresh.s.rations[0] == MAX_RATIONS + 10
    assert not fresh.legal(A_BUY) and lines(fresh)[0, LINE_BUYABLE] == 0
