"""Fights, wandering bands and the bestiary: FIGHT-1..2, ROUND-1, ATTACK-1..2, DMG-1,
RUN-AWAY-1, WANDER-1, WANDER-3, MON-1."""

from __future__ import annotations

import numpy as np
import pytest

from delve_env.engine.core.actions import A_ATTACK, A_LISTEN, A_RUN, A_SEARCH, A_WAIT
from delve_env.engine.core.params import (
    P_HALL_WANDER,
    P_HALL_WANDER_HUNT,
    P_JUNCTION_WANDER,
    P_JUNCTION_WANDER_HUNT,
    make_params,
)
from delve_env.engine.core.tables import (
    ARMOR,
    CROSSBOW,
    DAGGER,
    EV_AMBUSH,
    EV_FIGHT,
    EV_FLED,
    EV_WANDER,
    EXPLORE,
    FIGHT,
    GREATSWORD,
    HALL,
    HAND_AXE,
    I_AV,
    I_DV,
    ITEMS,
    KINDS_PER_TIER,
    LEATHER,
    M_ATK,
    M_AV,
    M_BRIBE,
    M_DEF,
    M_DICE,
    M_FLAGS,
    M_FLAT,
    M_HEARTS,
    M_PRICE,
    M_TIER,
    MAX_FOES,
    MF_ARMOR_EATER,
    MF_DRAINER,
    MF_FOOD_THIEF,
    MF_METAL_EATER,
    MF_RANGED,
    MF_UNDEAD,
    MF_XP_DRAINER,
    MONSTER_NAMES,
    MONSTERS,
    OFF_HAND,
    READY,
    RING_MAIL,
    ROBES,
    SHORT_BOW,
    SLING,
    STAFF,
    SWORD,
    WOODEN_SHIELD,
    tier_of,
)
from delve_env.engine.rules.fights import (
    absorb,
    end_turn,
    hit_foe,
    hit_member,
    member_attack,
    monster_attack,
    monster_round,
    start_fight,
    weapon_damage,
)
from delve_env.engine.rules.monsters import roll_band
from delve_env.engine.rules.party import first_standing_position
from delve_env.engine.rules.wander import maybe_wander, wander_chance

RAT, GOBLIN, SLINGER, RUST_MITE, SPIDER, TROLL = 0, 1, 2, 3, 6, 12  # tables.MONSTER_NAMES
ALL_FLAGS = (
    MF_METAL_EATER,
    MF_ARMOR_EATER,
    MF_DRAINER,
    MF_XP_DRAINER,
    MF_FOOD_THIEF,
    MF_UNDEAD,
    MF_RANGED,
)
BIG = 30000
D20 = np.arange(1, 21)
DIFF = (D20[:, None] - D20[None, :]).ravel()  # one d20 minus another, all 400 pairs


def guard(scene, f, r, kinds, hps=None):
    s = scene.s
    scene.clear_band(f, r)
    for k, kind in enumerate(kinds):
        s.band_kind[0, f, r, k] = kind
        s.band_hp[0, f, r, k] = MONSTERS[kind, M_HEARTS] if hps is None else hps[k]


def only_standing(scene, m):
    """Everyone but member m lies dead, m has a huge HP pool."""
    s = scene.s
    s.hp[0, :] = 0
    s.hp[0, m] = s.ceiling[0, m] = BIG


# --- FIGHT-1 -------------------------------------------------------------------------------


def test_fight_1_walking_into_a_guarded_room_starts_a_fight_with_its_band(scene):
    """FIGHT-1: stepping through the door of a room guarded by two goblins (one wounded)
    starts a fight against that band, wounds and all."""
    s = scene.s
    scene.tough()
    guard(scene, 1, 0, [GOBLIN, GOBLIN], hps=[2, 5])
    scene.enter_room(1, 0)
    assert s.mode[0] == FIGHT and s.events[0] & EV_FIGHT
    assert s.fight_room[0] == 0
    assert list(s.foe_kind[0, :3]) == [GOBLIN, GOBLIN, -1]
    assert s.foe_hp[0, 0] <= 2 and s.foe_hp[0, 1] <= 5  # (an ambush may bring counter-blows)
    assert list(s.foe_max[0, :2]) == [5, 5]


def test_fight_1_an_unguarded_room_starts_no_fight(scene):
    """FIGHT-1: a room with no band is just entered."""
    scene.clear_band(1, 0)
    scene.enter_room(1, 0)
    assert scene.s.mode[0] == EXPLORE and not scene.s.events[0] & EV_FIGHT


def test_fight_1_a_wandering_band_appearing_starts_a_fight(scene):
    """FIGHT-1/WANDER-1: when a wandering band appears (chance forced to 1) a fight against
    it starts at once, with no room behind it."""
    s = scene.s
    scene.tough()
    scene.p[P_HALL_WANDER] = scene.p[P_JUNCTION_WANDER] = 1.0
    scene.put(1, *scene.hall_tile(1, junction=False))
    scene.act(A_WAIT)
    assert s.mode[0] == FIGHT and s.events[0] & EV_WANDER
    assert s.fight_room[0] == -1
    assert s.foe_kind[0, 0] >= 0


# --- FIGHT-2 -------------------------------------------------------------------------------


def initiative_trials(scene, n, wandering):
    s, p = scene.s, scene.p
    scene.tough()
    guard(scene, 1, 0, [GOBLIN, GOBLIN], hps=[BIG, BIG])
    if wandering:
        p = p.copy()
        p[P_HALL_WANDER] = p[P_JUNCTION_WANDER] = 1.0
        scene.put(1, *scene.hall_tile(1, junction=False))
    else:
        scene.stand_in_room(1, 0)
    snap = scene.save()
    g = scene.rng(61)
    ambushed = np.zeros(n, dtype=bool)
    touched = np.zeros(n, dtype=bool)
    for i in range(n):
        scene.load(snap)
        if wandering:
            maybe_wander(s, p, 0, False, g)
        else:
            start_fight(s, p, 0, 0, g)
            touched[i] = (s.hp[0, :4] < BIG).any() or (s.foe_hp[0, :2] < BIG).any()
        ambushed[i] = bool(s.events[0] & EV_AMBUSH)
        if s.mode[0] == FIGHT:
            assert s.actor[0] == first_standing_position(s, 0, 0)
        else:  # a band can fall to counter-blows in its own ambush round
            assert wandering and ambushed[i]
    return ambushed, touched


def test_fight_2_the_band_ambushes_when_its_d6_beats_the_partys(scene):
    """FIGHT-2: both sides roll a d6 and the band swings first only when it rolls higher:
    15 times in 36 (ties go to the party)."""
    ambushed, _ = initiative_trials(scene, 3000, wandering=False)
    assert 0.38 < ambushed.mean() < 0.45


def test_fight_2_an_ambush_is_a_full_monster_round_before_the_party_acts(scene):
    """FIGHT-2: without an ambush nobody has been hit when the party first acts; with one,
    the band's round has already landed blows (or drawn counter-blows)."""
    ambushed, touched = initiative_trials(scene, 1000, wandering=False)
    assert not touched[~ambushed].any()
    assert touched[ambushed].mean() > 0.5


def test_fight_2_wandering_bands_roll_the_same_initiative(scene):
    """FIGHT-2 (project rule): a wandering band rolls the same d6 initiative as a door."""
    ambushed, _ = initiative_trials(scene, 3000, wandering=True)
    assert 0.38 < ambushed.mean() < 0.45


# --- ROUND-1 -------------------------------------------------------------------------------


def test_round_1_members_act_once_each_in_marching_order_then_the_band(scene):
    """ROUND-1: the standing members act in marching order (a dead one is skipped), one
    action each; then the band acts and a new round starts with the first marcher. The
    acting member is flagged in the observation."""
    s = scene.s
    scene.tough()
    s.order[0, :4] = [3, 0, 1, 2]
    s.hp[0, 0] = 0  # the hero (second in line) is dead
    scene.fight([GOBLIN, GOBLIN], hps=[BIG, BIG])
    actors, rows = [], []
    for _ in range(3):
        assert s.fight_round[0] == 1
        actors.append(int(s.order[0, s.actor[0]]))
        rows.append(scene.obs()["party"])
        scene.act(A_ATTACK)
    assert actors == [3, 1, 2]
    assert s.fight_round[0] == 2 and s.order[0, s.actor[0]] == 3
    # some observation column is one-hot on exactly the acting member at every turn
    cols = [
        c
        for c in range(rows[0].shape[1])
        if all(
            (row[:, c] == 1.0).sum() == 1 and row[actor, c] == 1.0
            for row, actor in zip(rows, actors)
        )
    ]
    assert cols


def test_round_1_each_living_monster_acts_once_per_round(scene):
    """ROUND-1: in a band of three slingers with the middle one dead, the two living ones
    each shoot once per round (never three hits, about 2 x 52.5% hits per round)."""
    s, p = scene.s, scene.p
    only_standing(scene, 2)  # the wizard in robes (AV 0): a slinger's hit is exactly 2
    scene.fight([SLINGER, SLINGER, SLINGER], hps=[BIG, 0, BIG])
    g = scene.rng(71)
    n = 2000
    hits = np.zeros(n, dtype=np.int64)
    for i in range(n):
        s.hp[0, 2] = BIG
        monster_round(s, p, 0, g)
        hits[i] = (BIG - s.hp[0, 2]) // 2
    assert hits.max() == 2 and hits.min() == 0
    expected = 2 * np.mean(DIFF <= 0)  # a slinger (attack 0) hits on d20 >= d20
    assert abs(hits.mean() - expected) < 0.06


# --- ATTACK-1 ------------------------------------------------------------------------------


def exchanges(scene, attacker_pos, kind, n=4000, num_attacks=1, seed=81):
    """The member at marching position `attacker_pos` attacks a foe n times: (foe damaged,
    member damaged) per exchange."""
    s, p = scene.s, scene.p
    scene.tough()
    scene.fight([kind], hps=[BIG])
    s.actor[0] = attacker_pos
    m = s.order[0, attacker_pos]
    g = scene.rng(seed)
    foe_hit = np.zeros(n, dtype=bool)
    member_hit = np.zeros(n, dtype=bool)
    for i in range(n):
        s.foe_hp[0, 0] = BIG
        s.hp[0, m] = BIG
        member_attack(s, p, 0, 0, False, num_attacks, g)
        foe_hit[i] = s.foe_hp[0, 0] < BIG
        member_hit[i] = s.hp[0, m] < BIG
    return foe_hit, member_hit


def test_attack_1_a_members_melee_attack_is_an_opposed_d20_roll(scene):
    """ATTACK-1: the wizard (staff, no skill, bonus 0) against a goblin (defense 1): d20 vs
    d20 + 1. Higher or equal wins; the winner of the melee exchange deals damage; a tie
    hits both."""
    foe_hit, member_hit = exchanges(scene, 2, GOBLIN)
    mine_minus_theirs = DIFF - MONSTERS[GOBLIN, M_DEF]
    assert abs(foe_hit.mean() - np.mean(mine_minus_theirs >= 0)) < 0.025
    assert abs(member_hit.mean() - np.mean(mine_minus_theirs <= 0)) < 0.025
    assert abs((foe_hit & member_hit).mean() - np.mean(mine_minus_theirs == 0)) < 0.015
    assert (foe_hit | member_hit).all()  # a melee exchange always has a winner


def test_attack_1_a_monsters_melee_attack_is_an_opposed_d20_roll(scene):
    """ATTACK-1: a goblin (attack 1) attacks the wizard (d20): it wounds her on d20 + 1 >=
    d20, her counter-blow wounds it on d20 + 1 <= d20, a tie hits both."""
    s, p = scene.s, scene.p
    only_standing(scene, 2)
    scene.fight([GOBLIN], hps=[BIG])
    g = scene.rng(91)
    n = 4000
    foe_hit = np.zeros(n, dtype=bool)
    member_hit = np.zeros(n, dtype=bool)
    for i in range(n):
        s.foe_hp[0, 0], s.hp[0, 2] = BIG, BIG
        monster_attack(s, p, 0, 0, g)
        foe_hit[i], member_hit[i] = s.foe_hp[0, 0] < BIG, s.hp[0, 2] < BIG
    theirs_minus_mine = -DIFF + MONSTERS[GOBLIN, M_ATK]
    assert abs(member_hit.mean() - np.mean(theirs_minus_mine >= 0)) < 0.025
    assert abs(foe_hit.mean() - np.mean(theirs_minus_mine <= 0)) < 0.025
    assert abs((foe_hit & member_hit).mean() - np.mean(theirs_minus_mine == 0)) < 0.015


def test_attack_1_a_ranged_attack_that_loses_simply_misses(scene):
    """ATTACK-1: the rogue shooting a short bow at a goblin is never hit back, though she
    misses often; a slinger shooting at the wizard is never hit back either."""
    s, p = scene.s, scene.p
    s.item[0, 1, READY] = SHORT_BOW
    foe_hit, member_hit = exchanges(scene, 1, GOBLIN, n=1000)
    assert not member_hit.any()
    assert 0.1 < (~foe_hit).mean() < 0.6
    only_standing(scene, 2)
    scene.fight([SLINGER], hps=[BIG])
    g = scene.rng(93)
    wounded = 0
    for _ in range(500):
        s.hp[0, 2] = BIG
        monster_attack(s, p, 0, 0, g)
        assert s.foe_hp[0, 0] == BIG
        wounded += s.hp[0, 2] < BIG
    assert 100 < wounded < 400


# --- ATTACK-2 ------------------------------------------------------------------------------


@pytest.mark.nojit
def test_attack_2_the_target_counter_attacks_only_if_every_attack_fails(scene):
    """ATTACK-2: the wizard attacks a goblin twice in one action: the goblin strikes back
    only when no attack beat it, each failed or tied (0.55^2: a tie hits both, ATTACK-1),
    never when one of them won."""
    foe_hit, member_hit = exchanges(scene, 2, GOBLIN, num_attacks=2)
    assert (foe_hit & member_hit).any()  # a tie and a miss
    no_win = np.mean(DIFF - MONSTERS[GOBLIN, M_DEF] <= 0)
    assert abs(member_hit.mean() - no_win**2) < 0.025


def test_attack_2_bonus_dice_are_rolled_once_and_added_to_each_attack(scene):
    """ATTACK-2: the hero (sling, exactly 2 damage, skill d6, plus a luck d6; bonus -7)
    attacks a spider twice per action. With one shared bonus roll the number of hits has
    the spread of Binomial(2, q(B)) mixed over B: P(one hit) = 47.5%, not the 49.9% that
    separate bonus rolls per attack would give."""
    s, p = scene.s, scene.p
    scene.tough()
    s.item[0, 0, READY] = SLING
    s.atk[0, 0] = -7
    scene.fight([SPIDER], hps=[BIG])
    g = scene.rng(101)
    n = 30000
    hits = np.zeros(n, dtype=np.int64)
    for i in range(n):
        s.foe_hp[0, 0] = BIG
        s.luck[0, 0] = 3
        member_attack(s, p, 0, 0, True, 2, g)
        hits[i] = (BIG - s.foe_hp[0, 0]) // 2
    bonus = np.add.outer(np.arange(1, 7), np.arange(1, 7)).ravel() - 7
    q = np.array([np.mean(DIFF + b - MONSTERS[SPIDER, M_DEF] >= 0) for b in bonus])
    shared = np.mean(2 * q * (1 - q))
    separate = 2 * q.mean() * (1 - q.mean())
    one = np.mean(hits == 1)
    assert abs(one - shared) < 0.011
    assert abs(one - shared) < abs(one - separate)
    assert abs(hits.mean() - 2 * q.mean()) < 0.02


# --- DMG-1 ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kind, lo, hi, mean",
    [
        (DAGGER, 1, 6, 3.5),
        (STAFF, 1, 6, 3.5),
        (SWORD, 2, 12, 7.0),
        (HAND_AXE, 2, 12, 7.0),
        (GREATSWORD, 3, 18, 10.5),
        (SHORT_BOW, 2, 12, 7.0),
        (CROSSBOW, 3, 13, 8.0),
        (SLING, 2, 2, 2.0),
        (0, 2, 2, 2.0),
    ],
)
def test_dmg_1_damage_is_weapon_dice_plus_flat_bonus_unarmed_is_2(scene, kind, lo, hi, mean):
    """DMG-1/ITEM-1: dagger and staff d6, sword and axe and short bow 2d6, greatsword 3d6,
    crossbow 2d6+1, sling 2; an empty hand hits for 2."""
    s = scene.s
    s.item[0, 0, READY] = kind
    s.item_wear[0, 0, READY] = 0
    g = scene.rng(111)
    rolls = np.array([weapon_damage(s, 0, 0, g) for _ in range(3000)])
    assert rolls.min() == lo and rolls.max() == hi
    assert abs(rolls.mean() - mean) < 0.25


@pytest.mark.nojit
def test_dmg_1_armor_subtracts_its_protection_and_each_absorbing_piece_loses_a_dv(scene):
    """DMG-1: the hero's shield (AV 1) and leather (AV 1) take 2 off a 5-point blow, each
    losing one durability; a 1-point blow is stopped by the shield alone."""
    s = scene.s
    assert s.item[0, 0, OFF_HAND] == WOODEN_SHIELD and s.item[0, 0, ARMOR] == LEATHER
    shield, leather = int(s.item_dv[0, 0, OFF_HAND]), int(s.item_dv[0, 0, ARMOR])
    assert (shield, leather) == (ITEMS[WOODEN_SHIELD, I_DV], ITEMS[LEATHER, I_DV]) == (10, 15)
    assert absorb(s, 0, 0, 5) == 3
    assert (s.item_dv[0, 0, OFF_HAND], s.item_dv[0, 0, ARMOR]) == (9, 14)
    assert absorb(s, 0, 0, 1) == 0
    assert (s.item_dv[0, 0, OFF_HAND], s.item_dv[0, 0, ARMOR]) == (8, 14)


def test_dmg_1_a_piece_at_zero_durability_protects_nothing(scene):
    """DMG-1: with the shield's DV at 0, only the leather's AV 1 counts."""
    s = scene.s
    s.item_dv[0, 0, OFF_HAND] = 0
    assert absorb(s, 0, 0, 5) == 4
    assert s.item_dv[0, 0, OFF_HAND] == 0


def test_dmg_1_a_monsters_blow_is_its_dice_less_the_members_armor(scene, rng):
    """DMG-1: a kobold slinger (2 flat) wounds the wizard in robes (AV 0) for 2; against the
    hero with ring mail (AV 3) and shield it does nothing, and both pieces wear."""
    s = scene.s
    assert ITEMS[ROBES, I_AV] == 0 and ITEMS[RING_MAIL, I_AV] == 3
    scene.fight([SLINGER])
    hp = int(s.hp[0, 2])
    hit_member(s, scene.p, 0, 0, 2, rng)
    assert s.hp[0, 2] == hp - 2
    s.item[0, 0, ARMOR] = RING_MAIL
    s.item_dv[0, 0, ARMOR] = ITEMS[RING_MAIL, I_DV]
    hp = int(s.hp[0, 0])
    hit_member(s, scene.p, 0, 0, 0, rng)
    assert s.hp[0, 0] == hp
    assert s.item_dv[0, 0, OFF_HAND] == 9 and s.item_dv[0, 0, ARMOR] == 24


@pytest.mark.parametrize("kind, expected", [(GOBLIN, 2), (RUST_MITE, 1), (TROLL, 0)])
def test_dmg_1_monster_armor_subtracts_from_the_members_damage(scene, rng, kind, expected):
    """DMG-1: an unarmed blow (2) less the monster's AV: goblin 0, rust mite 1, troll 2."""
    s = scene.s
    assert 2 - MONSTERS[kind, M_AV] == expected
    s.item[0, 3, READY] = 0
    scene.fight([kind], hps=[BIG])
    hit_foe(s, scene.p, 0, 3, 0, rng)
    assert BIG - s.foe_hp[0, 0] == expected


# --- RUN-AWAY-1 ----------------------------------------------------------------------------


@pytest.mark.nojit
def test_run_away_1_the_party_flees_to_a_random_hall_tile_and_the_band_keeps_its_wounds(scene):
    """RUN-AWAY-1: from a fight in a room, RUN lands the party on a plain hall tile (never a
    room, never a stair), no time passes, the band stays in its room with its wounds (its
    dead gone); landings vary and may be on ground never seen."""
    s = scene.s
    scene.tough()
    guard(scene, 1, 0, [GOBLIN, GOBLIN, GOBLIN], hps=[BIG, BIG, BIG])
    scene.enter_room(1, 0)
    assert s.mode[0] == FIGHT
    s.foe_hp[0, :3] = [2, 0, 4]
    pace = int(s.pace[0])
    snap = scene.save()
    landings = set()
    unseen = 0
    for seed in range(40):
        scene.load(snap)
        s.rng[0] = scene.rng(seed)[0]
        scene.act(A_RUN)
        x, y = int(s.x[0]), int(s.y[0])
        assert s.mode[0] == EXPLORE and s.events[0] & EV_FLED
        assert scene.tiles(1)[y, x] == HALL and s.room_of[0, 1, y, x] == -1
        assert s.pace[0] == pace
        assert list(s.band_kind[0, 1, 0, :3]) == [GOBLIN, GOBLIN, -1]
        assert list(s.band_hp[0, 1, 0, :2]) == [2, 4]
        landings.add((x, y))
        unseen += not snap["fog"][1, y, x]
    assert len(landings) >= 10
    assert unseen > 0


# --- WANDER-1 ------------------------------------------------------------------------------


def test_wander_1_the_chance_table(scene):
    """WANDER-1: per pace, junction 3/100, other hall 1/200, searching 6/100 anywhere, a room
    tile 0; hunting: 60/100, 10/100 and 60/100."""
    s, p = scene.s, scene.p
    junction = scene.hall_tile(1, junction=True)
    plain = scene.hall_tile(1, junction=False)
    expected = {False: (0.03, 0.005, 0.06, 0.0), True: (0.6, 0.1, 0.6, 0.0)}
    for hunting, (j, h, search, room) in expected.items():
        s.hunting[0] = hunting
        scene.put(1, *junction)
        assert wander_chance(s, p, 0, False) == pytest.approx(j)
        scene.put(1, *plain)
        assert wander_chance(s, p, 0, False) == pytest.approx(h)
        assert wander_chance(s, p, 0, True) == pytest.approx(search)
        scene.stand_in_room(1, 0)
        assert wander_chance(s, p, 0, False) == room
        assert wander_chance(s, p, 0, True) == pytest.approx(search)


@pytest.mark.parametrize(
    "hunting, where, searching, lo, hi",
    [
        (False, "junction", False, 0.020, 0.042),
        (False, "hall", False, 0.001, 0.011),
        (False, "hall", True, 0.047, 0.075),
        (True, "junction", False, 0.56, 0.64),
        (True, "hall", False, 0.085, 0.117),
        (True, "room", True, 0.56, 0.64),
    ],
)
def test_wander_1_bands_appear_at_the_table_rates(scene, hunting, where, searching, lo, hi):
    """WANDER-1: over 4000 paces, bands appear at the table's rates (wide bounds that still
    tell 3/100 from 1/200 from 6/100, and 60/100 from 10/100)."""
    s, p = scene.s, scene.p
    scene.tough()
    s.hunting[0] = hunting
    if where == "room":
        scene.clear_band(1, 0)
        scene.stand_in_room(1, 0)
    else:
        scene.put(1, *scene.hall_tile(1, junction=where == "junction"))
    snap = scene.save()
    g = scene.rng(121)
    n, bands = 4000, 0
    for _ in range(n):
        maybe_wander(s, p, 0, searching, g)
        if s.events[0] & EV_WANDER:  # counted even when its ambush round already lost it
            bands += 1
            scene.load(snap)
    assert lo < bands / n < hi


def test_wander_1_only_paces_in_halls_call_bands_but_searching_calls_them_anywhere(scene):
    """WANDER-1: with hall chances forced to 1, waiting in a room brings nothing, waiting in
    a hall brings a band; with the junction chance at 1/2 a search in a room (2 x junction
    = 1) brings one."""
    s, p = scene.s, scene.p
    scene.tough()
    p[P_HALL_WANDER] = p[P_HALL_WANDER_HUNT] = 1.0
    p[P_JUNCTION_WANDER] = p[P_JUNCTION_WANDER_HUNT] = 0.5
    scene.clear_band(1, 0)
    scene.stand_in_room(1, 0)
    snap = scene.save()
    for _ in range(20):
        scene.act(A_WAIT)
        assert s.mode[0] == EXPLORE
    scene.act(A_SEARCH)
    assert s.mode[0] == FIGHT and s.events[0] & EV_WANDER
    scene.load(snap)
    scene.put(1, *scene.hall_tile(1, junction=False))
    scene.act(A_WAIT)
    assert s.mode[0] == FIGHT and s.events[0] & EV_WANDER


def test_wander_1_a_door_tile_counts_as_an_other_hall_tile(scene):
    """WANDER-1: a door is an other hall tile: its chance is the hall's (1/200, hunting
    10/100), and with the hall chance forced to 1 waiting or listening in a doorway brings
    a band (the room behind it empty, so only the hall's risk is there)."""
    s, p = scene.s, scene.p
    scene.tough()
    scene.clear_band(1, 0)
    (dx, dy), _, _ = scene.door_of(1, 0)
    for hunting, rate in ((False, 0.005), (True, 0.1)):
        s.hunting[0] = hunting
        scene.put(1, dx, dy)
        assert wander_chance(s, p, 0, False) == pytest.approx(rate)
    s.hunting[0] = False
    p[P_HALL_WANDER] = 1.0
    p[P_JUNCTION_WANDER] = 0.0
    snap = scene.save()
    for a in (A_WAIT, A_LISTEN):
        scene.load(snap)
        scene.put(1, dx, dy)
        scene.act(a)
        assert s.mode[0] == FIGHT and s.events[0] & EV_WANDER, a


# --- WANDER-3 ------------------------------------------------------------------------------


def test_wander_3_a_wandering_band_comes_from_the_floors_monster_table(scene_factory):
    """WANDER-3/MON-1: bands appearing on floor 5 are 1..6 monsters of one or two tier-2
    kinds (floors 4-6), and no room's guards move."""
    sc = scene_factory(depth=6)
    s, p = sc.s, sc.p.copy()
    sc.tough()
    p[P_HALL_WANDER] = p[P_JUNCTION_WANDER] = 1.0
    sc.put(5, *sc.hall_tile(5, junction=False))
    bands = s.band_kind[0].copy()
    snap = sc.save()
    g = sc.rng(131)
    for _ in range(200):
        sc.load(snap)
        maybe_wander(s, p, 0, False, g)
        kinds = s.foe_kind[0][s.foe_kind[0] >= 0]
        assert 1 <= len(kinds) <= 6 and len(set(kinds)) <= 2
        assert (MONSTERS[kinds, M_TIER] == 1).all()
        assert s.fight_room[0] == -1
        assert (s.band_kind[0] == bands).all()


@pytest.mark.nojit
def test_wander_3_beating_a_wandering_band_gives_its_xp_and_a_little_gold(scene_factory):
    """WANDER-3: killing a wandering goblin on floor 2 gives the killer its 25 XP, the party
    d6 x floor gold (1 XP a coin, shared), and leaves no band anywhere."""
    sc = scene_factory(depth=2)
    s, p = sc.s, sc.p
    sc.put(2, *sc.hall_tile(2, junction=False))
    bands = s.band_kind[0].copy()
    snap = sc.save()
    gains = set()
    for seed in range(40):
        sc.load(snap)
        g = sc.rng(seed)
        sc.fight([GOBLIN], hps=[1])
        gold = int(s.gold[0])
        hit_foe(s, p, 0, 0, 0, g)
        end_turn(s, p, 0, g)
        assert s.mode[0] == EXPLORE and (s.foe_hp[0] == 0).all()  # no foe left standing
        gain = int(s.gold[0]) - gold
        assert gain in range(2, 13, 2)  # d6 x floor 2
        gains.add(gain)
        assert s.xp[0, 0] == 25 + gain // 4 + (1 if gain % 4 else 0)
        assert s.xp[0, :4].sum() == 25 + gain
        assert (s.band_kind[0] == bands).all()
    assert len(gains) >= 4


# --- MON-1 ---------------------------------------------------------------------------------


def test_mon_1_four_tiers_of_at_least_three_kinds(scene):
    """MON-1: the bestiary has >= 12 kinds over four tiers, at least 3 kinds in each."""
    assert len(MONSTER_NAMES) == MONSTERS.shape[0] >= 12
    tiers, counts = np.unique(MONSTERS[:, M_TIER], return_counts=True)
    assert list(tiers) == [0, 1, 2, 3]
    assert (counts >= 3).all()


def test_mon_1_every_column_is_sane(scene):
    """MON-1: hearts >= 1, attack, defense, dice, flat and AV >= 0 with some damage, bribe
    chance 10..99 in 100, price factor >= 1, flags only the listed ones; deeper tiers have
    more hearts on average."""
    M = MONSTERS
    assert (M[:, M_HEARTS] >= 1).all()
    for col in (M_ATK, M_DEF, M_DICE, M_FLAT, M_AV):
        assert (M[:, col] >= 0).all()
    assert (M[:, M_DICE] + M[:, M_FLAT] > 0).all()
    assert (M[:, M_BRIBE] >= 10).all() and (M[:, M_BRIBE] < 100).all()
    assert (M[:, M_PRICE] >= 1).all()
    assert (M[:, M_FLAGS] & ~sum(ALL_FLAGS) == 0).all()
    means = [M[M[:, M_TIER] == t, M_HEARTS].mean() for t in range(4)]
    assert means == sorted(means) and len(set(means)) == 4


def test_mon_1_every_flag_is_carried_by_at_least_one_kind(scene):
    """MON-1: metal eater, armor eater, drainer, XP drainer, food thief, undead/fiend and
    ranged each appear in the table."""
    for flag in ALL_FLAGS:
        assert (MONSTERS[:, M_FLAGS] & flag).any(), flag


@pytest.mark.nojit
@pytest.mark.parametrize("floor", range(1, 13))
def test_mon_1_a_band_is_1_to_6_monsters_of_one_or_two_kinds_of_its_floors_tier(floor):
    """MON-1: floors 1-3, 4-6, 7-9, 10-12 draw from tiers 1..4; a band is 1-6 monsters of one
    or two kinds, at full hearts; every kind of the tier turns up."""
    p = make_params("normal")
    assert tier_of(floor) == (floor - 1) // 3
    g = np.array([0x1234567 + floor], dtype=np.uint64)
    kinds = np.zeros(MAX_FOES, dtype=np.int8)
    hp = np.zeros(MAX_FOES, dtype=np.int16)
    seen = set()
    for _ in range(300):
        roll_band(p, floor, 0, g, 0, kinds, hp)
        band = kinds[kinds >= 0]
        assert 1 <= len(band) <= 6 and len(set(band)) <= 2
        assert (kinds[len(band) :] == -1).all()
        assert (MONSTERS[band, M_TIER] == tier_of(floor)).all()
        assert (hp[: len(band)] == MONSTERS[band, M_HEARTS]).all()
        seen |= set(band.tolist())
    assert len(seen) == (MONSTERS[:, M_TIER] == tier_of(floor)).sum() >= KINDS_PER_TIER - 1


def test_fight_2_a_band_killed_in_its_ambush_round_ends_the_fight(scene):
    """FIGHT-2 / ROUND-1: a band that dies to counter-blows in its own ambush round leaves the
    party out of the fight, the room won (never a fight with no foe left to attack)."""
    s, p = scene.s, scene.p
    scene.tough()
    guard(scene, 1, 0, [GOBLIN], hps=[1])
    scene.stand_in_room(1, 0)
    snap = scene.save()
    g = scene.rng(7)
    wins = 0
    for _ in range(400):
        scene.load(snap)
        start_fight(s, p, 0, 0, g)
        if s.foe_hp[0, 0] == 0 or s.band_kind[0, 1, 0, 0] < 0:
            assert s.mode[0] == EXPLORE
            assert s.band_kind[0, 1, 0, 0] < 0
            wins += 1
        else:
            assert s.mode[0] == FIGHT
    assert wins > 0
