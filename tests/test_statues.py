"""Living statues (STATUE-1..2): naming unknown items for a bid, mending wounds for gold; no
items change hands before a statue. Scenes on a reset depth-2 env where every floor has one."""

import numpy as np
import pytest
from conftest import make_rng

from delve_env.engine.core.actions import (
    A_BID,
    A_CANCEL,
    A_GIVE,
    A_LEAVE,
    A_MEND,
    A_SELECT,
    A_STATUE,
    A_USE,
    A_WEAR,
    NUM_BIDS,
    select_action,
)
from delve_env.engine.core.tables import (
    BITTER_DRAUGHT,
    EXPLORE,
    FEAT_NONE,
    FEAT_STATUE,
    LIGHT_SCROLL,
    MEDICINAL_ALE,
    NUM_EQUIP,
    STATUE,
    WARDING_LANTERN,
)
from delve_env.engine.generation.features import place_features
from delve_env.engine.outputs.layout import PACK_KIND, PACK_KNOWN, STATUS_STATUE_PRICE

HERO, ROGUE, WIZARD, CLERIC = 0, 1, 2, 3
PACK = NUM_EQUIP


def statue_room(scene, f=1):
    r = int(np.flatnonzero(scene.s.room_feature[0, f] == FEAT_STATUE)[0])
    return r


@pytest.fixture
def statue(scene_factory):
    """A scene standing in floor 1's statue room (price 25, threshold set to 20), exploring."""
    scene = scene_factory(statue_chance=1.0)
    scene.calm()
    scene.stand_in_room(1, statue_room(scene))
    scene.s.statue_threshold[0, 1] = 20
    scene.s.gold[0] = 1000
    return scene


def before_statue(scene):
    scene.act(A_STATUE)
    assert scene.s.mode[0] == STATUE


def hold(scene, m, kind, slot=PACK):
    scene.s.item[0, m, slot] = kind


# --- STATUE-1: placement, approach --------------------------------------------------------


def test_statue_1_the_statue_chance_and_price_are_tunable(scene_factory):
    """Every floor gets a statue at chance 1, none at 0; the posted price is statue_price x
    floor and the threshold lies in [P/4, P]."""
    for chance, want in ((1.0, True), (0.0, False)):
        scene = scene_factory(depth=4, statue_chance=chance, statue_price=40)
        s = scene.s
        for f in range(1, 5):
            assert (s.room_feature[0, f] == FEAT_STATUE).any() == want
            if want:
                price, t = int(s.statue_price[0, f]), int(s.statue_threshold[0, f])
                assert price == 40 * f and price // 4 <= t <= price


def test_statue_1_stepping_up_to_the_statue_costs_no_time_and_leaving_goes_back(statue):
    s = statue.s
    assert statue.obs()["status"][STATUS_STATUE_PRICE] == 25 // 5
    pace = int(s.pace[0])
    before_statue(statue)
    assert s.pace[0] == pace
    mask = statue.refresh()
    assert mask[A_LEAVE] and not mask[A_STATUE]
    assert not mask[:A_SELECT].any()  # no walking, waiting, searching before the statue
    statue.act(A_LEAVE)
    assert s.mode[0] == EXPLORE and s.pace[0] == pace


def test_statue_1_no_statue_outside_its_room(statue):
    x, y = statue.hall_tile(1, junction=False)
    statue.put(1, x, y)
    assert not statue.legal(A_STATUE)
    assert statue.obs()["status"][STATUS_STATUE_PRICE] == 0


def test_statue_1_only_unknown_items_are_offered_and_only_for_bids(statue):
    """Before the statue an unknown item of any member (a fallen one's too) can be selected,
    known items cannot; a selection offers only bids the gold covers and putting it back."""
    s = statue.s
    hold(statue, ROGUE, LIGHT_SCROLL)
    hold(statue, CLERIC, MEDICINAL_ALE)
    s.hp[0, CLERIC] = 0
    before_statue(statue)
    mask = statue.refresh()
    assert mask[select_action(ROGUE, PACK)] and mask[select_action(CLERIC, PACK)]
    assert not mask[select_action(HERO, 0)]  # the hero's sword is known
    s.gold[0] = 12  # covers 0, 6 and 12 of 25
    statue.act(select_action(ROGUE, PACK))
    mask = statue.refresh()
    assert [bool(mask[A_BID + q]) for q in range(NUM_BIDS)] == [True, True, True, False, False]
    assert mask[A_CANCEL]
    assert not mask[A_GIVE : A_WEAR + 1].any()


@pytest.mark.parametrize("q, outcome", [(4, "named"), (3, "named"), (2, "nothing"),
                                        (1, "destroyed"), (0, "destroyed")])  # fmt: skip
def test_statue_1_a_bid_names_does_nothing_or_destroys_and_is_paid_always(statue, q, outcome):
    """P = 25 (bids 0, 6, 12, 18, 25), T = 20: 25 names the item (and 18 when T is 18); 12 lies
    in [T/2, T), nothing happens; 6 and 0 lie below T/2, the item is destroyed. Every bid is
    paid and counted; the party stays before the statue."""
    s = statue.s
    s.statue_threshold[0, 1] = 18 if outcome == "named" and q == 3 else 20
    hold(statue, ROGUE, WARDING_LANTERN)
    hold(statue, HERO, WARDING_LANTERN)
    before_statue(statue)
    statue.act(select_action(ROGUE, PACK))
    statue.act(A_BID + q)
    assert s.gold[0] == 1000 - q * 25 // 4
    assert s.stat_bids[0] == 1 and s.mode[0] == STATUE and s.sel_member[0] == -1
    named = bool((int(s.known_kinds[0]) >> WARDING_LANTERN) & 1)
    assert named == (outcome == "named")
    assert (s.item[0, ROGUE, PACK] == WARDING_LANTERN) == (outcome != "destroyed")
    pack = statue.obs()["pack"]
    assert pack[HERO, PACK, PACK_KNOWN] == (outcome == "named")
    if outcome == "named":  # the other lantern is known too, and no longer offered
        assert pack[HERO, PACK, PACK_KIND] == WARDING_LANTERN
        assert not statue.legal(select_action(HERO, PACK))


@pytest.mark.parametrize("q, threshold, outcome", [(1, 13, "destroyed"), (1, 12, "nothing"),
                                                   (2, 25, "destroyed"), (2, 24, "nothing"),
                                                   (3, 19, "nothing"), (3, 18, "named")])  # fmt: skip
def test_statue_1_the_half_threshold_holds_at_odd_and_even_t(statue, q, threshold, outcome):
    """STATUE-1 at odd and even T (P = 25: bids 6, 12, 18): a bid destroys when 2 x bid < T,
    so 6 destroys at T = 13 (6 < 6.5) but not at T = 12, and 12 at T = 25 but not at 24; a
    bid names at bid >= T, 18 at T = 18, not at 19."""
    s = statue.s
    s.statue_threshold[0, 1] = threshold
    hold(statue, ROGUE, WARDING_LANTERN)
    before_statue(statue)
    statue.act(select_action(ROGUE, PACK))
    statue.act(A_BID + q)
    assert s.gold[0] == 1000 - q * 25 // 4
    named = bool((int(s.known_kinds[0]) >> WARDING_LANTERN) & 1)
    assert named == (outcome == "named")
    assert (s.item[0, ROGUE, PACK] == WARDING_LANTERN) == (outcome != "destroyed")


def test_statue_1_the_threshold_is_drawn_over_all_of_p_4_to_p(scene_factory):
    """STATUE-1: T is uniform over [P/4, P], both ends included, on floors 1 and 2 (P = 4
    and 8 at statue_price 4): 300 draws a floor see every value and nothing outside."""
    scene = scene_factory(statue_chance=1.0, statue_price=4)
    s, p = scene.s, scene.p
    seen = {1: set(), 2: set()}
    for seed in range(300):
        g = make_rng(seed)
        for f in seen:
            s.room_feature[0, f] = FEAT_NONE
            place_features(s, p, 0, f, g)
            assert s.statue_price[0, f] == 4 * f
            seen[f].add(int(s.statue_threshold[0, f]))
    assert seen == {1: {1, 2, 3, 4}, 2: {2, 3, 4, 5, 6, 7, 8}}


def test_statue_1_item_1_the_statue_names_an_unknown_bitter_draught(statue):
    """STATUE-1, ITEM-1: a bitter draught is an unknown bottle like any other until a winning
    bid names it; then every pack shows its kind."""
    s = statue.s
    hold(statue, ROGUE, BITTER_DRAUGHT)
    hold(statue, HERO, MEDICINAL_ALE)
    pack = statue.obs()["pack"]
    assert pack[ROGUE, PACK, PACK_KIND] == pack[HERO, PACK, PACK_KIND] != BITTER_DRAUGHT
    before_statue(statue)
    statue.act(select_action(ROGUE, PACK))
    statue.act(A_BID + 4)  # all of P: at least T
    pack = statue.obs()["pack"]
    assert (int(s.known_kinds[0]) >> BITTER_DRAUGHT) & 1
    assert pack[ROGUE, PACK, PACK_KIND] == BITTER_DRAUGHT and pack[ROGUE, PACK, PACK_KNOWN]
    assert not pack[HERO, PACK, PACK_KNOWN]  # the ale is still unknown


def test_statue_1_the_price_is_tunable_and_bids_pay_quarters_of_it(scene_factory):
    scene = scene_factory(statue_chance=1.0, statue_price=10)
    scene.stand_in_room(1, statue_room(scene))
    s = scene.s
    s.gold[0] = 100
    hold(scene, ROGUE, LIGHT_SCROLL)
    before_statue(scene)
    assert scene.obs()["status"][STATUS_STATUE_PRICE] == 2
    scene.act(select_action(ROGUE, PACK))
    scene.act(A_BID + 3)  # three quarters of 10, rounded down
    assert s.gold[0] == 100 - 7


# --- STATUE-2: mending -------------------------------------------------------------------------


def test_statue_2_mending_costs_ten_times_the_floor_a_hit_point_up_to_the_ceiling(statue):
    s = statue.s
    s.hp[0, HERO] = s.ceiling[0, HERO] - 6
    s.gold[0] = 45  # four HP on floor 1
    before_statue(statue)
    assert not statue.legal(A_MEND + WIZARD)  # unwounded
    statue.act(A_MEND + HERO)
    assert s.hp[0, HERO] == s.ceiling[0, HERO] - 2 and s.gold[0] == 5
    assert not statue.legal(A_MEND + HERO)  # the gold no longer covers one HP
    s.gold[0] = 500
    statue.act(A_MEND + HERO)
    assert s.hp[0, HERO] == s.ceiling[0, HERO] and s.gold[0] == 480
    assert not statue.legal(A_MEND + HERO)
    s.hp[0, ROGUE] = 0
    assert not statue.legal(A_MEND + ROGUE)  # the dead are not mended


def test_statue_2_mending_on_floor_2_costs_twenty_a_hit_point(statue):
    """STATUE-2's price times the floor at a second floor: 10 x 2 gold a HP on floor 2."""
    s = statue.s
    statue.stand_in_room(2, statue_room(statue, 2))
    s.hp[0, HERO] = s.ceiling[0, HERO] - 6
    s.gold[0] = 95  # four HP on floor 2, with 15 left
    before_statue(statue)
    statue.act(A_MEND + HERO)
    assert s.hp[0, HERO] == s.ceiling[0, HERO] - 2 and s.gold[0] == 15
    s.gold[0] = 19  # under one HP's price
    assert not statue.legal(A_MEND + HERO)
    s.gold[0] = 20
    assert statue.legal(A_MEND + HERO)


def test_statue_2_a_member_who_may_not_heal_is_not_mended_nor_charged(statue):
    """STATUE-2 with CLASS-1's blood magic: a wounded member who used blood magic this floor
    may not be healed, so the statue does not offer to mend him and takes no gold; another
    wounded member is still mended."""
    s = statue.s
    s.hp[0, HERO] = s.ceiling[0, HERO] - 6
    s.hp[0, ROGUE] = s.ceiling[0, ROGUE] - 2
    s.blood_used[0, HERO] = True
    s.gold[0] = 500
    before_statue(statue)
    assert not statue.legal(A_MEND + HERO) and statue.legal(A_MEND + ROGUE)
    statue.act(A_MEND + ROGUE)
    assert s.gold[0] == 480 and s.hp[0, HERO] == s.ceiling[0, HERO] - 6
    s.blood_used[0, HERO] = False
    assert statue.legal(A_MEND + HERO)


# --- no item moves before a statue -------------------------------------------------------------


def test_statue_1_nothing_is_given_worn_or_used_before_a_statue(statue):
    s = statue.s
    s.hp[0, HERO] = 3
    hold(statue, HERO, LIGHT_SCROLL, PACK)
    s.known_kinds[0] |= 1 << MEDICINAL_ALE
    hold(statue, HERO, MEDICINAL_ALE, PACK + 1)
    assert statue.offers(HERO, PACK + 1, A_USE + HERO)  # exploring: drunk, given, ...
    before_statue(statue)
    mask = statue.refresh()
    assert not mask[select_action(HERO, PACK + 1)]  # known: nothing to do with it here
    statue.act(select_action(HERO, PACK))
    mask = statue.refresh()
    assert not mask[A_GIVE : A_WEAR + 1].any()
