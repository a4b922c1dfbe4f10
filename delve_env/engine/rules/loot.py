"""What rooms hold and taking it: gold, items, pages, the floor map, the book (LOOT-1, PAGE-1,
MAP-5..6, RUN-2)."""

from ..compiled.jit import njit
from ..core.params import (
    P_GUARD_CHANCE,
    P_PAGES_PER_FLOOR,
    P_ROOM_GOLD_CHANCE,
    P_ROOM_GOLD_DICE,
    P_ROOM_ITEM_CHANCE,
)
from ..core.rng import chance, randint, roll
from ..core.state import DIRTY_MAGIC
from ..core.tables import (
    EV_BOOK,
    EV_LOOT,
    EV_PAGE,
    NUM_SPELLS,
    ROOM_ITEMS,
    ROOM_PAGES,
    tier_of,
)
from .chests import is_chest_shut
from .monsters import roll_band
from .moving import read_map
from .party import first_with_room, free_pack_slot, put_item, share_xp
from .vaults import draw_room_item, is_locked_vault

BOOK_XP = 100  # XP-2


@njit(cache=True)
def stock_floor(s, p, e, f, g):
    """Roll every room's gold, items and guards, drop the pages and the map (generation RNG g)."""
    n = s.num_rooms[e, f]
    for r in range(n):
        s.room_gold[e, f, r] = 0
        if chance(g, 0, p[P_ROOM_GOLD_CHANCE]):
            s.room_gold[e, f, r] = roll(g, 0, int(p[P_ROOM_GOLD_DICE])) * f
        s.room_items[e, f, r, :] = 0
        s.room_pages[e, f, r, :] = -1
        if chance(g, 0, p[P_ROOM_ITEM_CHANCE]):
            s.room_items[e, f, r, 0] = draw_room_item(f, tier_of(f), g)
        if chance(g, 0, p[P_GUARD_CHANCE]):  # RUN-2: the book's and king's rooms too
            # MON-1: the king's and the book's guards are one stronger (bands of 1-6)
            quest = (f == s.book_floor[e] and r == s.book_room[e]) or (
                f == s.floor_visited.shape[1] - 1 and r == s.king_room[e]
            )
            roll_band(p, f, 1 if quest else 0, g, 0, s.band_kind[e, f, r], s.band_hp[e, f, r])
        else:
            s.band_kind[e, f, r, :] = -1
            s.band_hp[e, f, r, :] = 0
    s.room_map[e, f, randint(g, 0, n)] = True
    for _ in range(int(p[P_PAGES_PER_FLOOR])):
        r = randint(g, 0, n)
        for i in range(ROOM_PAGES):
            if s.room_pages[e, f, r, i] < 0:
                s.room_pages[e, f, r, i] = randint(g, 0, NUM_SPELLS)
                break


@njit(cache=True)
def is_book_here(s, e, f, r):
    return not s.has_book[e] and f == s.book_floor[e] and r == s.book_room[e]


@njit(cache=True)
def has_loot(s, e, f, r):
    """Anything left in room r of floor f for LOOT to take (a locked vault keeps its own)."""
    if is_locked_vault(s, e, f, r):
        return False
    if s.room_gold[e, f, r] > 0 or is_book_here(s, e, f, r):
        return True
    if not is_chest_shut(s, e, f, r):  # CHEST-1: a shut chest keeps the items and the map
        if s.room_map[e, f, r]:
            return True
        for i in range(ROOM_ITEMS):
            if s.room_items[e, f, r, i] > 0:
                return True
    for i in range(ROOM_PAGES):
        if s.room_pages[e, f, r, i] >= 0:
            return True
    return False


@njit(cache=True)
def can_loot(s, e, f, r):
    """LOOT is offered when it would take something: loot is left (`has_loot`) that is not
    only items with no pack room for them (no free stall)."""
    if not has_loot(s, e, f, r) or first_with_room(s, e) >= 0:
        return has_loot(s, e, f, r)
    if s.room_gold[e, f, r] > 0 or is_book_here(s, e, f, r):
        return True
    for i in range(ROOM_PAGES):
        if s.room_pages[e, f, r, i] >= 0:
            return True
    return s.room_map[e, f, r] and not is_chest_shut(s, e, f, r)


@njit(cache=True)
def add_page(s, e, spell):
    """PAGE-1: a page goes into the book if it is held, else into the party's hand."""
    if s.has_book[e]:
        s.book_pages[e, spell] += 1
    else:
        s.pages_held[e, spell] += 1
    s.events[e] |= EV_PAGE
    s.dirty[e] |= DIRTY_MAGIC  # a page in the book is a spell to read (PAGE-2)


@njit(cache=True)
def take_book(s, p, e, rng):
    """The book is found: every held page goes into it (PAGE-1), 100 XP shared (XP-2)."""
    s.has_book[e] = True
    s.dirty[e] |= DIRTY_MAGIC
    for spell in range(NUM_SPELLS):
        s.book_pages[e, spell] += s.pages_held[e, spell]
        s.pages_held[e, spell] = 0
    s.events[e] |= EV_BOOK
    share_xp(s, p, e, BOOK_XP, rng)


@njit(cache=True)
def take_item(s, e, kind):
    """First free pack slot of the standing members in marching order; False if none fits."""
    m = first_with_room(s, e)
    if m < 0:
        return False
    put_item(s, e, m, free_pack_slot(s, e, m), kind)
    return True


@njit(cache=True)
def loot_room(s, p, e, rng):
    """LOOT-1: take everything in the party's room; items that do not fit stay. A shut chest
    (CHEST-1) keeps the room's items and map: only the loose gold, pages and book are taken."""
    f = s.floor[e]
    r = s.room_of[e, f, s.y[e], s.x[e]]
    gold = s.room_gold[e, f, r]
    s.room_gold[e, f, r] = 0
    s.gold[e] += gold
    s.stat_gold[e] += gold
    share_xp(s, p, e, gold, rng)  # XP-2: 1 per coin
    shut = is_chest_shut(s, e, f, r)
    for i in range(ROOM_ITEMS):
        kind = s.room_items[e, f, r, i]
        if kind > 0 and not shut and take_item(s, e, kind):
            s.room_items[e, f, r, i] = 0
    for i in range(ROOM_PAGES):
        if s.room_pages[e, f, r, i] >= 0:
            add_page(s, e, s.room_pages[e, f, r, i])
            s.room_pages[e, f, r, i] = -1
    if s.room_map[e, f, r] and not shut:
        s.room_map[e, f, r] = False
        read_map(s, e, f)
    if is_book_here(s, e, f, r):
        take_book(s, p, e, rng)
    s.events[e] |= EV_LOOT
