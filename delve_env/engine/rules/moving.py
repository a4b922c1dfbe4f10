"""Moving the party token: steps, fog of war, searching, stairs, landing after a flight
(MAP-3..5, SECRET-2, RUN-AWAY-1)."""

from ..compiled.jit import njit
from ..core.params import P_SEARCH_FIND
from ..core.rng import chance
from ..core.state import (
    DIRTY_MAP,
    DIRTY_PARTY,
    DIRTY_PUZZLE,
    FOUND_CODE,
    KEPT_BY_SEARCH,
    ROOM_MARK,
)
from ..core.tables import (
    DOOR,
    EV_MAP,
    EV_NEW_FLOOR,
    EV_SECRET,
    HALL,
    LIGHT,
    ROCK,
    SECRET,
    STAIR_DOWN,
    STAIR_UP,
    VIEW,
)
from ..generation.floors import DX, DY, is_walkable, random_tile
from .effects import is_running
from .party import refill_luck
from .reach import add_tile, build_reach
from .traits import change_floor

COARSE_SEEN, COARSE_ROOM, COARSE_DOWN, COARSE_UP = 1, 2, 3, 4


@njit(cache=True)
def remember(s, e, f, x0, y0, x1, y1):
    """MAP-4: the party now remembers tiles x0..x1, y0..y1 (clipped to the floor), in the fog
    map (`fog`: the tile's map code, a secret door as rock until found and then as a found
    secret door for good, a room's tiles marked with the room) and in the coarse floor view
    (each block keeps the most telling thing seen in it)."""
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    bh, bw = (H + VIEW - 1) // VIEW, (W + VIEW - 1) // VIEW
    tiles, rooms, fog, coarse = s.tiles[e, f], s.room_of[e, f], s.fog[e, f], s.coarse[e, f]
    here = f == s.floor[e]  # the party's floor: its tiles join `reach`'s sets as they are seen
    reach = s.reach[e].reshape(H * W)
    new = changed = 0  # (counted here, written once: the loop touches only this floor)
    for y in range(max(0, y0), min(H - 1, y1) + 1):
        for x in range(max(0, x0), min(W - 1, x1) + 1):
            tile = tiles[y, x]
            r = rooms[y, x]
            was = fog[y, x]
            if r >= 0:
                code = ROOM_MARK + r
            elif was != FOUND_CODE:
                code = 1 + (ROCK if tile == SECRET else tile)
            else:
                code = was
            if code == was:  # remembered as it is: its block already shows it
                continue
            new += was == 0
            changed += 1
            fog[y, x] = code
            if here and is_walkable(tile) and reach[y * W + x] == 0:
                add_tile(reach, y * W + x, W)
            seen = COARSE_SEEN
            if tile == STAIR_DOWN:
                seen = COARSE_DOWN
            elif tile == STAIR_UP:
                seen = COARSE_UP
            elif r >= 0:
                seen = COARSE_ROOM
            if seen > coarse[y // bh, x // bw]:
                coarse[y // bh, x // bw] = seen
    s.stat_tiles[e] += new
    if changed:
        s.ways_known[e] = 0  # the known map changed: travel's goals may have
    s.dirty[e] |= DIRTY_MAP


@njit(cache=True)
def room_here(s, e):
    """The room the party stands in, -1 in a hall or in the courtyard."""
    f = s.floor[e]
    return s.room_of[e, f, s.y[e], s.x[e]] if f > 0 else -1


@njit(cache=True)
def reveal_floor(s, e, f):
    """MAP-6, BRIBE-3: floor f's layout (not its secret doors, not what the rooms hold) and
    its rooms become known."""
    tiles = s.tiles[e, f]
    for y in range(tiles.shape[0]):
        for x in range(tiles.shape[1]):
            if tiles[y, x] != ROCK and tiles[y, x] != SECRET:
                remember(s, e, f, x, y, x, y)
    s.room_known[e, f, : s.num_rooms[e, f]] = True


@njit(cache=True)
def read_map(s, e, f):
    """MAP-4..6: hold floor f's map, see its layout (not secret doors, not what the rooms hold),
    and know its rooms."""
    s.maps_held[e] |= 1 << int(f)
    s.ways_known[e] = 0  # MAP-5: a stair down may open
    reveal_floor(s, e, f)
    s.events[e] |= EV_MAP


@njit(cache=True)
def reveal_room(s, e, f, r):
    """MAP-4: a room and its walls become known."""
    rect = s.room_rect[e, f, r]
    remember(s, e, f, rect[0] - 1, rect[1] - 1, rect[2] + 1, rect[3] + 1)
    s.room_known[e, f, r] = True


@njit(cache=True)
def look_around(s, e):
    """MAP-4: remember the tiles next to the party, and the whole room it stands in."""
    f, x, y = s.floor[e], s.x[e], s.y[e]
    remember(s, e, f, x - 1, y - 1, x + 1, y + 1)
    r = s.room_of[e, f, y, x]
    if r >= 0:
        reveal_room(s, e, f, r)


@njit(cache=True)
def can_step(s, e, d):
    f, x, y = s.floor[e], s.x[e] + DX[d], s.y[e] + DY[d]
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    return 0 <= x < W and 0 <= y < H and is_walkable(s.tiles[e, f, y, x])


@njit(cache=True)
def step_party(s, e, d):
    """MAP-3: one tile in direction d. Returns the room entered through a door, else -1."""
    f = s.floor[e]
    from_door = s.tiles[e, f, s.y[e], s.x[e]] == DOOR
    was = s.room_of[e, f, s.y[e], s.x[e]]
    s.x[e] += DX[d]
    s.y[e] += DY[d]
    r = s.room_of[e, f, s.y[e], s.x[e]]
    if r >= 0 and r == was:  # within a room: it and its walls were seen on the way in
        s.dirty[e] |= DIRTY_MAP  # (the map's crop follows the party)
    else:
        look_around(s, e)
    if r != was:  # the puzzle shows the room's lock, the party rows its bath (PARTY_BATHED)
        s.dirty[e] |= DIRTY_PUZZLE | DIRTY_PARTY
    return r if from_door else -1


@njit(cache=True)
def search_walls(s, p, e, rng):
    """SECRET-2: each secret door next to the party is found with the search chance; every
    one of them under the LIGHT effect. Counts the search beside each tile (`searched`: where
    explore has searched enough, travel.py)."""
    f, x, y = s.floor[e], s.x[e], s.y[e]
    lit = is_running(s, e, LIGHT)
    s.ways_known[e] &= KEPT_BY_SEARCH  # explore's search spots may be spent, not its goals
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        s.searched[e, ny, nx] = min(int(s.searched[e, ny, nx]) + 1, 255)
        if s.tiles[e, f, ny, nx] == SECRET and (lit or chance(rng, e, p[P_SEARCH_FIND])):
            s.tiles[e, f, ny, nx] = DOOR
            remember(s, e, f, nx, ny, nx, ny)
            s.fog[e, f, ny, nx] = FOUND_CODE  # a door, remembered as the secret one it was
            s.events[e] |= EV_SECRET


@njit(cache=True)
def is_stair_open(s, e):
    """MAP-5: up is always open; down on floor f needs the map of a floor >= f."""
    f = s.floor[e]
    if f == 0:
        return True  # COURT-1: the courtyard's stair down is always open
    tile = s.tiles[e, f, s.y[e], s.x[e]]
    if tile == STAIR_UP:
        return True
    return tile == STAIR_DOWN and (s.maps_held[e] >> f) != 0


@njit(cache=True)
def arrive(s, e, f, x, y):
    """Stand at (x, y) of floor f; a floor never reached before refills luck (LUCK-1). What
    a change of floor does to spells and class features: `traits.change_floor`."""
    old, first = s.floor[e], not s.floor_visited[e, f]
    s.floor[e], s.x[e], s.y[e] = f, x, y
    s.dirty[e] |= DIRTY_MAP | DIRTY_PUZZLE
    s.ways_known[e] = 0  # another floor, or another place on it
    if f != old:
        s.searched[e] = 0
        build_reach(s, e)
    change_floor(s, e, old, f, first)
    if first:
        s.floor_visited[e, f] = True
        s.stat_deepest[e] = max(s.stat_deepest[e], f)
        s.events[e] |= EV_NEW_FLOOR
        refill_luck(s, e)
    if f > 0:
        look_around(s, e)


@njit(cache=True)
def take_stairs(s, e):
    """Down from the courtyard or a stair down; up from a stair up. Costs no pace."""
    f = s.floor[e]
    if f == 0 or s.tiles[e, f, s.y[e], s.x[e]] == STAIR_DOWN:
        arrive(s, e, f + 1, s.stair_up[e, f + 1, 0], s.stair_up[e, f + 1, 1])
    elif f == 1:
        arrive(s, e, 0, 0, 0)
    else:
        arrive(s, e, f - 1, s.stair_down[e, f - 1, 0], s.stair_down[e, f - 1, 1])


@njit(cache=True)
def land_in_hall(s, e, rng):
    """RUN-AWAY-1: a random plain hall tile of the floor (never a room, never a stair)."""
    x, y = random_tile(s.tiles[e, s.floor[e]], HALL, rng, e)
    s.x[e], s.y[e] = x, y
    s.dirty[e] |= DIRTY_PUZZLE
    s.ways_known[e] = 0  # landed apart from the ground walked
    look_around(s, e)
