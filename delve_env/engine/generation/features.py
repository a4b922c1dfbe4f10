"""Where the stores, living statues and Baths of Fates stand (STORE-1, STATUE-1, BATH-1).

A floor has a store on every third floor (3, 6, 9, 12), a living statue and a Bath of Fates
each with its preset chance, each in a room of its own that holds nothing else: no band, no
loot, not the map, the book, the king or the vault (generation RNG g, after the floor's loot).
"""

from ..compiled.jit import njit
from ..core.params import P_BATH_CHANCE, P_STATUE_CHANCE, P_STATUE_PRICE
from ..core.rng import chance, randint
from ..core.tables import (
    FEAT_BATH,
    FEAT_NONE,
    FEAT_STATUE,
    FEAT_STORE,
    ROOM_PAGES,
    STORE_FLOOR_EVERY,
)
from ..rules.moving import room_here


@njit(cache=True)
def is_plain_room(s, e, f, r):
    """Room r holds none of the floor's fixed things: map, book, king, vault, pages, a feature."""
    depth = s.floor_visited.shape[1] - 1
    if s.room_map[e, f, r] or s.vault_room[e, f] == r or s.room_feature[e, f, r] != FEAT_NONE:
        return False
    if (f == s.book_floor[e] and r == s.book_room[e]) or (f == depth and r == s.king_room[e]):
        return False
    for i in range(ROOM_PAGES):
        if s.room_pages[e, f, r, i] >= 0:
            return False
    return True


@njit(cache=True)
def place_feature(s, e, f, feature, g):
    """Put `feature` in a random plain room of floor f, emptied of its band and loot; returns
    the room, or -1 when no room is plain."""
    n = s.num_rooms[e, f]
    start = randint(g, 0, n)
    for i in range(n):
        r = (start + i) % n
        if is_plain_room(s, e, f, r):
            s.room_feature[e, f, r] = feature
            s.band_kind[e, f, r, :] = -1
            s.band_hp[e, f, r, :] = 0
            s.room_gold[e, f, r] = 0
            s.room_items[e, f, r, :] = 0
            return r
    return -1


@njit(cache=True)
def place_features(s, p, e, f, g):
    """Floor f's store (every third floor), statue and bath, with the statue's price and secret
    threshold (STATUE-1: T drawn in [P/4, P])."""
    if f % STORE_FLOOR_EVERY == 0:
        place_feature(s, e, f, FEAT_STORE, g)
    if chance(g, 0, p[P_STATUE_CHANCE]) and place_feature(s, e, f, FEAT_STATUE, g) >= 0:
        price = int(p[P_STATUE_PRICE]) * int(f)
        s.statue_price[e, f] = price
        s.statue_threshold[e, f] = randint(g, 0, price - price // 4 + 1) + price // 4
    if chance(g, 0, p[P_BATH_CHANCE]):
        place_feature(s, e, f, FEAT_BATH, g)


@njit(cache=True)
def feature_here(s, e):
    """The feature of the room the party stands in (tables.FEAT_*), FEAT_NONE in a hall."""
    r = room_here(s, e)
    return s.room_feature[e, s.floor[e], r] if r >= 0 else FEAT_NONE
