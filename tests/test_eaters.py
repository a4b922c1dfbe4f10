"""GEAR-EAT-1..2 and DRAIN-1: what metal eaters, armor eaters and drainers do on a hit (MON-2:
eaters as well as a wound, drainers instead of one)."""

from delve_env.engine.core.tables import (
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
from delve_env.engine.outputs.layout import PARTY_DAMAGE
from delve_env.engine.rules.fights import hit_member, weapon_left
from delve_env.engine.rules.traits import HERO_ARMORER, piece_av

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
    """GEAR-EAT-2: the wooden shield (AV 1) loses its AV to one bite and, worn at 0 AV, keeps
    taking the bites (its row stays, the armor is spared); with no shield on the arm the
    leather (AV 1) is ground to 0 and keeps its row; the eater's blow still wounds."""
    s = scene.s
    scene.tough()
    assert s.item[0, HERO, OFF_HAND] == WOODEN_SHIELD and s.item[0, HERO, ARMOR] == LEATHER
    hit(scene, SLUG, HERO, rng)
    assert s.item_wear[0, HERO, OFF_HAND] == 1 and s.item_wear[0, HERO, ARMOR] == 0
    assert s.events[0] & EV_ARMOR_BITE
    hit(scene, SLUG, HERO, rng, times=4)
    assert s.item_wear[0, HERO, OFF_HAND] == 1 and s.item_wear[0, HERO, ARMOR] == 0
    assert piece_av(s, 0, HERO, ARMOR) == 1
    s.item[0, HERO, OFF_HAND] = 0  # the ground shield comes off: the armor is next
    hit(scene, SLUG, HERO, rng)
    assert s.item_wear[0, HERO, ARMOR] == 1 and piece_av(s, 0, HERO, ARMOR) == 0
    hp = int(s.hp[0, HERO])
    hit(scene, SLUG, HERO, rng, times=5)
    assert s.item_wear[0, HERO, ARMOR] == 1 and s.item[0, HERO, ARMOR] == LEATHER
    assert int(s.hp[0, HERO]) < hp


def test_gear_eat_2_the_armorers_plus_one_is_ground_too(scene, rng):
    """GEAR-EAT-2 with the Armorer (CLASS-1): his leather gives 1 + 1 AV; with no shield two
    bites grind it to 0 AV (the +1 is protection like any), and a third takes nothing more."""
    s = scene.s
    scene.tough()
    s.level[0, HERO] = 2
    s.options[0, HERO, 0] = HERO_ARMORER
    s.item[0, HERO, OFF_HAND] = 0
    assert piece_av(s, 0, HERO, ARMOR) == 2
    hit(scene, SLUG, HERO, rng)
    assert piece_av(s, 0, HERO, ARMOR) == 1
    hit(scene, SLUG, HERO, rng)
    assert piece_av(s, 0, HERO, ARMOR) == 0 and s.item_wear[0, HERO, ARMOR] == 2
    hit(scene, SLUG, HERO, rng)
    assert piece_av(s, 0, HERO, ARMOR) == 0 and s.item_wear[0, HERO, ARMOR] == 2


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


def test_view_1_member_status_shows_the_armorers_protection(scene, rng):
    """VIEW-1 with CLASS-1's Armorer: MEMBER STATUS gives his armor row the protection it
    gives (leather 1 + 1), also past DV 0 (it works down to -5), and after a bite 1."""
    from delve_env.ui.reports import member_status

    s = scene.s
    scene.tough()

    def armor_row():
        rows = [r for r in member_status(s, scene.p).splitlines() if r.startswith("    armor:")]
        return rows[0]  # the hero leads the marching order

    assert "protection 1," in armor_row()
    s.level[0, HERO] = 2
    s.options[0, HERO, 0] = HERO_ARMORER
    assert "protection 2," in armor_row()
    s.item_dv[0, HERO, ARMOR] = -2
    assert "protection 2," in armor_row()
    s.item[0, HERO, OFF_HAND] = 0
    hit(scene, SLUG, HERO, rng)
    assert "protection 1," in armor_row()
