"""The observation: env e's uint8 record (`layout.py`), written in place.

A step rewrites only the parts of the record its mechanics marked dirty (`state.DIRTY_*`);
`status` every step, `fight` and `puzzle` every step of a fight or a lock, `shop` every step in
a store. `full=True` (after a
reset or a load) recomputes everything from the state, and gives the very same bytes.
"""

from ..compiled.jit import njit
from ..core.state import (
    DIRTY_ALL,
    DIRTY_MAGIC,
    DIRTY_MAP,
    DIRTY_ORDER,
    DIRTY_PACK,
    DIRTY_PARTY,
    DIRTY_PUZZLE,
    DIRTY_STATUS,
    ROOM_MARK,
)
from ..core.tables import (
    ARMOR,
    CHEST_NONE,
    CHEST_OPEN,
    CHOICE,
    EV_FIGHT,
    EV_HEARD,
    FEAT_BATH,
    FEAT_STATUE,
    FIGHT,
    FS_BLIND,
    FS_BOUND,
    FS_MARKED,
    LOOK,
    M_ATK,
    M_FLAGS,
    MAX_FOES,
    MAX_MEMBERS,
    MAX_OPTIONS,
    MAX_PLATE,
    MAX_STOCK,
    MAX_SYMBOLS,
    MF_ARMOR_EATER,
    MF_METAL_EATER,
    MF_RANGED,
    MF_UNDEAD,
    MONSTERS,
    NUM_EFFECTS,
    NUM_ITEM_SLOTS,
    NUM_ITEMS,
    NUM_KEEPER_EVENTS,
    NUM_MONSTERS,
    NUM_NAMES,
    NUM_POWERS,
    NUM_SPELLS,
    OFF_HAND,
    PLATE,
    READY,
    ROOM,
    STAIR_DOWN,
    STAIR_UP,
    STORE,
    STORE_FACTOR_HALVES,
    WALL,
    WALL_HISTORY,
    WALL_LOCK,
    WALL_RINGS,
    WARD,
)
from ..generation.features import feature_here
from ..rules.bribes import bribe_chance, bribe_price
from ..rules.chests import chest_here, is_chest_shut
from ..rules.classes import can_choose, owed_level, pending_member
from ..rules.doors import door_room
from ..rules.fights import has_lingering_band, is_foe_alive, weapon_left
from ..rules.food import meal_interval
from ..rules.loot import has_loot
from ..rules.moving import is_stair_open
from ..rules.party import is_known, is_standing, level_cost
from ..rules.powers import power_cost, ready_powers
from ..rules.rooms import has_band
from ..rules.stores import (
    can_buy,
    line_kind,
    line_price,
    repair_points,
    repair_price,
    sell_price,
    store_level,
)
from ..rules.traits import piece_av
from ..rules.vaults import best_guess, consistent_symbols, hint_price, num_symbols, plate_size
from .layout import (
    BAND_HERE,
    BEST_KILLED,
    BEST_LEARNED,
    BEST_MET,
    BEST_ROW,
    BESTIARY_AT,
    BESTIARY_BYTES,
    CAP,
    COARSE_PARTY,
    CROP,
    FIGHT_ALLY,
    FIGHT_ALLY_HP,
    FIGHT_AT,
    FIGHT_BRIBE_ASKED,
    FIGHT_BRIBE_CHANCE,
    FIGHT_BRIBE_PRICE,
    FIGHT_BYTES,
    FIGHT_CHARGING,
    FIGHT_DECOYS,
    FIGHT_FOES,
    FIGHT_GOODWILL,
    FIGHT_HOLY_SWORD,
    FIGHT_ROUND,
    FIGHT_SNEAK,
    FOE_ALIVE,
    FOE_ATTACK,
    FOE_BLIND,
    FOE_BOUND,
    FOE_EATER,
    FOE_HP,
    FOE_KIND,
    FOE_MARKED,
    FOE_MAX,
    FOE_RANGED,
    FOE_ROW,
    FOE_UNDEAD,
    LINE_BUYABLE,
    LINE_ITEM,
    LINE_PRICE,
    LINE_ROW,
    LOOT_HERE,
    MAGIC_AT,
    MAGIC_BLESSED,
    MAGIC_BYTES,
    MAGIC_HIDDEN,
    MAGIC_INVISIBLE,
    MAGIC_NAMES,
    MAGIC_OPTIONS,
    MAGIC_POWER,
    MAGIC_PRIMED,
    MAGIC_ROW,
    MAGIC_WAND,
    MAP_AT,
    MAP_BYTES,
    OFF_MAP,
    PACK_AT,
    PACK_BYTES,
    PACK_DV,
    PACK_KIND,
    PACK_KNOWN,
    PACK_ROW,
    PACK_WEAR,
    PARTY_ACTING,
    PARTY_ARMOR,
    PARTY_AT,
    PARTY_ATTACK,
    PARTY_BATHED,
    PARTY_BYTES,
    PARTY_CEILING,
    PARTY_CLASS,
    PARTY_DAMAGE,
    PARTY_HP,
    PARTY_LEVEL,
    PARTY_LUCK,
    PARTY_MANA,
    PARTY_MEMBER,
    PARTY_POSITION,
    PARTY_RAISED,
    PARTY_ROW,
    PARTY_STANDING,
    PARTY_WELL,
    PARTY_XP,
    PUZZLE_AGREEING,
    PUZZLE_AT,
    PUZZLE_BEST,
    PUZZLE_BYTES,
    PUZZLE_CANDIDATES,
    PUZZLE_HINT,
    PUZZLE_HINT_PRICE,
    PUZZLE_HISTORY,
    PUZZLE_LIT,
    PUZZLE_PUSHED,
    PUZZLE_RINGS,
    PUZZLE_SIZE,
    PUZZLE_SYMBOLS,
    SHOP_AT,
    SHOP_BYTES,
    SHOP_FACTOR,
    SHOP_LEVEL,
    SHOP_LINES,
    SHOP_REPAIR,
    SHOP_SELL,
    STATUS_AT,
    STATUS_BOOK,
    STATUS_BOOK_PAGES,
    STATUS_BYTES,
    STATUS_CASTER,
    STATUS_CHEST,
    STATUS_CHOICE_LEVEL,
    STATUS_CHOICE_MEMBER,
    STATUS_CHOICE_OPTIONS,
    STATUS_COURTYARD,
    STATUS_DEEPEST_MAP,
    STATUS_DEPTH,
    STATUS_EFFECTS,
    STATUS_FEATURE,
    STATUS_FLOOR,
    STATUS_GIFTS_OWED,
    STATUS_GOLD,
    STATUS_HEARD,
    STATUS_HOURS,
    STATUS_HUNTING,
    STATUS_IN_ROOM,
    STATUS_KEEPER,
    STATUS_KING,
    STATUS_LOOT,
    STATUS_MAP_HELD,
    STATUS_MEAL,
    STATUS_MODE,
    STATUS_ON_DOWN,
    STATUS_ON_UP,
    STATUS_PAGES,
    STATUS_PAGES_HELD,
    STATUS_POWER,
    STATUS_PRACTICE,
    STATUS_RATIONS,
    STATUS_SEL_MEMBER,
    STATUS_SEL_SLOT,
    STATUS_STAIR_OPEN,
    STATUS_STATUE_PRICE,
    STATUS_WARD_FOUL,
)


@njit(cache=True)
def cap(x):
    """A non-negative amount as a byte (past 255 it reads 255)."""
    return min(CAP, max(0, x))


@njit(cache=True)
def room_code(s, e, f, r):
    """The map code room r's tiles show: its band, else its loot (a shut chest counts,
    CHEST-1), once entered; else room."""
    if s.room_heard[e, f, r] and has_band(s, e, f, r):  # LISTEN-1
        return BAND_HERE
    if s.room_entered[e, f, r] and s.room_known[e, f, r]:
        if has_band(s, e, f, r):
            return BAND_HERE
        if has_loot(s, e, f, r) or is_chest_shut(s, e, f, r):
            return LOOT_HERE
    return 1 + ROOM


@njit(cache=True)
def update_room_code(s, e):
    """What a room shows changes only while the party stands in it (its band beaten, its loot
    taken, its vault opened): keep that room's code up to date."""
    f = s.floor[e]
    if f == 0:
        return
    r = s.room_of[e, f, s.y[e], s.x[e]]
    if r >= 0:
        code = room_code(s, e, f, r)
        if code != s.room_code[e, f, r]:
            s.room_code[e, f, r] = code
            s.dirty[e] |= DIRTY_MAP


@njit(cache=True)
def observe_map(s, e, out):
    """Channel 0: the CROP x CROP tiles around the party as remembered (`fog`, rooms shown
    by their code). Channel 1: the coarse view of the whole floor, the party's block marked."""
    f = s.floor[e]
    if f == 0:
        out[:] = 0
        return
    H, W = s.fog.shape[2], s.fog.shape[3]
    fog, codes = s.fog[e, f], s.room_code[e, f]
    half = CROP // 2
    x0 = s.x[e] - half
    for i in range(CROP):
        y = s.y[e] - half + i
        row = out[i * CROP : (i + 1) * CROP]
        if y < 0 or y >= H:
            row[:] = OFF_MAP
            continue
        for j in range(CROP):
            x = x0 + j
            if 0 <= x < W:
                code = fog[y, x]
                row[j] = codes[code - ROOM_MARK] if code >= ROOM_MARK else code
            else:
                row[j] = OFF_MAP
    coarse = s.coarse[e, f]
    n = CROP * CROP
    for i in range(CROP):
        for j in range(CROP):
            out[n + i * CROP + j] = coarse[i, j]
    ch, cw = (H + CROP - 1) // CROP, (W + CROP - 1) // CROP
    out[n + (s.y[e] // ch) * CROP + s.x[e] // cw] = COARSE_PARTY
    if has_lingering_band(s, e, f):  # RUN-AWAY-1: the band fled from stays on its tile
        i, j = s.linger_xy[e, f, 1] - s.y[e] + half, s.linger_xy[e, f, 0] - x0
        if 0 <= i < CROP and 0 <= j < CROP:
            out[i * CROP + j] = BAND_HERE


@njit(cache=True)
def armor_value(s, e, m):
    """Protection a member has left: shield plus armor AV, zero for pieces with no DV (the
    Armorer's armor: +1, `traits.piece_av`)."""
    return piece_av(s, e, m, OFF_HAND) + piece_av(s, e, m, ARMOR)


@njit(cache=True)
def observe_party(s, p, e, out):
    out[:] = 0
    for pos in range(MAX_MEMBERS):
        m = s.order[e, pos]
        if m >= 0:
            out[m * PARTY_ROW + PARTY_POSITION] = pos + 1
    acting = s.order[e, s.actor[e]] if s.actor[e] >= 0 and s.outcome[e] == 0 else -1
    bath = feature_here(s, e) == FEAT_BATH  # PARTY_BATHED: set on bathing and room changes
    for m in range(MAX_MEMBERS):
        if not s.in_party[e, m]:
            continue
        row = out[m * PARTY_ROW : (m + 1) * PARTY_ROW]
        row[PARTY_MEMBER] = 1
        row[PARTY_STANDING] = 1 if is_standing(s, e, m) else 0
        row[PARTY_HP] = cap(s.hp[e, m])
        row[PARTY_CEILING] = cap(s.ceiling[e, m])
        row[PARTY_MANA] = cap(s.mana[e, m])
        row[PARTY_WELL] = cap(s.well[e, m])
        row[PARTY_LEVEL] = cap(s.level[e, m])
        row[PARTY_XP] = min(100, 100 * int(s.xp[e, m]) // level_cost(p, s.level[e, m]))
        row[PARTY_CLASS + s.cls[e, m]] = 1
        row[PARTY_LUCK] = s.luck[e, m]
        row[PARTY_RAISED] = s.raised[e, m]
        row[PARTY_ACTING] = 1 if m == acting else 0
        kind = s.item[e, m, READY]
        dice, flat = (0, 2) if kind == 0 else weapon_left(kind, s.item_wear[e, m, READY])
        row[PARTY_DAMAGE] = cap(7 * dice + 2 * flat)
        row[PARTY_ARMOR] = cap(armor_value(s, e, m))
        row[PARTY_ATTACK] = cap(s.atk[e, m])
        row[PARTY_BATHED] = 1 if bath and s.bathed[e, s.floor[e], m] else 0


@njit(cache=True)
def observe_status(s, p, e, out):
    out[:] = 0
    f = s.floor[e]
    out[STATUS_MODE + s.mode[e]] = 1
    out[STATUS_FLOOR] = f
    out[STATUS_DEPTH] = s.floor_visited.shape[1] - 1
    out[STATUS_GOLD] = cap(s.gold[e] // 5)
    out[STATUS_RATIONS] = cap(s.rations[e])
    out[STATUS_MEAL] = cap(meal_interval(s, p, e) - s.meal_clock[e])
    for k in range(NUM_EFFECTS):  # EFFECT-1: paces left of each effect
        out[STATUS_EFFECTS + k] = cap(s.effects[e, k])
    out[STATUS_WARD_FOUL] = 1 if s.ward_foul[e] and s.effects[e, WARD] > 0 else 0
    out[STATUS_MAP_HELD] = (s.maps_held[e] >> f) & 1
    out[STATUS_BOOK] = 1 if s.has_book[e] else 0
    out[STATUS_KING] = 1 if s.has_king[e] else 0
    out[STATUS_HUNTING] = 1 if s.hunting[e] else 0
    pages = 0
    for spell in range(NUM_SPELLS):
        pages += s.pages_held[e, spell] + s.book_pages[e, spell]
    out[STATUS_PAGES] = cap(pages)
    if f > 0:
        tile = s.tiles[e, f, s.y[e], s.x[e]]
        r = s.room_of[e, f, s.y[e], s.x[e]]
        out[STATUS_ON_DOWN] = 1 if tile == STAIR_DOWN else 0
        out[STATUS_ON_UP] = 1 if tile == STAIR_UP else 0
        out[STATUS_STAIR_OPEN] = 1 if tile == STAIR_DOWN and is_stair_open(s, e) else 0
        out[STATUS_IN_ROOM] = 1 if r >= 0 else 0
        out[STATUS_LOOT] = 1 if r >= 0 and has_loot(s, e, f, r) else 0
    deepest = 0
    for g in range(s.floor_visited.shape[1]):
        if (s.maps_held[e] >> g) & 1:
            deepest = g
    out[STATUS_DEEPEST_MAP] = deepest
    out[STATUS_HOURS] = cap(s.pace[e] // 60)
    out[STATUS_COURTYARD] = 1 if f == 0 else 0
    out[STATUS_FEATURE] = feature_here(s, e)
    chest = chest_here(s, e)
    out[STATUS_CHEST] = 0 if chest == CHEST_NONE else (2 if chest == CHEST_OPEN else 1)
    out[STATUS_PRACTICE] = 1 if s.practice[e] else 0
    if out[STATUS_FEATURE] == FEAT_STATUE:  # STATUE-1: the posted price
        out[STATUS_STATUE_PRICE] = cap(s.statue_price[e, f] // 5)
    r = door_room(s, e)
    if r >= 0 and s.room_heard[e, f, r]:  # LISTEN-1: what was heard behind this door
        heard = 0
        for k in range(MAX_FOES):
            kind = s.band_kind[e, f, r, k]
            if kind >= 0 and heard < 2 and (heard == 0 or out[STATUS_HEARD] != kind + 1):
                out[STATUS_HEARD + heard] = kind + 1
                heard += 1
    for spell in range(NUM_SPELLS):  # PAGE-1..2
        out[STATUS_PAGES_HELD + spell] = cap(s.pages_held[e, spell])
        out[STATUS_BOOK_PAGES + spell] = cap(s.book_pages[e, spell])
    owed = s.keeper_seen[e] & ~s.keeper_given[e]
    for k in range(NUM_KEEPER_EVENTS):  # SIX-2
        out[STATUS_GIFTS_OWED] += (owed >> k) & 1
    if s.mode[e] == CHOICE:  # CHOICE-1: who owes which level's option, and what is offered
        m = pending_member(s, e)
        out[STATUS_CHOICE_MEMBER] = m + 1
        out[STATUS_CHOICE_LEVEL] = owed_level(s, e, m)
        for o in range(MAX_OPTIONS):
            out[STATUS_CHOICE_OPTIONS + o] = 1 if can_choose(s, e, o) else 0
    observe_selection(s, e, out)


@njit(cache=True)
def observe_selection(s, e, out):
    """The fields of `status` a step that only selects or swaps places can change: the item
    held, the caster and the power chosen, and what Sixpence said (every action clears it)."""
    out[STATUS_SEL_MEMBER] = s.sel_member[e] + 1
    out[STATUS_SEL_SLOT] = s.sel_slot[e] + 1
    out[STATUS_CASTER] = s.caster[e] + 1
    out[STATUS_POWER] = s.sel_power[e] + 1
    out[STATUS_KEEPER] = 0
    for k in range(NUM_KEEPER_EVENTS):  # SIX-1: the first of the events spoken of
        if (s.keeper_new[e] >> k) & 1:
            out[STATUS_KEEPER] = k + 1
            break


@njit(cache=True)
def observe_fight(s, e, out):
    out[:] = 0
    for k in range(MAX_FOES):
        if not is_foe_alive(s, e, k):
            continue
        kind = s.foe_kind[e, k]
        flags = MONSTERS[kind, M_FLAGS]
        row = out[FIGHT_FOES + k * FOE_ROW : FIGHT_FOES + (k + 1) * FOE_ROW]
        row[FOE_ALIVE] = 1
        row[FOE_KIND] = kind + 1
        row[FOE_HP] = cap(s.foe_hp[e, k])
        row[FOE_MAX] = cap(s.foe_max[e, k])
        row[FOE_ATTACK] = cap(MONSTERS[kind, M_ATK])
        row[FOE_RANGED] = 1 if flags & MF_RANGED else 0
        row[FOE_UNDEAD] = 1 if flags & MF_UNDEAD else 0
        row[FOE_EATER] = 1 if flags & (MF_METAL_EATER | MF_ARMOR_EATER) else 0
        row[FOE_MARKED] = 1 if s.foe_status[e, k] & FS_MARKED else 0
        row[FOE_BLIND] = 1 if s.foe_status[e, k] & FS_BLIND else 0
        row[FOE_BOUND] = 1 if s.foe_status[e, k] & FS_BOUND else 0
    if s.mode[e] == FIGHT:
        out[FIGHT_ROUND] = cap(s.fight_round[e])
        out[FIGHT_BRIBE_CHANCE] = bribe_chance(s, e)  # BRIBE-1
        out[FIGHT_BRIBE_PRICE] = cap(bribe_price(s, e) // 5)
        out[FIGHT_BRIBE_ASKED] = 1 if s.bribe_asked[e] else 0
        out[FIGHT_GOODWILL] = 1 if s.goodwill[e] else 0
        out[FIGHT_SNEAK] = 1 if s.sneaker[e] >= 0 else 0
        out[FIGHT_ALLY] = s.ally_kind[e] + 1
        out[FIGHT_ALLY_HP] = cap(s.ally_hp[e])
        out[FIGHT_DECOYS] = cap(s.decoys[e])
        out[FIGHT_HOLY_SWORD] = s.holy_sword[e] + 1
        out[FIGHT_CHARGING] = 1 if s.charging[e] else 0


@njit(cache=True)
def observe_pack(s, e, out):
    out[:] = 0
    for m in range(MAX_MEMBERS):
        for slot in range(NUM_ITEM_SLOTS):
            kind = s.item[e, m, slot]
            if kind == 0:
                continue
            at = (m * NUM_ITEM_SLOTS + slot) * PACK_ROW
            if is_known(s, e, kind):
                out[at + PACK_KIND] = kind
                out[at + PACK_KNOWN] = 1
            else:  # ITEM-2: only its look shows
                out[at + PACK_KIND] = NUM_ITEMS - 1 + LOOK[kind]
            out[at + PACK_WEAR] = cap(s.item_wear[e, m, slot])
            out[at + PACK_DV] = cap(s.item_dv[e, m, slot])


@njit(cache=True)
def observe_puzzle(s, e, out):
    """The vault lock of the room the party stands in (WALL-1, PLATE-1), else zeros."""
    out[:] = 0
    f = s.floor[e]
    if f == 0 or s.vault_lock[e, f] == 0 or s.room_of[e, f, s.y[e], s.x[e]] != s.vault_room[e, f]:
        return
    for ring in range(s.wall_num_set[e, f]):
        out[PUZZLE_RINGS + ring] = s.wall_set[e, f, ring] + 1
    for h in range(WALL_HISTORY):
        guess = s.wall_history[e, f, h]
        if guess[0] < 0:
            continue
        at = PUZZLE_HISTORY + h * (WALL_RINGS + 1)
        for ring in range(WALL_RINGS):
            out[at + ring] = guess[ring] + 1
        out[at + WALL_RINGS] = guess[WALL_RINGS] + 1
    best = best_guess(s, e, f)
    if best >= 0:
        for i in range(WALL_RINGS + 1):
            out[PUZZLE_BEST + i] = s.wall_history[e, f, best, i] + 1
    for r in range(MAX_PLATE):
        for c in range(MAX_PLATE):
            out[PUZZLE_LIT + r * MAX_PLATE + c] = 1 if s.plate_lit[e, f, r, c] else 0
            out[PUZZLE_PUSHED + r * MAX_PLATE + c] = 1 if s.plate_pushed[e, f, r, c] else 0
    if s.vault_lock[e, f] == WALL_LOCK:
        out[PUZZLE_SYMBOLS] = num_symbols(f)
        agreeing = out[PUZZLE_AGREEING : PUZZLE_AGREEING + MAX_SYMBOLS]
        out[PUZZLE_CANDIDATES] = cap(consistent_symbols(s, e, f, agreeing))
    else:
        out[PUZZLE_SIZE] = plate_size(f)
        out[PUZZLE_HINT_PRICE] = cap(hint_price(s, e) // 5)
        out[PUZZLE_HINT] = s.plate_hint[e, f] + 1


@njit(cache=True)
def fives_up(gold):
    """A price in fives of gold, rounded up (so a price never reads 0), as a byte."""
    return cap((int(gold) + 4) // 5)


@njit(cache=True)
def observe_shop(s, p, e, out):
    """STORE-1..2, in a store: each line's item, price and whether it can be bought now, the
    store's level and price factor, what the selected item sells for and what repairing it
    costs. Zeros outside stores."""
    out[:] = 0
    if s.mode[e] != STORE:
        return
    level = store_level(s, e)
    for k in range(MAX_STOCK):
        kind = line_kind(level, k)
        if kind == 0:
            continue
        row = out[SHOP_LINES + k * LINE_ROW : SHOP_LINES + (k + 1) * LINE_ROW]
        row[LINE_ITEM] = kind
        row[LINE_PRICE] = fives_up(line_price(level, k))
        row[LINE_BUYABLE] = 1 if can_buy(s, p, e, k) else 0
    out[SHOP_LEVEL] = level + 1
    out[SHOP_FACTOR] = STORE_FACTOR_HALVES[level]
    m, slot = s.sel_member[e], s.sel_slot[e]
    if m >= 0:
        out[SHOP_SELL] = fives_up(sell_price(s, e, s.item[e, m, slot]))
        if repair_points(s, e, m, slot) > 0:
            out[SHOP_REPAIR] = fives_up(repair_price(s, e, m, slot))


@njit(cache=True)
def observe_magic(s, p, e, out):
    """Per member: the powers it has ready and their costs, the true names it knows, what is
    on it (hidden, invisible, blessed, primed features), wand casts and options taken."""
    out[:] = 0
    for m in range(MAX_MEMBERS):
        if not s.in_party[e, m]:
            continue
        row = out[m * MAGIC_ROW : (m + 1) * MAGIC_ROW]
        ready = ready_powers(s, e, m)
        for i in range(NUM_POWERS):
            if (ready >> i) & 1 == 1:
                row[MAGIC_POWER + i] = min(9, power_cost(s, p, e, m, i) + 1)
        for n in range(NUM_NAMES):
            row[MAGIC_NAMES + n] = (s.names_known[e, m] >> n) & 1
        row[MAGIC_HIDDEN] = 1 if s.hidden[e, m] else 0
        row[MAGIC_INVISIBLE] = 1 if s.invisible[e, m] else 0
        row[MAGIC_BLESSED] = 1 if s.blessed[e, m] else 0
        for bit in range(6):
            row[MAGIC_PRIMED + bit] = (s.primed[e, m] >> bit) & 1
        row[MAGIC_WAND] = min(3, max(0, s.wand_casts[e, m]))
        for level in range(2):
            row[MAGIC_OPTIONS + level] = s.options[e, m, level] + 1


@njit(cache=True)
def observe_bestiary(s, e, out):
    """VIEW-1's BESTIARY: per kind, times met, kills and the flags learned (bestiary.py)."""
    out[:] = 0
    for kind in range(NUM_MONSTERS):
        if s.kind_met[e, kind] == 0:
            continue
        row = out[kind * BEST_ROW : (kind + 1) * BEST_ROW]
        row[BEST_MET] = cap(s.kind_met[e, kind])
        row[BEST_KILLED] = cap(s.kind_killed[e, kind])
        learned = int(s.kind_learned[e, kind])
        for bit in range(7):  # tables.MF_* in order: metal eater .. ranged
            row[BEST_LEARNED + bit] = (learned >> bit) & 1


@njit(cache=True)
def observe(s, p, e, record, full):
    """Write env e's observation into its record: the parts its last step marked dirty (all of
    them when `full`)."""
    dirty = DIRTY_ALL if full else s.dirty[e]
    if full:
        f = s.floor[e]
        for r in range(s.num_rooms[e, f] if f > 0 else 0):
            s.room_code[e, f, r] = room_code(s, e, f, r)
    mode = s.mode[e]
    if dirty & DIRTY_MAP:
        observe_map(s, e, record[MAP_AT : MAP_AT + MAP_BYTES])
    if dirty & (DIRTY_PARTY | DIRTY_ORDER):
        observe_party(s, p, e, record[PARTY_AT : PARTY_AT + PARTY_BYTES])
    if dirty & DIRTY_PACK:
        observe_pack(s, e, record[PACK_AT : PACK_AT + PACK_BYTES])
    if dirty & DIRTY_PUZZLE or mode == WALL or mode == PLATE:
        observe_puzzle(s, e, record[PUZZLE_AT : PUZZLE_AT + PUZZLE_BYTES])
    if dirty == DIRTY_ALL or mode == FIGHT:
        observe_fight(s, e, record[FIGHT_AT : FIGHT_AT + FIGHT_BYTES])
    if dirty == DIRTY_ALL or mode == STORE:  # every step in a store; zeros on leaving it
        observe_shop(s, p, e, record[SHOP_AT : SHOP_AT + SHOP_BYTES])
    if dirty & (DIRTY_PARTY | DIRTY_MAGIC):
        observe_magic(s, p, e, record[MAGIC_AT : MAGIC_AT + MAGIC_BYTES])
    # met, killed, learned: only in a fight (one may start and end within a step: an ambush
    # beaten by its counter-blows) or on hearing a band
    if dirty == DIRTY_ALL or mode == FIGHT or s.events[e] & (EV_FIGHT | EV_HEARD):
        observe_bestiary(s, e, record[BESTIARY_AT : BESTIARY_AT + BESTIARY_BYTES])
    if dirty & DIRTY_STATUS:
        observe_status(s, p, e, record[STATUS_AT : STATUS_AT + STATUS_BYTES])
    else:  # the step only held or let go, swapped places, or was refused
        observe_selection(s, e, record[STATUS_AT : STATUS_AT + STATUS_BYTES])
