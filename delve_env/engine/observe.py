"""The observation: fixed-shape arrays written in place for env e (ENV.md, Observation).

Floats are scaled into [0, 1]; counts with no natural cap are squashed as x / (x + k).
"""

import numpy as np
from numba import njit

from .fights import is_foe_alive
from .loot import has_loot
from .moving import is_stair_open
from .params import P_MEAL_PACES
from .party import is_standing, level_cost
from .rooms import has_band
from .tables import (
    ARMOR,
    I_AV,
    I_DICE,
    I_DV,
    I_FLAT,
    ITEMS,
    M_ATK,
    M_FLAGS,
    MAX_DEPTH,
    MAX_FOES,
    MAX_MEMBERS,
    MAX_PLATE,
    MAX_ROOMS,
    MAX_SYMBOLS,
    MF_ARMOR_EATER,
    MF_METAL_EATER,
    MF_RANGED,
    MF_UNDEAD,
    MONSTERS,
    NUM_CLASSES,
    NUM_ITEM_SLOTS,
    NUM_ITEMS,
    NUM_MODES,
    NUM_MONSTERS,
    NUM_SPELLS,
    OFF_HAND,
    READY,
    ROCK,
    ROOM,
    SECRET,
    STAIR_DOWN,
    STAIR_UP,
    VIEW,
    WALL_HISTORY,
    WALL_LOCK,
    WALL_RINGS,
)
from .vaults import hint_price, num_symbols, plate_size

CROP = VIEW  # the egocentric window is CROP x CROP, the party in the middle
# map codes: 0 fog, 1 + tile for seen tiles (a secret door shows as rock), then these
OFF_MAP, BAND_HERE, LOOT_HERE = 8, 9, 10
MAX_MAP_CODE = 10
COARSE_PARTY = 5  # above moving.COARSE_* codes
STATUS_SIZE = 32
PARTY_FEATURES = 21
FOE_FEATURES = 8
FIGHT_SIZE = MAX_FOES * FOE_FEATURES + 4
# wall rings set, guesses with answers, plate lit and pushed, then symbols, plate size, hint
# price and the cell a hint shows
PUZZLE_SIZE = WALL_RINGS + WALL_HISTORY * (WALL_RINGS + 1) + 2 * MAX_PLATE * MAX_PLATE + 4
PACK_FEATURES = 4


@njit(cache=True)
def squash(x, k):
    return x / (x + k) if x > 0 else 0.0


@njit(cache=True)
def room_codes(s, e, f, codes):
    """What a known, entered room shows on the map: a band, loot, or plain floor."""
    for r in range(s.num_rooms[e, f]):
        codes[r] = 1 + ROOM
        if s.room_known[e, f, r] and s.room_entered[e, f, r]:
            if has_band(s, e, f, r):
                codes[r] = BAND_HERE
            elif has_loot(s, e, f, r):
                codes[r] = LOOT_HERE


@njit(cache=True)
def observe_map(s, e, out):
    """Channel 0: the egocentric crop. Channel 1: a coarse view of the whole floor.

    Crop codes: 0 fog, 1 + tile for remembered tiles (a secret door shows as rock), a known
    room's band or loot over its floor, OFF_MAP past the edge.
    """
    out[:] = 0
    f = s.floor[e]
    if f == 0:
        return
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    tiles, seen, room_of = s.tiles[e, f], s.seen[e, f], s.room_of[e, f]
    codes = np.empty(MAX_ROOMS, dtype=np.uint8)
    room_codes(s, e, f, codes)
    half = CROP // 2
    for i in range(CROP):
        y = s.y[e] - half + i
        for j in range(CROP):
            x = s.x[e] - half + j
            if x < 0 or y < 0 or x >= W or y >= H:
                out[0, i, j] = OFF_MAP
            elif seen[y, x]:
                tile = tiles[y, x]
                r = room_of[y, x]
                out[0, i, j] = codes[r] if r >= 0 else 1 + (ROCK if tile == SECRET else tile)
    out[1] = s.coarse[e, f]
    ch, cw = (H + CROP - 1) // CROP, (W + CROP - 1) // CROP
    out[1, s.y[e] // ch, s.x[e] // cw] = COARSE_PARTY


@njit(cache=True)
def armor_value(s, e, m):
    """Protection a member has left: shield plus armor AV, zero for pieces with no DV."""
    total = 0
    for slot in (OFF_HAND, ARMOR):
        kind = s.item[e, m, slot]
        if kind > 0 and s.item_dv[e, m, slot] > 0:
            total += max(0, ITEMS[kind, I_AV] - s.item_wear[e, m, slot])
    return total


@njit(cache=True)
def observe_party(s, p, e, out):
    out[:] = 0
    pos_of = np.full(MAX_MEMBERS, -1)
    for pos in range(MAX_MEMBERS):
        if s.order[e, pos] >= 0:
            pos_of[s.order[e, pos]] = pos
    for m in range(MAX_MEMBERS):
        if not s.in_party[e, m]:
            continue
        row = out[m]
        row[0] = 1.0
        row[1] = 1.0 if is_standing(s, e, m) else 0.0
        row[2] = s.hp[e, m] / max(1, s.ceiling[e, m])
        row[3] = squash(s.ceiling[e, m], 20.0)
        row[4] = s.mana[e, m] / s.well[e, m] if s.well[e, m] > 0 else 0.0
        row[5] = squash(s.well[e, m], 10.0)
        row[6] = min(1.0, s.level[e, m] / 20.0)
        row[7] = min(1.0, s.xp[e, m] / level_cost(p, s.level[e, m]))
        row[8 + s.cls[e, m]] = 1.0
        row[8 + NUM_CLASSES] = s.luck[e, m] / 3.0
        row[9 + NUM_CLASSES] = s.raised[e, m] / 3.0
        row[10 + NUM_CLASSES] = (pos_of[m] + 1) / MAX_MEMBERS
        is_actor = s.actor[e] >= 0 and s.order[e, s.actor[e]] == m
        row[11 + NUM_CLASSES] = 1.0 if is_actor and s.outcome[e] == 0 else 0.0
        kind = s.item[e, m, READY]
        dmg = 2.0 if kind == 0 else 3.5 * ITEMS[kind, I_DICE] + ITEMS[kind, I_FLAT]
        row[12 + NUM_CLASSES] = squash(max(0.0, dmg - s.item_wear[e, m, READY]), 7.0)
        row[13 + NUM_CLASSES] = squash(armor_value(s, e, m), 3.0)
        row[14 + NUM_CLASSES] = squash(s.atk[e, m], 2.0)


@njit(cache=True)
def observe_status(s, p, e, out):
    out[:] = 0
    f = s.floor[e]
    out[s.mode[e]] = 1.0
    out[NUM_MODES] = f / MAX_DEPTH
    out[NUM_MODES + 1] = (s.floor_visited.shape[1] - 1) / MAX_DEPTH
    out[NUM_MODES + 2] = squash(s.gold[e], 100.0)
    out[NUM_MODES + 3] = squash(s.rations[e], 20.0)
    out[NUM_MODES + 4] = min(1.0, (p[P_MEAL_PACES] - s.meal_clock[e]) / (2 * p[P_MEAL_PACES]))
    # NUM_MODES + 5 .. + 8: the four effect timers (EFFECT-1), zero until effects exist
    out[NUM_MODES + 9] = 1.0 if (s.maps_held[e] >> f) & 1 else 0.0
    out[NUM_MODES + 10] = 1.0 if s.has_book[e] else 0.0
    out[NUM_MODES + 11] = 1.0 if s.has_king[e] else 0.0
    out[NUM_MODES + 12] = 1.0 if s.hunting[e] else 0.0
    pages = 0
    for spell in range(NUM_SPELLS):
        pages += s.pages_held[e, spell] + s.book_pages[e, spell]
    out[NUM_MODES + 13] = squash(pages, 5.0)
    if f > 0:
        tile = s.tiles[e, f, s.y[e], s.x[e]]
        r = s.room_of[e, f, s.y[e], s.x[e]]
        out[NUM_MODES + 14] = 1.0 if tile == STAIR_DOWN else 0.0
        out[NUM_MODES + 15] = 1.0 if tile == STAIR_UP else 0.0
        out[NUM_MODES + 16] = 1.0 if tile == STAIR_DOWN and is_stair_open(s, e) else 0.0
        out[NUM_MODES + 17] = 1.0 if r >= 0 else 0.0
        out[NUM_MODES + 18] = 1.0 if r >= 0 and has_loot(s, e, f, r) else 0.0
    deepest = 0
    for g in range(s.floor_visited.shape[1]):
        if (s.maps_held[e] >> g) & 1:
            deepest = g
    out[NUM_MODES + 19] = deepest / MAX_DEPTH
    out[NUM_MODES + 20] = squash(s.pace[e], 1000.0)
    out[NUM_MODES + 21] = 1.0 if f == 0 else 0.0


@njit(cache=True)
def observe_fight(s, e, out):
    out[:] = 0
    for k in range(MAX_FOES):
        if not is_foe_alive(s, e, k):
            continue
        kind = s.foe_kind[e, k]
        flags = MONSTERS[kind, M_FLAGS]
        row = k * FOE_FEATURES
        out[row] = 1.0
        out[row + 1] = (kind + 1) / NUM_MONSTERS
        out[row + 2] = s.foe_hp[e, k] / max(1, s.foe_max[e, k])
        out[row + 3] = squash(s.foe_max[e, k], 10.0)
        out[row + 4] = squash(MONSTERS[kind, M_ATK], 3.0)
        out[row + 5] = 1.0 if flags & MF_RANGED else 0.0
        out[row + 6] = 1.0 if flags & MF_UNDEAD else 0.0
        out[row + 7] = 1.0 if flags & (MF_METAL_EATER | MF_ARMOR_EATER) else 0.0
    # the last four: bribe chance, bribe price (BRIBE-1), round, sneak phase
    out[MAX_FOES * FOE_FEATURES + 2] = squash(s.fight_round[e], 5.0)


@njit(cache=True)
def observe_pack(s, e, out):
    out[:] = 0
    for m in range(MAX_MEMBERS):
        for slot in range(NUM_ITEM_SLOTS):
            kind = s.item[e, m, slot]
            if kind == 0:
                continue
            out[m, slot, 0] = kind / (NUM_ITEMS - 1)
            out[m, slot, 1] = 1.0 if s.item_known[e, m, slot] else 0.0
            out[m, slot, 2] = squash(s.item_wear[e, m, slot], 2.0)
            dv = ITEMS[kind, I_DV]
            out[m, slot, 3] = s.item_dv[e, m, slot] / dv if dv > 0 else 0.0


@njit(cache=True)
def observe_puzzle(s, e, out):
    """The vault lock of the room the party stands in (WALL-1, PLATE-1), else zeros."""
    out[:] = 0
    f = s.floor[e]
    if f == 0 or s.vault_lock[e, f] == 0 or s.room_of[e, f, s.y[e], s.x[e]] != s.vault_room[e, f]:
        return
    i = 0
    for ring in range(WALL_RINGS):
        if ring < s.wall_num_set[e, f]:
            out[i] = (s.wall_set[e, f, ring] + 1) / MAX_SYMBOLS
        i += 1
    for h in range(WALL_HISTORY):
        guess = s.wall_history[e, f, h]
        for ring in range(WALL_RINGS):
            out[i] = (guess[ring] + 1) / MAX_SYMBOLS if guess[ring] >= 0 else 0.0
            i += 1
        out[i] = (guess[WALL_RINGS] + 1) / (WALL_RINGS + 1) if guess[0] >= 0 else 0.0
        i += 1
    for r in range(MAX_PLATE):
        for c in range(MAX_PLATE):
            out[i] = 1.0 if s.plate_lit[e, f, r, c] else 0.0
            out[i + MAX_PLATE * MAX_PLATE] = 1.0 if s.plate_pushed[e, f, r, c] else 0.0
            i += 1
    i += MAX_PLATE * MAX_PLATE
    if s.vault_lock[e, f] == WALL_LOCK:
        out[i] = num_symbols(f) / MAX_SYMBOLS
    else:
        out[i + 1] = plate_size(f) / MAX_PLATE
        out[i + 2] = squash(hint_price(s, e), 100.0)
        out[i + 3] = (s.plate_hint[e, f] + 1) / (MAX_PLATE * MAX_PLATE)


@njit(cache=True)
def observe(s, p, e, obs_map, obs_party, obs_status, obs_fight, obs_puzzle, obs_pack):
    """Write env e's observation into row e of each output buffer."""
    observe_puzzle(s, e, obs_puzzle[e])
    observe_map(s, e, obs_map[e])
    observe_party(s, p, e, obs_party[e])
    observe_status(s, p, e, obs_status[e])
    observe_fight(s, e, obs_fight[e])
    observe_pack(s, e, obs_pack[e])
