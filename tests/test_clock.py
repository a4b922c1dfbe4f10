"""The clock, meals and healing by walking: TIME-1..2, FOOD-1..3, HEAL-1."""

from __future__ import annotations

import numpy as np
import pytest

from delve_env.engine.core.actions import (
    A_ATTACK,
    A_LOOT,
    A_LUCK,
    A_MOVE,
    A_RUN,
    A_SEARCH,
    A_STAIRS,
    A_SWAP,
    A_WAIT,
)
from delve_env.engine.core.params import P_HEAL_PACES, P_MEAL_PACES
from delve_env.engine.core.tables import EV_HUNGER, MEDICINAL_ALE, NUM_EQUIP
from delve_env.engine.rules.food import pass_pace

MEMBERS = (0, 1, 2, 3)


def quiet_room(scene, f=1, r=0):
    """Stand the party inside an empty, unguarded room (no wandering there), paces zeroed."""
    scene.clear_band(f, r)
    scene.stand_in_room(f, r)
    s = scene.s
    s.pace[0] = s.meal_clock[0] = s.heal_clock[0] = 0


def clocks(s):
    return int(s.pace[0]), int(s.meal_clock[0]), int(s.heal_clock[0])


# --- TIME-1 --------------------------------------------------------------------------------


def test_time_1_walking_waiting_and_searching_each_cost_one_pace(scene):
    """TIME-1: one move, one wait and one search each move the clock by exactly one pace."""
    scene.calm()
    quiet_room(scene)
    s = scene.s
    scene.act(A_WAIT)
    assert s.pace[0] == 1
    scene.act(A_SEARCH)
    assert s.pace[0] == 2
    d = next(d for d in range(4) if scene.legal(A_MOVE + d))
    scene.act(A_MOVE + d)
    assert s.pace[0] == 3
    assert s.meal_clock[0] == 3 and s.heal_clock[0] == 3


def test_time_1_an_hour_is_60_paces_and_meals_come_every_two_hours(scene):
    """TIME-1/FOOD-1: the meal interval is 120 paces, two hours of 60 paces."""
    assert scene.p[P_MEAL_PACES] == 2 * 60


# --- TIME-2 --------------------------------------------------------------------------------


def test_time_2_fight_actions_cost_no_time(scene):
    """TIME-2: attacking (with or without a luck die) and running away do not move the clock."""
    scene.calm()
    s = scene.s
    quiet_room(scene)
    s.pace[0], s.meal_clock[0], s.heal_clock[0] = 50, 50, 3
    scene.tough()
    scene.fight([1, 1], hps=[30000, 30000], room=0)
    s.band_kind[0, 1, 0, :2] = 1
    s.band_hp[0, 1, 0, :2] = 30000
    before = clocks(s)
    for _ in range(6):  # more than a full round: members and the band act
        scene.act(A_ATTACK)
        scene.act(A_LUCK + 1 if scene.legal(A_LUCK + 1) else A_ATTACK + 1)
    assert s.fight_round[0] > 1
    assert clocks(s) == before
    scene.act(A_RUN)
    assert clocks(s) == before


def test_time_2_trading_and_marching_order_changes_cost_no_time(scene):
    """TIME-2 (trading), PARTY-2 (order changes are free): giving an item, wearing one, using
    one and swapping marching positions leave the clock alone."""
    s = scene.s
    quiet_room(scene)
    s.item[0, 0, NUM_EQUIP + 1] = MEDICINAL_ALE
    before = clocks(s)
    scene.give(1, NUM_EQUIP, 0)  # the rogue hands her short bow to the hero
    scene.wear(0, NUM_EQUIP)  # the hero takes it in hand
    scene.use(0, NUM_EQUIP + 1, 2)  # and hands the wizard an ale to drink
    scene.act(A_SWAP + 0)
    assert clocks(s) == before


def test_time_2_looting_and_stairs_cost_no_time(scene):
    """Engine choice (GAME.md silent; stairs per project rule): looting a room and taking
    stairs cost no pace."""
    s = scene.s
    quiet_room(scene)
    s.room_gold[0, 1, 0] = 5
    scene.act(A_LOOT)
    assert clocks(s) == (0, 0, 0)
    x, y = s.stair_up[0, 1]
    scene.put(1, int(x), int(y))
    scene.act(A_STAIRS)
    assert s.floor[0] == 0 and clocks(s) == (0, 0, 0)
    scene.act(A_STAIRS)
    assert s.floor[0] == 1 and clocks(s) == (0, 0, 0)


# --- FOOD-1 --------------------------------------------------------------------------------


@pytest.mark.nojit
def test_food_1_every_120_paces_each_standing_member_eats_one_party_ration(scene, rng):
    """FOOD-1: no meal during the first 119 paces; at pace 120 each of the four standing
    members eats one ration from the party's stock; the next meal is 120 paces later."""
    s, p = scene.s, scene.p
    s.rations[0] = 20
    for _ in range(119):
        pass_pace(s, p, 0, rng)
    assert s.rations[0] == 20
    pass_pace(s, p, 0, rng)
    assert s.rations[0] == 16
    for _ in range(119):
        pass_pace(s, p, 0, rng)
    assert s.rations[0] == 16
    pass_pace(s, p, 0, rng)
    assert s.rations[0] == 12


@pytest.mark.parametrize("paces", [7, 120])
def test_food_1_the_meal_interval_is_tunable_at_odd_and_even_values(scene, rng, paces):
    """FOOD-1 at an odd and an even meal interval: no meal for paces - 1 paces, the meal on
    the pace that completes the interval, the next one interval later."""
    s = scene.s
    p = scene.p.copy()
    p[P_MEAL_PACES] = paces
    s.rations[0], s.meal_clock[0] = 20, 0
    for meal in (1, 2):
        for _ in range(paces - 1):
            pass_pace(s, p, 0, rng)
        assert s.rations[0] == 20 - 4 * (meal - 1)
        pass_pace(s, p, 0, rng)
        assert s.rations[0] == 20 - 4 * meal


def test_food_1_a_dead_member_is_not_fed(scene, rng):
    """FOOD-1/HP-2: only members still standing eat; a dead one costs no ration."""
    s, p = scene.s, scene.p
    s.hp[0, 2] = 0
    s.rations[0] = 10
    s.meal_clock[0] = p[P_MEAL_PACES] - 1
    pass_pace(s, p, 0, rng)
    assert s.rations[0] == 7


# --- FOOD-2 --------------------------------------------------------------------------------


def test_food_2_unpaid_meal_wounds_each_hungry_member(scene, rng):
    """FOOD-2: with 2 rations for 4 members, two eat and each of the two left hungry loses
    exactly 1 HP; the rations are gone."""
    s, p = scene.s, scene.p
    s.rations[0] = 2
    s.meal_clock[0] = p[P_MEAL_PACES] - 1
    hp = s.hp[0].copy()
    pass_pace(s, p, 0, rng)
    assert s.rations[0] == 0
    lost = hp - s.hp[0]
    assert sorted(lost[list(MEMBERS)]) == [0, 0, 1, 1]
    assert s.events[0] & EV_HUNGER


def test_food_2_with_no_rations_every_standing_member_goes_hungry(scene, rng):
    """FOOD-2: with none left, every standing member loses 1 HP at the meal."""
    s, p = scene.s, scene.p
    s.rations[0] = 0
    s.meal_clock[0] = p[P_MEAL_PACES] - 1
    hp = s.hp[0].copy()
    pass_pace(s, p, 0, rng)
    assert (hp[:4] - s.hp[0, :4] == 1).all()
    assert s.rations[0] == 0


def test_food_2_hunger_can_kill(scene):
    """FOOD-2/HP-2: a member at 1 HP with no luck left who goes hungry makes a death save and
    most often dies (5 in 6)."""
    s, p = scene.s, scene.p
    g = scene.rng(5)
    n, dead = 600, 0
    for _ in range(n):
        s.hp[0, :4] = [1, 10, 10, 10]
        s.luck[0, 0] = 0
        s.rations[0] = 0
        s.meal_clock[0] = p[P_MEAL_PACES] - 1
        pass_pace(s, p, 0, g)
        assert s.hp[0, 0] in (0, 1)
        dead += s.hp[0, 0] == 0
    assert 0.75 < dead / n < 0.91


# --- FOOD-3 / HEAL-1 -----------------------------------------------------------------------


def wounded(s):
    s.hp[0, :4] = [5, 5, 5, 5]
    s.mana[0, :4] = [0, 0, 0, 0]
    s.meal_clock[0] = 0
    s.heal_clock[0] = 0


def test_food_3_without_rations_walking_heals_nothing_and_returns_no_mana(scene, rng):
    """FOOD-3: 30 paces with no rations (no meal due): no HP back, no mana back."""
    s, p = scene.s, scene.p
    wounded(s)
    s.rations[0] = 0
    for _ in range(30):
        pass_pace(s, p, 0, rng)
    assert (s.hp[0, :4] == 5).all() and (s.mana[0, :4] == 0).all()


def test_food_3_healing_resumes_once_the_party_has_rations_again(scene, rng):
    """FOOD-3/HEAL-1: the same walk with one ration heals as usual (so the stop above comes
    from the empty larder, nothing else)."""
    s, p = scene.s, scene.p
    wounded(s)
    s.rations[0] = 1
    for _ in range(30):
        pass_pace(s, p, 0, rng)
    assert (s.hp[0, :4] == 10).all()
    assert (s.mana[0, :4] == np.minimum(s.well[0, :4], 5)).all()


def test_heal_1_every_6_paces_each_living_member_heals_1_hp_and_1_mana(scene, rng):
    """HEAL-1: nothing after 5 paces; after the 6th, +1 HP and +1 mana for every member."""
    s, p = scene.s, scene.p
    assert p[P_HEAL_PACES] == 6
    wounded(s)
    for _ in range(5):
        pass_pace(s, p, 0, rng)
    assert (s.hp[0, :4] == 5).all() and (s.mana[0, :4] == 0).all()
    pass_pace(s, p, 0, rng)
    assert (s.hp[0, :4] == 6).all() and (s.mana[0, :4] == 1).all()
    for _ in range(6):
        pass_pace(s, p, 0, rng)
    assert (s.hp[0, :4] == 7).all() and (s.mana[0, :4] == 2).all()


def test_heal_1_healing_stops_at_the_ceiling_and_mana_at_the_well(scene, rng):
    """HEAL-1/HP-1: a member one short of the ceiling and the well gets back one, then no
    more however long the party walks."""
    s, p = scene.s, scene.p
    s.hp[0, :4] = s.ceiling[0, :4] - 1
    s.mana[0, :4] = s.well[0, :4] - 1
    for _ in range(60):
        pass_pace(s, p, 0, rng)
    assert (s.hp[0, :4] == s.ceiling[0, :4]).all()
    assert (s.mana[0, :4] == s.well[0, :4]).all()


def test_heal_1_walking_never_heals_the_dead(scene, rng):
    """HEAL-1/HP-2: a dead member stays at 0 HP and gets no mana back while the others heal."""
    s, p = scene.s, scene.p
    wounded(s)
    s.hp[0, 3] = 0
    for _ in range(24):
        pass_pace(s, p, 0, rng)
    assert s.hp[0, 3] == 0 and s.mana[0, 3] == 0
    assert (s.hp[0, :3] == 9).all()


def test_heal_1_waiting_in_the_dungeon_heals(scene):
    """HEAL-1 through the game: six waits in a quiet room heal every wounded member by 1."""
    quiet_room(scene)
    s = scene.s
    s.hp[0, :4] = 3
    for _ in range(6):
        scene.act(A_WAIT)
    assert (s.hp[0, :4] == 4).all()


@pytest.mark.parametrize("paces", [6, 7, 12])
def test_heal_1_interval_is_tunable(scene, rng, paces):
    """HEAL-1: the heal interval is a tunable; with 7 or 12 paces, 6 paces heal nothing."""
    s = scene.s
    p = scene.p.copy()
    p[P_HEAL_PACES] = paces
    wounded(s)
    for _ in range(6):
        pass_pace(s, p, 0, rng)
    assert (s.hp[0, :4] == (6 if paces == 6 else 5)).all()
