"""Handing, wearing and using items: select an item, then act on it (PARTY-4, RAISE-1, ITEM-1).

An item is first selected (`sel_member`, `sel_slot`); the next action gives it to a member,
uses it on a member, wears it or takes it off, or puts it back. Outside fights any member's
item, worn or packed, fallen or standing, goes to any standing member with pack room; a
standing member wears or uses what they carry. In a fight only a fallen member's things change
hands, and only to the acting member, and only the acting member uses an item from their own
pack; either is that member's turn. Nothing changes hands, is worn or used before a store or
a statue (modes STORE, STATUE): only exploring and fighting. What each consumable does is data
(`tables.USES`); party effects (lanterns, scrolls: EFFECT-1) are used on oneself, a scroll only
by a reader. Using an item makes its kind known (ITEM-2); an unknown item may be used as every
kind of its look may (`tables.LOOK`), so the mask never tells which kind it is.
"""

from ..compiled.jit import njit
from ..core.params import P_TASK, TASK_EXPLORE
from ..core.rng import randint, roll
from ..core.state import DIRTY_PACK, DIRTY_PARTY, DIRTY_SELECT
from ..core.tables import (
    CAT_WEAPON,
    EXPLORE,
    FIGHT,
    I_CAT,
    ITEMS,
    KING,
    MAX_MEMBERS,
    MAX_RAISES,
    NUM_EQUIP,
    ON_ARMED,
    ON_FALLEN,
    ON_SELF,
    ON_SELF_READER,
    ON_STANDING,
    READY,
    U_DICE,
    U_EFFECT,
    U_TARGET,
    USE_BITTER,
    USE_CEILING,
    USE_GOODWILL,
    USE_HEAL,
    USE_HONE,
    USE_LANTERN,
    USE_NEXT_LEVEL,
    USE_NONE,
    USE_RAISE,
    USE_SCROLL,
    USE_SUMMON,
    USES,
)
from .effects import light_lantern, read_scroll
from .fights import summon_ally
from .party import (
    drop_item,
    equip_item,
    free_pack_slot,
    gain_xp,
    give_item,
    heal,
    is_known,
    is_reader,
    is_standing,
    know_kind,
    level_cost,
    lower_ceiling,
    raise_ceiling,
    raise_member,
    take_off,
    wear_slot,
)


@njit(cache=True)
def acting_member(s, e):
    """The member whose turn it is in a fight, or -1."""
    return s.order[e, s.actor[e]] if s.mode[e] == FIGHT and s.actor[e] >= 0 else -1


@njit(cache=True)
def is_item_mode(s, e):
    """Items change hands, are worn or used only exploring or fighting (not before a store,
    a statue, a lock or a bath)."""
    return s.mode[e] == EXPLORE or s.mode[e] == FIGHT


@njit(cache=True)
def is_giveable(s, p, e, m, slot):
    """PARTY-4: member m's item slot may change hands now, to a member who can take it
    (`can_take`): exploring any item, in a fight only a fallen member's."""
    if p[P_TASK] == TASK_EXPLORE or not is_item_mode(s, e) or s.item[e, m, slot] == 0:
        return False
    return s.mode[e] != FIGHT or s.hp[e, m] <= 0


@njit(cache=True)
def can_take(s, e, m, b):
    """Member b may take an item from member m: standing, with pack room; in a fight only the
    acting member."""
    if b == m or not is_standing(s, e, b) or free_pack_slot(s, e, b) < 0:
        return False
    return s.mode[e] != FIGHT or b == acting_member(s, e)


@njit(cache=True)
def can_give(s, p, e, m, slot, b):
    """PARTY-4: member m's item slot may go to member b (standing, with pack room). In a fight
    only off a fallen member, to the acting member."""
    return is_giveable(s, p, e, m, slot) and can_take(s, e, m, b)


@njit(cache=True)
def can_wear(s, p, e, m, slot):
    """Outside fights a standing member wears a pack item that can be worn; worn gear comes
    off into its wearer's pack (a fallen wearer's too) when there is room."""
    kind = s.item[e, m, slot]
    if p[P_TASK] == TASK_EXPLORE or kind == 0 or s.mode[e] != EXPLORE or not s.in_party[e, m]:
        return False
    if slot < NUM_EQUIP:
        return free_pack_slot(s, e, m) >= 0
    return is_standing(s, e, m) and wear_slot(kind) >= 0


@njit(cache=True)
def is_use_target(s, e, kind, m, b):
    """Member b is a target the consumable `kind`, used by member m, works on (tables.USES)."""
    target = USES[kind, U_TARGET]
    if target == ON_STANDING:
        return is_standing(s, e, b)
    if target == ON_FALLEN:  # RAISE-1: not the king, at most MAX_RAISES times
        return (
            s.in_party[e, b]
            and s.hp[e, b] <= 0
            and s.cls[e, b] != KING
            and s.raised[e, b] < MAX_RAISES
        )
    if target == ON_ARMED:
        return is_standing(s, e, b) and ITEMS[s.item[e, b, READY], I_CAT] == CAT_WEAPON
    if target == ON_SELF:  # EFFECT-1: a lantern is lit by its holder
        return b == m
    if target == ON_SELF_READER:  # a scroll is read by its holder, a reader
        return b == m and is_reader(s, e, m)
    return False


@njit(cache=True)
def is_usable(s, p, e, m, slot):
    """A standing member uses a consumable from their pack (on whom: `is_use_target`); in a
    fight only the acting member (RAISE-1: any standing member, in or out of a fight). A known
    goodwill scroll is read only in a fight (BRIBE-3); an unknown one anywhere, like any
    scroll."""
    kind = s.item[e, m, slot]
    if p[P_TASK] == TASK_EXPLORE or slot < NUM_EQUIP or USES[kind, U_EFFECT] == USE_NONE:
        return False
    if not is_standing(s, e, m) or not is_item_mode(s, e):
        return False
    if s.mode[e] == FIGHT and m != acting_member(s, e):
        return False
    if USES[kind, U_EFFECT] == USE_GOODWILL and s.mode[e] != FIGHT and is_known(s, e, kind):
        return False
    # ITEM-1: an ally joins a fight, one at a time
    return USES[kind, U_EFFECT] != USE_SUMMON or (s.mode[e] == FIGHT and s.ally_kind[e] < 0)


@njit(cache=True)
def can_use(s, p, e, m, slot, b):
    """Member m uses the consumable in item slot `slot` on member b now."""
    return is_usable(s, p, e, m, slot) and is_use_target(s, e, s.item[e, m, slot], m, b)


@njit(cache=True)
def can_give_any(s, p, e, m, slot):
    """Member m's item slot may go to someone. `is_giveable` asks of the slot only that it
    holds an item, so the answer is the same for every item m holds (the mask asks once a
    member)."""
    if not is_giveable(s, p, e, m, slot):
        return False
    for b in range(MAX_MEMBERS):
        if can_take(s, e, m, b):
            return True
    return False


@njit(cache=True)
def can_use_any(s, p, e, m, slot):
    """Member m's item slot may be used on someone."""
    if not is_usable(s, p, e, m, slot):
        return False
    kind = s.item[e, m, slot]
    for b in range(MAX_MEMBERS):
        if is_use_target(s, e, kind, m, b):
            return True
    return False


@njit(cache=True)
def can_select(s, p, e, m, slot):
    """An item may be selected when something can be done with it."""
    if s.item[e, m, slot] == 0:
        return False
    return (
        can_wear(s, p, e, m, slot)
        or can_give_any(s, p, e, m, slot)
        or can_use_any(s, p, e, m, slot)
    )


@njit(cache=True)
def select_item(s, e, m, slot):
    """Hold member m's item slot for the next action (no time passes)."""
    s.sel_member[e] = m
    s.sel_slot[e] = slot
    s.dirty[e] |= DIRTY_SELECT


@njit(cache=True)
def let_go(s, e):
    """No item is selected any more."""
    s.sel_member[e] = -1
    s.sel_slot[e] = -1
    s.dirty[e] |= DIRTY_SELECT


@njit(cache=True)
def use_item(s, p, e, m, slot, b, rng):
    """Member m uses the consumable in item slot `slot` on member b; it is used up and its
    kind is known from now on (ITEM-2)."""
    kind = s.item[e, m, slot]
    effect, dice = USES[kind, U_EFFECT], USES[kind, U_DICE]
    drop_item(s, e, m, slot)
    know_kind(s, e, kind)
    if effect == USE_HEAL:
        heal(s, e, b, roll(rng, e, dice))  # HP-1: stops at the ceiling
    elif effect == USE_RAISE:
        raise_member(s, e, b)
    elif effect == USE_CEILING:
        raise_ceiling(s, e, b, roll(rng, e, dice))
    elif effect == USE_NEXT_LEVEL:
        gain_xp(s, p, e, b, level_cost(p, s.level[e, b]) - s.xp[e, b], rng)
    elif effect == USE_HONE:
        s.item_wear[e, b, READY] = 0
        s.dirty[e] |= DIRTY_PARTY | DIRTY_PACK
    elif effect == USE_LANTERN:  # EFFECT-1: the WARD slot, foul or not
        light_lantern(s, p, e, dice == 1)
    elif effect == USE_SCROLL:
        read_scroll(s, p, e, dice)
    elif effect == USE_GOODWILL and s.mode[e] == FIGHT:  # BRIBE-3; outside a fight: nothing
        s.goodwill[e] = True
    elif effect == USE_SUMMON:
        summon_ally(s, p, e, rng)
    elif effect == USE_BITTER:  # HP-1: a bad bottle, the ceiling never below 1
        lower_ceiling(s, e, b, randint(rng, e, dice) + 1)
        s.dirty[e] |= DIRTY_PARTY


@njit(cache=True)
def act_on_selected(s, p, e, what, b, rng):
    """Give (what 0), use (1) or wear / take off (2) the selected item, then let go of it.
    Returns whether the act was a fight turn (a give or a use in a fight)."""
    m, slot = s.sel_member[e], s.sel_slot[e]
    let_go(s, e)
    if what == 0:
        give_item(s, e, m, slot, b)
    elif what == 1:
        use_item(s, p, e, m, slot, b, rng)
    elif slot < NUM_EQUIP:
        take_off(s, e, m, slot)
    else:
        equip_item(s, e, m, slot)
    return s.mode[e] == FIGHT and what != 2
