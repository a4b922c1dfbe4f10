"""The exact legal-action mask: an unmasked action is legal, a legal one is never masked."""

from ..compiled.jit import njit
from ..core.actions import (
    A_ATTACK,
    A_AUTOFIGHT,
    A_BATHE,
    A_BID,
    A_BRIBE,
    A_CANCEL,
    A_CAST,
    A_CHOOSE,
    A_EXPLORE,
    A_GIVE,
    A_HINT,
    A_LEAVE,
    A_LISTEN,
    A_LOOT,
    A_LUCK,
    A_MOVE,
    A_OPEN,
    A_POWER,
    A_PUSH,
    A_REPAIR,
    A_REST,
    A_RING,
    A_RUN,
    A_SEARCH,
    A_SELECT,
    A_SELL,
    A_SHOP,
    A_SNEAK,
    A_STAIRS,
    A_STATUE,
    A_SWAP,
    A_TRAIN,
    A_USE,
    A_WAIT,
    A_WEAR,
    A_WORK,
    NUM_BIDS,
    TIMED,
)
from ..core.params import P_FREE_ACTIONS, P_TASK, TASK_EXPLORE, TASK_VAULT
from ..core.state import DIRTY_ALL, DIRTY_MAGIC, DIRTY_MAP, DIRTY_PACK, DIRTY_PARTY, DIRTY_SELECT
from ..core.tables import (
    CHOICE,
    EXPLORE,
    FIGHT,
    MAX_FOES,
    MAX_MEMBERS,
    MAX_OPTIONS,
    NUM_ITEM_SLOTS,
    NUM_POWERS,
    PLATE,
    STAIR_DOWN,
    STAIR_UP,
    STATUE,
    STORE,
    T_FOE,
    T_MEMBER,
    WALL,
)
from ..rules.autofight import can_autofight
from ..rules.baths import can_bathe
from ..rules.bribes import can_bribe
from ..rules.chests import can_open
from ..rules.classes import can_choose
from ..rules.court import can_train
from ..rules.doors import door_direction
from ..rules.fights import is_foe_alive
from ..rules.items import can_give, can_give_any, can_select, can_use, can_use_any, can_wear
from ..rules.loot import can_loot
from ..rules.moving import can_step, is_stair_open
from ..rules.party import is_standing
from ..rules.powers import (
    can_cast,
    can_pay,
    can_use_power,
    has_target,
    offered_powers,
    power_target,
)
from ..rules.statues import can_approach_statue, can_bid, mask_statue
from ..rules.stores import can_repair, can_sell, can_shop, mask_store
from ..rules.travel import DOWN_TO, EXPLORE_TO, UP_TO, can_rest, find_ways, known_ways, stands_on
from ..rules.vaults import hint_price, is_locked_vault, num_symbols, plate_size


@njit(cache=True)
def mask_ground(s, p, e, mask):
    """The explore actions that depend on where the party stands: moves, wait, search, stairs,
    loot, working a vault lock; and the marching order's swaps. Writes every one of them.

    The explore sub-task trains finding the way down: its stair up is closed and the marching
    order is fixed (docs/RULES.md)."""
    explore_task = p[P_TASK] == TASK_EXPLORE
    f = s.floor[e]
    if f > 0:
        for d in range(4):
            mask[A_MOVE + d] = can_step(s, e, d)
        mask[A_WAIT] = True
        mask[A_SEARCH] = True
        tile = s.tiles[e, f, s.y[e], s.x[e]]
        r = s.room_of[e, f, s.y[e], s.x[e]]
        up = tile == STAIR_UP and not explore_task
        mask[A_STAIRS] = (tile == STAIR_DOWN or up) and is_stair_open(s, e)
        mask[A_LOOT] = r >= 0 and can_loot(s, e, f, r)
        vault = r >= 0 and is_locked_vault(s, e, f, r)  # VAULT-1: any standing member
        for m in range(MAX_MEMBERS):  # (chests, baths and statues stand in rooms: r >= 0)
            mask[A_WORK + m] = vault and is_standing(s, e, m)
            mask[A_OPEN + m] = r >= 0 and can_open(s, p, e, m)  # CHEST-1
            mask[A_BATHE + m] = r >= 0 and can_bathe(s, p, e, m)  # BATH-1
        mask[A_STATUE] = r >= 0 and can_approach_statue(s, p, e)  # STATUE-1
    else:  # COURT-1: the courtyard's choices are its stair, store and training ground
        for a in range(A_MOVE, A_LOOT + 1):
            mask[a] = a == A_STAIRS
        for m in range(MAX_MEMBERS):
            mask[A_WORK + m] = mask[A_OPEN + m] = mask[A_BATHE + m] = False
        mask[A_STATUE] = False
    door = door_direction(s, e) >= 0  # LISTEN-1, SNEAK-1: at any room's door
    mask[A_LISTEN] = door
    for m in range(MAX_MEMBERS):
        mask[A_SNEAK + m] = door and is_standing(s, e, m)
    mask[A_SHOP] = can_shop(s, p, e)  # STORE-1
    mask[A_TRAIN] = can_train(s, p, e)  # COURT-2
    for pos in range(MAX_MEMBERS - 1):
        mask[A_SWAP + pos] = s.order[e, pos] >= 0 and s.order[e, pos + 1] >= 0 and not explore_task
    ways = known_ways(s, e)  # explore and travel while there is a way; rest while it heals
    mask[A_EXPLORE + EXPLORE_TO] = ways & (1 << EXPLORE_TO) != 0
    mask[A_EXPLORE + DOWN_TO] = ways & (1 << DOWN_TO) != 0 and not stands_on(s, e, s.stair_down)
    mask[A_EXPLORE + UP_TO] = ways & (1 << UP_TO) != 0 and not stands_on(s, e, s.stair_up)
    mask[A_REST] = can_rest(s, e)


@njit(cache=True)
def is_over_free_limit(s, p, e):
    """No free stall (step.count_free): the limit of time-free actions in a row is reached."""
    return s.free_streak[e] >= p[P_FREE_ACTIONS]


@njit(cache=True)
def keep_timed(mask):
    """Over the free limit, exploring: only what passes time or takes the stairs (the
    families marked `timed` in actions.FAMILIES)."""
    for a in range(len(mask)):
        mask[a] = mask[a] and TIMED[a]


@njit(cache=True)
def is_selectable(s, p, e, m, slot):
    """An item slot may be selected when one of its follow-ups is legal: exploring or in a
    fight give, wear, take off or use it (`items.can_select`); in a store sell or repair it;
    before a statue bid on it. Only the current screen's follow-ups are asked (the hot path)."""
    if s.item[e, m, slot] == 0:
        return False
    mode = s.mode[e]
    if mode == STORE:
        return can_sell(s, p, e, m, slot) or can_repair(s, p, e, m, slot)
    if mode == STATUE:
        for q in range(NUM_BIDS):
            if can_bid(s, p, e, m, slot, q):
                return True
        return False
    return can_select(s, p, e, m, slot)


@njit(cache=True)
def mask_items(s, p, e, mask):
    """PARTY-4, ITEM-1: every item slot that can be selected (`is_selectable`). Exploring,
    this depends only on the packs and who stands (DIRTY_PACK). The explore sub-task's packs
    stay as they are (docs/RULES.md). Exploring and fighting, whether a member can give is
    asked first and once for all its items (`items.can_give_any`): exploring it mostly can,
    and then its items need no other question."""
    items_screen = s.mode[e] != STORE and s.mode[e] != STATUE
    for m in range(MAX_MEMBERS):
        gives = -1  # not asked yet
        for slot in range(NUM_ITEM_SLOTS):
            a = A_SELECT + m * NUM_ITEM_SLOTS + slot
            if s.item[e, m, slot] == 0:
                mask[a] = False
            elif not items_screen:
                mask[a] = is_selectable(s, p, e, m, slot)
            else:
                if gives < 0:
                    gives = 1 if can_give_any(s, p, e, m, slot) else 0
                mask[a] = gives == 1 or can_wear(s, p, e, m, slot) or can_use_any(s, p, e, m, slot)


@njit(cache=True)
def mask_selected(s, p, e, mask):
    """With an item selected only its follow-ups: give it to b, use it on b, wear it or take
    it off (each as `items` allows), or put it back."""
    m, slot = s.sel_member[e], s.sel_slot[e]
    for b in range(MAX_MEMBERS):
        mask[A_GIVE + b] = can_give(s, p, e, m, slot, b)
        mask[A_USE + b] = can_use(s, p, e, m, slot, b)
    mask[A_WEAR] = can_wear(s, p, e, m, slot)
    mask[A_SELL] = can_sell(s, p, e, m, slot)  # STORE-2
    mask[A_REPAIR] = can_repair(s, p, e, m, slot)
    for q in range(NUM_BIDS):  # STATUE-1
        mask[A_BID + q] = can_bid(s, p, e, m, slot, q)
    mask[A_CANCEL] = True


@njit(cache=True)
def mask_casters(s, p, e, mask):
    """`A_CAST + m` for every member who can use a power now (`powers.can_cast`). Exploring,
    this depends only on state whose changes mark DIRTY_PARTY, DIRTY_MAGIC or DIRTY_MAP."""
    for m in range(MAX_MEMBERS):
        mask[A_CAST + int(m)] = can_cast(s, p, e, m)


@njit(cache=True)
def mask_casting(s, p, e, mask):
    """A caster is chosen: the powers it can use now; once one is chosen, its targets (a
    member as `A_USE + b`, a foe as `A_ATTACK + k`). Putting it back is always allowed."""
    m, i = s.caster[e], s.sel_power[e]
    if i < 0:
        ready = offered_powers(s, e, m)  # can_choose_power, with m's ready bits found once
        for j in range(NUM_POWERS):
            ok = (ready >> j) & 1 == 1 and can_pay(s, p, e, m, j) and has_target(s, p, e, m, j)
            mask[A_POWER + j] = ok
    elif power_target(s, e, i) == T_MEMBER:
        for b in range(MAX_MEMBERS):
            mask[A_USE + b] = can_use_power(s, p, e, m, i, b)
    elif power_target(s, e, i) == T_FOE:
        for k in range(MAX_FOES):
            mask[A_ATTACK + k] = can_use_power(s, p, e, m, i, k)
    mask[A_CANCEL] = True


@njit(cache=True)
def mask_choice(s, e, mask):
    """CHOICE-1: only the pending member's options for the level owed."""
    for o in range(MAX_OPTIONS):
        mask[A_CHOOSE + o] = can_choose(s, e, o)


@njit(cache=True)
def mask_fight(s, p, e, mask):
    m = s.order[e, s.actor[e]]
    mask[A_CAST + int(m)] = can_cast(s, p, e, m)
    for k in range(MAX_FOES):
        alive = is_foe_alive(s, e, k)
        mask[A_ATTACK + k] = alive
        mask[A_LUCK + k] = alive and s.luck[e, m] > 0
    mask[A_RUN] = True
    mask[A_AUTOFIGHT] = can_autofight(s, e)
    mask[A_BRIBE] = can_bribe(s, e)  # BRIBE-1
    mask_items(s, p, e, mask)  # a fallen member's things, the actor's own consumables


@njit(cache=True)
def mask_lock(s, p, e, mask):
    """WALL-1: any symbol for the next ring. PLATE-1: any cell; a hint when none is shown and
    it can be paid. Leaving is always allowed, except in the vault sub-task."""
    f = s.floor[e]
    if s.mode[e] == WALL:
        for k in range(num_symbols(f)):
            mask[A_RING + k] = True
    else:
        n = plate_size(f)
        for i in range(n * n):
            mask[A_PUSH + i] = True
        mask[A_HINT] = s.plate_hint[e, f] < 0 and s.gold[e] >= hint_price(s, e)
    mask[A_LEAVE] = p[P_TASK] != TASK_VAULT


@njit(cache=True)
def mask_explore(s, p, e, mask):
    """The whole explore row (over a cleared `mask`)."""
    mask_ground(s, p, e, mask)
    mask_items(s, p, e, mask)
    mask_casters(s, p, e, mask)
    if is_over_free_limit(s, p, e):
        keep_timed(mask)


@njit(cache=True)
def legal_mask(s, p, e, mask, full, kept_row, kept):
    """Write env e's legal actions into the bool row `mask`.

    Exploring on, only the actions that depend on where the party stands are rewritten unless
    the packs changed (DIRTY_PACK); `full` (and any change of screen) recomputes the whole row.
    While an item or a caster is selected only its follow-ups are legal; the explore row it
    replaced is kept (`kept_row`, `kept[e]`): no time passes until the follow-up, so when the
    selection ends the kept row is what the state before that step allowed, and the follow-up's
    own changes are written over it as any exploring step's are. Once the run is over only
    'wait' stays unmasked, so a mask is never empty (maskable policies sample from it);
    stepping an ended env is refused by the Gymnasium layer.
    """
    dirty = DIRTY_ALL if full else s.dirty[e]
    if full:  # travel's kept ways searched again too (a stale one shows against the last row)
        s.ways_known[e] = find_ways(s, e)
    selected = s.sel_member[e] >= 0
    casting = s.caster[e] >= 0
    explore = s.outcome[e] == 0 and s.mode[e] == EXPLORE
    if full:  # (a state loaded with a selection open: the explore row is made, not kept)
        kept[e] = explore and (selected or casting)
        if kept[e]:
            kept_row[:] = False
            mask_explore(s, p, e, kept_row)
    elif selected or casting:
        if explore and not kept[e]:  # the row is still the explore row of the last step
            kept_row[:] = mask
            kept[e] = True
    elif kept[e]:  # the selection ended this step
        kept[e] = False
        if explore and dirty != DIRTY_ALL:
            mask[:] = kept_row
            dirty = int(dirty) & ~DIRTY_SELECT
    if dirty & DIRTY_SELECT or selected or casting or is_over_free_limit(s, p, e):
        dirty = DIRTY_ALL
    if explore and dirty != DIRTY_ALL:
        mask_ground(s, p, e, mask)
        if dirty & DIRTY_PACK:
            mask_items(s, p, e, mask)
        if dirty & (DIRTY_PARTY | DIRTY_MAGIC | DIRTY_MAP):
            mask_casters(s, p, e, mask)
        return
    mask[:] = False
    if s.outcome[e] != 0:
        mask[A_WAIT] = True
    elif selected:
        mask_selected(s, p, e, mask)
    elif casting:
        mask_casting(s, p, e, mask)
    elif s.mode[e] == CHOICE:
        mask_choice(s, e, mask)
    elif s.mode[e] == EXPLORE:
        mask_explore(s, p, e, mask)
    elif s.mode[e] == FIGHT:
        mask_fight(s, p, e, mask)
        if is_over_free_limit(s, p, e):  # no free stall: only what ends the turn
            mask[A_SELECT:A_GIVE] = False
            mask[A_CAST:A_POWER] = False
    elif s.mode[e] == WALL or s.mode[e] == PLATE:
        mask_lock(s, p, e, mask)
    elif (s.mode[e] == STORE or s.mode[e] == STATUE) and is_over_free_limit(s, p, e):
        mask[A_LEAVE] = True  # no free stall: only leaving
    elif s.mode[e] == STORE:
        mask_store(s, p, e, mask)
        mask_items(s, p, e, mask)  # to sell or repair
    elif s.mode[e] == STATUE:
        mask_statue(s, p, e, mask)
        mask_items(s, p, e, mask)  # to bid on
