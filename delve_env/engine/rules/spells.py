"""The spellbook's 12 spells and the Namer's name spells (SPELL-1, PAGE-2, NAME-1).

Who has a spell: a reader (Hero, Wizard, King; a Rogue with the level-3 option "magic") whose
spellbook holds its page (PAGE-2, pages are never used up); a Wizard for the spells it knows,
once a floor each, or past that from the wand (3 casts a floor, wand magic); a Cleric with
divine spellcasting for the six divine spells. A Wizard wearing armor other than robes casts
nothing. A Namer has a name spell when it knows both of its names (tables.NAME_SPELLS).
Every power is paid in the caster's mana (POWERS' cost; a Wizard's signature spell costs half,
rounded up). Casting ends the caster's invisibility. The numbers are in docs/rules-spells11.md.
"""

from ..compiled.jit import njit
from ..core.rng import randint, roll
from ..core.state import DIRTY_MAGIC, DIRTY_MAP, DIRTY_PARTY
from ..core.tables import (
    ARMOR,
    CLERIC,
    EV_HEARD,
    EXPLORE,
    FIGHT,
    FIRST_NAME_SPELL,
    FS_BLIND,
    FS_BOUND,
    FS_MARKED,
    LIGHT,
    M_DEF,
    M_FLAGS,
    MAGE_SPELLS,
    MAX_FOES,
    MF_UNDEAD,
    MONSTERS,
    NAME_SPELLS,
    NO_ITEM,
    NUM_SPELLS,
    POWERS,
    PRIME_GROW,
    PW_COST,
    ROBES,
    WARD,
    WIZARD,
)
from ..outputs.layout import BAND_HERE, CROP
from .classes import name_discount
from .effects import is_running, light_lantern, read_scroll
from .fights import FAMILIAR, damage_foe, is_foe_alive
from .moving import reveal_floor, reveal_room
from .party import heal, is_reader
from .rooms import has_band
from .traits import CLERIC_DIVINE, WIZARD_WAND, magic_dice, may_heal

# the spells, by index (tables.SPELL_NAMES)
LIGHT_SPELL, MISSILE, FAMILIAR_SPELL, FIREBOLT, INVISIBILITY, ILLUSION = range(6)
AID, DISPEL, INFLICT, LOCATE, TRUTH, GUIDING = range(6, 12)
# the name spells, by index from FIRST_NAME_SPELL (tables.POWER_NAMES)
(
    N_FIRE,
    N_LIGHTNING,
    N_COLD,
    N_LIGHT,
    N_CURSE,
    N_COIN,
    N_SPIRIT,
    N_SHADOW,
    N_SIGHT,
    N_ROPE,
    N_WATER,
    N_AIR,
    N_SOUND,
    N_THOUGHT,
    N_THUNDER,
    N_SWORD,
) = range(16)

# where a member's spell comes from (`spell_source`)
SRC_NONE, SRC_DIVINE, SRC_BOOK, SRC_CHARGE, SRC_WAND = range(5)
ALL_MAGE = (1 << MAGE_SPELLS) - 1
ALL_DIVINE = ((1 << NUM_SPELLS) - 1) & ~ALL_MAGE
MISSILE_DARTS, DART_DAMAGE = 3, 2  # magic missile: 3 darts of 2, always hitting
FIREBOLT_KEEP = 3  # firebolt: a d6 of 3 or more gives the mana (and charge) back: 2/3
AID_OVER = 6  # aid heals past the ceiling, to at most ceiling + 6 (HP-1's exception)
MAX_DECOYS = 3  # minor illusion: at most 3 illusions stand at once


# --- who has what ---------------------------------------------------------------------------
@njit(cache=True)
def known_spells(s, e, m):
    """The Wizard's known mage spells as bits: its three, or all six with wand magic."""
    if s.cls[e, m] != WIZARD:
        return 0
    known = int(s.spells_known[e, m])
    if s.options[e, m, 0] == WIZARD_WAND:
        known |= ALL_MAGE
    return known


@njit(cache=True)
def in_armor(s, e, m):
    """A Wizard wearing anything but robes in the armor slot cannot cast (class table)."""
    kind = s.item[e, m, ARMOR]
    return s.cls[e, m] == WIZARD and kind != NO_ITEM and kind != ROBES


@njit(cache=True)
def spell_source(s, e, m, i):
    """How member m would cast spell i now: divine spellcasting (Cleric), the book's page (a
    reader), its once-a-floor charge or a wand cast (Wizard), or SRC_NONE. The first that
    applies is used, so a page in the book spares the Wizard's charge and wand."""
    cls = s.cls[e, m]
    if not s.in_party[e, m] or cls < 0 or in_armor(s, e, m):
        return SRC_NONE
    if cls == CLERIC and s.options[e, m, 1] == CLERIC_DIVINE and i >= MAGE_SPELLS:
        return SRC_DIVINE
    if is_reader(s, e, m) and s.has_book[e] and s.book_pages[e, i] > 0:
        return SRC_BOOK
    if (known_spells(s, e, m) >> i) & 1:
        if (int(s.spells_spent[e, m]) >> i) & 1 == 0:
            return SRC_CHARGE
        if s.wand_casts[e, m] > 0:
            return SRC_WAND
    return SRC_NONE


@njit(cache=True)
def ready_spells(s, e, m):
    """The spells member m can cast now (ignoring mana and targets) as bits by spell index:
    those with a `spell_source`, found at once (the mask and the `magic` key ask for all)."""
    cls = s.cls[e, m]
    if not s.in_party[e, m] or cls < 0 or in_armor(s, e, m):
        return 0
    bits = 0
    if cls == CLERIC and s.options[e, m, 1] == CLERIC_DIVINE:
        bits |= ALL_DIVINE
    if is_reader(s, e, m) and s.has_book[e]:
        pages = s.book_pages
        for i in range(NUM_SPELLS):
            if pages[e, i] > 0:
                bits |= 1 << i
    known = known_spells(s, e, m)
    if s.wand_casts[e, m] <= 0:
        known &= ~int(s.spells_spent[e, m])
    return bits | known


@njit(cache=True)
def has_spell(s, p, e, m, i):
    """Member m can cast spell i now (ignoring mana and targets)."""
    return (ready_spells(s, e, m) >> int(i)) & 1 == 1


@njit(cache=True, inline="always")
def spell_cost(s, p, e, m, i):
    """The mana member m pays for spell i: the table's cost; a Wizard's signature spell (its
    level-3 option) half of it, rounded up."""
    cost = int(POWERS[i, PW_COST])
    if s.cls[e, m] == WIZARD and s.options[e, m, 1] == i:
        cost = max(1, (cost + 1) // 2)
    return cost


# --- what the spells and names need from the scene ------------------------------------------
@njit(cache=True)
def foe_has(s, e, k, bit):
    return (int(s.foe_status[e, k]) & bit) != 0


@njit(cache=True)
def rooms_in_view(s, e, count_only):
    """The known rooms of the party's floor that reach into the map crop around the party
    (find familiar's and locate sound's "every door in sight"). Listens at each unless
    `count_only`: a band inside is heard (LISTEN-1's effect, never missed). Returns how many."""
    f = s.floor[e]
    if f == 0:
        return 0
    half = CROP // 2
    x0, y0, x1, y1 = s.x[e] - half, s.y[e] - half, s.x[e] + half, s.y[e] + half
    n = 0
    for r in range(s.num_rooms[e, f]):
        rect = s.room_rect[e, f, r]
        inside = rect[0] - 1 <= x1 and rect[2] + 1 >= x0 and rect[1] - 1 <= y1 and rect[3] + 1 >= y0
        if not (s.room_known[e, f, r] and inside):
            continue
        n += 1
        if not count_only and has_band(s, e, f, r):
            s.room_heard[e, f, r] = True
            s.room_code[e, f, r] = BAND_HERE  # the crop shows the band behind the door
            s.events[e] |= EV_HEARD
            s.dirty[e] |= DIRTY_MAP
    return n


@njit(cache=True)
def locate_rooms(s, e, reveal):
    """Locate creature / locate spirit outside fights: the king's room (deepest floor, not yet
    freed) and the book's room (its floor, not yet found) when the party is on that floor and
    the room is not yet known. Reveals them if `reveal`. Returns how many there are."""
    f = s.floor[e]
    n = 0
    if f == s.floor_visited.shape[1] - 1 and not s.has_king[e]:
        r = s.king_room[e]
        if not s.room_known[e, f, r]:
            n += 1
            if reveal:
                reveal_room(s, e, f, r)
    if f == s.book_floor[e] and not s.has_book[e]:
        r = s.book_room[e]
        if not s.room_known[e, f, r]:
            n += 1
            if reveal:
                reveal_room(s, e, f, r)
    return n


@njit(cache=True)
def any_room_unknown(s, e):
    f = s.floor[e]
    if f == 0:
        return False
    for r in range(s.num_rooms[e, f]):
        if not s.room_known[e, f, r]:
            return True
    return False


@njit(cache=True)
def locate_coin(s, e):
    """Locate coin: every room of the floor still unknown that holds gold becomes known."""
    f = s.floor[e]
    for r in range(s.num_rooms[e, f]):
        if not s.room_known[e, f, r] and s.room_gold[e, f, r] > 0:
            reveal_room(s, e, f, r)


@njit(cache=True)
def foul_ward(s, e):
    """The foul lantern burns (WARD with ward_foul): dispel magic / remove curse may end it."""
    return is_running(s, e, WARD) and s.ward_foul[e]


@njit(cache=True)
def end_foul_ward(s, e):
    s.effects[e, WARD] = 0
    s.ward_foul[e] = False


@njit(cache=True)
def caster_d20(s, e, m, rng):
    """The caster's d20, +d6 when blessed (bless: the target's d20 rolls)."""
    total = randint(rng, e, 20) + 1
    if s.blessed[e, m]:
        total += roll(rng, e, 1)
    return total


@njit(cache=True)
def magic_bonus(s, e, m, rng):
    """SKILL-1: the magic skill's d6 (`traits.magic_dice`), rolled once per roll it joins."""
    dice = magic_dice(s, e, m)
    return roll(rng, e, dice) if dice > 0 else 0


@njit(cache=True)
def caster_roll(s, e, m, rng):
    """A spell's contest roll: the caster's d20 (`caster_d20`) + the magic skill's d6."""
    return caster_d20(s, e, m, rng) + magic_bonus(s, e, m, rng)


@njit(cache=True)
def spell_attack(s, e, m, k, rng):
    """ATTACK-1 for a ranged spell: the caster's d20 + the magic skill's d6 (SKILL-1) + attack
    bonus against foe k's d20 + defense, ties hit; a marked foe gives advantage (two d20s, the
    best) and loses the mark."""
    mine = caster_d20(s, e, m, rng)
    if foe_has(s, e, k, FS_MARKED):
        s.foe_status[e, k] = int(s.foe_status[e, k]) & ~FS_MARKED
        mine = max(mine, caster_d20(s, e, m, rng))
    mine += int(s.atk[e, m]) + magic_bonus(s, e, m, rng)
    theirs = randint(rng, e, 20) + 1 + MONSTERS[s.foe_kind[e, k], M_DEF]
    return mine >= theirs


@njit(cache=True)
def damage_all(s, p, e, m, dice, rng):
    """A d6 roll of `dice` dice to every living foe, each rolled apart, always hitting."""
    for k in range(MAX_FOES):
        if is_foe_alive(s, e, k):
            damage_foe(s, p, e, m, k, roll(rng, e, dice), rng)


@njit(cache=True)
def mark_foe(s, e, k, bit):
    s.foe_status[e, k] = int(s.foe_status[e, k]) | bit


@njit(cache=True)
def pay(s, e, m, cost):
    """Take the mana; casting ends the caster's invisibility (seed 003)."""
    s.mana[e, m] = max(0, int(s.mana[e, m]) - cost)
    s.invisible[e, m] = False
    s.dirty[e] |= DIRTY_PARTY | DIRTY_MAGIC


# --- the 12 spells --------------------------------------------------------------------------
@njit(cache=True)
def spell_suits(s, e, i, t):
    """Spell i's target t (already a valid one, `powers.can_aim`) is one it does something
    to, and the scene allows it: fights use the fight column, exploring the other."""
    if s.mode[e] == FIGHT:
        if i == LIGHT_SPELL:
            return not foe_has(s, e, t, FS_BLIND)
        if i == FAMILIAR_SPELL:
            return s.ally_kind[e] < 0
        if i == INVISIBILITY:
            return not s.invisible[e, t]
        if i == ILLUSION:
            return s.decoys[e] < MAX_DECOYS
        if i == AID:
            return s.hp[e, t] < s.ceiling[e, t] + AID_OVER and may_heal(s, e, t)
        if i == DISPEL:
            return (MONSTERS[s.foe_kind[e, t], M_FLAGS] & MF_UNDEAD) != 0
        if i == LOCATE:
            return not foe_has(s, e, t, FS_MARKED)
        if i == TRUTH:
            return s.floor[e] > 0  # a practice dummy knows no floor (COURT-2)
        return True
    if s.mode[e] != EXPLORE:
        return False
    if i == LIGHT_SPELL:
        return True
    if i == FAMILIAR_SPELL:
        return rooms_in_view(s, e, True) > 0
    if i == INVISIBILITY:
        return not s.invisible[e, t]
    if i == AID:
        return s.hp[e, t] < s.ceiling[e, t] + AID_OVER and may_heal(s, e, t)
    if i == DISPEL:
        return foul_ward(s, e)
    if i == LOCATE:
        return locate_rooms(s, e, False) > 0
    return False


@njit(cache=True)
def cast_spell(s, p, e, m, i, t, rng):
    """Member m casts spell i on t (-1 none): pays (mana; the Wizard's charge or a wand cast)
    and does it."""
    source = spell_source(s, e, m, i)
    cost = spell_cost(s, p, e, m, i)
    pay(s, e, m, cost)
    if source == SRC_CHARGE:
        s.spells_spent[e, m] = int(s.spells_spent[e, m]) | (1 << i)
    elif source == SRC_WAND:
        s.wand_casts[e, m] -= 1
    fight = s.mode[e] == FIGHT
    if i == LIGHT_SPELL:
        if fight:
            mark_foe(s, e, t, FS_BLIND)
        else:
            read_scroll(s, p, e, LIGHT)
    elif i == MISSILE:
        damage_foe(s, p, e, m, t, MISSILE_DARTS * DART_DAMAGE, rng)
    elif i == FAMILIAR_SPELL:
        if fight:
            s.ally_kind[e] = FAMILIAR
            s.ally_hp[e] = 1
        else:
            rooms_in_view(s, e, False)
    elif i == FIREBOLT:
        if spell_attack(s, e, m, t, rng):
            damage_foe(s, p, e, m, t, roll(rng, e, 2), rng)
        if roll(rng, e, 1) >= FIREBOLT_KEEP:  # the spell is not used up: all of it back
            s.mana[e, m] += cost
            if source == SRC_CHARGE:
                s.spells_spent[e, m] = int(s.spells_spent[e, m]) & ~(1 << i)
            elif source == SRC_WAND:
                s.wand_casts[e, m] += 1
    elif i == INVISIBILITY:
        s.invisible[e, t] = True
    elif i == ILLUSION:
        s.decoys[e] += 1
    elif i == AID:
        s.hp[e, t] = min(int(s.ceiling[e, t]) + AID_OVER, int(s.hp[e, t]) + roll(rng, e, 1))
    elif i == DISPEL:
        if fight:
            damage_foe(s, p, e, m, t, roll(rng, e, 2), rng)
        else:
            end_foul_ward(s, e)
    elif i == INFLICT:
        damage = roll(rng, e, 4)
        if randint(rng, e, 20) + 1 >= caster_roll(s, e, m, rng):  # the foe's save halves it
            damage //= 2
        damage_foe(s, p, e, m, t, damage, rng)
    elif i == LOCATE:
        if fight:
            mark_foe(s, e, t, FS_MARKED)
        else:
            locate_rooms(s, e, True)
    elif i == TRUTH:
        save = randint(rng, e, 20) + 1 + MONSTERS[s.foe_kind[e, t], M_DEF]
        if caster_roll(s, e, m, rng) > save:  # the save fails: the band tells the floor
            reveal_floor(s, e, s.floor[e])
    elif i == GUIDING and spell_attack(s, e, m, t, rng):
        damage_foe(s, p, e, m, t, roll(rng, e, 3), rng)
        if is_foe_alive(s, e, t):
            mark_foe(s, e, t, FS_MARKED)


# --- name spells (NAME-1) -------------------------------------------------------------------
@njit(cache=True)
def ready_names(s, e, m):
    """The name spells member m knows both names of, as bits by power index."""
    names = int(s.names_known[e, m])
    bits = 0
    for j in range(NAME_SPELLS.shape[0]):
        if (names >> int(NAME_SPELLS[j, 0])) & 1 == 1 and (
            names >> int(NAME_SPELLS[j, 1])
        ) & 1 == 1:
            bits |= 1 << (FIRST_NAME_SPELL + j)
    return bits


@njit(cache=True)
def has_name_spell(s, p, e, m, i):
    """Member m knows both names of name spell i (a power index)."""
    return (ready_names(s, e, m) >> int(i)) & 1 == 1


@njit(cache=True, inline="always")
def name_cost(s, p, e, m, i):
    """The mana a name spell costs (tables.POWERS), a true speaker's 1 less but at least 1."""
    return max(1, int(POWERS[i, PW_COST]) - name_discount(s, e, m))


@njit(cache=True)
def name_suits(s, e, m, j, t):
    """Name spell j (from FIRST_NAME_SPELL) does something to t here (see `spell_suits`)."""
    if s.mode[e] == FIGHT:
        if j == N_SHADOW:
            return not s.hidden[e, t]
        if j == N_SIGHT:
            return not s.invisible[e, t]
        if j == N_ROPE:
            return not foe_has(s, e, t, FS_BOUND)
        if j == N_WATER:
            return s.hp[e, t] < s.ceiling[e, t] and may_heal(s, e, t)
        if j == N_THOUGHT:
            return not foe_has(s, e, t, FS_BLIND)
        if j == N_SWORD:
            return (int(s.primed[e, m]) & PRIME_GROW) == 0
        return True
    if s.mode[e] != EXPLORE:
        return False
    if j == N_LIGHT or j == N_AIR:
        return True
    if j == N_CURSE:
        return foul_ward(s, e)
    if j == N_COIN:
        return any_room_unknown(s, e)
    if j == N_SPIRIT:
        return locate_rooms(s, e, False) > 0
    if j == N_SIGHT:
        return not s.invisible[e, t]
    if j == N_WATER:
        return s.hp[e, t] < s.ceiling[e, t] and may_heal(s, e, t)
    if j == N_SOUND:
        return rooms_in_view(s, e, True) > 0
    return False


@njit(cache=True)
def cast_name(s, p, e, m, i, t, rng):
    """Member m casts name spell i on t: pays and does it."""
    pay(s, e, m, name_cost(s, p, e, m, i))
    j = i - FIRST_NAME_SPELL
    if j == N_FIRE:
        damage_foe(s, p, e, m, t, roll(rng, e, 2), rng)
    elif j == N_LIGHTNING:
        damage_foe(s, p, e, m, t, roll(rng, e, 3), rng)
    elif j == N_COLD:
        damage_all(s, p, e, m, 1, rng)
    elif j == N_THUNDER:
        damage_all(s, p, e, m, 2, rng)
    elif j == N_LIGHT:
        read_scroll(s, p, e, LIGHT)
    elif j == N_CURSE:
        end_foul_ward(s, e)
    elif j == N_COIN:
        locate_coin(s, e)
    elif j == N_SPIRIT:
        locate_rooms(s, e, True)
    elif j == N_SHADOW:
        s.hidden[e, t] = True
    elif j == N_SIGHT:
        s.invisible[e, t] = True
    elif j == N_ROPE:
        mark_foe(s, e, t, FS_BOUND)
    elif j == N_WATER:
        heal(s, e, t, roll(rng, e, 1))
    elif j == N_AIR:
        light_lantern(s, p, e, False)
    elif j == N_SOUND:
        rooms_in_view(s, e, False)
    elif j == N_THOUGHT:
        mark_foe(s, e, t, FS_BLIND)
    elif j == N_SWORD:
        s.primed[e, m] = int(s.primed[e, m]) | PRIME_GROW
