"""Party effects, lanterns and scrolls, unknown items (EFFECT-1, FOOD-4, WANDER-2, SECRET-2,
ITEM-1, ITEM-2): scenes set on a reset depth-2 env (Hero, Rogue, Wizard, Cleric)."""

import numpy as np
import pytest

from delve_env.checks import invariants
from delve_env.engine.core.actions import (
    A_ATTACK,
    A_CANCEL,
    A_MOVE,
    A_SEARCH,
    A_USE,
    A_WAIT,
    select_action,
)
from delve_env.engine.core.params import (
    P_JUNCTION_WANDER,
    P_JUNCTION_WANDER_HUNT,
    P_LANTERN_PACES,
    P_MEAL_PACES,
    P_SCROLL_PACES,
    P_SEARCH_FIND,
)
from delve_env.engine.core.tables import (
    BITTER_DRAUGHT,
    DOOR,
    ESP,
    ESP_SCROLL,
    FOUL_LANTERN,
    GOODWILL_SCROLL,
    HALL,
    LIGHT,
    LIGHT_SCROLL,
    LOOK,
    LOOK_BOTTLE,
    LOOK_LANTERN,
    LOOK_SCROLL,
    MEDICINAL_ALE,
    MIND_SHARPENER,
    NUM_EQUIP,
    NUM_ITEMS,
    ROCK,
    SATED,
    SATED_SCROLL,
    SECRET,
    WARD,
    WARDING_LANTERN,
)
from delve_env.engine.generation.floors import DX, DY
from delve_env.engine.outputs.layout import (
    PACK_KIND,
    PACK_KNOWN,
    STATUS_EFFECTS,
    STATUS_MEAL,
    STATUS_WARD_FOUL,
)
from delve_env.engine.rules.effects import FOUL_CAP
from delve_env.engine.rules.fights import start_fight
from delve_env.engine.rules.food import meal_interval
from delve_env.engine.rules.moving import search_walls
from delve_env.engine.rules.wander import wander_chance

HERO, ROGUE, WIZARD, CLERIC = 0, 1, 2, 3
PACK = NUM_EQUIP  # the first pack slot
GOBLIN = 1


def in_hall(scene):
    """Stand the party on a plain hall tile of floor 1 with no wandering bands."""
    scene.calm()
    x, y = scene.hall_tile(1, junction=False)
    scene.put(1, x, y)
    return x, y


def hold(scene, m, kind, slot=PACK):
    """Member m carries an item of `kind` in `slot` (the first pack slot)."""
    scene.s.item[0, m, slot] = kind
    scene.s.item_dv[0, m, slot] = 0
    scene.s.item_wear[0, m, slot] = 0


def known(scene, kind) -> bool:
    return bool((int(scene.s.known_kinds[0]) >> kind) & 1)


# --- EFFECT-1: lanterns and scrolls start effects, restarted never stacked ------------------


def test_effect_1_a_lit_lantern_fills_the_ward_slot_and_is_used_up(scene):
    """Any standing member lights a lantern on themself: WARD runs for the lantern paces, the
    lantern is gone; the foul one marks the slot foul, and lighting one replaces the other."""
    in_hall(scene)
    s = scene.s
    hold(scene, ROGUE, FOUL_LANTERN)
    hold(scene, CLERIC, WARDING_LANTERN)
    scene.use(ROGUE, PACK, ROGUE)
    assert s.item[0, ROGUE, PACK] == 0
    assert s.effects[0, WARD] == scene.p[P_LANTERN_PACES] == 600 and s.ward_foul[0]
    assert scene.obs()["status"][STATUS_WARD_FOUL] == 1
    scene.act(A_WAIT)
    assert s.effects[0, WARD] == 599
    scene.use(CLERIC, PACK, CLERIC)  # the warding lantern takes the slot: count and kind
    assert s.effects[0, WARD] == 600 and not s.ward_foul[0]
    status = scene.obs()["status"]
    assert status[STATUS_WARD_FOUL] == 0 and status[STATUS_EFFECTS + WARD] == 255  # capped
    assert s.pace[0] == 1  # lighting costs no time


def test_effect_1_a_lantern_is_lit_only_on_oneself_and_only_standing(scene):
    in_hall(scene)
    hold(scene, ROGUE, WARDING_LANTERN)
    assert scene.offers(ROGUE, PACK, A_USE + ROGUE)
    assert not scene.offers(ROGUE, PACK, A_USE + HERO)
    scene.s.hp[0, ROGUE] = 0  # fallen: the lantern can be handed on, not lit
    assert scene.legal(select_action(ROGUE, PACK))
    assert not scene.offers(ROGUE, PACK, A_USE + ROGUE)


@pytest.mark.parametrize("kind, effect", [(ESP_SCROLL, ESP), (SATED_SCROLL, SATED),
                                          (LIGHT_SCROLL, LIGHT)])  # fmt: skip
def test_effect_1_a_scroll_read_starts_its_effect(scene, kind, effect):
    in_hall(scene)
    hold(scene, WIZARD, kind)
    scene.use(WIZARD, PACK, WIZARD)
    want = np.zeros(4, dtype=np.int16)
    want[effect] = scene.p[P_SCROLL_PACES]
    assert (scene.s.effects[0] == want).all()
    assert scene.obs()["status"][STATUS_EFFECTS + effect] == min(255, want[effect])


def test_effect_1_using_again_restarts_the_count_it_never_stacks(scene):
    in_hall(scene)
    s = scene.s
    hold(scene, HERO, LIGHT_SCROLL, PACK)
    hold(scene, HERO, LIGHT_SCROLL, PACK + 1)
    scene.use(HERO, PACK, HERO)
    for _ in range(5):
        scene.act(A_WAIT)
    assert s.effects[0, LIGHT] == 240 - 5
    scene.use(HERO, PACK + 1, HERO)
    assert s.effects[0, LIGHT] == 240


def test_effect_1_walking_waiting_and_searching_spend_effects_fights_do_not(scene):
    x, y = in_hall(scene)
    s = scene.s
    s.effects[0] = (50, 40, 30, 20)
    scene.act(A_WAIT)
    scene.act(A_SEARCH)
    t = scene.tiles(1)
    step = next(d for d in range(4) if t[y + DY[d], x + DX[d]] == HALL)
    scene.act(A_MOVE + step)
    assert s.effects[0].tolist() == [47, 37, 27, 17]
    scene.tough()
    scene.fight([GOBLIN], [500])
    for _ in range(6):
        scene.act(A_ATTACK)
    assert s.effects[0].tolist() == [47, 37, 27, 17] and s.pace[0] == 3


def test_effect_1_an_effect_runs_out_and_the_foul_mark_with_the_ward(scene):
    in_hall(scene)
    s = scene.s
    s.effects[0, WARD] = 1
    s.ward_foul[0] = True
    scene.act(A_WAIT)
    assert s.effects[0, WARD] == 0 and not s.ward_foul[0]
    scene.act(A_WAIT)
    assert s.effects[0].tolist() == [0, 0, 0, 0]


def test_effect_1_lantern_and_scroll_paces_are_tunable(scene_factory):
    scene = scene_factory(lantern_paces=37, scroll_paces=11)
    in_hall(scene)
    hold(scene, ROGUE, WARDING_LANTERN)
    hold(scene, HERO, SATED_SCROLL)
    scene.use(ROGUE, PACK, ROGUE)
    scene.use(HERO, PACK, HERO)
    assert scene.s.effects[0].tolist() == [37, 0, 11, 0]


# --- FOOD-4, WANDER-2, SECRET-2: what the effects do -----------------------------------------


def test_food_4_sated_doubles_the_meal_interval(scene):
    in_hall(scene)
    s = scene.s
    standing = 4
    s.meal_clock[0] = 119
    rations = int(s.rations[0])
    scene.act(A_WAIT)
    assert s.rations[0] == rations - standing  # the 120th pace: a meal
    s.effects[0, SATED] = 500
    s.meal_clock[0] = 119
    assert scene.obs()["status"][STATUS_MEAL] == 2 * 120 - 119
    scene.act(A_WAIT)
    assert s.rations[0] == rations - standing and s.meal_clock[0] == 120  # no meal yet
    s.meal_clock[0] = 239
    scene.act(A_WAIT)
    assert s.rations[0] == rations - 2 * standing and s.meal_clock[0] == 0
    assert scene.p[P_MEAL_PACES] == 120


def test_food_4_sated_doubles_any_meal_interval_not_only_the_default(scene):
    """FOOD-4 at two meal intervals: SATED makes 120 paces 240 and an odd 7 paces 14 (not
    7 + 120, nor 120 + 120 whatever the tunable says)."""
    s, p = scene.s, scene.p
    for paces in (120, 7):
        p[P_MEAL_PACES] = paces
        s.effects[0, SATED] = 0
        assert meal_interval(s, p, 0) == paces
        s.effects[0, SATED] = 500
        assert meal_interval(s, p, 0) == 2 * paces


def test_wander_1_a_search_doubles_any_junction_chance_unless_hunting(scene):
    """WANDER-1's search row at two junction chances: 0.03 -> 0.06 and 0.2 -> 0.4 before
    hunting; while hunting the hunting junction chance, not doubled."""
    s, p = scene.s, scene.p
    in_hall(scene)
    for junction in (0.03, 0.2):
        p[P_JUNCTION_WANDER], p[P_JUNCTION_WANDER_HUNT] = junction, 0.5
        s.hunting[0] = False
        assert wander_chance(s, p, 0, True) == pytest.approx(2 * junction)
        s.hunting[0] = True
        assert wander_chance(s, p, 0, True) == pytest.approx(0.5)
    s.hunting[0] = False


def test_wander_2_a_warding_lantern_halves_the_chance_the_foul_one_doubles_it(scene):
    s, p = scene.s, scene.p
    in_hall(scene)
    p[P_JUNCTION_WANDER], p[P_JUNCTION_WANDER_HUNT] = 0.03, 0.6
    base = wander_chance(s, p, 0, True)  # searching: twice the junction rate
    assert base == pytest.approx(0.06)
    s.effects[0, WARD] = 10
    assert wander_chance(s, p, 0, True) == pytest.approx(0.03)
    s.ward_foul[0] = True
    assert wander_chance(s, p, 0, True) == pytest.approx(0.12)
    s.hunting[0] = True  # 60 in 100 doubled stops at 95; the lantern never stops hunting
    assert wander_chance(s, p, 0, True) == pytest.approx(FOUL_CAP) == pytest.approx(0.95)
    s.ward_foul[0] = False
    assert wander_chance(s, p, 0, True) == pytest.approx(0.3)
    s.effects[0, WARD] = 0
    assert wander_chance(s, p, 0, True) == pytest.approx(0.6) and s.hunting[0]


def test_wander_2_the_lanterns_change_how_often_bands_appear(scene):
    """Waiting in a hall at a 20 in 100 chance: about 10 warded, 40 under the foul lantern."""
    s, p = scene.s, scene.p
    in_hall(scene)
    p[P_JUNCTION_WANDER] = 0.1  # searching: twice it
    scene.tough()
    saved = scene.save()
    counts = {}
    for foul in (False, True):
        scene.load(saved)
        s.rng[0] = 99
        bands = 0
        for _ in range(1000):
            s.effects[0, WARD] = 500
            s.ward_foul[0] = foul
            scene.act(A_SEARCH)
            if s.mode[0] != 0:
                bands += 1
                s.mode[0] = 0
                s.foe_kind[0] = -1
                s.level[0] = np.minimum(s.level[0], 1)  # no level choice (CHOICE-1) waits
        counts[foul] = bands / 1000
    assert 0.07 < counts[False] < 0.13 and 0.35 < counts[True] < 0.45


def test_secret_2_under_light_a_search_always_finds(scene):
    s, p = scene.s, scene.p
    in_hall(scene)
    x, y = scene.hall_tile(1, junction=False)
    t = scene.tiles(1)
    d = next(d for d in range(4) if t[y + DY[d], x + DX[d]] == ROCK)
    wall = (y + DY[d], x + DX[d])
    p[P_SEARCH_FIND] = 0.0
    g = scene.rng(5)
    t[wall] = SECRET
    for _ in range(20):
        search_walls(s, p, 0, g)
    assert t[wall] == SECRET
    s.effects[0, LIGHT] = 3
    for _ in range(20):
        t[wall] = SECRET
        search_walls(s, p, 0, g)
        assert t[wall] == DOOR


# --- ITEM-1: who reads, goodwill --------------------------------------------------------------


def test_item_1_scrolls_are_read_only_by_readers_on_themselves(scene):
    in_hall(scene)
    for m in (HERO, ROGUE, WIZARD, CLERIC):
        hold(scene, m, ESP_SCROLL)
    assert scene.offers(HERO, PACK, A_USE + HERO)
    assert scene.offers(WIZARD, PACK, A_USE + WIZARD)
    assert not scene.offers(HERO, PACK, A_USE + WIZARD)
    for m in (ROGUE, CLERIC):  # no reader: the scroll can still be handed on
        assert not any(scene.offers(m, PACK, A_USE + b) for b in range(4))
        assert scene.legal(select_action(m, PACK))


def test_item_1_a_known_goodwill_scroll_is_read_only_in_a_fight(scene):
    in_hall(scene)
    s = scene.s
    s.known_kinds[0] |= 1 << GOODWILL_SCROLL
    hold(scene, HERO, GOODWILL_SCROLL)
    assert not scene.offers(HERO, PACK, A_USE + HERO)
    scene.tough()
    scene.fight([GOBLIN], [500])
    assert scene.offers(HERO, PACK, A_USE + HERO)
    scene.use(HERO, PACK, HERO)
    assert s.goodwill[0] and s.item[0, HERO, PACK] == 0
    start_fight(s, scene.p, 0, -1, scene.rng())  # a new fight, no goodwill
    assert not s.goodwill[0]


def test_item_1_an_unknown_goodwill_scroll_read_outside_a_fight_is_spent_and_known(scene):
    in_hall(scene)
    s = scene.s
    hold(scene, WIZARD, GOODWILL_SCROLL)
    assert not known(scene, GOODWILL_SCROLL)
    scene.use(WIZARD, PACK, WIZARD)
    assert s.item[0, WIZARD, PACK] == 0 and known(scene, GOODWILL_SCROLL)
    assert not s.goodwill[0] and (s.effects[0] == 0).all()


# --- ITEM-2: unknown items ------------------------------------------------------------------


def test_item_2_starting_gear_is_known_and_dungeon_finds_are_not(scene):
    obs = scene.obs()["pack"]
    s = scene.s
    held = s.item[0] > 0
    assert (obs[..., PACK_KNOWN][held] == 1).all()
    assert not any(known(scene, k) for k in range(NUM_ITEMS) if LOOK[k])


@pytest.mark.parametrize("kind, look", [(MEDICINAL_ALE, LOOK_BOTTLE), (ESP_SCROLL, LOOK_SCROLL),
                                        (FOUL_LANTERN, LOOK_LANTERN)])  # fmt: skip
def test_item_2_an_unknown_item_shows_its_look_and_using_one_makes_its_kind_known(
    scene, kind, look
):
    in_hall(scene)
    hold(scene, HERO, kind, PACK)
    hold(scene, HERO, kind, PACK + 1)
    pack = scene.obs()["pack"][HERO]
    assert pack[PACK, PACK_KIND] == NUM_ITEMS - 1 + look and pack[PACK, PACK_KNOWN] == 0
    scene.s.hp[0, HERO] = 5
    scene.use(HERO, PACK, HERO)
    pack = scene.obs()["pack"][HERO]
    assert pack[PACK + 1, PACK_KIND] == kind and pack[PACK + 1, PACK_KNOWN] == 1
    assert known(scene, kind)


LOOKS = {
    "bottle": (MEDICINAL_ALE, MIND_SHARPENER, BITTER_DRAUGHT),  # ITEM-1: a bad bottle too
    "scroll": (GOODWILL_SCROLL, ESP_SCROLL, SATED_SCROLL, LIGHT_SCROLL),
    "lantern": (WARDING_LANTERN, FOUL_LANTERN),
}


def views(scene):
    """Observation and masks (none selected, then each pack item of the hero and the rogue
    selected) of the scene as it stands."""
    out = [scene.obs(), scene.refresh().copy()]
    for m in (HERO, ROGUE):
        a = select_action(m, PACK)
        out.append(scene.legal(a))
        if scene.legal(a):
            scene.act(a)
            out.append(scene.refresh().copy())
            scene.act(A_CANCEL)
    return out


@pytest.mark.parametrize("look", list(LOOKS))
@pytest.mark.parametrize("fight", [False, True])
def test_item_2_kinds_of_one_look_are_alike_in_the_observation_and_the_mask(
    scene_factory, look, fight
):
    """ITEM-2: an unknown item of any kind of a look (the two lanterns, the two bottles, the
    four scrolls) gives the same observation and the same legal actions, exploring or in a
    fight, in a reader's pack (the hero) and a non-reader's (the rogue)."""
    seen = []
    for kind in LOOKS[look]:
        scene = scene_factory()
        in_hall(scene)
        scene.s.hp[0, HERO] = 5  # wounded: every bottle target is the same
        hold(scene, HERO, kind)
        hold(scene, ROGUE, kind)
        if fight:
            scene.tough(hp=400)
            scene.s.hp[0, HERO] = 5
            scene.fight([GOBLIN], [500])
        got = views(scene)
        if seen:
            for a, b in zip(seen, got):
                if isinstance(a, dict):
                    for k in a:
                        assert (a[k] == b[k]).all(), (kind, k)
                else:
                    assert np.array_equal(a, b), kind
        seen = got


def test_item_2_an_item_named_known_shows_in_every_pack(scene):
    in_hall(scene)
    hold(scene, HERO, SATED_SCROLL)
    hold(scene, CLERIC, SATED_SCROLL)
    hold(scene, WIZARD, SATED_SCROLL)
    scene.use(WIZARD, PACK, WIZARD)
    pack = scene.obs()["pack"]
    assert pack[HERO, PACK, PACK_KIND] == SATED_SCROLL == pack[CLERIC, PACK, PACK_KIND]
    assert pack[HERO, PACK, PACK_KNOWN] == 1 == pack[CLERIC, PACK, PACK_KNOWN]


# --- the soak's invariants for this state ---------------------------------------------------


def test_the_soak_checker_flags_broken_effects_and_known_kinds(scene):
    """invariants.InvariantChecker: an effect spent by two in a pace, a foul mark without WARD, a
    known kind forgotten are each reported; a lantern lit and a pace walked are not."""
    in_hall(scene)
    s = scene.s
    checker = invariants.InvariantChecker()
    s.known_kinds[0] |= 1 << ESP_SCROLL
    s.effects[0] = (10, 0, 5, 0)
    assert checker.check(s) == []
    s.effects[0] = (9, 0, 4, 0)
    s.pace[0] += 1
    s.steps[0] += 1
    assert checker.check(s) == []
    rules = []
    for broken in ("spent", "foul", "forgot"):
        s.effects[0] = (7, 0, 4, 0) if broken == "spent" else (9, 0, 4, 0)
        s.ward_foul[0] = broken == "foul"
        s.effects[0, WARD] = 0 if broken == "foul" else s.effects[0, WARD]
        s.known_kinds[0] = 0 if broken == "forgot" else 1 << ESP_SCROLL
        s.pace[0] += 1
        s.steps[0] += 1
        rules += [v.rule for v in checker.check(s)]
        checker.reset_baseline()
        s.effects[0] = (9, 0, 4, 0)
        s.ward_foul[0] = False
        s.known_kinds[0] = 1 << ESP_SCROLL
        checker.check(s)
    assert "effect spent but by one pace" in rules
    assert "foul lantern without WARD" in rules
    assert "known kind forgotten" in rules
