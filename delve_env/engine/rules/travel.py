"""Travel: explore, walk to a stair, rest. One action, many paces; each pace is the very single
move (or wait) a step would take, through the same mechanics, and the walk stops where a
player would stop to decide (docs/RULES.md, Travel). This file only chooses the next pace and
says when to stop; `step.travel` takes the paces.
"""

import numpy as np

from ..compiled.jit import njit
from ..core.state import FOUND_CODE, NO_HALL_SPOT, NO_SPOT, ONLY_SPOTS, ROOM_MARK
from ..core.tables import DOOR, EXPLORE, HALL, MAX_MEMBERS, ROCK, ROOM, STAIR_DOWN, STAIR_UP
from ..generation.floors import DX, DY
from .loot import can_loot
from .party import is_standing
from .reach import joined
from .traits import may_heal

EXPLORE_TO, DOWN_TO, UP_TO, REST = 0, 1, 2, 3  # travel kinds, in action order (A_EXPLORE + k)
NUM_TRAVELS = 4
NO_WAY = -1
SEARCH_HERE = 4  # explore's way when its goal is to search where the party stands
SEARCH_TRIES = 4  # searches beside a wall before explore counts it searched (SECRET-2: 1/2 each)

# The searches read the remembered floor from `fog` alone (one byte a tile rather than three
# with the tiles and their rooms): a code is walkable where its tile is (`floors.is_walkable`),
# since a secret door shows as rock until found and then as FOUND_CODE, and a room's tiles
# show as ROOM_MARK + r.
WALKABLE_CODE = np.zeros(256, dtype=np.bool_)
WALKABLE_CODE[[1 + HALL, 1 + ROOM, 1 + DOOR, 1 + STAIR_DOWN, 1 + STAIR_UP, FOUND_CODE]] = True
WALKABLE_CODE[ROOM_MARK:] = True


@njit(cache=True, inline="always")
def is_room_left(entered, bands, r):
    """Room r (of a floor: `entered` its rooms' flags, `bands` their guards' first kinds, -1
    none) still draws explore: not yet entered, or its band fled (what it guards may be what
    the run needs: the floor's map, the king)."""
    return (not entered[r]) | (bands[r] >= 0)


@njit(cache=True, inline="always")
def is_explore_goal(fog, entered, bands, held, c, W):
    """Tile c (flat, of a floor W wide: `fog` as a flat view, `entered` its rooms' flags,
    `bands` their guards' first kinds, -1 none) is one explore walks to: a remembered walkable
    tile beside an unseen one (while the floor's map is not `held`: with it, what is unseen is
    rock), or a tile of a known room left to explore (`is_room_left`). The party is never in
    such a room while exploring: a room is entered through its door, and a band there fights.
    The floor's edge is rock (floors.py), so a walkable tile's neighbours are on it.
    Written without branches: a search asks it of every tile it reaches, and the answers
    follow no pattern a branch predictor could learn."""
    r = np.int64(fog[c]) - ROOM_MARK
    unfinished = (r >= 0) & is_room_left(entered, bands, max(r, 0))
    beside_unseen = (fog[c - W] == 0) | (fog[c + 1] == 0) | (fog[c + W] == 0) | (fog[c - 1] == 0)
    return unfinished | ((not held) & beside_unseen)


@njit(cache=True, inline="always")
def is_unexplored(fog, entered, x, y):
    """Ground the party has not been in: unseen, or a tile of a room not yet entered (`fog`
    and `entered` of the party's floor)."""
    H, W = fog.shape
    if not (0 <= x < W and 0 <= y < H):
        return False
    code = fog[y, x]
    return code == 0 or (code >= ROOM_MARK and not entered[code - ROOM_MARK])


@njit(cache=True, inline="always")
def search_spot(fog, searched, entered, x, y):
    """Where explore searches once nothing else is left to walk to: a remembered walkable
    tile beside a wall (a seen rock tile: a secret door looks like one, SECRET-1) searched
    there fewer than SEARCH_TRIES times, with ground the party has not been in behind it, a
    room's depth deep (rooms are at least 3 tiles across). Returns 0 (no spot), 1 in a hall
    (every secret door opens on a hall) or 2 in a room (its wall may hide a way on).
    `fog`, `searched` and `entered` are the party's floor's (s.fog[e, f], s.searched[e],
    s.room_entered[e, f]): a search asks this of every tile it reaches, so it takes the
    views its caller made once rather than making them at every tile."""
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if fog[ny, nx] != 1 + ROCK or searched[ny, nx] >= SEARCH_TRIES:
            continue
        if is_unexplored(fog, entered, nx + DX[d], ny + DY[d]) and is_unexplored(
            fog, entered, nx + 2 * DX[d], ny + 2 * DY[d]
        ):
            return 1 if fog[y, x] < ROOM_MARK else 2
    return 0


UNREACHED = -2  # in a search's marks: a remembered walkable tile not yet reached


@njit(cache=True)
def mark_known_walkable(fog, marks):
    """Start a search's marks (flat, distances or first paces): UNREACHED on remembered
    walkable tiles, -1 on the rest. Marking every tile first leaves the search one test a
    neighbour, with no branch."""
    for c in range(marks.size):
        marks[c] = -1 - np.int64(WALKABLE_CODE[fog[c]])


@njit(cache=True)
def spread(dist, queue, tail, W):
    """Breadth-first paces over the UNREACHED tiles of `dist` (flat, of a floor W wide, its
    edge rock) from the `tail` tiles queued at their distances; -1 where none is reached."""
    head = 0
    while head < tail:
        c = queue[head]
        head += 1
        nd = dist[c] + 1
        for n in (c - W, c + 1, c + W, c - 1):
            if dist[n] == UNREACHED:
                dist[n] = nd
                queue[tail] = n
                tail += 1
    for c in range(dist.size):
        dist[c] = max(dist[c], -1)


@njit(cache=True)
def first_steps(s, e, ways, want, known=0):
    """`search_first_steps` with work arrays of its own."""
    size = s.tiles.shape[2] * s.tiles.shape[3]
    first, queue = np.full(size, UNREACHED, dtype=np.int8), np.empty(size, dtype=np.int32)
    return search_first_steps(s, e, ways, want, known, first, queue)


@njit(cache=True)
def search_first_steps(s, e, ways, want, known, first, queue):
    """One breadth-first search of the remembered walkable tiles from the party: `ways[k]` is
    the direction of the first pace of a shortest walk to travel kind k's goal (the nearest
    explore goal, else the nearest search spot in a hall, else in a room; the stair down once
    seen and open; the stair up), NO_WAY when there is none or the party is on it,
    SEARCH_HERE for explore standing on a search spot. Ties go to the first direction in
    north, east, south, west order. Returns `ways_known`'s bits for what the search learned:
    ONLY_SPOTS when explore was asked on a floor and has no goal, with NO_HALL_SPOT when no
    search spot in reach is in a hall, and NO_SPOT too when there is none; 0 otherwise.
    `want` >= 0 asks for that kind only (the others are left NO_WAY). With `known`'s
    ONLY_SPOTS bit (`ways_known`'s, still true) explore looks for search spots alone, with
    NO_HALL_SPOT too for spots in rooms alone, and with NO_SPOT too not at all. The search
    stops as soon as what is asked is found (a tile's direction is final once it is reached).
    `first` (int8, all UNREACHED) and `queue` (int32), a floor's tiles long, are its work
    arrays: `first` is left all UNREACHED again, so a walk keeps both for all its paces,
    and a search that stops near the party costs what it reached, not the floor."""
    ways[:] = NO_WAY
    f = s.floor[e]
    if f == 0:
        return False
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    floor, searched, entered = s.fog[e, f], s.searched[e], s.room_entered[e, f]
    fog, bands = floor.reshape(H * W), s.band_kind[e, f, :, 0]
    held = ((s.maps_held[e] >> f) & 1) == 1
    opened = (s.maps_held[e] >> f) != 0  # MAP-5: travel down to a stair that opens
    start = s.y[e] * W + s.x[e]
    down = s.stair_down[e, f, 1] * W + s.stair_down[e, f, 0]
    up = s.stair_up[e, f, 1] * W + s.stair_up[e, f, 0]
    need_explore = want < 0 or want == EXPLORE_TO
    need_down = (want < 0 or want == DOWN_TO) and opened and fog[down] != 0 and down != start
    need_up = (want < 0 or want == UP_TO) and fog[up] != 0 and up != start
    no_goal = need_explore  # (explore asked, and no goal found yet)
    spots = (known & ONLY_SPOTS) != 0  # no goal in reach: the nearest hall spot ends the search
    rooms_only = spots and (known & NO_HALL_SPOT) != 0  # ... or the nearest spot in a room
    no_spot = rooms_only and (known & NO_SPOT) != 0  # ... or nothing is left to look for
    need_explore &= not no_spot
    if not (need_explore or need_down or need_up):
        return learned_bits(no_goal, rooms_only, no_spot)
    room_spot = -1  # (the nearest spot in a room, while spots are looked for)
    pace = (-W, 1, W, -1)  # north, east, south, west on the flat floor (its edge is rock)
    # `first` once reached: the first pace's direction; -1 on the party and on what cannot be
    # walked. Tiles are told walkable as the search meets them: it mostly stops near the party.
    first[start] = -1
    queue[0] = start
    head, tail = 0, 1
    while head < tail and (need_explore or need_down or need_up):
        c = queue[head]
        head += 1
        if need_explore and spots:
            kind = search_spot(floor, searched, entered, c % W, c // W)
            if kind == 1 or (kind == 2 and rooms_only):
                ways[EXPLORE_TO] = SEARCH_HERE if c == start else first[c]
                need_explore = False
            elif kind == 2 and room_spot < 0:
                room_spot = c
        elif need_explore and c != start and is_explore_goal(fog, entered, bands, held, c, W):
            ways[EXPLORE_TO] = first[c]
            need_explore = no_goal = False
        if need_down and c == down:
            ways[DOWN_TO] = first[c]
            need_down = False
        if need_up and c == up:
            ways[UP_TO] = first[c]
            need_up = False
        way = first[c]
        for d in range(4):
            n = c + pace[d]
            if first[n] == UNREACHED:
                if WALKABLE_CODE[fog[n]]:
                    first[n] = d if c == start else way
                    queue[tail] = n
                    tail += 1
                else:
                    first[n] = -1
    if need_explore:  # no goal: the search reached every tile, and `queue` holds them in order
        spot = room_spot if spots else nearest_search_spot(floor, searched, entered, queue, tail)
        if spot >= 0:
            ways[EXPLORE_TO] = SEARCH_HERE if spot == start else first[spot]
        rooms_only = spot < 0 or search_spot(floor, searched, entered, spot % W, spot // W) == 2
        no_spot = spot < 0
    first[start] = UNREACHED  # what was marked: the party's tile and the taken tiles' neighbours
    for i in range(head):
        for d in range(4):
            first[queue[i] + pace[d]] = UNREACHED
    return learned_bits(no_goal, rooms_only, no_spot)


@njit(cache=True, inline="always")
def learned_bits(no_goal, rooms_only, no_spot):
    """`first_steps`' answer: what `ways_known` may keep of its search."""
    if not no_goal:
        return 0
    return ONLY_SPOTS | (NO_HALL_SPOT if rooms_only else 0) | (NO_SPOT if no_spot else 0)


@njit(cache=True)
def nearest_search_spot(fog, searched, entered, queue, n):
    """The first of the n tiles of `queue` (flat, nearest first) that is a search spot in a
    hall, else the first in a room; -1 when there is none (the floor's `search_spot` views)."""
    W = fog.shape[1]
    in_room = -1
    for i in range(n):
        c = queue[i]
        kind = search_spot(fog, searched, entered, c % W, c // W)
        if kind == 1:
            return c
        if kind == 2 and in_room < 0:
            in_room = c
    return in_room


@njit(cache=True)
def goal_paces(s, e, grid):
    """Paces from each remembered walkable tile of the party's floor to the nearest explore
    goal (`is_explore_goal`) over the remembered walkable tiles, -1 where none is reached:
    one search from every goal at once, written into `grid` (H x W). Where the party is not
    on a goal, walking down it takes the first pace `first_steps` takes (its ties go the same
    way, `downhill`), so it serves every pace of an explore walk until the known map changes."""
    f = s.floor[e]
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    dist = grid.reshape(H * W)
    fog, entered, bands = s.fog[e, f].reshape(H * W), s.room_entered[e, f], s.band_kind[e, f, :, 0]
    held = ((s.maps_held[e] >> f) & 1) == 1
    mark_known_walkable(fog, dist)
    queue = np.empty(H * W, dtype=np.int32)
    tail = 0
    for c in range(W, H * W - W):  # the edge rows are rock
        if dist[c] == UNREACHED and is_explore_goal(fog, entered, bands, held, c, W):
            dist[c] = 0
            queue[tail] = c
            tail += 1
    spread(dist, queue, tail, W)


@njit(cache=True)
def spot_paces(s, e, grid):
    """Paces from each remembered walkable tile of the party's floor to the nearest search
    spot in a hall (`search_spot`), or, with none the party can reach, in a room, written into
    `grid` (H x W), -1 where none is reached: one search from every such spot at once. Where
    no explore goal can be reached, walking down it takes the first pace `first_steps` takes
    (the nearest spot, ties north, east, south, west: `downhill`) until the known map or a
    spot changes; on a spot, `first_steps` says to search there."""
    f = s.floor[e]
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    dist = grid.reshape(H * W)
    floor, searched, entered = s.fog[e, f], s.searched[e], s.room_entered[e, f]
    fog = floor.reshape(H * W)
    queue = np.empty(H * W, dtype=np.int32)
    rooms = np.empty(H * W, dtype=np.int32)  # the spots in rooms, asked once with the halls'
    mark_known_walkable(fog, dist)
    tail = num_rooms = 0
    for y in range(1, H - 1):  # the edge rows are rock
        for x in range(W):
            c = y * W + x
            if dist[c] == UNREACHED:
                kind = search_spot(floor, searched, entered, x, y)
                if kind == 1:
                    dist[c] = 0
                    queue[tail] = c
                    tail += 1
                elif kind == 2:
                    rooms[num_rooms] = c
                    num_rooms += 1
    spread(dist, queue, tail, W)
    if dist[s.y[e] * W + s.x[e]] >= 0:
        return
    mark_known_walkable(fog, dist)
    for i in range(num_rooms):
        dist[rooms[i]] = 0
        queue[i] = rooms[i]
    spread(dist, queue, num_rooms, W)


WAYS_FRESH = 1 << 7  # `ways_known` holds the bits below
KEPT = 1 << 6  # set in `ways_known` by a walk before a pace: still set after it, nothing new known


@njit(cache=True)
def stands_on(s, e, stair):
    """The party stands on its floor's stair of `stair` (s.stair_down or s.stair_up)."""
    f = s.floor[e]
    return s.x[e] == stair[e, f, 0] and s.y[e] == stair[e, f, 1]


@njit(cache=True)
def find_ways(s, e, known=0):
    """Bit k set: travel kind k (EXPLORE_TO, DOWN_TO, UP_TO) has a goal the party can walk to
    on the known map, or stands on (a stair); ONLY_SPOTS: explore's goals are search spots
    (NO_HALL_SPOT: in rooms; NO_SPOT: none); with WAYS_FRESH. Walking on the known map
    changes none of them (the party's tile is never an explore goal: it sees around it). The
    bits of `known` that are still true (ONLY_SPOTS and the bits with it) are taken as they
    are, unsearched. Whether a stair is in reach is asked of the known map's sets
    (reach.py), unsearched: only explore's goal is searched for."""
    ways = np.empty(NUM_TRAVELS, dtype=np.int64)
    bits = WAYS_FRESH | first_steps(s, e, ways, EXPLORE_TO, known)
    if ways[EXPLORE_TO] != NO_WAY:
        bits |= 1 << EXPLORE_TO
    f = s.floor[e]
    if f > 0:
        opened = (s.maps_held[e] >> f) != 0  # MAP-5: travel down to a stair that opens
        if opened and joined(s, e, s.stair_down[e, f, 0], s.stair_down[e, f, 1]):
            bits |= 1 << DOWN_TO
        if joined(s, e, s.stair_up[e, f, 0], s.stair_up[e, f, 1]):
            bits |= 1 << UP_TO
    return bits


@njit(cache=True)
def known_ways(s, e):
    """`find_ways`, kept in `ways_known` until the known map changes: its tiles, a room
    entered, a map held, another floor or a landing set it to 0; a search keeps ONLY_SPOTS
    and the bits with it (KEPT_BY_SEARCH). Each step and reset ends with it fresh
    (step.step_slot), so the state stays a function of the game however many paces a step
    took, and one search serves every mask until the party sees something new: a search that
    stops at the nearest explore goal. A full recompute of the outputs searches for
    everything again (mask.legal_mask)."""
    if s.ways_known[e] & WAYS_FRESH == 0:
        s.ways_known[e] = find_ways(s, e, s.ways_known[e])
    return s.ways_known[e]


@njit(cache=True)
def stair_paces(s, e, kind, grid):
    """Paces from each remembered walkable tile to travel kind k's stair (DOWN_TO or UP_TO)
    over the remembered walkable tiles, written into `grid` (H x W), -1 where it cannot be
    reached; all -1 when the stair is no goal (not seen; the stair down not open). One search
    serves every pace of a walk until the party sees new tiles."""
    f = s.floor[e]
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    dist = grid.reshape(H * W)
    stair = s.stair_down if kind == DOWN_TO else s.stair_up
    start = stair[e, f, 1] * W + stair[e, f, 0]
    fog = s.fog[e, f].reshape(H * W)
    opened = kind == UP_TO or (s.maps_held[e] >> f) != 0
    if not opened or fog[start] == 0:
        dist[:] = -1
        return
    mark_known_walkable(fog, dist)
    queue = np.empty(H * W, dtype=np.int32)
    dist[start] = 0
    queue[0] = start
    spread(dist, queue, 1, W)


@njit(cache=True)
def downhill(s, e, dist):
    """The first direction (north, east, south, west) one pace nearer the stair of `dist`:
    the first pace `first_steps` takes toward it (its ties go the same way); NO_WAY on the
    stair or where it cannot be reached."""
    H, W = dist.shape
    x, y = s.x[e], s.y[e]
    if dist[y, x] <= 0:
        return NO_WAY
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if 0 <= nx < W and 0 <= ny < H and dist[ny, nx] == dist[y, x] - 1:
            return d
    return NO_WAY


@njit(cache=True)
def can_rest(s, e):
    """Rest is offered exploring a floor with rations while a standing member can still heal
    (HEAL-1) or fill its well."""
    if s.floor[e] == 0 or s.mode[e] != EXPLORE or s.rations[e] == 0:
        return False
    for m in range(MAX_MEMBERS):
        hurt = s.hp[e, m] < s.ceiling[e, m] and may_heal(s, e, m)
        if is_standing(s, e, m) and (hurt or s.mana[e, m] < s.well[e, m]):
            return True
    return False


@njit(cache=True)
def at_new_door(s, e):
    """The party stands on a door of a room it has not entered, or whose band it fled (to
    listen, rest or sneak in)."""
    f, x, y = s.floor[e], s.x[e], s.y[e]
    if s.tiles[e, f, y, x] != DOOR:
        return False
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if 0 <= nx < W and 0 <= ny < H:
            r = s.room_of[e, f, ny, nx]
            if r >= 0 and is_room_left(s.room_entered[e, f], s.band_kind[e, f, :, 0], r):
                return True
    return False


@njit(cache=True)
def stops_here(s, e, kind, room_before):
    """After one pace: does the walk stop? It stops for anything a player stops for: another
    screen or the end (a fight, a wandering band, a level choice), any event of the pace (a
    new room or floor, hunger and its wound, a secret door...), Sixpence, the door of a room
    not yet entered or whose band was fled, another room with something to take; resting
    stops once no one can heal. (Walking wounds only by hunger, an event.)"""
    if s.mode[e] != EXPLORE or s.outcome[e] != 0 or s.events[e] != 0 or s.keeper_new[e] != 0:
        return True
    if kind == REST:
        return not can_rest(s, e)
    f = s.floor[e]
    r = s.room_of[e, f, s.y[e], s.x[e]]
    if r >= 0 and r != room_before and can_loot(s, e, f, r):
        return True
    return at_new_door(s, e)
