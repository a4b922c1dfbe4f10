"""What level options and primed class features change where they act (CLASS-1, the class
table, ATTACK-2): weapon skill dice, multi-attacks, advantage, armor, dodging, new floors.

This module reads state and tables only (no other mechanics), so the low-level modules that
need these rules (party, moving, fights, observe, chests) can import it without cycles. The
features themselves are used in `classes`.
"""

from ..compiled.jit import njit
from ..core.rng import randint, roll
from ..core.state import DIRTY_MAGIC
from ..core.tables import (
    ARMOR,
    C_SKILLS,
    CAT_ARMOR,
    CAT_WEAPON,
    CLASSES,
    FAM_BOW,
    FAM_DAGGER,
    FAM_SWORD,
    HERO,
    I_AV,
    I_CAT,
    I_FAMILY,
    ITEMS,
    MAX_MEMBERS,
    OFF_HAND,
    PRIME_DODGE,
    PRIME_DOUBLE,
    PRIME_FEROCIOUS,
    PRIME_FOCUS,
    READY,
    ROGUE,
    SKILL_MAGIC,
    WIZARD,
)

# Option indices: tables.CLASS_OPTIONS[class][level - 2] in order (the action space is fixed)
HERO_SWORDS, HERO_BOWS, HERO_ARMORER = 0, 1, 2  # level 2
HERO_OATH, HERO_COMMANDER = 0, 1  # level 3
ROGUE_DAGGERS, ROGUE_BOWS = 0, 1  # level 2
ROGUE_EXPERTISE, ROGUE_SWORDS, ROGUE_MAGIC = 0, 1, 2  # level 3
WIZARD_WAND = 0  # level 2; level 3: signature spell o = mage spell o
CLERIC_HEALER, CLERIC_HOLY_WEAPON, CLERIC_EXORCIST = 0, 1, 2  # level 2
CLERIC_DIVINE = 0  # level 3
NAMER_BLOOD = 0  # level 2
NAMER_TRUE_SPEAKER = 0  # level 3

ARMORER_AV = 1  # the Armorer's worn armor (not shields): +1 AV ...
ARMORER_DV = 5  # ... and +5 DV: it keeps working until its DV falls to -5
WAND_CASTS = 3  # wand magic: casts a floor
PRIMED_ATTACK = PRIME_FEROCIOUS | PRIME_DOUBLE | PRIME_FOCUS  # spent by the next attack


@njit(cache=True, inline="always")
def has_option(s, e, m, cls, level, o):
    """Member m is of class `cls` and took option o at `level` (2 or 3)."""
    return s.cls[e, m] == cls and s.options[e, m, level - 2] == o


@njit(cache=True, inline="always")
def ready_family(s, e, m, slot):
    """The weapon family of the weapon in member m's item slot, -1 if it holds no weapon."""
    kind = s.item[e, m, slot]
    if kind <= 0 or ITEMS[kind, I_CAT] != CAT_WEAPON:
        return -1
    return int(ITEMS[kind, I_FAMILY])


@njit(cache=True)
def skill_dice(s, e, m):
    """ATTACK-1, CLASS-1: the d6 a member adds to attacks with the weapon in hand: 1 with a
    family its class is skilled in (a Rogue's level 3 swords adds the sword family), 2 for a
    specialty: Hero swords or bows, Rogue daggers or bows; 0 unarmed or unskilled."""
    fam = ready_family(s, e, m, READY)
    if fam < 0:
        return 0
    c = s.cls[e, m]
    skilled = (int(CLASSES[c, C_SKILLS]) >> fam) & 1 == 1
    if fam == FAM_SWORD and has_option(s, e, m, ROGUE, 3, ROGUE_SWORDS):
        skilled = True
    if not skilled:
        return 0
    if fam == FAM_SWORD and has_option(s, e, m, HERO, 2, HERO_SWORDS):
        return 2
    if fam == FAM_BOW and (has_option(s, e, m, HERO, 2, HERO_BOWS)
                           or has_option(s, e, m, ROGUE, 2, ROGUE_BOWS)):  # fmt: skip
        return 2
    if fam == FAM_DAGGER and has_option(s, e, m, ROGUE, 2, ROGUE_DAGGERS):
        return 2
    return 1


@njit(cache=True)
def magic_dice(s, e, m):
    """SKILL-1: the d6 member m adds to its spell attack rolls and a spell's contest rolls: 1
    with the magic skill (Wizard, Cleric, Namer, King; a Rogue who took magic at level 3),
    else 0. The other non-weapon skills match no roll."""
    if int(CLASSES[s.cls[e, m], C_SKILLS]) & SKILL_MAGIC or is_reader_option(s, e, m):
        return 1
    return 0


@njit(cache=True)
def dual_wields(s, e, m):
    """CLASS-1: a Hero with the swords specialty holding swords in both hands, or a Rogue with
    the daggers specialty holding daggers in both hands, makes every attack a multi-attack 2."""
    fam, off = ready_family(s, e, m, READY), ready_family(s, e, m, OFF_HAND)
    if fam < 0 or fam != off:
        return False
    if fam == FAM_SWORD:
        return has_option(s, e, m, HERO, 2, HERO_SWORDS)
    if fam == FAM_DAGGER:
        return has_option(s, e, m, ROGUE, 2, ROGUE_DAGGERS)
    return False


@njit(cache=True)
def num_attacks(s, e, m):
    """ATTACK-2: d20s member m's next attack rolls: 2 when double strike is primed or it
    dual-wields (`dual_wields`), else 1."""
    if s.primed[e, m] & PRIME_DOUBLE or dual_wields(s, e, m):
        return 2
    return 1


@njit(cache=True)
def has_advantage(s, e, m):
    """Member m's next attack rolls each d20 twice and keeps the best: ferocious strike is
    primed, or the Commander called charge! this round."""
    return (s.primed[e, m] & PRIME_FEROCIOUS) != 0 or s.charging[e]


@njit(cache=True)
def d20(rng, e, advantage):
    """A d20 (1..20); with advantage the better of two."""
    a = randint(rng, e, 20) + 1
    if advantage:
        a = max(a, randint(rng, e, 20) + 1)
    return a


@njit(cache=True)
def roll_bonus(s, e, m, rng):
    """Bless: a d6 member m adds to each of its d20 rolls (attacks and resisting) while
    blessed; no die is rolled otherwise."""
    bonus = 0
    if s.blessed[e, m]:
        bonus += roll(rng, e, 1)
    return bonus


@njit(cache=True)
def focus_bonus(s, e, m, rng):
    """Focus: +d6 to member m's next attack roll (the PRIME_FOCUS bit, spent by the attack)."""
    return roll(rng, e, 1) if s.primed[e, m] & PRIME_FOCUS else 0


@njit(cache=True)
def clear_prime(s, e, m, bits):
    """Member m's primed features `bits` are spent (the magic observation shows them)."""
    s.primed[e, m] = int(s.primed[e, m]) & (0xFF ^ bits)
    s.dirty[e] |= DIRTY_MAGIC


@njit(cache=True)
def spend_attack_primes(s, e, m):
    """The attack is made: ferocious strike, double strike and focus are spent."""
    if s.primed[e, m] & PRIMED_ATTACK:
        clear_prime(s, e, m, PRIMED_ATTACK)


@njit(cache=True)
def dodge(s, e, m, damage, rng):
    """Dodge, used automatically: the next hit member m takes (damage above 0) is reduced by
    a d6, before armor; the dodge is spent."""
    if damage > 0 and s.primed[e, m] & PRIME_DODGE:
        clear_prime(s, e, m, PRIME_DODGE)
        return max(0, damage - roll(rng, e, 1))
    return damage


@njit(cache=True)
def full_av(s, e, m, slot):
    """The AV worn piece `slot` gives unground: the table's, +1 for the Armorer's worn armor
    (not a shield); the eaters' bites grind the +1 like the rest (GEAR-EAT-2)."""
    kind = s.item[e, m, slot]
    if kind <= 0:
        return 0
    return int(ITEMS[kind, I_AV]) + (ARMORER_AV if dv_floor(s, e, m, slot) < 0 else 0)


@njit(cache=True)
def piece_av(s, e, m, slot):
    """DMG-1, GEAR-EAT-2: the protection worn piece `slot` (off hand or armor) gives now: its
    AV (`full_av`) less the eaters' bites, 0 once its DV is used up. The Armorer's worn armor
    works 5 hits longer (its DV may go down to -5)."""
    if s.item[e, m, slot] <= 0:
        return 0
    av = max(0, full_av(s, e, m, slot) - int(s.item_wear[e, m, slot]))
    return av if s.item_dv[e, m, slot] > dv_floor(s, e, m, slot) else 0


@njit(cache=True)
def dv_floor(s, e, m, slot):
    """The lowest DV a worn piece of member m may reach (`piece_av`): -5 for the Armorer's
    armor, else 0."""
    kind = s.item[e, m, slot]
    armor = slot == ARMOR and kind > 0 and ITEMS[kind, I_CAT] == CAT_ARMOR
    return -ARMORER_DV if armor and has_option(s, e, m, HERO, 2, HERO_ARMORER) else 0


@njit(cache=True)
def may_heal(s, e, m):
    """Member m may be healed: not after blood magic until the party reaches a floor never
    reached before (`change_floor`)."""
    return not s.blood_used[e, m]


@njit(cache=True)
def is_reader_option(s, e, m):
    """CLASS-1: a Rogue who took magic at level 3 reads spellbook pages and scrolls."""
    return has_option(s, e, m, ROGUE, 3, ROGUE_MAGIC)


@njit(cache=True)
def change_floor(s, e, old, f, first):
    """The party reaches floor f from floor `old` (`first`: never reached before). Each floor
    keeps its own once-a-floor spells and wand casts (CLASS-1): what was spent on `old` stays
    spent there, and f gets back what was left of its own, all of them on a floor never
    reached. Blood magic's ban on healing ends only on a floor never reached before (a rest,
    like luck, LUCK-1): stairs cost no time, so a hop to a floor already seen ends nothing."""
    for m in range(MAX_MEMBERS):
        wand = has_option(s, e, m, WIZARD, 2, WIZARD_WAND)
        s.floor_spent[e, old, m] = s.spells_spent[e, m]
        s.floor_wand[e, old, m] = WAND_CASTS - max(0, int(s.wand_casts[e, m])) if wand else 0
        if first:
            s.floor_spent[e, f, m] = s.floor_wand[e, f, m] = 0
            s.blood_used[e, m] = False
        s.spells_spent[e, m] = s.floor_spent[e, f, m]
        s.wand_casts[e, m] = max(0, WAND_CASTS - int(s.floor_wand[e, f, m])) if wand else 0
    s.dirty[e] |= DIRTY_MAGIC


@njit(cache=True)
def wears_in_off_hand(s, e, m, kind):
    """CLASS-1: a dual-wielder (Hero swords, Rogue daggers) wears a second weapon of its
    specialty's family in the empty off hand when the ready hand already holds one."""
    if kind <= 0 or ITEMS[kind, I_CAT] != CAT_WEAPON or s.item[e, m, OFF_HAND] != 0:
        return False
    fam = int(ITEMS[kind, I_FAMILY])
    if fam != ready_family(s, e, m, READY):
        return False
    if fam == FAM_SWORD:
        return has_option(s, e, m, HERO, 2, HERO_SWORDS)
    if fam == FAM_DAGGER:
        return has_option(s, e, m, ROGUE, 2, ROGUE_DAGGERS)
    return False
