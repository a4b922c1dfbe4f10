"""The party: members, wounds and death saves, XP and levels, marching order, items.

Rules: PARTY-1..4, HP-1..2, RAISE-1, XP-1..4, LUCK-1..2.
"""

from ..compiled.jit import njit
from ..core.params import P_XP_FACTOR
from ..core.rng import randint, roll
from ..core.state import DIRTY_MAGIC, DIRTY_ORDER, DIRTY_PACK, DIRTY_PARTY
from ..core.tables import (
    ARMOR,
    C_ATK,
    C_HP,
    C_HP_DIE,
    C_LEVEL,
    C_READER,
    C_WELL,
    CAT_ARMOR,
    CAT_SHIELD,
    CAT_WEAPON,
    CLASSES,
    EV_DEATH,
    EV_LEVEL,
    I_CAT,
    I_DV,
    ITEMS,
    KING,
    KING_SLOT,
    LOOK,
    LOOK_NONE,
    MAGE_SPELLS,
    MAX_MEMBERS,
    NAMER,
    NUM_EQUIP,
    NUM_ITEM_SLOTS,
    NUM_NAMES,
    OFF_HAND,
    READY,
    SIX_CEILING,
    START_GEAR,
    WIZARD,
)
from ..outputs.fightlog import LOG_DEATH, LOG_RAISE, LOG_SAVE, log_event
from .traits import is_reader_option, may_heal, wears_in_off_hand

START_SPELLS = 3  # the Wizard knows 3 random mage spells (class table)
START_NAMES = 3  # the Namer knows 3 random true names (NAME-1)
NAMES_PER_LEVEL = 2  # ... and learns 2 more each level gained


@njit(cache=True)
def is_standing(s, e, m):
    """A member in the party with at least 1 HP."""
    return m >= 0 and s.in_party[e, m] and s.hp[e, m] > 0


@njit(cache=True)
def num_standing(s, e):
    n = 0
    for m in range(MAX_MEMBERS):
        if is_standing(s, e, m):
            n += 1
    return n


@njit(cache=True)
def is_known(s, e, kind):
    """ITEM-2: items of `kind` show what they are: a kind without a look always, one with a
    look once its bit of `known_kinds` is set (used, named by a statue, bought, starting gear)."""
    return LOOK[kind] == LOOK_NONE or (int(s.known_kinds[e]) >> int(kind)) & 1 == 1


@njit(cache=True)
def know_kind(s, e, kind):
    """Items of `kind` are known for the rest of the run (ITEM-2); the packs show it."""
    s.known_kinds[e] |= 1 << int(kind)
    s.dirty[e] |= DIRTY_PACK


@njit(cache=True)
def put_item(s, e, m, slot, kind):
    """Put a fresh item of `kind` into item slot `slot` of member m (known or not as its kind
    is, `is_known`)."""
    s.dirty[e] |= DIRTY_PARTY | DIRTY_PACK
    s.item[e, m, slot] = kind
    s.item_wear[e, m, slot] = 0
    s.item_dv[e, m, slot] = ITEMS[kind, I_DV]


@njit(cache=True)
def drop_item(s, e, m, slot):
    """Empty item slot `slot` of member m (an item used up)."""
    s.dirty[e] |= DIRTY_PARTY | DIRTY_PACK
    s.item[e, m, slot] = 0
    s.item_wear[e, m, slot] = 0
    s.item_dv[e, m, slot] = 0


@njit(cache=True)
def free_pack_slot(s, e, m):
    """First empty pack slot of member m, or -1."""
    for slot in range(NUM_EQUIP, NUM_ITEM_SLOTS):
        if s.item[e, m, slot] == 0:
            return slot
    return -1


@njit(cache=True)
def first_with_room(s, e):
    """The first standing member in marching order with a free pack slot (where a found or
    bought item goes, LOOT-1), or -1."""
    for pos in range(MAX_MEMBERS):
        m = s.order[e, pos]
        if is_standing(s, e, m) and free_pack_slot(s, e, m) >= 0:
            return m
    return -1


@njit(cache=True)
def add_member(s, e, m, cls, rng):
    """Member slot m joins at the back of the marching order, fresh, as class `cls`."""
    s.dirty[e] |= DIRTY_PARTY | DIRTY_PACK
    s.cls[e, m] = cls
    s.in_party[e, m] = True
    hp = CLASSES[cls, C_HP] + (roll(rng, e, 1) if CLASSES[cls, C_HP_DIE] else 0)
    s.hp[e, m] = s.ceiling[e, m] = hp
    s.mana[e, m] = s.well[e, m] = CLASSES[cls, C_WELL]
    s.level[e, m] = CLASSES[cls, C_LEVEL]
    s.atk[e, m] = CLASSES[cls, C_ATK]
    s.luck[e, m] = 3
    s.spells_known[e, m] = s.spells_spent[e, m] = s.names_known[e, m] = s.wand_casts[e, m] = 0
    if cls == WIZARD:
        s.spells_known[e, m] = draw_bits(
            int(s.spells_known[e, m]), MAGE_SPELLS, START_SPELLS, e, rng
        )
    elif cls == NAMER:
        s.names_known[e, m] = draw_bits(int(s.names_known[e, m]), NUM_NAMES, START_NAMES, e, rng)
    for i in range(4):
        kind = START_GEAR[cls, i]
        if kind != 0:
            put_item(s, e, m, i if i < NUM_EQUIP else free_pack_slot(s, e, m), kind)
            know_kind(s, e, kind)  # ITEM-2: starting gear is known
    for pos in range(MAX_MEMBERS):
        if s.order[e, pos] < 0:
            s.order[e, pos] = m
            break


@njit(cache=True)
def draw_bits(bits, n, count, e, rng):
    """`bits` with `count` more of its n low bits set, drawn at random among the clear ones
    (a name or spell already known is never drawn twice; fewer when fewer are clear)."""
    for _ in range(count):
        clear = 0
        for i in range(n):
            clear += 1 - ((bits >> i) & 1)
        if clear == 0:
            break
        pick = randint(rng, e, clear)
        for i in range(n):
            if (bits >> i) & 1 == 0:
                if pick == 0:
                    bits |= 1 << i
                    break
                pick -= 1
    return bits


@njit(cache=True)
def death_save(s, e, m, rng):
    """HP-2: a d6, plus a luck die if one is left; 6 or more stands at 1 HP."""
    s.dirty[e] |= DIRTY_PARTY | DIRTY_PACK  # who stands decides who may take things
    total = roll(rng, e, 1)
    if total < 6 and s.luck[e, m] > 0:
        s.luck[e, m] -= 1  # LUCK-2: spent automatically on a failed save
        total += roll(rng, e, 1)
    log_event(s, e, LOG_SAVE, m, total, 1 if total >= 6 else 0, 0, 0)
    if total >= 6:
        s.hp[e, m] = 1
    else:
        s.hp[e, m] = 0
        s.events[e] |= EV_DEATH
        s.stat_lost[e] += 1
        log_event(s, e, LOG_DEATH, m, 0, 0, 0, 0)


@njit(cache=True)
def wound(s, e, m, amount, rng):
    """Take `amount` HP off a standing member; below 1 HP comes the death save (HP-2). In a
    practice bout (COURT-2) a member below 1 HP is down at 0 instead: no save, no luck die,
    no death; `bout_down` marks them to stand again when the bout ends."""
    if amount <= 0 or not is_standing(s, e, m):
        return
    s.dirty[e] |= DIRTY_PARTY
    hp = int(s.hp[e, m]) - amount
    if hp >= 1:
        s.hp[e, m] = hp
    elif s.practice[e]:
        s.hp[e, m] = 0
        s.bout_down[e, m] = True
        s.dirty[e] |= DIRTY_PACK  # who stands decides who may take things
    else:
        death_save(s, e, m, rng)
    if s.hp[e, m] <= 0 and s.holy_sword[e] == m:  # the conjured sword goes with its caster
        s.holy_sword[e] = -1


@njit(cache=True)
def is_reader(s, e, m):
    """PAGE-2: member m reads spellbook pages and scrolls: a reader class (Hero, Wizard,
    King) or a Rogue who took magic at level 3 (CLASS-1)."""
    c = s.cls[e, m]
    return c >= 0 and (CLASSES[c, C_READER] == 1 or is_reader_option(s, e, m))


@njit(cache=True)
def heal(s, e, m, amount):
    """Heal a standing member up to the ceiling (HP-1); HP above it (aid) is kept, never
    lowered; the dead never heal, nor a member who used blood magic until the party reaches
    another floor (CLASS-1)."""
    if is_standing(s, e, m) and may_heal(s, e, m):
        hp = int(s.hp[e, m])
        s.hp[e, m] = max(hp, min(int(s.ceiling[e, m]), hp + amount))
        s.dirty[e] |= DIRTY_PARTY


@njit(cache=True)
def raise_ceiling(s, e, m, amount):
    """The HP ceiling and HP go up by `amount` (XP-4's way; CHEST-1, BATH-1)."""
    s.ceiling[e, m] = int(s.ceiling[e, m]) + amount
    s.hp[e, m] = int(s.hp[e, m]) + amount
    s.dirty[e] |= DIRTY_PARTY


@njit(cache=True)
def lower_ceiling(s, e, m, amount):
    """The HP ceiling drops by `amount`, never below 1; HP is capped to it (CHEST-1, BATH-1)."""
    s.ceiling[e, m] = max(1, int(s.ceiling[e, m]) - amount)
    s.hp[e, m] = min(s.hp[e, m], s.ceiling[e, m])
    s.dirty[e] |= DIRTY_PARTY
    s.keeper_seen[e] |= 1 << SIX_CEILING  # keeper.notice (SIX-1), which imports this module


@njit(cache=True)
def raise_member(s, e, m):
    """RAISE-1: a fallen member stands up with 1 HP; the raise is counted."""
    s.dirty[e] |= DIRTY_PARTY | DIRTY_PACK  # who stands decides who may take things
    s.hp[e, m] = 1
    s.raised[e, m] += 1
    log_event(s, e, LOG_RAISE, m, s.raised[e, m], 0, 0, 0)


@njit(cache=True)
def level_cost(p, level):
    """XP-3: XP needed to go from `level` to the next."""
    return int(100 * int(level) * p[P_XP_FACTOR] + 0.5)


@njit(cache=True)
def gain_level(s, e, m, rng):
    """XP-4: +1..6 ceiling and HP, +2 well if any, +1 attack at levels 4, 7, 10..."""
    s.level[e, m] += 1
    raise_ceiling(s, e, m, roll(rng, e, 1))
    if s.well[e, m] > 0:
        s.well[e, m] += 2
    if s.level[e, m] >= 4 and (s.level[e, m] - 4) % 3 == 0:
        s.atk[e, m] += 1
    if s.cls[e, m] == NAMER:  # NAME-1: two more true names a level
        names = draw_bits(int(s.names_known[e, m]), NUM_NAMES, NAMES_PER_LEVEL, e, rng)
        s.names_known[e, m] = names
        s.dirty[e] |= DIRTY_MAGIC
    s.events[e] |= EV_LEVEL


@njit(cache=True)
def gain_xp(s, p, e, m, amount, rng):
    """Give one member XP; every level it pays for is gained at once (XP-3)."""
    if not is_standing(s, e, m):
        return
    s.xp[e, m] += amount
    s.dirty[e] |= DIRTY_PARTY
    while s.xp[e, m] >= level_cost(p, s.level[e, m]):
        s.xp[e, m] -= level_cost(p, s.level[e, m])
        gain_level(s, e, m, rng)


@njit(cache=True)
def share_xp(s, p, e, amount, rng):
    """XP-2: split equally among standing members; the remainder goes down the marching order."""
    n = num_standing(s, e)
    if n == 0 or amount <= 0:
        return
    share, rest = amount // n, amount % n
    for pos in range(MAX_MEMBERS):
        m = s.order[e, pos]
        if is_standing(s, e, m):
            gain_xp(s, p, e, m, share + (1 if rest > 0 else 0), rng)
            rest -= 1


@njit(cache=True)
def swap_positions(s, e, pos):
    """PARTY-2: swap marching positions pos and pos + 1 (free, outside fights)."""
    s.dirty[e] |= DIRTY_ORDER
    s.order[e, pos], s.order[e, pos + 1] = s.order[e, pos + 1], s.order[e, pos]


@njit(cache=True)
def move_item(s, e, a, slot_a, b, slot_b):
    """Swap two item slots (of the same or different members)."""
    s.dirty[e] |= DIRTY_PACK
    if slot_a < NUM_EQUIP or slot_b < NUM_EQUIP:  # worn gear shows in the party's rows
        s.dirty[e] |= DIRTY_PARTY
    s.item[e, a, slot_a], s.item[e, b, slot_b] = s.item[e, b, slot_b], s.item[e, a, slot_a]
    s.item_wear[e, a, slot_a], s.item_wear[e, b, slot_b] = (
        s.item_wear[e, b, slot_b],
        s.item_wear[e, a, slot_a],
    )
    s.item_dv[e, a, slot_a], s.item_dv[e, b, slot_b] = (
        s.item_dv[e, b, slot_b],
        s.item_dv[e, a, slot_a],
    )


@njit(cache=True)
def give_item(s, e, a, slot, b):
    """PARTY-4: member a's item slot goes to member b's first free pack slot."""
    move_item(s, e, a, slot, b, free_pack_slot(s, e, b))


@njit(cache=True)
def wear_slot(kind):
    """The worn slot an item goes to, or -1 if it cannot be worn."""
    cat = ITEMS[kind, I_CAT]
    if cat == CAT_WEAPON:
        return READY
    if cat == CAT_SHIELD:
        return OFF_HAND
    if cat == CAT_ARMOR:
        return ARMOR
    return -1


@njit(cache=True)
def equip_item(s, e, m, slot):
    """Wear a pack item; whatever was worn there goes into the pack slot it came from. A
    dual-wielder's second weapon goes to the empty off hand (`traits.wears_in_off_hand`)."""
    kind = s.item[e, m, slot]
    to = OFF_HAND if wears_in_off_hand(s, e, m, kind) else wear_slot(kind)
    move_item(s, e, m, slot, m, to)


@njit(cache=True)
def take_off(s, e, m, slot):
    """A worn item goes into its wearer's first free pack slot."""
    move_item(s, e, m, slot, m, free_pack_slot(s, e, m))


@njit(cache=True)
def join_king(s, e, rng):
    """The king joins as the fifth member, in rags (PARTY-1)."""
    add_member(s, e, KING_SLOT, KING, rng)
    s.has_king[e] = True


@njit(cache=True)
def refill_luck(s, e):
    """LUCK-1: every member's luck dice back to 3."""
    s.dirty[e] |= DIRTY_PARTY
    for m in range(MAX_MEMBERS):
        if s.in_party[e, m]:
            s.luck[e, m] = 3


@njit(cache=True)
def first_standing_position(s, e, start):
    """The first marching position >= start holding a standing member, or -1."""
    for pos in range(start, MAX_MEMBERS):
        if is_standing(s, e, s.order[e, pos]):
            return pos
    return -1
