"""Class features and level options: the class table's level 1 features, CLASS-1 (the level 2
and 3 options), CHOICE-1 (the game waits for a member's choice), ATTACK-2 through double
strike and dual-wielding, the king as a member."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import make_scene

from delve_env import DelveEnv
from delve_env.checks import invariants
from delve_env.config import Config
from delve_env.engine.batch import Engine
from delve_env.engine.core.actions import (
    A_ATTACK,
    A_CANCEL,
    A_CAST,
    A_CHOOSE,
    A_POWER,
    A_USE,
    NUM_ACTIONS,
)
from delve_env.engine.core.params import P_XP_FACTOR
from delve_env.engine.core.tables import (
    ARMOR,
    CHOICE,
    CLASS_OPTIONS,
    DAGGER,
    ESP_SCROLL,
    EXPLORE,
    FIGHT,
    FIRST_NAME_SPELL,
    HERO,
    KING,
    KING_SLOT,
    LEATHER,
    LIGHT_OF_LIFE,
    M_AV,
    MAGE_SPELLS,
    MIND_SHARPENER,
    MONSTERS,
    NUM_EQUIP,
    OFF_HAND,
    POWERS,
    PRIME_DODGE,
    PRIME_DOUBLE,
    PRIME_FEROCIOUS,
    PRIME_FOCUS,
    PRIME_SMITE,
    READY,
    SHORT_BOW,
    SWORD,
)
from delve_env.engine.outputs.layout import PARTY_ARMOR
from delve_env.engine.rules.chests import trap_avoid_chance
from delve_env.engine.rules.classes import (
    BLESS,
    BLOOD_MAGIC,
    CHARGE,
    DODGE,
    DOUBLE,
    FEROCIOUS,
    FOCUS,
    HEALING_TOUCH,
    HIDE,
    HOLY_WATER,
    HOLY_WEAPON,
    LAY_ON_HANDS,
    SECOND_WIND,
    SMITE,
    can_choose,
    feature_cost,
    has_feature,
    knows_mage_spell,
    name_discount,
    pending_member,
    use_feature,
)
from delve_env.engine.rules.fights import (
    absorb,
    attack_member,
    end_turn,
    hit_member,
    holy_sword_attack,
    member_attack,
    pick_target,
)
from delve_env.engine.rules.items import can_use
from delve_env.engine.rules.moving import arrive
from delve_env.engine.rules.party import heal, is_reader, join_king, level_cost, wound
from delve_env.engine.rules.spells import name_cost
from delve_env.engine.rules.traits import dodge, focus_bonus, num_attacks, piece_av, skill_dice
from delve_env.tools.bench import sample_legal

GOBLIN, ORC, SKELETON = 1, 4, 5  # bestiary rows (tables.MONSTER_NAMES)
BIG = 20000
PARTY = ("hero", "rogue", "cleric", "namer")  # member slots 0..3
H, R, C, N = 0, 1, 2, 3


@pytest.fixture
def sc():
    """Depth 2, hero / rogue / cleric / namer, on a hall tile of floor 1, no bands."""
    scene = make_scene(depth=2, party=PARTY)
    scene.calm()
    x, y = scene.hall_tile(1, False)
    scene.put(1, x, y)
    scene.refresh()
    return scene


def in_fight(sc, actor, kinds=(GOBLIN,), hps=None):
    """A fight against `kinds` with member `actor` to act; everyone tough."""
    sc.tough()
    sc.fight(list(kinds), hps=hps)
    sc.s.actor[0] = list(sc.s.order[0]).index(actor)
    sc.refresh()


def use(sc, m, power, target=None):
    """Member m uses a power through the actions: A_CAST, A_POWER, then a target."""
    sc.act(A_CAST + m)
    sc.act(A_POWER + power)
    if target is not None:
        sc.act(target)


def offered(sc, m, power) -> bool:
    """A_CAST + m is legal and then offers A_POWER + power (put back after)."""
    if not sc.legal(A_CAST + m):
        return False
    sc.act(A_CAST + m)
    ok = sc.legal(A_POWER + power)
    sc.act(A_CANCEL)
    return ok


def set_option(sc, m, level, o):
    s = sc.s
    s.level[0, m] = max(int(s.level[0, m]), level)
    for lv in range(2, level + 1):
        if s.options[0, m, lv - 2] < 0:
            s.options[0, m, lv - 2] = 0
    s.options[0, m, level - 2] = o


def attacks(sc, m, kind, n, primed=0, seed=5, hp=BIG):
    """Member m (acting) attacks foe 0 n times: (foe damage, member damaged) per attack."""
    s, p = sc.s, sc.p
    in_fight(sc, m, (kind,), hps=[hp])
    g = sc.rng(seed)
    dealt, hurt = np.zeros(n, int), np.zeros(n, bool)
    for i in range(n):
        s.foe_hp[0, 0] = hp
        s.hp[0, m] = BIG
        s.primed[0, m] = primed
        member_attack(s, p, 0, 0, False, 1, g)
        dealt[i] = hp - s.foe_hp[0, 0]
        hurt[i] = s.hp[0, m] < BIG
    return dealt, hurt


# --- Hero ------------------------------------------------------------------------------------


def test_hero_ferocious_strike_primes_advantage_and_max_damage(sc):
    """Ferocious strike (1 mana, no turn): the next attack rolls 2 d20 (best) and a hit deals
    the weapon's maximum (sword 2d6: 12 against a goblin, AV 0); the attack spends it."""
    s = sc.s
    in_fight(sc, H)
    use(sc, H, FEROCIOUS)
    assert s.primed[0, H] & PRIME_FEROCIOUS and s.mana[0, H] == 2
    assert s.order[0, s.actor[0]] == H  # no turn spent
    assert not offered(sc, H, FEROCIOUS)  # already primed
    sc.act(A_ATTACK + 0)
    assert not s.primed[0, H] & PRIME_FEROCIOUS
    plain, _ = attacks(sc, H, GOBLIN, 3000)
    fero, _ = attacks(sc, H, GOBLIN, 3000, PRIME_FEROCIOUS)
    assert set(np.unique(fero[fero > 0])) == {12}
    assert plain[plain > 0].mean() < 8
    assert (fero > 0).mean() > (plain > 0).mean() + 0.1  # advantage


def test_attack_2_hero_double_strike_is_a_multi_attack(sc):
    """Double strike: two d20s, each hit deals damage (up to two sword hits, more than one
    2d6 can), and the goblin counters only when both fail."""
    s = sc.s
    in_fight(sc, H)
    use(sc, H, DOUBLE)
    assert s.primed[0, H] & PRIME_DOUBLE and s.mana[0, H] == 2
    single, hurt1 = attacks(sc, H, GOBLIN, 3000)
    double, hurt2 = attacks(sc, H, GOBLIN, 3000, PRIME_DOUBLE)
    assert single.max() <= 12 < double.max()
    assert hurt2.mean() < hurt1.mean() - 0.05


def test_hero_second_wind_heals_d6_in_and_out_of_fights(sc):
    """Second wind (2 mana): heal d6 up to the ceiling; only when wounded; no turn."""
    s = sc.s
    assert not offered(sc, H, SECOND_WIND)  # full HP
    s.hp[0, H] = s.ceiling[0, H] - 10
    before = int(s.hp[0, H])
    use(sc, H, SECOND_WIND)
    assert 1 <= s.hp[0, H] - before <= 6 and s.mana[0, H] == 1
    assert not offered(sc, H, SECOND_WIND)  # 1 mana left
    in_fight(sc, H)
    s.hp[0, H] = 5
    s.mana[0, H] = 2
    use(sc, H, SECOND_WIND)
    assert s.hp[0, H] > 5 and s.order[0, s.actor[0]] == H and s.mode[0] == FIGHT


def test_class_features_each_die_shows_both_ends_over_300_uses(sc):
    """The features' dice, each used 300 times straight through `classes.use_feature` and
    `traits` (HP, mana and primes put back each time): second wind heals 1..6, the healing
    touch 2..12, blood magic gives 1..6 mana, holy water deals 3..18 to an undead (5 or less
    and 16 or more seen), focus adds 1..6 and dodge takes 1..6 off a blow: every value of each
    range seen, none outside."""
    s, p = sc.s, sc.p
    in_fight(sc, C, (SKELETON,), hps=[BIG])
    g = sc.rng(3)
    seen = {k: set() for k in ("wind", "touch", "blood", "water", "focus", "dodge")}
    for _ in range(300):
        s.ceiling[0, H], s.hp[0, H], s.mana[0, H], s.mana[0, C] = 40, 20, 9, 9
        use_feature(s, p, 0, H, SECOND_WIND, -1, g)
        seen["wind"].add(int(s.hp[0, H]) - 20)
        s.hp[0, H] = 20
        use_feature(s, p, 0, C, HEALING_TOUCH, H, g)
        seen["touch"].add(int(s.hp[0, H]) - 20)
        s.foe_hp[0, 0] = BIG
        use_feature(s, p, 0, C, HOLY_WATER, 0, g)
        seen["water"].add(BIG - int(s.foe_hp[0, 0]))
        s.hp[0, N], s.mana[0, N], s.well[0, N], s.blood_used[0, N] = 10, 0, 20, False
        use_feature(s, p, 0, N, BLOOD_MAGIC, -1, g)
        seen["blood"].add(int(s.mana[0, N]))
        s.primed[0, R] = PRIME_FOCUS
        seen["focus"].add(int(focus_bonus(s, 0, R, g)))
        s.primed[0, R] = PRIME_DODGE
        seen["dodge"].add(30 - int(dodge(s, 0, R, 30, g)))
    d6 = set(range(1, 7))
    assert seen["wind"] == seen["blood"] == seen["focus"] == seen["dodge"] == d6, seen
    assert seen["touch"] == set(range(2, 13)), seen
    water = seen["water"]  # 3 and 18 are 1 in 216 each: the ends' neighbourhoods instead
    assert water <= set(range(3, 19)) and min(water) <= 5 and max(water) >= 16, water


# --- Rogue -----------------------------------------------------------------------------------


def test_rogue_dodge_takes_a_d6_off_the_next_hit(sc):
    """Dodge: the next hit the Rogue takes loses a d6 (automatically), then it is spent."""
    s, p = sc.s, sc.p
    in_fight(sc, R, (ORC,))
    use(sc, R, DODGE)
    assert s.primed[0, R] & PRIME_DODGE
    g = sc.rng(3)
    plain, dodged = [], []
    for i in range(2000):
        s.hp[0, R] = BIG
        s.primed[0, R] = PRIME_DODGE if i % 2 else 0
        hit_member(s, p, 0, 0, R, g)
        (dodged if i % 2 else plain).append(BIG - s.hp[0, R])
        assert not s.primed[0, R] & PRIME_DODGE
    assert 2.0 < np.mean(plain) - np.mean(dodged) < 4.0


def test_rogue_hide_is_not_aimed_at_until_it_attacks(sc):
    """Hide (1 mana, no turn): the band passes over the Rogue while another can be hit; its
    attack gives it away."""
    s, p = sc.s, sc.p
    in_fight(sc, R)
    use(sc, R, HIDE)
    assert s.hidden[0, R] and not offered(sc, R, HIDE)
    g = sc.rng(4)
    assert all(pick_target(s, p, 0, g) != R for _ in range(300))
    sc.act(A_ATTACK + 0)
    assert not s.hidden[0, R]


def test_rogue_focus_adds_a_d6_to_the_next_attack_roll(sc):
    """Focus: +d6 to the next attack roll (hits more often), spent by it."""
    plain, _ = attacks(sc, R, ORC, 3000)
    focus, _ = attacks(sc, R, ORC, 3000, PRIME_FOCUS)
    assert (focus > 0).mean() > (plain > 0).mean() + 0.08
    assert sc.s.primed[0, R] == 0
    in_fight(sc, R)
    use(sc, R, FOCUS)
    assert sc.s.primed[0, R] & PRIME_FOCUS


# --- Cleric ----------------------------------------------------------------------------------


def test_cleric_lay_on_hands_heals_one_hp_a_mana(sc):
    """Lay on hands: heals min(missing HP, mana) and pays that; only on a wounded standing
    member."""
    s = sc.s
    assert not offered(sc, C, LAY_ON_HANDS)  # nobody is wounded
    s.hp[0, H] = s.ceiling[0, H] - 4
    use(sc, C, LAY_ON_HANDS, A_USE + H)
    assert s.hp[0, H] == s.ceiling[0, H] and s.mana[0, C] == 2
    s.hp[0, H] = s.ceiling[0, H] - 10
    use(sc, C, LAY_ON_HANDS, A_USE + H)
    assert s.hp[0, H] == s.ceiling[0, H] - 8 and s.mana[0, C] == 0
    s.mana[0, C] = 6
    s.hp[0, R] = 0  # fallen: no target
    sc.act(A_CAST + C)
    sc.act(A_POWER + LAY_ON_HANDS)
    assert sc.legal(A_USE + H) and not sc.legal(A_USE + R) and not sc.legal(A_USE + N)


def test_cleric_bless_adds_a_d6_to_attacks_and_resisting(sc):
    """Bless (1 mana, a turn): the target's d20 rolls get +d6 for the fight: it hits more
    often and is hit less often."""
    s, p = sc.s, sc.p
    in_fight(sc, C)
    use(sc, C, BLESS, A_USE + H)
    assert s.blessed[0, H] and s.mana[0, C] == 5 and s.order[0, s.actor[0]] != C
    s.blessed[0, H] = False
    plain, _ = attacks(sc, H, ORC, 3000)
    s.blessed[0, H] = True
    blessed, _ = attacks(sc, H, ORC, 3000)
    assert (blessed > 0).mean() > (plain > 0).mean() + 0.08
    g = sc.rng(8)
    hits = []
    for blessing in (False, True):
        s.blessed[0, H] = blessing
        n = 0
        for _ in range(3000):
            s.hp[0, H] = BIG
            attack_member(s, p, 0, 0, H, g)
            n += s.hp[0, H] < BIG
        hits.append(n / 3000)
    assert hits[1] < hits[0] - 0.08


# --- level options ---------------------------------------------------------------------------


def test_class_1_hero_swords_2d6_and_dual_swords(sc):
    """Swords: 2d6 sword skill; a second sword worn goes to the empty off hand and every
    attack is a multi-attack 2."""
    s = sc.s
    assert skill_dice(s, 0, H) == 1
    set_option(sc, H, 2, 0)
    assert skill_dice(s, 0, H) == 2 and num_attacks(s, 0, H) == 1
    sc.wear(H, OFF_HAND)  # the shield off, into the pack
    s.item[0, H, NUM_EQUIP + 2] = SWORD
    sc.wear(H, NUM_EQUIP + 2)
    assert s.item[0, H, OFF_HAND] == SWORD and s.item[0, H, READY] == SWORD
    assert num_attacks(s, 0, H) == 2
    dealt, _ = attacks(sc, H, GOBLIN, 500)
    assert dealt.max() > 12


def test_class_1_hero_bows_double_strike_free_with_a_bow(sc):
    s = sc.s
    set_option(sc, H, 2, 1)
    assert feature_cost(s, sc.p, 0, H, DOUBLE) == 1
    s.item[0, H, READY] = SHORT_BOW
    assert skill_dice(s, 0, H) == 2 and feature_cost(s, sc.p, 0, H, DOUBLE) == 0
    in_fight(sc, H)
    s.mana[0, H] = 0
    use(sc, H, DOUBLE)
    assert s.primed[0, H] & PRIME_DOUBLE and s.mana[0, H] == 0


def test_class_1_hero_armorer_worn_armor_plus_1_av_plus_5_dv(sc):
    """Armorer: worn armor (not the shield) +1 AV, shown, and it works 5 hits past DV 0."""
    s = sc.s
    obs_av = lambda: int(sc.obs()["party"][H, PARTY_ARMOR])  # noqa: E731
    assert obs_av() == 2  # leather 1 + shield 1
    set_option(sc, H, 2, 2)
    assert obs_av() == 3 and piece_av(s, 0, H, OFF_HAND) == 1
    s.item[0, H, OFF_HAND] = 0
    s.item_dv[0, H, ARMOR] = 0
    for _ in range(5):
        assert absorb(s, 0, H, 10) == 8
    assert absorb(s, 0, H, 10) == 10 and s.item_dv[0, H, ARMOR] == -5
    s.options[0, H, 0] = 0  # not an armorer: leather at 0 DV is spent
    s.item_dv[0, H, ARMOR] = 0
    assert absorb(s, 0, H, 10) == 10


def test_class_1_hero_oath_smite_2d6_or_4d6_on_undead(sc):
    """Oath: smite (2 mana, no turn) primes +2d6 on the next melee hit, +4d6 against undead
    or fiends; spent by the hit."""
    s = sc.s
    assert not has_feature(s, sc.p, 0, H, SMITE)
    set_option(sc, H, 3, 0)
    in_fight(sc, H)
    use(sc, H, SMITE)
    assert s.primed[0, H] & PRIME_SMITE and s.mana[0, H] == 1
    base, _ = attacks(sc, H, GOBLIN, 2000)
    gob, _ = attacks(sc, H, GOBLIN, 2000, PRIME_SMITE)
    ske, _ = attacks(sc, H, SKELETON, 2000, PRIME_SMITE)
    av = MONSTERS[SKELETON, M_AV]
    assert 5 < gob[gob > 0].mean() - base[base > 0].mean() < 9
    assert ske[ske > 0].mean() + av - base[base > 0].mean() > 11


def test_class_1_hero_commander_charge_gives_the_round_advantage(sc):
    """Commander: charge! (1 mana, no turn): every member's attack this round has advantage;
    it ends with the band's round."""
    s, p = sc.s, sc.p
    set_option(sc, H, 3, 1)
    in_fight(sc, H)
    use(sc, H, CHARGE)
    assert s.charging[0] and s.mana[0, H] == 2
    s.charging[0] = False
    plain, _ = attacks(sc, R, ORC, 3000)
    s.charging[0] = True
    charged, _ = attacks(sc, R, ORC, 3000)
    assert (charged > 0).mean() > (plain > 0).mean() + 0.1
    s.actor[0] = 3  # the last member's turn ends: the band's round
    end_turn(s, p, 0, sc.rng(1))
    assert not s.charging[0]


def test_class_1_rogue_daggers_2d6_dual_multi_attack_and_sneak_d6(sc):
    """Daggers: 2d6 dagger skill, two daggers in hand make every attack a multi-attack 2, and
    a dagger deals +d6 against a surprised foe."""
    s, p = sc.s, sc.p
    assert s.item[0, R, READY] == DAGGER and s.item[0, R, OFF_HAND] == DAGGER
    assert num_attacks(s, 0, R) == 1
    set_option(sc, R, 2, 0)
    assert skill_dice(s, 0, R) == 2 and num_attacks(s, 0, R) == 2
    s.item[0, R, OFF_HAND] = 0
    assert num_attacks(s, 0, R) == 1
    in_fight(sc, R, (ORC,), hps=[BIG])
    g = sc.rng(6)
    dealt = {False: [], True: []}
    for i in range(3000):
        surprised = bool(i % 2)
        s.sneaker[0] = R if surprised else -1
        s.foe_hp[0, 0] = BIG
        member_attack(s, p, 0, 0, False, 1, g)
        if s.foe_hp[0, 0] < BIG:
            dealt[surprised].append(BIG - s.foe_hp[0, 0])
    assert 2.5 < np.mean(dealt[True]) - np.mean(dealt[False]) < 4.5


def test_class_1_rogue_bows_double_strike_with_a_bow(sc):
    s = sc.s
    assert not has_feature(s, sc.p, 0, R, DOUBLE)
    set_option(sc, R, 2, 1)
    assert not has_feature(s, sc.p, 0, R, DOUBLE)  # a dagger in hand
    s.item[0, R, READY] = SHORT_BOW
    assert has_feature(s, sc.p, 0, R, DOUBLE) and skill_dice(s, 0, R) == 2
    in_fight(sc, R)
    use(sc, R, DOUBLE)
    assert s.primed[0, R] & PRIME_DOUBLE and s.mana[0, R] == 2


def test_class_1_rogue_level_3_expertise_swords_magic(sc):
    """Expertise: +20 points to avoid chest traps; swords: the sword skill; magic: reads
    scrolls (PAGE-2)."""
    s, p = sc.s, sc.p
    base = trap_avoid_chance(s, p, 0, R)
    set_option(sc, R, 3, 0)
    assert abs(trap_avoid_chance(s, p, 0, R) - base - 0.2) < 1e-9
    s.item[0, R, READY] = SWORD
    assert skill_dice(s, 0, R) == 0
    s.options[0, R, 1] = 1
    assert skill_dice(s, 0, R) == 1 and abs(trap_avoid_chance(s, p, 0, R) - base) < 1e-9
    s.item[0, R, NUM_EQUIP + 1] = ESP_SCROLL
    s.known_kinds[0] |= 1 << ESP_SCROLL
    assert not is_reader(s, 0, R) and not sc.offers(R, NUM_EQUIP + 1, A_USE + R)
    s.options[0, R, 1] = 2
    assert is_reader(s, 0, R) and sc.offers(R, NUM_EQUIP + 1, A_USE + R)


def test_class_1_wizard_wand_charges_and_signature_spells_known(scene_factory):
    """Wand magic: 3 wand casts on taking it and on every floor not reached before. The
    signature spell is offered only among mage spells the Wizard knows."""
    sc = scene_factory(depth=3, party=("wizard",))
    s = sc.s
    s.level[0, 0] = 2
    assert pending_member(s, 0) == 0
    s.mode[0] = CHOICE
    s.choice_from[0] = EXPLORE
    sc.act(A_CHOOSE + 0)
    assert s.options[0, 0, 0] == 0 and s.wand_casts[0, 0] == 3 and s.mode[0] == EXPLORE
    s.wand_casts[0, 0] = 0
    arrive(s, 0, 2, int(s.stair_up[0, 2, 0]), int(s.stair_up[0, 2, 1]))
    assert s.wand_casts[0, 0] == 3
    s.wand_casts[0, 0] = 0
    arrive(s, 0, 2, int(s.stair_up[0, 2, 0]), int(s.stair_up[0, 2, 1]))
    assert s.wand_casts[0, 0] == 0  # not a new floor
    s.options[0, 0, 0] = -1
    s.spells_known[0, 0] = 0b000101
    assert [knows_mage_spell(s, 0, 0, i) for i in range(MAGE_SPELLS)] == [
        True, False, True, False, False, False]  # fmt: skip
    s.options[0, 0, 0] = 0
    s.level[0, 0] = 3
    assert [can_choose(s, 0, o) for o in range(6)] == [True] * 6  # wand magic knows them all


def test_class_1_cleric_healer_holy_weapon_exorcist(sc):
    """Healer: healing touch (1 mana) heals 2d6. Exorcist: holy water (1 mana) 3d6 to an
    undead or fiend only. Holy weapon (1 mana): a sword strikes each round (+2d6, 2d6) for
    the caster; it goes when the caster falls."""
    s, p = sc.s, sc.p
    set_option(sc, C, 2, 0)
    s.hp[0, H] = 3
    use(sc, C, HEALING_TOUCH, A_USE + H)
    assert 5 <= s.hp[0, H] <= 15 and s.mana[0, C] == 5
    set_option(sc, C, 2, 2)
    assert not has_feature(s, p, 0, C, HEALING_TOUCH)
    in_fight(sc, C, (GOBLIN, SKELETON), hps=[30, 30])
    sc.act(A_CAST + C)
    sc.act(A_POWER + HOLY_WATER)
    assert not sc.legal(A_ATTACK + 0) and sc.legal(A_ATTACK + 1)
    sc.act(A_ATTACK + 1)
    assert 3 <= 30 - s.foe_hp[0, 1] <= 18 and s.foe_hp[0, 0] == 30
    set_option(sc, C, 2, 1)
    in_fight(sc, C, (ORC,), hps=[BIG])
    mana = int(s.mana[0, C])
    use(sc, C, HOLY_WEAPON)
    assert s.holy_sword[0] == C and s.mana[0, C] == mana - 1
    g = sc.rng(9)
    dealt = []
    for _ in range(2000):
        s.foe_hp[0, 0] = BIG
        holy_sword_attack(s, p, 0, g)
        dealt.append(BIG - s.foe_hp[0, 0])
    dealt = np.array(dealt)
    assert 0.55 < (dealt > 0).mean() < 0.85 and dealt.max() <= 12 - MONSTERS[ORC, M_AV]
    s.practice[0] = True  # down at 0 HP, no death save
    wound(s, 0, C, int(s.hp[0, C]) + 1, g)
    assert s.hp[0, C] == 0 and s.holy_sword[0] == -1


def test_class_1_blood_magic_ban_outlasts_a_stair_hop(sc):
    """CLASS-1: the ban on healing after blood magic is not lifted by a free hop up a stair and
    back down (stairs take no time), only on a floor never reached before."""
    s = sc.s
    set_option(sc, N, 2, 0)
    s.mana[0, N] = 0
    use(sc, N, BLOOD_MAGIC)
    hp = int(s.hp[0, N])
    assert s.blood_used[0, N]
    sc.climb(down=False)  # the courtyard
    sc.climb(down=True)  # floor 1 again
    assert s.blood_used[0, N]
    heal(s, 0, N, 5)
    assert s.hp[0, N] == hp
    sc.climb(down=True)  # floor 2, never reached before
    assert not s.blood_used[0, N]
    heal(s, 0, N, 1)
    assert s.hp[0, N] == hp + 1


def test_class_1_namer_blood_magic_and_true_speaker(sc):
    """Blood magic: 1 HP (never to 0) for d6 mana up to the well; no healing of that member
    until the party reaches another floor. True speaker: name spells 1 cheaper."""
    s = sc.s
    assert not offered(sc, N, BLOOD_MAGIC)
    set_option(sc, N, 2, 0)
    s.mana[0, N] = 0
    hp = int(s.hp[0, N])
    use(sc, N, BLOOD_MAGIC)
    assert s.hp[0, N] == hp - 1 and 1 <= s.mana[0, N] <= 6 and s.blood_used[0, N]
    heal(s, 0, N, 5)
    assert s.hp[0, N] == hp - 1
    assert not offered(sc, C, LAY_ON_HANDS)  # the only wounded member may not be healed
    s.hp[0, H] = 5
    sc.act(A_CAST + C)
    sc.act(A_POWER + LAY_ON_HANDS)
    assert sc.legal(A_USE + H) and not sc.legal(A_USE + N)
    sc.act(A_CANCEL)
    s.hp[0, N] = 1
    s.mana[0, N] = 0
    assert not offered(sc, N, BLOOD_MAGIC)  # never to 0
    arrive(s, 0, 2, int(s.stair_up[0, 2, 0]), int(s.stair_up[0, 2, 1]))
    assert not s.blood_used[0, N]
    assert name_discount(s, 0, N) == 0
    set_option(sc, N, 3, 0)
    assert name_discount(s, 0, N) == 1


# --- CHOICE-1 --------------------------------------------------------------------------------


def test_choice_1_a_level_up_waits_for_a_legal_option(sc):
    """A mind sharpener takes the Hero to level 2: the game waits with only the Hero's three
    level 2 options unmasked; choosing one goes back to exploring."""
    s = sc.s
    s.item[0, R, NUM_EQUIP + 1] = MIND_SHARPENER
    s.known_kinds[0] |= 1 << MIND_SHARPENER
    sc.use(R, NUM_EQUIP + 1, H)
    assert s.level[0, H] == 2 and s.mode[0] == CHOICE
    legal = np.flatnonzero(sc.refresh())
    assert list(legal) == [A_CHOOSE + o for o in range(len(CLASS_OPTIONS[HERO][0]))]
    sc.act(A_CHOOSE + 2)
    assert s.options[0, H, 0] == 2 and s.mode[0] == EXPLORE and s.stat_choices[0] == 1


def test_choice_1_two_levels_at_once_ask_level_2_then_3_and_return_to_the_fight(sc):
    """One kill giving two levels: level 2's options, then level 3's, then the fight again."""
    s = sc.s
    in_fight(sc, H, (GOBLIN, GOBLIN), hps=[1, BIG])
    s.xp[0, H] = level_cost(sc.p, 1) + level_cost(sc.p, 2) - 1
    snap = sc.save()
    for _ in range(50):
        sc.load(snap)
        sc.act(A_ATTACK + 0)
        if s.level[0, H] == 3:
            break
    assert s.mode[0] == CHOICE and s.choice_from[0] == FIGHT
    assert list(np.flatnonzero(sc.refresh())) == [A_CHOOSE + o for o in range(3)]
    sc.act(A_CHOOSE + 1)
    assert s.mode[0] == CHOICE
    assert list(np.flatnonzero(sc.refresh())) == [A_CHOOSE + o for o in range(2)]
    sc.act(A_CHOOSE + 0)
    assert s.mode[0] == FIGHT and list(s.options[0, H]) == [1, 0]


@pytest.mark.parametrize("task", ["game", "combat", "explore", "vault"])
def test_choice_1_tasks_start_at_level_1_without_owed_options(task):
    cfg = {} if task == "game" else {"task": task, "floor": 4}
    env = DelveEnv(depth=4, party=PARTY, **cfg) if task == "game" else DelveEnv(**cfg)
    env.reset(seed=3)
    s = env.engine.state
    assert pending_member(s, 0) == -1 and s.mode[0] != CHOICE
    assert (s.level[0][s.in_party[0]] == 1).all()


# --- the king --------------------------------------------------------------------------------


def test_king_is_a_level_5_reader_with_all_weapons_equipped_from_packs(sc):
    """The king: level 5, a reader, skilled with every weapon, no level choice; he takes and
    wears gear from the packs; the light of life is never offered on him (RAISE-1)."""
    s = sc.s
    join_king(s, 0, sc.rng(2))
    sc.refresh()
    assert s.cls[0, KING_SLOT] == KING and s.level[0, KING_SLOT] == 5
    assert is_reader(s, 0, KING_SLOT) and pending_member(s, 0) == -1
    s.item[0, H, NUM_EQUIP + 1] = SHORT_BOW
    sc.give(H, NUM_EQUIP + 1, KING_SLOT)
    slot = int(np.flatnonzero(s.item[0, KING_SLOT] == SHORT_BOW)[0])
    sc.wear(KING_SLOT, slot)
    assert s.item[0, KING_SLOT, READY] == SHORT_BOW and skill_dice(s, 0, KING_SLOT) == 1
    s.item[0, H, NUM_EQUIP + 1] = LEATHER
    s.item_dv[0, H, NUM_EQUIP + 1] = 15
    sc.give(H, NUM_EQUIP + 1, KING_SLOT)
    slot = int(np.flatnonzero(s.item[0, KING_SLOT] == LEATHER)[0])
    sc.wear(KING_SLOT, slot)
    assert s.item[0, KING_SLOT, ARMOR] == LEATHER
    s.item[0, H, NUM_EQUIP + 1] = LIGHT_OF_LIFE
    s.known_kinds[0] |= 1 << LIGHT_OF_LIFE
    s.hp[0, R] = 0
    assert sc.offers(H, NUM_EQUIP + 1, A_USE + R)
    s.hp[0, KING_SLOT] = 0  # (a fallen king loses the game: asked of the rule, not stepped)
    assert can_use(s, sc.p, 0, H, NUM_EQUIP + 1, R)
    assert not can_use(s, sc.p, 0, H, NUM_EQUIP + 1, KING_SLOT)
    for i in range(FEROCIOUS, BLOOD_MAGIC + 1):
        assert not has_feature(s, sc.p, 0, KING_SLOT, i)


# --- property: random-legal play never takes an illegal power or choice, never stalls --------


@pytest.mark.parametrize("party", [PARTY, ("wizard", "hero", "rogue", "cleric")])
def test_random_play_powers_and_choices_are_legal_and_never_stall(party):
    """Random-legal play in Delve-v0 (levels come 20x faster), biased to the power and choice
    actions: each taken one is legal (no invalid step), every mask offers an action, and the
    incremental outputs equal a full recompute."""
    cfg = Config.from_kwargs(party=party, depth=3)
    params = cfg.params()
    params[P_XP_FACTOR] = 0.05
    n = 8
    eng = Engine(n, params, cfg.party_classes())
    eng.reset(np.arange(100, 100 + n, dtype=np.uint64), np.ones(n, np.bool_))
    rng = np.random.default_rng(0)
    actions = np.zeros(n, dtype=np.int64)
    done = np.zeros(n, dtype=np.bool_)
    everyone = np.ones(n, dtype=np.bool_)
    magic = np.zeros(NUM_ACTIONS, bool)
    magic[A_CAST:] = True
    magic[A_USE : A_USE + 5] = True
    magic[A_ATTACK : A_ATTACK + 6] = True
    checker = invariants.InvariantChecker()
    for step in range(1500):
        assert eng.masks.any(axis=1).all()
        sample_legal(eng.masks, rng.random(n), actions)
        for e in range(n):  # half the time, a power / choice / target when one is legal
            pick = np.flatnonzero(eng.masks[e] & magic)
            if len(pick) and rng.random() < 0.5:
                actions[e] = rng.choice(pick)
        eng.step(actions, done)
        assert not eng.invalid.any()
        assert checker.check(eng.state, new_episode=done) == []
        done = eng.terminated | eng.truncated
        if step % 5 == 0:
            record, mask = eng.obs_record.copy(), eng.masks.copy()
            codes = eng.state.room_code.copy()
            eng.refresh(everyone)
            assert (eng.obs_record == record).all() and (eng.masks == mask).all()
            eng.state.room_code[:] = codes
    s = eng.state
    assert s.stat_choices.sum() > 0 and s.stat_casts.sum() > 0


def test_the_soak_checker_flags_broken_class_state(sc):
    """invariants.InvariantChecker: an option the class does not offer, an option above the level,
    primed bits outside PRIME_*, a holy sword of a fallen or wrong member, a wand past 3,
    blood magic without the option are each reported."""
    s = sc.s
    checker = invariants.InvariantChecker()
    assert checker.check(s) == []
    snap = sc.save()
    rules = set()
    for broken in range(6):
        sc.load(snap)
        if broken == 0:
            set_option(sc, H, 2, 3)  # the Hero has 3 level 2 options
        elif broken == 1:
            s.options[0, R, 1] = 0  # level 1 Rogue with a level 3 option
        elif broken == 2:
            s.primed[0, H] = 64
        elif broken == 3:
            set_option(sc, C, 2, 1)
            s.holy_sword[0] = C
            s.hp[0, C] = 0
        elif broken == 4:
            s.wand_casts[0, H] = 4
        else:
            s.blood_used[0, H] = True
        found = {v.rule for v in checker.check(s)}
        assert found, broken
        rules |= found
        checker.reset_baseline()
    sc.load(snap)
    set_option(sc, C, 2, 1)
    s.holy_sword[0] = C
    assert checker.check(s) == []
    assert len(rules) >= 5


# --- survivors of quality/mutants.py -------------------------------------------------------


def test_hero_ferocious_strike_keeps_the_weapons_flat_bonus(sc):
    """Ferocious strike deals the weapon's maximum, flat bonus included: a crossbow (2d6+1)
    hits a goblin (AV 0) for 13, a sling (+2, no dice) for 2."""
    s = sc.s
    for kind, most in ((7, 13), (8, 2)):
        s.item[0, H, READY] = kind
        s.item_wear[0, H, READY] = 0
        fero, _ = attacks(sc, H, GOBLIN, 200, PRIME_FEROCIOUS)
        assert (fero > 0).any() and set(np.unique(fero[fero > 0])) == {most}


def test_class_1_holy_water_rolls_3d6(sc):
    """Exorcist: holy water deals 3d6 to an undead (a skeleton; a splash, no armor): over 3000
    throws the most is above 12 and the mean near 10.5 (2d6 would give at most 12, mean 7)."""
    s, p = sc.s, sc.p
    set_option(sc, C, 2, 2)
    in_fight(sc, C, (SKELETON,), hps=[BIG])
    g = sc.rng(17)
    dealt = np.zeros(3000, int)
    for i in range(3000):
        s.foe_hp[0, 0] = BIG
        s.mana[0, C] = 6
        use_feature(s, p, 0, C, HOLY_WATER, 0, g)
        dealt[i] = BIG - s.foe_hp[0, 0]
    assert dealt.min() >= 3 and 13 <= dealt.max() <= 18
    assert 9.8 < dealt.mean() < 11.2


def test_class_1_blood_magic_mana_stops_at_the_well(sc):
    """Blood magic: d6 mana up to the well, never past it: from one short of the well, any
    roll fills it exactly (30 seeds)."""
    s, p = sc.s, sc.p
    set_option(sc, N, 2, 0)
    well = int(s.well[0, N])
    for seed in range(30):
        s.hp[0, N], s.mana[0, N] = 10, well - 1
        s.blood_used[0, N] = False
        use_feature(s, p, 0, N, BLOOD_MAGIC, N, sc.rng(seed))
        assert s.mana[0, N] == well and s.hp[0, N] == 9


def test_class_1_true_speaker_name_spells_cost_at_least_1(sc):
    """True speaker: name spells cost 1 less, but never less than 1: every 1-mana name spell
    still costs 1, every dearer one 1 less."""
    s, p = sc.s, sc.p
    set_option(sc, N, 3, 0)
    assert name_discount(s, 0, N) == 1
    ones = 0
    for i in range(FIRST_NAME_SPELL, len(POWERS)):
        cost = int(POWERS[i, 0])
        assert name_cost(s, p, 0, N, i) == max(1, cost - 1)
        ones += cost == 1
    assert ones > 0
