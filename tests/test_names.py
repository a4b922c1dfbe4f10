"""Naming magic (NAME-1): the Namer's true names (3 at the start, 2 more a level, never one
twice) and the 16 name spells of tables.POWERS, each cast through env.step on a hand-set
scene (tests/spellkit.py)."""

from __future__ import annotations

import numpy as np
from spellkit import BIG, GOBLIN, HERO, NAMER, WIZ, cast, magic_scene, offered, power, teach

from delve_env.engine.core.params import P_LANTERN_PACES, P_SCROLL_PACES
from delve_env.engine.core.tables import (
    FS_BLIND,
    FS_BOUND,
    LIGHT,
    NUM_NAMES,
    PRIME_GROW,
    WARD,
)
from delve_env.engine.core.tables import (
    NAMER as NAMER_CLASS,
)
from delve_env.engine.rules.fights import hit_foe, monster_attack
from delve_env.engine.rules.party import gain_level
from delve_env.engine.rules.spells import cast_name


def popcount(x) -> int:
    return bin(int(x)).count("1")


def test_name_1_three_names_at_the_start_two_more_a_level_never_twice(rng):
    sc = magic_scene()
    sc.env.reset(seed=3)
    s = sc.s
    assert popcount(s.names_known[0, NAMER]) == 3 and (s.names_known[0, :NAMER] == 0).all()
    assert s.cls[0, NAMER] == NAMER_CLASS
    before = int(s.names_known[0, NAMER])
    gain_level(s, 0, NAMER, rng)
    after = int(s.names_known[0, NAMER])
    assert popcount(after) == 5 and after & before == before
    gain_level(s, 0, WIZ, rng)  # only the Namer learns names
    assert s.names_known[0, WIZ] == 0
    s.names_known[0, NAMER] = (1 << NUM_NAMES) - 1 - 1  # all but one: one is left to learn
    gain_level(s, 0, NAMER, rng)
    assert s.names_known[0, NAMER] == (1 << NUM_NAMES) - 1


def test_name_1_a_name_spell_needs_both_names():
    sc = magic_scene()
    sc.fight([GOBLIN], hps=[BIG])
    i = power("name: project fire")
    assert not offered(sc, NAMER, i)
    teach(sc, "project fire")
    assert offered(sc, NAMER, i, foe=0)
    sc.s.names_known[0, NAMER] &= ~(1 << 1)  # forgets "fire"
    assert not offered(sc, NAMER, i)
    teach(sc, "project fire")
    sc.s.mana[0, NAMER] = 1  # it costs 2
    assert not offered(sc, NAMER, i)


def fight(kinds=(GOBLIN,), *spells):
    sc = magic_scene()
    teach(sc, *spells)
    sc.s.order[0, :4] = (NAMER, WIZ, HERO, 2)  # the Namer acts first: the band acts last
    sc.fight(list(kinds), hps=[BIG] * len(kinds))
    return sc


def test_name_1_project_fire_and_lightning_hit_one_foe(rng):
    sc = fight((GOBLIN, GOBLIN), "project fire", "project lightning")
    s = sc.s
    mana = int(s.mana[0, NAMER])
    cast(sc, NAMER, power("name: project fire"), foe=0)
    assert 2 <= BIG - s.foe_hp[0, 0] <= 12 and s.foe_hp[0, 1] == BIG
    assert s.mana[0, NAMER] == mana - 2
    for _ in range(50):
        hp = int(s.foe_hp[0, 1])
        s.mana[0, NAMER] = 10
        cast_name(s, sc.p, 0, NAMER, power("name: project lightning"), 1, rng)
        assert 3 <= hp - s.foe_hp[0, 1] <= 18  # always hits


def test_name_1_fire_lightning_and_water_dice_show_both_ends_over_300_casts():
    """NAME-1's dice over 300 casts each (mana put back): project fire 2d6 and create
    water's heal 1d6 show every value; project lightning's 3d6 stays in 3..18 and shows 5 or
    less and 16 or more (3 and 18 are 1 in 216)."""
    sc = fight((GOBLIN,), "project fire", "project lightning", "create water")
    s, p = sc.s, sc.p
    g = sc.rng(13)
    seen = {"fire": set(), "lightning": set(), "water": set()}
    for _ in range(300):
        for key in ("fire", "lightning"):
            s.mana[0, NAMER], s.foe_hp[0, 0] = 20, BIG
            cast_name(s, p, 0, NAMER, power(f"name: project {key}"), 0, g)
            seen[key].add(BIG - int(s.foe_hp[0, 0]))
        s.mana[0, NAMER] = 20
        s.ceiling[0, WIZ], s.hp[0, WIZ] = 30, 20
        cast_name(s, p, 0, NAMER, power("name: create water"), WIZ, g)
        seen["water"].add(int(s.hp[0, WIZ]) - 20)
    assert seen["fire"] == set(range(2, 13)) and seen["water"] == set(range(1, 7)), seen
    bolt = seen["lightning"]
    assert bolt <= set(range(3, 19)) and min(bolt) <= 5 and max(bolt) >= 16, bolt


def test_name_1_project_cold_and_thunder_hit_every_foe():
    sc = fight((GOBLIN, GOBLIN, GOBLIN), "project cold", "project thunder")
    s = sc.s
    cast(sc, NAMER, power("name: project cold"))
    lost = BIG - s.foe_hp[0, :3]
    assert ((lost >= 1) & (lost <= 6)).all()
    before = s.foe_hp[0, :3].copy()
    cast(sc, NAMER, power("name: project thunder"))
    lost = before - s.foe_hp[0, :3]
    assert ((lost >= 2) & (lost <= 12)).all()


def test_name_1_bind_rope_and_curse_thought_mark_the_foe(rng):
    sc = fight((GOBLIN,), "bind rope", "curse thought")
    s = sc.s
    cast(sc, NAMER, power("name: bind rope"), foe=0)
    assert s.foe_status[0, 0] == FS_BOUND
    assert not offered(sc, NAMER, power("name: bind rope"), foe=0)
    hp = s.hp[0].copy()
    monster_attack(s, sc.p, 0, 0, rng)  # the bound foe loses this blow
    assert (s.hp[0] == hp).all() and s.foe_status[0, 0] == 0
    cast(sc, NAMER, power("name: curse thought"), foe=0)
    assert s.foe_status[0, 0] == FS_BLIND


def test_name_1_conceal_shadow_hides_conceal_sight_makes_invisible():
    sc = fight((GOBLIN,), "conceal shadow", "conceal sight")
    s = sc.s
    cast(sc, NAMER, power("name: conceal shadow"), target=WIZ)
    assert s.hidden[0, WIZ] and not offered(sc, NAMER, power("name: conceal shadow"), target=WIZ)
    cast(sc, NAMER, power("name: conceal sight"), target=HERO)
    assert s.invisible[0, HERO]


def test_name_1_grow_sword_the_next_hit_deals_a_d6_more(rng):
    sc = fight((GOBLIN,), "grow sword")
    s = sc.s
    i = power("name: grow sword")
    cast(sc, NAMER, i)
    assert s.primed[0, NAMER] & PRIME_GROW and not offered(sc, NAMER, i)
    base = []
    for grow in (False, True):
        dealt = []
        for _ in range(300):
            s.primed[0, NAMER] = PRIME_GROW if grow else 0
            hp = int(s.foe_hp[0, 0])
            hit_foe(s, sc.p, 0, NAMER, 0, rng)
            dealt.append(hp - int(s.foe_hp[0, 0]))
            assert s.primed[0, NAMER] == 0
        base.append(np.mean(dealt))
    assert 2.5 < base[1] - base[0] < 4.5  # a d6 is 3.5 on average


def test_name_1_create_water_heals_a_d6_to_the_ceiling():
    sc = magic_scene()
    s = sc.s
    teach(sc, "create water")
    i = power("name: create water")
    s.hp[0, WIZ], s.ceiling[0, WIZ] = 20, 20
    assert not offered(sc, NAMER, i, target=WIZ)
    s.hp[0, WIZ] = 19
    cast(sc, NAMER, i, target=WIZ)
    assert s.hp[0, WIZ] == 20


def test_name_1_create_light_and_shape_air_outside():
    sc = magic_scene()
    s = sc.s
    teach(sc, "create light", "shape air")
    cast(sc, NAMER, power("name: create light"))
    assert s.effects[0, LIGHT] == sc.p[P_SCROLL_PACES]
    s.effects[0, WARD], s.ward_foul[0] = 3, True
    cast(sc, NAMER, power("name: shape air"))
    assert s.effects[0, WARD] == sc.p[P_LANTERN_PACES] and not s.ward_foul[0]


def test_name_1_remove_curse_ends_the_foul_ward():
    sc = magic_scene()
    s = sc.s
    teach(sc, "remove curse")
    i = power("name: remove curse")
    assert not offered(sc, NAMER, i)
    s.effects[0, WARD], s.ward_foul[0] = 30, True
    cast(sc, NAMER, i)
    assert s.effects[0, WARD] == 0 and not s.ward_foul[0]


def test_name_1_locate_coin_shows_the_rooms_holding_gold():
    sc = magic_scene()
    s = sc.s
    teach(sc, "locate coin")
    n = int(s.num_rooms[0, 1])
    s.room_known[0, 1, :] = False
    s.room_gold[0, 1, :n] = 0
    s.room_gold[0, 1, 1] = 7
    cast(sc, NAMER, power("name: locate coin"))
    assert s.room_known[0, 1, :n].tolist() == [r == 1 for r in range(n)]
    s.room_known[0, 1, :n] = True
    assert not offered(sc, NAMER, power("name: locate coin"))  # nothing left to find


def test_name_1_locate_spirit_shows_the_books_room_locate_sound_hears_bands():
    sc = magic_scene()
    s = sc.s
    teach(sc, "locate spirit", "locate sound")
    r = int(s.book_room[0])
    s.room_known[0, 1, :] = False
    assert not offered(sc, NAMER, power("name: locate sound"))
    cast(sc, NAMER, power("name: locate spirit"))
    assert s.room_known[0, 1, r] and s.room_known[0, 1].sum() == 1
    _, _, outside = sc.door_of(1, r)
    sc.put(1, *outside)
    s.band_kind[0, 1, r, 0], s.band_hp[0, 1, r, 0] = GOBLIN, 5
    cast(sc, NAMER, power("name: locate sound"))
    assert s.room_heard[0, 1, r]


def test_name_1_fight_and_outside_names_only_on_their_screen():
    sc = magic_scene()
    teach(sc, "project fire", "create light")
    assert not offered(sc, NAMER, power("name: project fire"))
    sc.fight([GOBLIN], hps=[BIG])
    assert not offered(sc, NAMER, power("name: create light"))
