"""Vaults: better loot behind a tumbler wall or a lock plate (VAULT-1, WALL-1, PLATE-1).

A standing member works the lock from inside the vault room, which stops the clock
(TIME-2). Leaving keeps everything learned; the lock never shuts the party out, and a worker
who falls ends the work.
"""

from ..compiled.jit import njit
from ..core.params import (
    P_ROOM_GOLD_DICE,
    P_VAULT_CHANCE,
    P_VAULT_GOLD_FACTOR,
    P_VAULT_ITEMS,
    P_VAULT_WALL_CHANCE,
    P_WALL_WOUND,
)
from ..core.rng import chance, randint, roll
from ..core.tables import (
    CHEST_NONE,
    EV_VAULT_OPEN,
    EV_VAULT_WOUND,
    EXPLORE,
    FOUND_FROM,
    NO_LOCK,
    PLATE,
    PLATE_LOCK,
    ROGUE,
    ROOM_ITEM_KINDS,
    ROOM_ITEM_TABLE,
    ROOM_ITEMS,
    WALL,
    WALL_HISTORY,
    WALL_LOCK,
    WALL_RINGS,
    tier_of,
)
from .party import is_standing, wound

HINT_PRICE = 50  # PLATE-1: gold a hint costs per floor


@njit(cache=True)
def draw_room_item(f, tier, g):
    """LOOT-1: a kind drawn uniformly from `tier`'s row of the room item table among the kinds
    found on floor f (`tables.FOUND_FROM`: the bitter draught from floor 2, ITEM-1). Rooms
    (`loot.stock_floor`) and vaults draw with it."""
    n = 0
    for i in range(ROOM_ITEM_KINDS):
        if FOUND_FROM[ROOM_ITEM_TABLE[tier, i]] <= f:
            n += 1
    pick = randint(g, 0, n)
    for i in range(ROOM_ITEM_KINDS):
        kind = ROOM_ITEM_TABLE[tier, i]
        if FOUND_FROM[kind] <= f:
            if pick == 0:
                return int(kind)
            pick -= 1
    return 0


@njit(cache=True)
def num_symbols(f):
    """WALL-1: each ring has 4 + floor symbols, so every floor has more combinations."""
    return 4 + f


@njit(cache=True)
def plate_size(f):
    """PLATE-1: n = 3 + (floor - 1) // 3."""
    return 3 + (f - 1) // 3


@njit(cache=True)
def push_cell(lit, n, r, c):
    """Flip a cell and its orthogonal neighbours."""
    lit[r, c] = not lit[r, c]
    if r > 0:
        lit[r - 1, c] = not lit[r - 1, c]
    if r < n - 1:
        lit[r + 1, c] = not lit[r + 1, c]
    if c > 0:
        lit[r, c - 1] = not lit[r, c - 1]
    if c < n - 1:
        lit[r, c + 1] = not lit[r, c + 1]


@njit(cache=True)
def make_wall(s, e, f, g):
    for i in range(WALL_RINGS):
        s.wall_combo[e, f, i] = randint(g, 0, num_symbols(f))
    s.wall_history[e, f] = -1


@njit(cache=True)
def make_plate(s, e, f, g):
    """A solvable plate: the lights a random, non-empty set of pushes makes on a dark plate."""
    n = plate_size(f)
    key, lit = s.plate_key[e, f], s.plate_lit[e, f]
    while True:
        key[:] = False
        lit[:] = False
        for r in range(n):
            for c in range(n):
                if chance(g, 0, 0.5):
                    key[r, c] = True
                    push_cell(lit, n, r, c)
        if lit.any():
            return


@njit(cache=True)
def place_vault(s, p, e, f, r, lock, g):
    """Room r of floor f becomes a vault with `lock`, and its loot grows (VAULT-1): the vault
    gold factor times a room gold roll, and the vault items from the next tier's table."""
    s.vault_room[e, f] = r
    s.vault_lock[e, f] = lock
    s.plate_hint[e, f] = -1
    s.room_chest[e, f, r] = CHEST_NONE  # CHEST-1: a vault holds no chest (the vault task's)
    if lock == WALL_LOCK:
        make_wall(s, e, f, g)
    else:
        make_plate(s, e, f, g)
    s.room_gold[e, f, r] += int(p[P_VAULT_GOLD_FACTOR]) * roll(g, 0, int(p[P_ROOM_GOLD_DICE])) * f
    tier = min(3, tier_of(f) + 1)
    for i in range(min(int(p[P_VAULT_ITEMS]), ROOM_ITEMS)):
        s.room_items[e, f, r, i] = draw_room_item(f, tier, g)


@njit(cache=True)
def stock_vault(s, p, e, f, g):
    """With the vault chance, an ordinary room of floor f (no map, book or king) is a vault."""
    s.vault_room[e, f] = -1
    s.vault_lock[e, f] = NO_LOCK
    if not chance(g, 0, p[P_VAULT_CHANCE]):
        return
    r = randint(g, 0, s.num_rooms[e, f])
    is_book = f == s.book_floor[e] and r == s.book_room[e]
    is_king = f == s.floor_visited.shape[1] - 1 and r == s.king_room[e]
    if s.room_map[e, f, r] or is_book or is_king:
        return
    lock = WALL_LOCK if chance(g, 0, p[P_VAULT_WALL_CHANCE]) else PLATE_LOCK
    place_vault(s, p, e, f, r, lock, g)


@njit(cache=True)
def is_locked_vault(s, e, f, r):
    return s.vault_room[e, f] == r and s.vault_lock[e, f] != NO_LOCK and not s.vault_open[e, f]


@njit(cache=True)
def preset_known_ring(s, e, f):
    """WALL-1: a Rogue knows the first ring, so it is set for them."""
    if s.cls[e, s.worker[e]] == ROGUE and s.wall_num_set[e, f] == 0:
        s.wall_set[e, f, 0] = s.wall_combo[e, f, 0]
        s.wall_num_set[e, f] = 1


@njit(cache=True)
def start_work(s, e, m):
    """Member m starts working the lock of the vault the party stands in."""
    f = s.floor[e]
    s.worker[e] = m
    if s.vault_lock[e, f] == WALL_LOCK:
        s.mode[e] = WALL
        preset_known_ring(s, e, f)
    else:
        s.mode[e] = PLATE


@njit(cache=True)
def open_vault(s, e, f):
    s.vault_open[e, f] = True
    s.mode[e] = EXPLORE
    s.stat_vaults[e] += 1
    s.events[e] |= EV_VAULT_OPEN


@njit(cache=True)
def wound_worker(s, e, amount, rng):
    """A lock wounds its worker; a worker who falls ends the work."""
    m = s.worker[e]
    before = s.hp[e, m]
    wound(s, e, m, amount, rng)
    s.stat_vault_wounds[e] += before - s.hp[e, m]
    s.events[e] |= EV_VAULT_WOUND
    if not is_standing(s, e, m):
        s.mode[e] = EXPLORE


@njit(cache=True)
def set_ring(s, p, e, symbol, rng):
    """WALL-1: set the next ring; the last one makes a guess, answered with the rings right.

    A wrong guess wounds the worker with chance 1/2: (rings wrong) x d4 x difficulty factor.
    """
    f = s.floor[e]
    s.wall_set[e, f, s.wall_num_set[e, f]] = symbol
    s.wall_num_set[e, f] += 1
    if s.wall_num_set[e, f] < WALL_RINGS:
        return
    right = 0
    for i in range(WALL_RINGS):
        right += s.wall_set[e, f, i] == s.wall_combo[e, f, i]
    history = s.wall_history[e, f]
    for h in range(WALL_HISTORY - 1, 0, -1):
        history[h] = history[h - 1]
    history[0, :WALL_RINGS] = s.wall_set[e, f]
    history[0, WALL_RINGS] = right
    s.wall_guesses[e, f] += 1
    s.wall_num_set[e, f] = 0
    if right == WALL_RINGS:
        open_vault(s, e, f)
        return
    if chance(rng, e, 0.5):
        wrong = WALL_RINGS - right
        wound_worker(s, e, int(wrong * roll(rng, e, 1, 4) * p[P_WALL_WOUND] + 0.5), rng)
    if s.mode[e] == WALL:
        preset_known_ring(s, e, f)


@njit(cache=True)
def agrees(s, e, f, a, b, c):
    """Combination (a, b, c) would have got every answer the guesses shown got."""
    for h in range(WALL_HISTORY):
        guess = s.wall_history[e, f, h]
        if guess[0] < 0:
            return True
        # ints: numpy adds two booleans as a logical or (the engine interpreted)
        right = int(guess[0] == a) + int(guess[1] == b) + int(guess[2] == c)
        if right != guess[WALL_RINGS]:
            return False
    return True


@njit(cache=True)
def consistent_symbols(s, e, f, flags):
    """The wall as a notebook would keep it: the number of combinations that agree with every
    guess shown, and in `flags` (one per symbol) which symbols for the next ring keep the
    guess being entered in agreement with them. Reads only what the observation shows (the
    rings set, the last guesses and their answers); three rings (WALL-1)."""
    n = num_symbols(f)
    flags[:] = 0
    done = s.wall_num_set[e, f]
    set0, set1 = s.wall_set[e, f, 0], s.wall_set[e, f, 1]
    count = 0
    for a in range(n):
        for b in range(n):
            for c in range(n):
                if not agrees(s, e, f, a, b, c):
                    continue
                count += 1
                if done == 0:
                    flags[a] = 1
                elif done == 1 and a == set0:
                    flags[b] = 1
                elif done == 2 and a == set0 and b == set1:
                    flags[c] = 1
    return count


@njit(cache=True)
def best_guess(s, e, f):
    """The history row of the guess with the most rings right (the latest of equals), -1 if
    no guess was made."""
    best = -1
    for h in range(WALL_HISTORY - 1, -1, -1):
        if s.wall_history[e, f, h, 0] >= 0 and (
            best < 0
            or s.wall_history[e, f, h, WALL_RINGS] >= s.wall_history[e, f, best, WALL_RINGS]
        ):
            best = h
    return best


@njit(cache=True)
def push_plate(s, e, cell, rng):
    """PLATE-1: pushing is free; pushing a pushed cell takes it back and wounds d4 x tier."""
    f = s.floor[e]
    n = plate_size(f)
    r, c = cell // n, cell % n
    push_cell(s.plate_lit[e, f], n, r, c)
    if s.plate_hint[e, f] == cell:
        s.plate_hint[e, f] = -1
    taken_back = s.plate_pushed[e, f, r, c]
    s.plate_pushed[e, f, r, c] = not taken_back
    if not s.plate_lit[e, f].any():
        open_vault(s, e, f)
    if taken_back:
        wound_worker(s, e, roll(rng, e, 1, 4) * (tier_of(f) + 1), rng)


@njit(cache=True)
def hint_price(s, e):
    """PLATE-1: 50 gold x floor; a Rogue worker's first hint is free."""
    f = s.floor[e]
    if s.plate_hints[e, f] == 0 and s.cls[e, s.worker[e]] == ROGUE:
        return 0
    return HINT_PRICE * int(f)


@njit(cache=True)
def cell_to_push(s, e, f):
    """A cell still to push: one of the plate's key pushes not yet made, else one to take back."""
    n = plate_size(f)
    back = -1
    for r in range(n):
        for c in range(n):
            if s.plate_key[e, f, r, c] != s.plate_pushed[e, f, r, c]:
                if not s.plate_pushed[e, f, r, c]:
                    return r * n + c
                if back < 0:
                    back = r * n + c
    return back


@njit(cache=True)
def buy_hint(s, e):
    """Pay for a hint; it shows a cell still to push."""
    f = s.floor[e]
    price = hint_price(s, e)
    s.gold[e] -= price
    s.stat_hint_gold[e] += price
    s.plate_hints[e, f] += 1
    s.plate_hint[e, f] = cell_to_push(s, e, f)
