"""GEAR-EAT-1..2 and DRAIN-1: what metal eaters, armor eaters and drainers do on a hit (MON-2:
eaters as well as a wound, drainers instead of one)."""

from delve_env.engine.fights import hit_member, weapon_left
from delve_env.engine.layout import PARTY_DAMAGE
from delve_env.engine.tables import (
    ARMOR,
    CROSSBOW,
    EV_ARMOR_BITE,
    EV_DRAINED,
    EV_METAL_BITE,
    LEATHER,
    OFF_HAND,
    READY,
    SWORD,
    WOODEN_SHIELD,
)

RAT, MITE, SLUG, WIGHT, WRAITH = 0, 3, 7, 9, 13  # tables.MONSTER_NAMES
HERO, WIZARD = 0, 2


def hit(scene, kind, m, rng, times=1):
    scene.fight([kind], hps=[30000])
    for _ in range(times):
        hit_member(scene.s, scene.p, 0, 0, m, rng)


def test_gear_eat_1_a_metal_eater_wears_the_bonus_then_a_die_then_destroys(scene, rng):
    """GEAR-EAT-1: a crossbow (2d6+1) bitten goes 2d6, then 1d6, then is gone and the hand
    is empty; each bite is kept after the fight and shown as the member's damage."""
    s = scene.s
    scene.tough()
    s.item[0, HERO, READY] = CROSSBOW
    assert weapon_left(CROSSBOW, 0) == (2, 1)
    hit(scene, MITE, HERO, rng)
    assert s.events[0] & EV_METAL_BITE or s.item_wear[0, HERO, READY] == 1
    assert weapon_left(CROSSBOW, s.item_wear[0, HERO, READY]) == (2, 0)
    assert scene.obs()["party"][HERO, PARTY_DAMAGE] == 14
    hit(scene, MITE, HERO, rng)
    assert weapon_left(CROSSBOW, s.item_wear[0, HERO, READY]) == (1, 0)
    hit(scene, MITE, HERO, rng)
    assert s.item[0, HERO, READY] == 0 and s.item_wear[0, HERO, READY] == 0


def test_gear_eat_1_a_sword_loses_a_die_per_bite(scene, rng):
    s = scene.s
    scene.tough()
    s.item[0, HERO, READY] = SWORD
    hit(scene, MITE, HERO, rng)
    assert weapon_left(SWORD, s.item_wear[0, HERO, READY]) == (1, 0)
    hit(scene, MITE, HERO, rng)
    assert s.item[0, HERO, READY] == 0


def test_gear_eat_2_an_armor_eater_grinds_the_shield_first_then_the_armor_to_zero(scene, rng):
    """GEAR-EAT-2: wooden shield (AV 1) then leather (AV 1) lose their AV one bite each;
    at 0 they keep their rows, and the eater's blow still wounds."""
    s = scene.s
    scene.tough()
    assert s.item[0, HERO, OFF_HAND] == WOODEN_SHIELD and s.item[0, HERO, ARMOR] == LEATHER
    hit(scene, SLUG, HERO, rng)
    assert s.item_wear[0, HERO, OFF_HAND] == 1 and s.item_wear[0, HERO, ARMOR] == 0
    assert s.events[0] & EV_ARMOR_BITE
    hit(scene, SLUG, HERO, rng)
    assert s.item_wear[0, HERO, ARMOR] == 1
    hp = int(s.hp[0, HERO])
    hit(scene, SLUG, HERO, rng, times=5)
    assert s.item_wear[0, HERO, OFF_HAND] == 1 and s.item_wear[0, HERO, ARMOR] == 1
    assert s.item[0, HERO, OFF_HAND] == WOODEN_SHIELD and s.item[0, HERO, ARMOR] == LEATHER
    assert int(s.hp[0, HERO]) < hp


def test_drain_1_a_drainer_lowers_the_ceiling_not_hp_to_a_floor_of_1(scene, rng):
    s = scene.s
    s.hp[0, WIZARD] = 5
    s.ceiling[0, WIZARD] = 40
    hit(scene, WIGHT, WIZARD, rng)
    assert 34 <= s.ceiling[0, WIZARD] < 40 and s.hp[0, WIZARD] == 5
    assert s.events[0] & EV_DRAINED
    hit(scene, WIGHT, WIZARD, rng, times=40)
    assert s.ceiling[0, WIZARD] == 1 and s.hp[0, WIZARD] == 1


def test_drain_1_an_xp_drainer_takes_xp_never_a_level(scene, rng):
    s = scene.s
    scene.tough()
    s.xp[0, WIZARD] = 500
    level, hp = int(s.level[0, WIZARD]), int(s.hp[0, WIZARD])
    hit(scene, WRAITH, WIZARD, rng)
    assert s.xp[0, WIZARD] < 500 and s.hp[0, WIZARD] == hp
    hit(scene, WRAITH, WIZARD, rng, times=30)
    assert s.xp[0, WIZARD] == 0 and s.level[0, WIZARD] == level


def test_drain_1_a_food_thief_takes_rations_instead_of_a_wound(scene, rng):
    s = scene.s
    s.rations[0] = 5
    hp = int(s.hp[0, WIZARD])
    hit(scene, RAT, WIZARD, rng)
    assert s.rations[0] == 3 and s.hp[0, WIZARD] == hp
    hit(scene, RAT, WIZARD, rng, times=3)
    assert s.rations[0] == 0
