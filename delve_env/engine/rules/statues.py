"""Living statues (STATUE-1..2): naming unknown items for a bid, mending wounds for gold.

In a statue's room (features.place_features set its posted price P and secret threshold T)
the party steps up to the statue (mode STATUE, no time passes). There it selects an unknown
item of any member and bids q quarters of P on it (0, 1/4, 1/2, 3/4 or all, rounded down),
paid whatever happens: a bid >= T names the item (its kind is known for the run, ITEM-2),
T/2 <= bid < T does nothing, a lower bid destroys the item. The statue also mends a standing
member's wounds up to the ceiling at MEND_PRICE x floor gold a hit point, as many as the gold
pays for. Leaving (actions.A_LEAVE) goes back to exploring.
"""

from ..compiled.jit import njit
from ..core.actions import A_LEAVE, A_MEND
from ..core.params import P_TASK, TASK_EXPLORE
from ..core.tables import EXPLORE, FEAT_STATUE, MAX_MEMBERS, SIX_STATUE_BROKE, STATUE
from ..generation.features import feature_here
from .items import let_go
from .keeper import notice
from .party import drop_item, heal, is_known, is_standing, know_kind
from .traits import may_heal

MEND_PRICE = 10  # STATUE-2: gold a hit point, times the floor


@njit(cache=True)
def can_approach_statue(s, p, e):
    """The party explores a statue's room (not in the explore sub-task, whose packs stay as
    they are)."""
    if p[P_TASK] == TASK_EXPLORE:
        return False
    return s.mode[e] == EXPLORE and feature_here(s, e) == FEAT_STATUE


@njit(cache=True)
def approach_statue(s, e):
    """Step up to the statue (mode STATUE); no time passes."""
    s.mode[e] = STATUE


@njit(cache=True)
def bid_amount(s, e, q):
    """STATUE-1: q quarters of the floor's posted price, rounded down."""
    return int(q) * int(s.statue_price[e, s.floor[e]]) // 4


@njit(cache=True)
def can_bid(s, p, e, m, slot, q):
    """Before a statue, member m's unknown item in `slot` may be bid on with q quarters of
    the price when the party's gold covers the bid."""
    if s.mode[e] != STATUE or not s.in_party[e, m]:
        return False
    kind = s.item[e, m, slot]
    if kind == 0 or is_known(s, e, kind):
        return False
    return s.gold[e] >= bid_amount(s, e, q)


@njit(cache=True)
def bid(s, p, e, q, rng):
    """Bid q quarters of the price on the selected item; the bid is paid whatever happens:
    at least T names it, at least T/2 does nothing, less destroys it. Writes gold, the item
    or known_kinds, stat_bids, the selection."""
    m, slot = s.sel_member[e], s.sel_slot[e]
    let_go(s, e)
    amount = bid_amount(s, e, q)
    threshold = int(s.statue_threshold[e, s.floor[e]])
    s.gold[e] -= amount
    s.stat_bids[e] += 1
    if amount >= threshold:
        know_kind(s, e, s.item[e, m, slot])
    elif 2 * amount < threshold:
        drop_item(s, e, m, slot)
        notice(s, e, SIX_STATUE_BROKE)


@njit(cache=True)
def mend_price(s, e):
    """STATUE-2: gold a hit point here."""
    return MEND_PRICE * int(s.floor[e])


@njit(cache=True)
def can_mend(s, p, e, b):
    """Before a statue, a wounded standing member b who may be healed (not after blood
    magic) can be mended when one HP can be paid."""
    if s.mode[e] != STATUE or not is_standing(s, e, b) or not may_heal(s, e, b):
        return False
    return s.hp[e, b] < s.ceiling[e, b] and s.gold[e] >= mend_price(s, e)


@njit(cache=True)
def mend(s, p, e, b):
    """The statue mends member b's wounds up to the ceiling, as many HP as the gold pays for.
    Writes hp, gold."""
    price = mend_price(s, e)
    n = min(int(s.ceiling[e, b]) - int(s.hp[e, b]), int(s.gold[e]) // price)
    s.gold[e] -= n * price
    heal(s, e, b, n)


@njit(cache=True)
def mask_statue(s, p, e, mask):
    """The statue's own legal actions: have a member mended, leave (the unknown items to
    select, to bid on, are `mask.mask_items`'s)."""
    for m in range(MAX_MEMBERS):
        mask[A_MEND + m] = can_mend(s, p, e, m)
    mask[A_LEAVE] = True
