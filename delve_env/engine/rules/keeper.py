"""Sixpence, the courtyard keeper (SIX-1): once a run, each of the events of
`tables.KEEPER_EVENTS` gives the party a hint and a gift.

Most events are read off the step's event bits and the state after it (`watch`); the few a
step's bits cannot tell (who sprang a trap, a statue breaking an item, a ceiling lowered) are
`notice`d where they happen. A gift goes to the first standing member with pack room; with
no room anywhere it waits with Sixpence until there is (`deliver`). What a person reads is
the hint (delve_env/keeper.py); an agent sees the event in `status` and `info["keeper"]`.
Only the whole game has a keeper; the sub-tasks do not.
"""

from ..compiled.jit import njit
from ..core.state import DIRTY_PARTY
from ..core.tables import (
    EV_AMBUSH,
    EV_ARMOR_BITE,
    EV_DEATH,
    EV_FLED,
    EV_HUNTING,
    EV_KING,
    EV_LEVEL,
    EV_METAL_BITE,
    EV_NEW_FLOOR,
    EV_PAGE,
    FEAT_STORE,
    G_GOLD,
    G_ITEM,
    G_MAP,
    G_RATIONS,
    KEEPER_GIFTS,
    NUM_EFFECTS,
    NUM_KEEPER_EVENTS,
    PLATE,
    REPORT_PACES,
    ROGUE,
    SECRET,
    SIX_AMBUSH,
    SIX_ARMOR_BITE,
    SIX_BRIBE,
    SIX_DEATH,
    SIX_EFFECT,
    SIX_FLIGHT,
    SIX_HUNTING,
    SIX_KING,
    SIX_LEVEL,
    SIX_LOCKED_STAIR,
    SIX_METAL_BITE,
    SIX_NO_REPORT,
    SIX_PAGE,
    SIX_RATIONS_OUT,
    SIX_SECRET,
    SIX_START,
    SIX_STORE_FLOOR,
    SIX_VAULT,
    STAIR_DOWN,
    WALL,
)
from .effects import is_running
from .moving import is_stair_open, read_map
from .party import first_with_room, free_pack_slot, know_kind, put_item

# the events a step's bits tell on their own: (event bit, keeper event)
_BY_EVENT = (
    (EV_KING, SIX_KING),
    (EV_PAGE, SIX_PAGE),
    (EV_DEATH, SIX_DEATH),
    (EV_METAL_BITE, SIX_METAL_BITE),
    (EV_ARMOR_BITE, SIX_ARMOR_BITE),
    (EV_LEVEL, SIX_LEVEL),
    (EV_HUNTING, SIX_HUNTING),
)


@njit(cache=True)
def notice(s, e, k):
    """Keeper event k happened (a no-op after the first time)."""
    s.keeper_seen[e] |= 1 << k


@njit(cache=True)
def next_to_secret(s, e):
    """The party stands beside a secret door it has not found."""
    f, x, y = s.floor[e], s.x[e], s.y[e]
    h, w = s.tiles.shape[2], s.tiles.shape[3]
    for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
        if 0 <= x + dx < w and 0 <= y + dy < h and s.tiles[e, f, y + dy, x + dx] == SECRET:
            return True
    return False


@njit(cache=True)
def has_store(s, e, f):
    for r in range(s.num_rooms[e, f]):
        if s.room_feature[e, f, r] == FEAT_STORE:
            return True
    return False


@njit(cache=True)
def watch(s, e):
    """Notice the events the last step and the state after it show. (The costlier looks are
    skipped once their event is noticed: it is noticed once a run.)"""
    ev, f, seen = s.events[e], s.floor[e], s.keeper_seen[e]
    for bit, k in _BY_EVENT:
        if ev & bit:
            notice(s, e, k)
    if ev & EV_FLED and f > 0:  # a practice bout's flight is not one
        notice(s, e, SIX_FLIGHT)
    if ev & EV_AMBUSH and s.fight_room[e] >= 0:  # at a door, not a wandering band
        notice(s, e, SIX_AMBUSH)
    if ev & EV_NEW_FLOOR and has_store(s, e, f):
        notice(s, e, SIX_STORE_FLOOR)
    if s.pace[e] - s.report_pace[e] >= REPORT_PACES:
        notice(s, e, SIX_NO_REPORT)
    if s.rations[e] == 0:
        notice(s, e, SIX_RATIONS_OUT)
    if s.bribe_asked[e]:
        notice(s, e, SIX_BRIBE)
    if (s.mode[e] == WALL or s.mode[e] == PLATE) and s.cls[e, s.worker[e]] != ROGUE:
        notice(s, e, SIX_VAULT)
    if (seen >> SIX_EFFECT) & 1 == 0:
        for k in range(NUM_EFFECTS):
            if is_running(s, e, k):
                notice(s, e, SIX_EFFECT)
    if f > 0:
        on_down = s.tiles[e, f, s.y[e], s.x[e]] == STAIR_DOWN
        if (seen >> SIX_LOCKED_STAIR) & 1 == 0 and on_down and not is_stair_open(s, e):
            notice(s, e, SIX_LOCKED_STAIR)
        if (seen >> SIX_SECRET) & 1 == 0 and next_to_secret(s, e):
            notice(s, e, SIX_SECRET)


@njit(cache=True)
def deliver(s, e):
    """Hand over every gift owed that can be: gold, rations and a map at once, an item when
    a standing member has pack room, named: its kind is known from then on (ITEM-2)."""
    owed = s.keeper_seen[e] & ~s.keeper_given[e]
    for k in range(NUM_KEEPER_EVENTS):
        if not (owed >> k) & 1:
            continue
        kind = KEEPER_GIFTS[k, G_ITEM]
        if kind > 0:
            m = first_with_room(s, e)
            if m < 0:
                continue  # it waits for pack room
            put_item(s, e, m, free_pack_slot(s, e, m), kind)
            know_kind(s, e, kind)
        s.gold[e] += KEEPER_GIFTS[k, G_GOLD]
        s.rations[e] += KEEPER_GIFTS[k, G_RATIONS]
        if KEEPER_GIFTS[k, G_MAP] and s.floor[e] > 0:
            read_map(s, e, s.floor[e])
        s.keeper_given[e] |= 1 << k
        s.dirty[e] |= DIRTY_PARTY


@njit(cache=True)
def keep(s, e, before, start):
    """After a step (or at the start of a run): notice, hand over, and mark what is new since
    `before` (the seen events when the step began)."""
    if start:
        notice(s, e, SIX_START)
    watch(s, e)
    deliver(s, e)
    s.keeper_new[e] = s.keeper_seen[e] & ~before
