"""Why an action is masked: a reason naming the rule, for any index the mask refuses.

`why_code` walks the checks `mask.legal_mask` makes, screen by screen and family by family,
in the same order, and returns the code of the first that refuses the action (`LEGAL` when
none does); `why_masked` writes the code's text (`REASONS`) for a person. Nothing on the
step's path calls either: they run only when asked (`DelveEnv.why`, `DelveVectorEnv.why`,
`delve play`), and change nothing. `tests/test_why.py` plays random legal actions on every
registered id and checks, at every state and for every index, that the code is `LEGAL`
exactly where the mask says legal. A new action family adds its checks here beside its
legality in `mask`.
"""

from __future__ import annotations

from ..compiled.jit import njit
from ..core.actions import (
    ARG,
    DIRECTIONS,
    F_ATTACK,
    F_AUTOFIGHT,
    F_BATHE,
    F_BID,
    F_BRIBE,
    F_BUY,
    F_CANCEL,
    F_CAST,
    F_CHOOSE,
    F_EXPLORE,
    F_GIVE,
    F_HINT,
    F_LEAVE,
    F_LISTEN,
    F_LOOT,
    F_LUCK,
    F_MEND,
    F_MOVE,
    F_OPEN,
    F_POWER,
    F_PUSH,
    F_REPAIR,
    F_REST,
    F_RING,
    F_RUN,
    F_SEARCH,
    F_SELECT,
    F_SELL,
    F_SHOP,
    F_SNEAK,
    F_STAIRS,
    F_STATUE,
    F_SWAP,
    F_TRAIN,
    F_TRAVEL_DOWN,
    F_TRAVEL_UP,
    F_USE,
    F_WAIT,
    F_WEAR,
    F_WORK,
    FAMILIES,
    FAMILY,
    NUM_ACTIONS,
    TIMED,
    action_name,
    slot_name,
)
from ..core.params import P_TASK, TASK_EXPLORE, TASK_VAULT
from ..core.tables import (
    CAT_WEAPON,
    CHOICE,
    CLASS_NAMES,
    EXPLORE,
    FEAT_BATH,
    FEAT_STATUE,
    FIGHT,
    FIRST_FEATURE,
    FIRST_NAME_SPELL,
    I_CAT,
    ITEMS,
    KING,
    MAGE_SPELLS,
    MAX_FOES,
    MAX_MEMBERS,
    MAX_RAISES,
    MAX_STOCK,
    MODE_NAMES,
    NO_USE,
    NUM_EQUIP,
    NUM_ITEM_SLOTS,
    NUM_OPTIONS,
    ON_ARMED,
    ON_FALLEN,
    ON_SELF,
    ON_SELF_READER,
    ON_STANDING,
    PLATE,
    POWER_NAMES,
    RATIONS_CODE,
    READY,
    STAIR_DOWN,
    STAIR_UP,
    STATUE,
    STORE,
    T_FOE,
    T_MEMBER,
    U_EFFECT,
    U_TARGET,
    USE_GOODWILL,
    USE_NONE,
    USE_SUMMON,
    USES,
    WALL,
    WIZARD,
)
from ..generation.features import feature_here
from ..rules.bribes import bribe_price
from ..rules.chests import is_chest_shut
from ..rules.classes import knows_mage_spell, owed_level, pending_member
from ..rules.doors import door_direction
from ..rules.fights import is_foe_alive, weakest_foe
from ..rules.items import acting_member, is_item_mode
from ..rules.loot import can_loot, has_loot
from ..rules.moving import can_step, is_stair_open
from ..rules.party import free_pack_slot, is_known, is_reader, is_standing, num_standing, wear_slot
from ..rules.powers import (
    can_cast,
    can_pay,
    has_power,
    has_target,
    offered_powers,
    power_suits,
    power_target,
)
from ..rules.spells import in_armor, known_spells
from ..rules.statues import bid_amount, mend_price
from ..rules.stores import (
    MAX_RATIONS,
    line_kind,
    line_price,
    repair_points,
    repair_price,
    store_level,
)
from ..rules.travel import DOWN_TO, EXPLORE_TO, UP_TO, WAYS_FRESH, can_rest, find_ways, stands_on
from ..rules.vaults import hint_price, is_locked_vault, num_symbols, plate_size
from .mask import is_over_free_limit, is_selectable

_TEXTS = [""]


def reason(text: str) -> int:
    """A new reason code for `text` (rule id first; fields filled by `why_masked`)."""
    _TEXTS.append(text)
    return len(_TEXTS) - 1


LEGAL = 0
# --- any screen ------------------------------------------------------------------------------
RUN_OVER = reason("RUN-3: the run is over; only waiting is left")
OFF_SCREEN = reason("{prefix}{name} is offered only {where}; the party is {doing}")
NO_SCREEN = reason("nothing is offered on the {mode} screen")
ITEM_HELD = reason(
    "PARTY-4: {holder}'s {held} is selected: only giving, using, wearing, selling, repairing"
    " or bidding on it, or putting it back"
)
POWER_HELD = reason(
    "SPELL-1: {caster} is using a power: only the power, its target, or putting it back"
)
CHOICE_OWED = reason("CHOICE-1: a level choice is owed: only its options")
FREE_EXPLORING = reason(
    "the free-action limit: only actions that pass time (or take the stairs) until a pace passes"
)
FREE_FIGHTING = reason("the free-action limit: only actions that end the turn")
FREE_SCREEN = reason("the free-action limit: only leaving")
NO_MEMBER = reason("PARTY-1: there is no {member}")
MEMBER_DOWN = reason("HP-2: {member} is not standing")
EXPLORE_PACKS = reason("the explore sub-task: the packs stay as they are")
# --- exploring -------------------------------------------------------------------------------
COURTYARD = reason(
    "COURT-1: the courtyard offers its stair, its store, its training ground and the marching order"
)
NO_STEP = reason("MAP-3: no way {direction}: wall or rock")
NO_STAIR = reason("RUN-1: no stair here")
STAIR_UP_SHUT = reason("the explore sub-task: its stair up is closed")
STAIR_SHUT = reason("MAP-5: the stair down opens with the map of this floor or a deeper one")
NOT_IN_ROOM = reason("LOOT-1: not in a room")
VAULT_KEEPS = reason("VAULT-1: a locked vault keeps its loot until its lock is opened")
NOTHING_LEFT = reason("LOOT-1: nothing is left here to loot")
NO_ROOM_FOR_LOOT = reason("LOOT-1: only items are left, and no standing member has pack room")
NO_VAULT = reason("VAULT-1: no locked vault here")
NO_CHEST = reason("CHEST-1: no shut chest here")
NO_BATH = reason("BATH-1: no Bath of Fates here")
BATHED = reason("BATH-1: {member} has bathed in this floor's bath")
NO_STATUE = reason("STATUE-1: no living statue here")
NO_DOOR = reason("{prefix}not at a room's door")
NO_STORE = reason(
    "STORE-1: no store here (the courtyard and the store rooms of floors 3, 6, 9, 12)"
)
NOT_COURTYARD = reason("COURT-2: the training ground is in the courtyard")
NO_ONE_STANDS = reason("COURT-2: no one stands to practice")
ORDER_FIXED = reason("the explore sub-task: the marching order is fixed")
NO_PAIR = reason("PARTY-2: marching positions {n} and {n1} are not both taken")
NO_EXPLORE_WAY = reason("nothing is left to explore or search within reach")
NO_DOWN_WAY = reason("MAP-5: the stair down is not seen, not open or not within reach")
NO_UP_WAY = reason("the stair up is not within reach")
ON_THE_STAIR = reason("the party stands on the stair")
REST_COURTYARD = reason("HEAL-1: no resting in the courtyard")
NO_RATIONS = reason("FOOD-2: no rations left")
NO_ONE_HEALS = reason("HEAL-1: no standing member can heal more or fill their well")
SLOT_EMPTY = reason("PARTY-4: {member}'s {slot} is empty")
SLOT_IDLE = reason("PARTY-4, ITEM-1: nothing can be done with {member}'s {slot} now")
NOT_ACTOR = reason("ROUND-1: in a fight only the acting member, {actor}, acts")
NO_POWER_NOW = reason("SPELL-1: {member} has no power ready, paid for and with a target now")
# --- a fight ---------------------------------------------------------------------------------
FOE_GONE = reason("ATTACK-1: monster {n} is not standing")
NO_LUCK = reason("LUCK-2: {actor} has no luck dice left")
NO_FOE = reason("ATTACK-1: no foe left to attack")
PRACTICE_BRIBE = reason("BRIBE-1: no bribes in a practice bout (COURT-2)")
SNEAK_BRIBE = reason("SNEAK-1: no bribe while a member sneaks in alone")
BRIBE_GOLD = reason("BRIBE-1: the purse does not cover the band's price")
# --- a lock ----------------------------------------------------------------------------------
NO_SYMBOL = reason("WALL-1: this floor's wall has no symbol {k}")
NO_CELL = reason("PLATE-1: this floor's plate has no cell {k}")
HINT_SHOWN = reason("PLATE-1: a hint is shown already")
HINT_GOLD = reason("PLATE-1: the purse does not cover a hint")
VAULT_TASK = reason("the vault sub-task: the lock is the whole task; no leaving")
# --- a store, a statue -----------------------------------------------------------------------
NO_LINE = reason("STORE-1: this store has no line {k}")
LINE_GOLD = reason("STORE-2: the purse does not cover line {k}")
RATIONS_FULL = reason("STORE-2: the party carries all the rations it can")
NO_PACK_ROOM = reason("STORE-2: no standing member has pack room")
NO_HEALING = reason("CLASS-1: {member} may not be healed after blood magic until a new floor")
NOT_WOUNDED = reason("STATUE-2: {member} has no wounds")
MEND_GOLD = reason("STATUE-2: the purse does not cover one hit point")
NOTHING_TO_SELL = reason("STORE-2: {member}'s {slot} can be neither sold nor repaired here")
NOTHING_TO_BID = reason("STATUE-1: {member}'s {slot} is known, or no bid on it can be paid")
# --- an item selected ------------------------------------------------------------------------
ITEMS_OFF_SCREEN = reason("PARTY-4: items change hands or are used only exploring or in a fight")
GIVE_IN_FIGHT = reason("PARTY-4: in a fight only a fallen member's things change hands")
HOLDS_IT = reason("PARTY-4: {member} holds it already")
PACK_FULL = reason("PARTY-4: {member}'s pack is full")
TAKER_IN_FIGHT = reason("PARTY-4: in a fight only the acting member, {actor}, takes things")
WORN_NOT_USED = reason("ITEM-1: worn gear is not used up")
NOT_CONSUMABLE = reason("ITEM-1: the selected item is not used up on anyone")
HOLDER_DOWN = reason("HP-2: {holder} is not standing")
USER_IN_FIGHT = reason("ROUND-1: in a fight only the acting member, {actor}, uses an item")
GOODWILL_OUTSIDE = reason("BRIBE-3: a scroll of goodwill is read only in a fight")
SUMMON_OUTSIDE = reason("ITEM-1: a summoning stone works only in a fight with no ally yet")
NOT_FALLEN = reason("RAISE-1: {member} has not fallen")
KING_NOT_RAISED = reason("RAISE-1: the king is never raised")
RAISED_ENOUGH = reason("RAISE-1: {member} has been raised 3 times")
NO_WEAPON = reason("ITEM-1: {member} holds no weapon in the ready hand")
ON_HOLDER = reason("EFFECT-1: it is used by its holder, {holder}")
NOT_A_READER = reason("PAGE-2: {holder} does not read scrolls")
WEAR_OUTSIDE = reason("PARTY-4: gear is worn or taken off only exploring")
HOLDER_FULL = reason("PARTY-4: {holder}'s pack is full")
NOT_WORN = reason("PARTY-4: the selected item is not worn")
SOLD_IN_STORE = reason("STORE-2: items are sold or repaired only in a store")
NO_REPAIR = reason("STORE-2: the selected item needs no repair (or is no weapon, shield or armor)")
REPAIR_GOLD = reason("STORE-2: the purse does not cover the repair")
BID_AT_STATUE = reason("STATUE-1: bids are made only before a living statue")
KNOWN_ITEM = reason("ITEM-2: the selected item is known already")
BID_GOLD = reason("STATUE-1: the purse does not cover this bid")
# --- a power being chosen --------------------------------------------------------------------
POWER_FIGHT_ONLY = reason("{power_rule}: {power} is used only in a fight")
POWER_NOT_IN_FIGHT = reason("{power_rule}: {power} is not used in a fight")
IN_ARMOR = reason("class table: a Wizard casts in robes, not in armor")
CHARGE_SPENT = reason("CLASS-1: {caster} has cast {power} on this floor, with no wand cast left")
NO_SPELL = reason("SPELL-1, PAGE-2: {caster} knows no {power}, nor has its page in the book")
NO_FEATURE = reason("CLASS-1: {caster} has no {power}")
NO_NAMES = reason("NAME-1: {caster} does not know both names of {power}")
NO_MANA = reason("{power_rule}: {caster} has too little mana for {power}")
NO_TARGET = reason("{power_rule}: {power} would do nothing to anyone now")
NO_EFFECT = reason("{power_rule}: {power} would do nothing to {target}")
# --- a level choice --------------------------------------------------------------------------
NO_OPTION = reason("CHOICE-1: the class offers no option {n} at this level")
NOT_SIGNATURE = reason("CLASS-1: a Wizard's signature spell is a mage spell it knows")

REASONS = tuple(_TEXTS)  # code -> text
# what the party is doing, by mode (tables.MODE_NAMES)
DOING = ("exploring", "in a fight", "at a tumbler wall", "at a lock plate", "in a store",
         "before a living statue", "in a bath", "choosing a level option")  # fmt: skip


# --- the checks, in mask.py's order ----------------------------------------------------------
@njit(cache=True)
def why_code(s, p, e, a):
    """Why env e's mask refuses action a: the first of `legal_mask`'s checks that refuses it,
    as a reason code (`LEGAL` if none does). Reads the state only."""
    fam, k = FAMILY[a], ARG[a]
    mode = s.mode[e]
    if s.outcome[e] != 0:
        return LEGAL if fam == F_WAIT else RUN_OVER
    if s.sel_member[e] >= 0:
        return why_selected(s, p, e, fam, k)
    if s.caster[e] >= 0:
        return why_casting(s, p, e, fam, k)
    if mode == CHOICE:
        return why_choice(s, e, fam, k)
    if mode == EXPLORE:
        code = why_exploring(s, p, e, fam, k)
        if code == LEGAL and is_over_free_limit(s, p, e) and not TIMED[a]:
            return FREE_EXPLORING
        return code
    if mode == FIGHT:
        code = why_fighting(s, p, e, fam, k)
        free = fam == F_SELECT or fam == F_CAST
        if code == LEGAL and free and is_over_free_limit(s, p, e):
            return FREE_FIGHTING
        return code
    if mode == WALL or mode == PLATE:
        return why_lock(s, p, e, fam, k)
    if mode == STORE or mode == STATUE:
        if mode == STORE:
            code = why_store(s, p, e, fam, k)
        else:
            code = why_statue(s, p, e, fam, k)
        if code == LEGAL and fam != F_LEAVE and is_over_free_limit(s, p, e):
            return FREE_SCREEN
        return code
    return NO_SCREEN


@njit(cache=True)
def why_member(s, e, m):
    """NO_MEMBER, MEMBER_DOWN or LEGAL: member m is there and standing."""
    if m < 0 or not s.in_party[e, m]:
        return NO_MEMBER
    return LEGAL if is_standing(s, e, m) else MEMBER_DOWN


@njit(cache=True)
def why_ground(s, p, e, fam, k):
    """`mask.mask_ground`'s actions on a floor (not the courtyard): where the party stands."""
    f = s.floor[e]
    tile = s.tiles[e, f, s.y[e], s.x[e]]
    r = s.room_of[e, f, s.y[e], s.x[e]]
    if fam == F_MOVE:
        return LEGAL if can_step(s, e, k) else NO_STEP
    if fam == F_WAIT or fam == F_SEARCH:
        return LEGAL
    if fam == F_STAIRS:
        if tile != STAIR_DOWN and tile != STAIR_UP:
            return NO_STAIR
        if tile == STAIR_UP and p[P_TASK] == TASK_EXPLORE:
            return STAIR_UP_SHUT
        return LEGAL if is_stair_open(s, e) else STAIR_SHUT
    if fam == F_LOOT:
        if r < 0:
            return NOT_IN_ROOM
        if is_locked_vault(s, e, f, r):
            return VAULT_KEEPS
        if not has_loot(s, e, f, r):
            return NOTHING_LEFT
        return LEGAL if can_loot(s, e, f, r) else NO_ROOM_FOR_LOOT
    if fam == F_WORK:
        return NO_VAULT if r < 0 or not is_locked_vault(s, e, f, r) else why_member(s, e, k)
    if fam == F_OPEN:
        if r < 0 or not is_chest_shut(s, e, f, r):  # chests.can_open
            return NO_CHEST
        return why_member(s, e, k)
    if fam == F_BATHE:
        if r < 0 or feature_here(s, e) != FEAT_BATH:  # baths.can_bathe
            return NO_BATH
        if why_member(s, e, k) != LEGAL:
            return why_member(s, e, k)
        return BATHED if s.bathed[e, f, k] else LEGAL
    if p[P_TASK] == TASK_EXPLORE:  # F_STATUE
        return EXPLORE_PACKS
    return LEGAL if r >= 0 and feature_here(s, e) == FEAT_STATUE else NO_STATUE


@njit(cache=True)
def why_travel(s, e, fam):
    """Explore, travel down or up while there is a way (travel.known_ways), rest while it
    heals (travel.can_rest)."""
    ways = s.ways_known[e]
    if ways & WAYS_FRESH == 0:  # (fresh after every step; found here, not kept)
        ways = find_ways(s, e, ways)
    if fam == F_EXPLORE:
        return LEGAL if ways & (1 << EXPLORE_TO) != 0 else NO_EXPLORE_WAY
    if fam == F_TRAVEL_DOWN:
        if ways & (1 << DOWN_TO) == 0:
            return NO_DOWN_WAY
        return ON_THE_STAIR if stands_on(s, e, s.stair_down) else LEGAL
    if fam == F_TRAVEL_UP:
        if ways & (1 << UP_TO) == 0:
            return NO_UP_WAY
        return ON_THE_STAIR if stands_on(s, e, s.stair_up) else LEGAL
    if can_rest(s, e):  # F_REST
        return LEGAL
    if s.floor[e] == 0:
        return REST_COURTYARD
    return NO_RATIONS if s.rations[e] == 0 else NO_ONE_HEALS


@njit(cache=True)
def why_exploring(s, p, e, fam, k):
    """`mask.mask_explore` (before the free-action limit)."""
    ground = fam == F_MOVE or fam == F_WAIT or fam == F_SEARCH or fam == F_LOOT
    ground = ground or fam == F_WORK or fam == F_OPEN or fam == F_BATHE or fam == F_STATUE
    if ground or fam == F_STAIRS:
        if s.floor[e] == 0:
            return LEGAL if fam == F_STAIRS else COURTYARD
        return why_ground(s, p, e, fam, k)
    if fam == F_LISTEN or fam == F_SNEAK:
        if door_direction(s, e) < 0:
            return NO_DOOR
        return LEGAL if fam == F_LISTEN else why_member(s, e, k)
    if fam == F_SHOP:
        if p[P_TASK] == TASK_EXPLORE:
            return EXPLORE_PACKS
        return LEGAL if store_level(s, e) >= 0 else NO_STORE
    if fam == F_TRAIN:
        if s.floor[e] != 0:
            return NOT_COURTYARD
        return LEGAL if num_standing(s, e) > 0 else NO_ONE_STANDS
    if fam == F_SWAP:
        if p[P_TASK] == TASK_EXPLORE:
            return ORDER_FIXED
        return LEGAL if s.order[e, k] >= 0 and s.order[e, k + 1] >= 0 else NO_PAIR
    if fam == F_EXPLORE or fam == F_TRAVEL_DOWN or fam == F_TRAVEL_UP or fam == F_REST:
        return why_travel(s, e, fam)
    if fam == F_SELECT:
        return why_select(s, p, e, k)
    if fam == F_CAST:
        return why_cast(s, p, e, k)
    return OFF_SCREEN


@njit(cache=True)
def why_select(s, p, e, k):
    """`mask.mask_items`: an item slot is selected when something can be done with it now."""
    m, slot = k // NUM_ITEM_SLOTS, k % NUM_ITEM_SLOTS
    if s.item[e, m, slot] == 0:
        return SLOT_EMPTY
    if is_selectable(s, p, e, m, slot):
        return LEGAL
    if s.mode[e] == STORE:
        return NOTHING_TO_SELL
    return NOTHING_TO_BID if s.mode[e] == STATUE else SLOT_IDLE


@njit(cache=True)
def why_cast(s, p, e, m):
    """`powers.can_cast`: m stands (in a fight: acts) and has a power to use now."""
    if why_member(s, e, m) != LEGAL:
        return why_member(s, e, m)
    if s.mode[e] == FIGHT and (s.actor[e] < 0 or s.order[e, s.actor[e]] != m):
        return NOT_ACTOR
    return LEGAL if can_cast(s, p, e, m) else NO_POWER_NOW


@njit(cache=True)
def why_fighting(s, p, e, fam, k):
    """`mask.mask_fight` (before the free-action limit)."""
    m = s.order[e, s.actor[e]]
    if fam == F_CAST:
        return why_cast(s, p, e, k) if k == m else NOT_ACTOR
    if fam == F_ATTACK or fam == F_LUCK:
        if not is_foe_alive(s, e, k):
            return FOE_GONE
        return LEGAL if fam == F_ATTACK or s.luck[e, m] > 0 else NO_LUCK
    if fam == F_RUN:
        return LEGAL
    if fam == F_AUTOFIGHT:
        return LEGAL if weakest_foe(s, e) >= 0 else NO_FOE
    if fam == F_BRIBE:
        if s.practice[e]:
            return PRACTICE_BRIBE
        if s.sneaker[e] >= 0:
            return SNEAK_BRIBE
        return LEGAL if s.gold[e] >= bribe_price(s, e) else BRIBE_GOLD
    if fam == F_SELECT:
        return why_select(s, p, e, k)
    return OFF_SCREEN


@njit(cache=True)
def why_lock(s, p, e, fam, k):
    """`mask.mask_lock`: a ring's symbol, a plate's cell or hint, leaving."""
    f = s.floor[e]
    if fam == F_LEAVE:
        return VAULT_TASK if p[P_TASK] == TASK_VAULT else LEGAL
    if s.mode[e] == WALL and fam == F_RING:
        return LEGAL if k < num_symbols(f) else NO_SYMBOL
    if s.mode[e] == PLATE and fam == F_PUSH:
        return LEGAL if k < plate_size(f) * plate_size(f) else NO_CELL
    if s.mode[e] == PLATE and fam == F_HINT:
        if s.plate_hint[e, f] >= 0:
            return HINT_SHOWN
        return LEGAL if s.gold[e] >= hint_price(s, e) else HINT_GOLD
    return OFF_SCREEN


@njit(cache=True)
def why_store(s, p, e, fam, k):
    """`stores.mask_store` and the items to sell or repair (before the free-action limit)."""
    if fam == F_LEAVE:
        return LEGAL
    if fam == F_SELECT:
        return why_select(s, p, e, k)
    if fam != F_BUY:
        return OFF_SCREEN
    level = store_level(s, e)  # stores.can_buy
    if k >= MAX_STOCK or level < 0 or line_kind(level, k) == 0:
        return NO_LINE
    if s.gold[e] < line_price(level, k):
        return LINE_GOLD
    if line_kind(level, k) == RATIONS_CODE:
        return LEGAL if s.rations[e] <= MAX_RATIONS else RATIONS_FULL
    for pos in range(MAX_MEMBERS):  # party.first_with_room
        b = s.order[e, pos]
        if is_standing(s, e, b) and free_pack_slot(s, e, b) >= 0:
            return LEGAL
    return NO_PACK_ROOM


@njit(cache=True)
def why_statue(s, p, e, fam, k):
    """`statues.mask_statue` and the items to bid on (before the free-action limit)."""
    if fam == F_LEAVE:
        return LEGAL
    if fam == F_SELECT:
        return why_select(s, p, e, k)
    if fam != F_MEND:
        return OFF_SCREEN
    if why_member(s, e, k) != LEGAL:  # statues.can_mend
        return why_member(s, e, k)
    if s.blood_used[e, k]:  # traits.may_heal
        return NO_HEALING
    if s.hp[e, k] >= s.ceiling[e, k]:
        return NOT_WOUNDED
    return LEGAL if s.gold[e] >= mend_price(s, e) else MEND_GOLD


@njit(cache=True)
def why_choice(s, e, fam, k):
    """`mask.mask_choice`: the pending member's options for the level owed."""
    if fam != F_CHOOSE:
        return CHOICE_OWED
    m = pending_member(s, e)  # classes.can_choose
    if m < 0:
        return CHOICE_OWED
    level = owed_level(s, e, m)
    if k >= NUM_OPTIONS[s.cls[e, m], level - 2]:
        return NO_OPTION
    if s.cls[e, m] == WIZARD and level == 3:
        return LEGAL if k < MAGE_SPELLS and knows_mage_spell(s, e, m, k) else NOT_SIGNATURE
    return LEGAL


@njit(cache=True)
def why_selected(s, p, e, fam, b):
    """`mask.mask_selected`: the selected item's follow-ups, each as `items`, `stores` and
    `statues` allow it."""
    m, slot = s.sel_member[e], s.sel_slot[e]
    if fam == F_CANCEL:
        return LEGAL
    if fam == F_GIVE:
        return why_give(s, p, e, m, slot, b)
    if fam == F_USE:
        code = why_usable(s, p, e, m, slot)
        return code if code != LEGAL else why_use_target(s, e, s.item[e, m, slot], m, b)
    if fam == F_WEAR:
        return why_wear(s, p, e, m, slot)
    if fam == F_SELL or fam == F_REPAIR:
        if s.mode[e] != STORE:  # stores.can_sell
            return SOLD_IN_STORE
        if not s.in_party[e, m] or s.item[e, m, slot] <= 0 or store_level(s, e) < 0:
            return NO_STORE
        if fam == F_SELL:
            return LEGAL
        if repair_points(s, e, m, slot) == 0:
            return NO_REPAIR
        return LEGAL if s.gold[e] >= repair_price(s, e, m, slot) else REPAIR_GOLD
    if fam == F_BID:
        if s.mode[e] != STATUE or not s.in_party[e, m]:  # statues.can_bid
            return BID_AT_STATUE
        kind = s.item[e, m, slot]
        if kind == 0 or is_known(s, e, kind):
            return KNOWN_ITEM
        return LEGAL if s.gold[e] >= bid_amount(s, e, b) else BID_GOLD
    return ITEM_HELD


@njit(cache=True)
def why_give(s, p, e, m, slot, b):
    """`items.can_give`: `is_giveable`, then `can_take`."""
    if p[P_TASK] == TASK_EXPLORE:
        return EXPLORE_PACKS
    if not is_item_mode(s, e) or s.item[e, m, slot] == 0:
        return ITEMS_OFF_SCREEN
    if s.mode[e] == FIGHT and s.hp[e, m] > 0:
        return GIVE_IN_FIGHT
    if b == m:
        return HOLDS_IT
    if why_member(s, e, b) != LEGAL:
        return why_member(s, e, b)
    if free_pack_slot(s, e, b) < 0:
        return PACK_FULL
    return TAKER_IN_FIGHT if s.mode[e] == FIGHT and b != acting_member(s, e) else LEGAL


@njit(cache=True)
def why_usable(s, p, e, m, slot):
    """`items.is_usable`: a standing member uses a consumable from their pack."""
    kind = s.item[e, m, slot]
    if p[P_TASK] == TASK_EXPLORE:
        return EXPLORE_PACKS
    if slot < NUM_EQUIP:
        return WORN_NOT_USED
    if USES[kind, U_EFFECT] == USE_NONE:
        return NOT_CONSUMABLE
    if not is_standing(s, e, m):
        return HOLDER_DOWN
    if not is_item_mode(s, e):
        return ITEMS_OFF_SCREEN
    if s.mode[e] == FIGHT and m != acting_member(s, e):
        return USER_IN_FIGHT
    if USES[kind, U_EFFECT] == USE_GOODWILL and s.mode[e] != FIGHT and is_known(s, e, kind):
        return GOODWILL_OUTSIDE
    summon = USES[kind, U_EFFECT] == USE_SUMMON
    if summon and not (s.mode[e] == FIGHT and s.ally_kind[e] < 0):
        return SUMMON_OUTSIDE
    return LEGAL


@njit(cache=True)
def why_use_target(s, e, kind, m, b):
    """`items.is_use_target`: member b is one the consumable works on."""
    target = USES[kind, U_TARGET]
    if target == ON_STANDING:
        return why_member(s, e, b)
    if target == ON_FALLEN:
        if not s.in_party[e, b]:
            return NO_MEMBER
        if s.hp[e, b] > 0:
            return NOT_FALLEN
        if s.cls[e, b] == KING:
            return KING_NOT_RAISED
        return LEGAL if s.raised[e, b] < MAX_RAISES else RAISED_ENOUGH
    if target == ON_ARMED:
        if why_member(s, e, b) != LEGAL:
            return why_member(s, e, b)
        return LEGAL if ITEMS[s.item[e, b, READY], I_CAT] == CAT_WEAPON else NO_WEAPON
    if target == ON_SELF or target == ON_SELF_READER:
        if b != m:
            return ON_HOLDER
        return LEGAL if target == ON_SELF or is_reader(s, e, m) else NOT_A_READER
    return NOT_CONSUMABLE


@njit(cache=True)
def why_wear(s, p, e, m, slot):
    """`items.can_wear`: a standing member wears a pack item; worn gear comes off into its
    wearer's pack."""
    kind = s.item[e, m, slot]
    if p[P_TASK] == TASK_EXPLORE:
        return EXPLORE_PACKS
    if kind == 0 or s.mode[e] != EXPLORE:
        return WEAR_OUTSIDE
    if not s.in_party[e, m]:
        return NO_MEMBER
    if slot < NUM_EQUIP:
        return LEGAL if free_pack_slot(s, e, m) >= 0 else HOLDER_FULL
    if not is_standing(s, e, m):
        return HOLDER_DOWN
    return LEGAL if wear_slot(kind) >= 0 else NOT_WORN


@njit(cache=True)
def why_casting(s, p, e, fam, k):
    """`mask.mask_casting`: the caster's powers, then the chosen one's targets."""
    m, i = s.caster[e], s.sel_power[e]
    if fam == F_CANCEL:
        return LEGAL
    if i < 0:
        return why_power(s, p, e, m, k) if fam == F_POWER else POWER_HELD
    kind = power_target(s, e, i)
    if kind == T_MEMBER and fam == F_USE:
        if not (0 <= k < MAX_MEMBERS and s.in_party[e, k]):  # powers.can_aim
            return NO_MEMBER
        if not is_standing(s, e, k):
            return MEMBER_DOWN
    elif kind == T_FOE and fam == F_ATTACK:
        if not (0 <= k < MAX_FOES and is_foe_alive(s, e, k)):
            return FOE_GONE
    else:
        return POWER_HELD
    if not (has_power(s, p, e, m, i) and can_pay(s, p, e, m, i)):  # powers.can_use_power
        return NO_MANA
    return LEGAL if power_suits(s, e, m, i, k) else NO_EFFECT


@njit(cache=True)
def why_power(s, p, e, m, j):
    """Power j offered to caster m: ready (`offered_powers`), paid for (`can_pay`), with a
    target (`has_target`), as `mask.mask_casting` asks."""
    if (offered_powers(s, e, m) >> j) & 1 == 0:
        if power_target(s, e, j) == NO_USE:
            return POWER_NOT_IN_FIGHT if s.mode[e] == FIGHT else POWER_FIGHT_ONLY
        return why_not_ready(s, e, m, j)
    if not can_pay(s, p, e, m, j):
        return NO_MANA
    return LEGAL if has_target(s, p, e, m, j) else NO_TARGET


@njit(cache=True)
def why_not_ready(s, e, m, j):
    """Why member m has not got power j ready (`powers.has_power` is false)."""
    if j >= FIRST_NAME_SPELL:
        return NO_NAMES
    if j >= FIRST_FEATURE:
        return NO_FEATURE
    if not s.in_party[e, m] or s.cls[e, m] < 0:
        return NO_MEMBER
    if in_armor(s, e, m):
        return IN_ARMOR
    spent = (int(s.spells_spent[e, m]) >> j) & 1 == 1 and s.wand_casts[e, m] <= 0
    return CHARGE_SPENT if (known_spells(s, e, m) >> j) & 1 == 1 and spent else NO_SPELL


# --- for a person ----------------------------------------------------------------------------
def _member(state, e: int, m: int) -> str:
    """'member 2 (Wizard)'."""
    if not 0 <= m < MAX_MEMBERS:
        return "no member"
    cls = int(state.cls[e, m])
    return f"member {m + 1} ({CLASS_NAMES[cls].capitalize()})" if cls >= 0 else f"member {m + 1}"


def _fields(state, e: int, a: int) -> dict[str, str]:
    """The words a reason's text may name, for action a of env e."""
    family, k = FAMILIES[int(FAMILY[a])], int(ARG[a])
    fam = int(FAMILY[a])
    m = k // NUM_ITEM_SLOTS if fam == F_SELECT else k
    holder, slot = int(state.sel_member[e]), int(state.sel_slot[e])
    power = k if fam == F_POWER else int(state.sel_power[e])
    actor, mode = int(state.actor[e]), int(state.mode[e])
    return {
        "prefix": f"{family.rules}: " if family.rules else "",
        "name": action_name(a),
        "where": family.where,
        "mode": MODE_NAMES[mode] if 0 <= mode < len(MODE_NAMES) else "?",
        "doing": DOING[mode] if 0 <= mode < len(DOING) else "?",
        "member": _member(state, e, m),
        "slot": slot_name(k % NUM_ITEM_SLOTS) if fam == F_SELECT else "",
        "holder": _member(state, e, holder),
        "held": slot_name(slot) if 0 <= slot < NUM_ITEM_SLOTS else "item",
        "caster": _member(state, e, int(state.caster[e])),
        "actor": _member(state, e, int(state.order[e, actor])) if actor >= 0 else "no one",
        "power": POWER_NAMES[power] if 0 <= power < len(POWER_NAMES) else "the power",
        "power_rule": (
            "SPELL-1"
            if power < FIRST_FEATURE
            else "CLASS-1"
            if power < FIRST_NAME_SPELL
            else "NAME-1"
        ),
        "target": f"monster {k + 1}" if fam == F_ATTACK else _member(state, e, k),
        "direction": DIRECTIONS[k] if fam == F_MOVE else "",
        "k": str(k),
        "n": str(k + 1),
        "n1": str(k + 2),
    }


def why_masked(state, params, e: int, a: int) -> str | None:
    """Why env e's mask refuses action a now, as one line naming the rule (see `REASONS`),
    or None when `why_code` finds it legal. Raises ValueError for an index out of range."""
    if not 0 <= a < NUM_ACTIONS:
        raise ValueError(f"action {a!r} is outside Discrete({NUM_ACTIONS}): [0, {NUM_ACTIONS})")
    code = why_code(state, params, e, a)
    if code == LEGAL:
        return None
    return REASONS[code].format(**_fields(state, e, a))
