"""Stores (STORE-1..2): the courtyard's and those of floors 3, 6, 9, 12.

SHOP enters the store the party stands at (mode STORE; no time passes there, TIME-2), LEAVE
leaves it. Inside, BUY k buys line k of the store's list (line 0: ten rations for the party,
then the items of `tables.STORE_STOCK[level]`, each to the first free pack slot of the
standing members in marching order); any member's item, worn or packed, a fallen member's
too, can be selected and sold at half price or, for worn-down weapons and armor, repaired.

Prices (all data in `tables.py`): a kind's price is `ITEMS[kind, I_PRICE]` x the store's
factor (1.0 at the courtyard, +0.5 a store down), rounded half up; ten rations cost 20 x the
factor. A sale pays half the kind's base price, rounded down, in every store. A repair costs
(3 x wear + 1 x durability missing) x the factor, rounded half up, and leaves the item as new.
"""

from ..compiled.jit import njit
from ..core.actions import A_BUY, A_LEAVE
from ..core.params import P_TASK, TASK_EXPLORE
from ..core.state import DIRTY_PACK, DIRTY_PARTY
from ..core.tables import (
    CAT_ARMOR,
    CAT_SHIELD,
    CAT_WEAPON,
    EXPLORE,
    FEAT_STORE,
    I_CAT,
    I_DV,
    I_PRICE,
    ITEMS,
    LOOK,
    MAX_MEMBERS,
    MAX_STOCK,
    NUM_ITEM_SLOTS,
    NUM_ITEMS,
    RATIONS_CODE,
    RATIONS_PER_BUY,
    RATIONS_PRICE,
    REPAIR_DV_GOLD,
    REPAIR_WEAR_GOLD,
    STORE,
    STORE_FACTOR_HALVES,
    STORE_FLOOR_EVERY,
    STORE_STOCK,
)
from ..generation.features import feature_here
from .items import let_go
from .loot import take_item
from .party import drop_item, first_with_room, is_known

MAX_RATIONS = 32767 - RATIONS_PER_BUY  # the party's ration count is an int16
MAX_STAT = 32767  # the int16 purchase and sale counters stop there


@njit(cache=True)
def store_level(s, e):
    """STORE-1: the level of the store where the party stands: 0 in the courtyard, floor // 3
    in a store room (1..4 for floors 3, 6, 9, 12), -1 where there is no store."""
    f = s.floor[e]
    if f == 0:
        return 0
    if feature_here(s, e) == FEAT_STORE:
        return int(f) // STORE_FLOOR_EVERY
    return -1


@njit(cache=True)
def store_price(gold, level):
    """`gold` x the price factor of a level-`level` store (STORE-1), rounded half up."""
    return (int(gold) * int(STORE_FACTOR_HALVES[level]) + 1) // 2


@njit(cache=True)
def line_kind(level, k):
    """What line k of a level's list sells: RATIONS_CODE for line 0, else an item kind, 0 for
    no line."""
    if k == 0:
        return RATIONS_CODE
    return int(STORE_STOCK[level, k - 1])


@njit(cache=True)
def line_price(level, k):
    """The gold line k of a level's list costs (0 for no line)."""
    kind = line_kind(level, k)
    if kind == RATIONS_CODE:
        return store_price(RATIONS_PRICE, level)
    return store_price(ITEMS[kind, I_PRICE], level) if kind > 0 else 0


@njit(cache=True)
def can_shop(s, p, e):
    """STORE-1: exploring in the courtyard or in a store room (not in the explore sub-task,
    whose packs stay as they are)."""
    if p[P_TASK] == TASK_EXPLORE or s.mode[e] != EXPLORE or s.sel_member[e] >= 0:
        return False
    return store_level(s, e) >= 0


@njit(cache=True)
def enter_store(s, e):
    """Enter the store here (mode STORE); no time passes (TIME-2). The step marks the whole
    observation dirty on the change of mode."""
    s.mode[e] = STORE


@njit(cache=True)
def can_buy(s, p, e, k):
    """Line k can be bought now: the store has it, the gold covers it, and rations have room
    in the count or an item has a standing member's free pack slot to go to."""
    if s.mode[e] != STORE or s.sel_member[e] >= 0 or k < 0 or k >= MAX_STOCK:
        return False
    level = store_level(s, e)
    if level < 0:
        return False
    kind = line_kind(level, k)
    if kind == 0 or s.gold[e] < line_price(level, k):
        return False
    if kind == RATIONS_CODE:
        return s.rations[e] <= MAX_RATIONS
    return first_with_room(s, e) >= 0  # where `loot.take_item` puts it


@njit(cache=True)
def buy(s, p, e, k):
    """STORE-2: pay for line k and take it: ten rations to the party, or the item to the
    first free pack slot of the standing members in marching order, its kind known (ITEM-2)."""
    level = store_level(s, e)
    kind = line_kind(level, k)
    s.gold[e] -= line_price(level, k)
    if kind == RATIONS_CODE:
        s.rations[e] += RATIONS_PER_BUY
    else:
        take_item(s, e, kind)  # sets DIRTY_PARTY | DIRTY_PACK
        s.known_kinds[e] |= 1 << kind
    s.stat_bought[e] = min(MAX_STAT, int(s.stat_bought[e]) + 1)


@njit(cache=True)
def sell_price(s, e, kind):
    """STORE-2: what the store here pays for an item of `kind`: half its base (courtyard)
    price, rounded down, whatever the store's factor (goods carried down pay nothing). An
    unknown item (ITEM-2) is paid as the cheapest kind of its look, so neither the price
    shown nor the gold paid tells what it is."""
    price = ITEMS[kind, I_PRICE]
    if not is_known(s, e, kind):
        for other in range(NUM_ITEMS):
            if LOOK[other] == LOOK[kind]:
                price = min(price, ITEMS[other, I_PRICE])
    return int(price) // 2


@njit(cache=True)
def can_sell(s, p, e, m, slot):
    """In a store any member's item, worn or packed, a fallen member's too, can be sold."""
    if s.mode[e] != STORE or m < 0 or m >= MAX_MEMBERS or slot < 0 or slot >= NUM_ITEM_SLOTS:
        return False
    return s.in_party[e, m] and s.item[e, m, slot] > 0 and store_level(s, e) >= 0


@njit(cache=True)
def sell_selected(s, p, e):
    """Sell the selected item for `sell_price` and let go of the selection."""
    m, slot = s.sel_member[e], s.sel_slot[e]
    let_go(s, e)
    s.gold[e] += sell_price(s, e, s.item[e, m, slot])
    drop_item(s, e, m, slot)  # sets DIRTY_PARTY | DIRTY_PACK
    s.stat_sold[e] = min(MAX_STAT, int(s.stat_sold[e]) + 1)


@njit(cache=True)
def repair_points(s, e, m, slot):
    """The gold (before the factor) mending member m's item slot costs: REPAIR_WEAR_GOLD a
    point of wear, REPAIR_DV_GOLD a point of durability missing; 0 if it needs none or is not
    a weapon, a shield or armor."""
    kind = s.item[e, m, slot]
    cat = ITEMS[kind, I_CAT]
    if cat != CAT_WEAPON and cat != CAT_SHIELD and cat != CAT_ARMOR:
        return 0
    wear = max(0, int(s.item_wear[e, m, slot]))
    missing = max(0, int(ITEMS[kind, I_DV]) - int(s.item_dv[e, m, slot]))
    return REPAIR_WEAR_GOLD * wear + REPAIR_DV_GOLD * missing


@njit(cache=True)
def repair_price(s, e, m, slot):
    """STORE-2: the store's price for mending member m's item slot."""
    return store_price(repair_points(s, e, m, slot), store_level(s, e))


@njit(cache=True)
def can_repair(s, p, e, m, slot):
    """In a store a weapon, shield or armor with wear or durability lost can be repaired, if
    the gold covers the price; any member's, worn or packed, a fallen member's too."""
    if not can_sell(s, p, e, m, slot) or repair_points(s, e, m, slot) == 0:
        return False
    return s.gold[e] >= repair_price(s, e, m, slot)


@njit(cache=True)
def repair_selected(s, p, e):
    """Pay for mending the selected item, which comes back as new (no wear, full durability);
    let go of the selection."""
    m, slot = s.sel_member[e], s.sel_slot[e]
    let_go(s, e)
    s.gold[e] -= repair_price(s, e, m, slot)
    s.item_wear[e, m, slot] = 0
    s.item_dv[e, m, slot] = ITEMS[s.item[e, m, slot], I_DV]
    s.dirty[e] |= DIRTY_PARTY | DIRTY_PACK  # damage and armor shown in `party`


@njit(cache=True)
def mask_store(s, p, e, mask):
    """The store's own legal actions: each line that can be bought, and leaving (the items
    to select, to sell or repair, are `mask.mask_items`'s)."""
    for k in range(MAX_STOCK):
        mask[A_BUY + k] = can_buy(s, p, e, k)
    mask[A_LEAVE] = True
