"""Class features and the level 2 and 3 options (the class table, CLASS-1, CHOICE-1).

Features are powers (tables.POWER_NAMES from FIRST_FEATURE) paid in mana. The options a
member has chosen live in `options` (one per level 2 and 3, -1 not yet); while one is owed the
game waits in mode CHOICE (`pending_member`, `choose`). What options change where they act
(skills, multi-attacks, armor, the wand, reading) lives in `traits`.
"""

from ..compiled.jit import njit
from ..core.rng import roll
from ..core.state import DIRTY_MAGIC, DIRTY_PACK, DIRTY_PARTY
from ..core.tables import (
    CLERIC,
    FAM_BOW,
    FIRST_FEATURE,
    HERO,
    KING,
    M_FLAGS,
    MAGE_SPELLS,
    MAX_MEMBERS,
    MF_UNDEAD,
    MONSTERS,
    NAMER,
    NUM_OPTIONS,
    POWERS,
    PRIME_DODGE,
    PRIME_DOUBLE,
    PRIME_FEROCIOUS,
    PRIME_FOCUS,
    PRIME_SMITE,
    PW_COST,
    READY,
    ROGUE,
    WIZARD,
)
from .fights import damage_foe, is_foe_alive
from .party import heal, is_standing
from .traits import (
    CLERIC_EXORCIST,
    CLERIC_HEALER,
    CLERIC_HOLY_WEAPON,
    HERO_BOWS,
    HERO_COMMANDER,
    HERO_OATH,
    NAMER_BLOOD,
    NAMER_TRUE_SPEAKER,
    ROGUE_BOWS,
    WAND_CASTS,
    WIZARD_WAND,
    has_option,
    may_heal,
    ready_family,
)

# The features, by power index (tables.POWER_NAMES)
(
    FEROCIOUS,
    DOUBLE,
    SECOND_WIND,
    DODGE,
    HIDE,
    FOCUS,
    LAY_ON_HANDS,
    BLESS,
    SMITE,
    CHARGE,
    HOLY_WATER,
    HEALING_TOUCH,
    HOLY_WEAPON,
    BLOOD_MAGIC,
) = range(FIRST_FEATURE, FIRST_FEATURE + 14)
SECOND_WIND_DICE = 1  # heal d6
HOLY_WATER_DICE = 3  # 3d6 to an undead or fiend, no armor (a splash)
HEALING_TOUCH_DICE = 2  # heal 2d6
BLOOD_MANA_DICE = 1  # 1 HP for d6 mana, up to the well


@njit(cache=True, inline="always")
def bow_ready(s, e, m):
    return ready_family(s, e, m, READY) == FAM_BOW


@njit(cache=True)
def ready_features(s, e, m):
    """The features member m has (its class, level and options give them), as bits by power
    index. The king has none."""
    c, level2, level3 = s.cls[e, m], s.options[e, m, 0], s.options[e, m, 1]
    if c == HERO:
        bits = bit(FEROCIOUS) | bit(DOUBLE) | bit(SECOND_WIND)
        if level3 == HERO_OATH:
            bits |= bit(SMITE)
        elif level3 == HERO_COMMANDER:
            bits |= bit(CHARGE)
        return bits
    if c == ROGUE:  # the bows specialty: double strike with a bow in hand
        bits = bit(DODGE) | bit(HIDE) | bit(FOCUS)
        if level2 == ROGUE_BOWS and bow_ready(s, e, m):
            bits |= bit(DOUBLE)
        return bits
    if c == CLERIC:
        bits = bit(LAY_ON_HANDS) | bit(BLESS)
        if level2 == CLERIC_EXORCIST:
            bits |= bit(HOLY_WATER)
        elif level2 == CLERIC_HEALER:
            bits |= bit(HEALING_TOUCH)
        elif level2 == CLERIC_HOLY_WEAPON:
            bits |= bit(HOLY_WEAPON)
        return bits
    if c == NAMER and level2 == NAMER_BLOOD:
        return bit(BLOOD_MAGIC)
    return 0


@njit(cache=True, inline="always")
def bit(i):
    return 1 << i


@njit(cache=True)
def has_feature(s, p, e, m, i):
    """Member m has feature i (`ready_features`)."""
    return (ready_features(s, e, m) >> int(i)) & 1 == 1


@njit(cache=True, inline="always")
def feature_cost(s, p, e, m, i):
    """The mana member m pays for feature i (lay on hands: per hit point healed). A Hero
    with the bows specialty double-strikes with a bow in hand for nothing."""
    if i == DOUBLE and has_option(s, e, m, HERO, 2, HERO_BOWS) and bow_ready(s, e, m):
        return 0
    return int(POWERS[i, PW_COST])


@njit(cache=True)
def is_wounded(s, e, b):
    """Member b stands below its ceiling and may be healed (not after blood magic)."""
    return is_standing(s, e, b) and s.hp[e, b] < s.ceiling[e, b] and may_heal(s, e, b)


@njit(cache=True)
def is_unprimed(s, e, m, bit):
    return (s.primed[e, m] & bit) == 0


@njit(cache=True)
def feature_suits(s, e, m, i, t):
    """Feature i used by member m on t (already a valid target) does something: a primed
    feature is not primed already, a heal needs a wounded member who may be healed, bless an
    unblessed member, holy water an undead or fiend, holy weapon no sword yet, blood magic 2
    HP or more and mana below the well."""
    if i == FEROCIOUS:
        return is_unprimed(s, e, m, PRIME_FEROCIOUS)
    if i == DOUBLE:
        return is_unprimed(s, e, m, PRIME_DOUBLE)
    if i == SECOND_WIND:
        return is_wounded(s, e, m)
    if i == DODGE:
        return is_unprimed(s, e, m, PRIME_DODGE)
    if i == HIDE:
        return not s.hidden[e, m]
    if i == FOCUS:
        return is_unprimed(s, e, m, PRIME_FOCUS)
    if i == LAY_ON_HANDS or i == HEALING_TOUCH:
        return is_wounded(s, e, t)
    if i == BLESS:
        return not s.blessed[e, t]
    if i == SMITE:
        return is_unprimed(s, e, m, PRIME_SMITE)
    if i == CHARGE:
        return not s.charging[e]
    if i == HOLY_WATER:
        return is_foe_alive(s, e, t) and (MONSTERS[s.foe_kind[e, t], M_FLAGS] & MF_UNDEAD) != 0
    if i == HOLY_WEAPON:
        return s.holy_sword[e] < 0
    if i == BLOOD_MAGIC:
        return s.hp[e, m] >= 2 and s.mana[e, m] < s.well[e, m]
    return False


@njit(cache=True)
def prime(s, e, m, bit):
    s.primed[e, m] = int(s.primed[e, m]) | bit


@njit(cache=True)
def use_feature(s, p, e, m, i, t, rng):
    """Member m uses feature i on t (-1 none): pays and does it. Writes mana, hp, primed,
    hidden, blessed, charging, holy_sword, blood_used, a foe's hearts."""
    s.dirty[e] |= DIRTY_PARTY | DIRTY_MAGIC
    cost = feature_cost(s, p, e, m, i)
    if i == LAY_ON_HANDS:  # 1 HP a mana: as much as is missing and the mana pays for
        cost = min(int(s.ceiling[e, t]) - int(s.hp[e, t]), int(s.mana[e, m]))
    s.mana[e, m] = int(s.mana[e, m]) - cost
    if i == FEROCIOUS:
        prime(s, e, m, PRIME_FEROCIOUS)
    elif i == DOUBLE:
        prime(s, e, m, PRIME_DOUBLE)
    elif i == SECOND_WIND:
        heal(s, e, m, roll(rng, e, SECOND_WIND_DICE))
    elif i == DODGE:
        prime(s, e, m, PRIME_DODGE)
    elif i == HIDE:
        s.hidden[e, m] = True
    elif i == FOCUS:
        prime(s, e, m, PRIME_FOCUS)
    elif i == LAY_ON_HANDS:
        heal(s, e, t, cost)
    elif i == BLESS:
        s.blessed[e, t] = True
    elif i == SMITE:
        prime(s, e, m, PRIME_SMITE)
    elif i == CHARGE:
        s.charging[e] = True
    elif i == HOLY_WATER:
        damage_foe(s, p, e, m, t, roll(rng, e, HOLY_WATER_DICE), rng)
    elif i == HEALING_TOUCH:
        heal(s, e, t, roll(rng, e, HEALING_TOUCH_DICE))
    elif i == HOLY_WEAPON:
        s.holy_sword[e] = m
    elif i == BLOOD_MAGIC:
        s.hp[e, m] = int(s.hp[e, m]) - 1  # never to 0: legal only from 2 HP
        s.mana[e, m] = min(int(s.well[e, m]), int(s.mana[e, m]) + roll(rng, e, BLOOD_MANA_DICE))
        s.blood_used[e, m] = True


@njit(cache=True, inline="always")
def name_discount(s, e, m):
    """True speaker (the Namer's level 3 option): name spells cost 1 less (spells.name_cost
    keeps them at 1 or more). Returns 0 or 1."""
    return 1 if has_option(s, e, m, NAMER, 3, NAMER_TRUE_SPEAKER) else 0


@njit(cache=True)
def owed_level(s, e, m):
    """The level (2 or 3) whose option member m still owes, 0 none. Levels are chosen in
    order, so one big XP gain that gives two levels asks for both, level 2 first."""
    if not s.in_party[e, m] or s.cls[e, m] < 0 or s.cls[e, m] == KING:
        return 0
    for level in (2, 3):
        owed = s.level[e, m] >= level and s.options[e, m, level - 2] < 0
        if owed and NUM_OPTIONS[s.cls[e, m], level - 2] > 0:
            return level
    return 0


@njit(cache=True)
def pending_member(s, e):
    """The first member who owes a level choice (CHOICE-1), -1 none."""
    for m in range(MAX_MEMBERS):
        if owed_level(s, e, m) > 0:
            return m
    return -1


@njit(cache=True)
def knows_mage_spell(s, e, m, i):
    """A Wizard knows mage spell i: one of its starting spells, or any with wand magic (which
    teaches the rest of the mage list, CLASS-1)."""
    known = (int(s.spells_known[e, m]) >> i) & 1 == 1
    return known or has_option(s, e, m, WIZARD, 2, WIZARD_WAND)


@njit(cache=True)
def can_choose(s, e, o):
    """Option o is one the pending member's class offers at the level owed; a Wizard's
    signature spell must be a mage spell it knows."""
    m = pending_member(s, e)
    if m < 0:
        return False
    level = owed_level(s, e, m)
    if o >= NUM_OPTIONS[s.cls[e, m], level - 2]:
        return False
    if s.cls[e, m] == WIZARD and level == 3:
        return o < MAGE_SPELLS and knows_mage_spell(s, e, m, o)
    return True


@njit(cache=True)
def choose(s, p, e, o, rng):
    """The pending member takes option o of the level owed. Writes `options`; wand magic
    charges the wand (3 casts a floor, each floor keeping its own, traits.change_floor).
    The lasting effects act where they apply (`traits`)."""
    m = pending_member(s, e)
    level = owed_level(s, e, m)
    s.options[e, m, level - 2] = o
    if level == 2 and has_option(s, e, m, WIZARD, 2, WIZARD_WAND):
        s.wand_casts[e, m] = WAND_CASTS
    s.stat_choices[e] += 1
    s.dirty[e] |= DIRTY_MAGIC | DIRTY_PARTY | DIRTY_PACK  # skills, armor, reading scrolls
