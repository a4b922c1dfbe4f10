"""Floor generation: rooms, halls, doors, secret doors and stairs (MAP-1..2, SECRET-1).

A floor is cut into CELL x CELL cells with one walled room each. Neighbouring rooms are
joined by a spanning tree of halls plus a few extra ones; every hall runs out of a door,
along the gap between cells (where halls meet in junctions), and into the other door.
A secret door is a wall tile with a stretch of hall running alongside it.
"""

import numpy as np

from ..compiled.jit import njit
from ..core.params import P_EXTRA_HALLS, P_SECRET_DOOR, P_SECRET_ROOM
from ..core.rng import chance, randint
from ..core.tables import CELL, DOOR, HALL, ROCK, ROOM, SECRET, STAIR_DOWN, STAIR_UP

DX = np.array([0, 1, 0, -1], dtype=np.int64)  # north, east, south, west
DY = np.array([-1, 0, 1, 0], dtype=np.int64)


@njit(cache=True)
def is_walkable(tile):
    """Tiles the party can stand on (a secret door only once found, when it becomes a door)."""
    # no branches: searches ask it of tiles in no order a branch predictor could learn
    return (
        (tile == HALL) | (tile == ROOM) | (tile == DOOR) | (tile == STAIR_DOWN) | (tile == STAIR_UP)
    )


@njit(cache=True)
def is_hall(tile):
    """Hall tiles, stairs included (stairs lie in halls, MAP-1)."""
    return tile == HALL or tile == STAIR_DOWN or tile == STAIR_UP


@njit(cache=True)
def is_junction(tiles, x, y):
    """A hall tile with three or more walkable neighbours (MAP-2)."""
    if not is_hall(tiles[y, x]):
        return False
    n = 0
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if 0 <= ny < tiles.shape[0] and 0 <= nx < tiles.shape[1] and is_walkable(tiles[ny, nx]):
            n += 1
    return n >= 3


@njit(cache=True)
def carve(tiles, x0, y0, x1, y1):
    """Turn rock into hall along a straight line (either order of ends)."""
    for y in range(min(y0, y1), max(y0, y1) + 1):
        for x in range(min(x0, x1), max(x0, x1) + 1):
            if tiles[y, x] == ROCK:
                tiles[y, x] = HALL


@njit(cache=True)
def place_door(tiles, x, y, ox, oy, is_secret):
    """A door at (x, y) whose outside hall tile is (ox, oy); a secret one gets a hall alongside."""
    tiles[y, x] = SECRET if is_secret else DOOR
    if is_secret:
        # the hall runs alongside the wall for a tile each way (SECRET-1)
        sx, sy = ox - x, oy - y  # outward direction
        ax, ay = sy, sx  # along the wall
        for k in (-1, 1):
            tx, ty = ox + k * ax, oy + k * ay
            if tiles[ty - sy, tx - sx] == ROCK and tiles[ty, tx] == ROCK:
                tiles[ty, tx] = HALL


@njit(cache=True)
def join_rooms(tiles, rect, a, b, horizontal, gap, span0, span1, g, secret_a, secret_b):
    """Carve the hall between room a and the room b east (or south) of it."""
    if horizontal:
        ya = rect[a, 1] + randint(g, 0, rect[a, 3] - rect[a, 1] + 1)
        yb = rect[b, 1] + randint(g, 0, rect[b, 3] - rect[b, 1] + 1)
        xa, xb = rect[a, 2] + 2, rect[b, 0] - 2
        carve(tiles, xa, ya, gap, ya)
        carve(tiles, gap, span0, gap, span1)
        carve(tiles, gap, yb, xb, yb)
        place_door(tiles, xa - 1, ya, xa, ya, secret_a)
        place_door(tiles, xb + 1, yb, xb, yb, secret_b)
    else:
        xa = rect[a, 0] + randint(g, 0, rect[a, 2] - rect[a, 0] + 1)
        xb = rect[b, 0] + randint(g, 0, rect[b, 2] - rect[b, 0] + 1)
        ya, yb = rect[a, 3] + 2, rect[b, 1] - 2
        carve(tiles, xa, ya, xa, gap)
        carve(tiles, span0, gap, span1, gap)
        carve(tiles, xb, gap, xb, yb)
        place_door(tiles, xa, ya - 1, xa, ya, secret_a)
        place_door(tiles, xb, yb + 1, xb, yb, secret_b)


@njit(cache=True)
def find_root(parent, i):
    while parent[i] != i:
        i = parent[i]
    return i


@njit(cache=True)
def carve_rooms(tiles, room_of, rect, ncx, ncy, g):
    """One random room in each cell; returns the number of rooms."""
    cw, ch = tiles.shape[1] // ncx, tiles.shape[0] // ncy
    for r in range(ncx * ncy):
        cx, cy = r % ncx, r // ncx
        w = 3 + randint(g, 0, cw - 7)
        h = 3 + randint(g, 0, ch - 7)
        x0 = cx * cw + 2 + randint(g, 0, cw - 3 - w)
        y0 = cy * ch + 2 + randint(g, 0, ch - 3 - h)
        rect[r, 0], rect[r, 1], rect[r, 2], rect[r, 3] = x0, y0, x0 + w - 1, y0 + h - 1
        for y in range(y0, y0 + h):
            for x in range(x0, x0 + w):
                tiles[y, x] = ROOM
                room_of[y, x] = r
    return ncx * ncy


@njit(cache=True)
def carve_halls(tiles, rect, ncx, ncy, p, g):
    """A random spanning tree of halls between neighbouring rooms, plus extra ones."""
    H, W = tiles.shape
    cw, ch = W // ncx, H // ncy
    n = ncx * ncy
    secret_room = np.zeros(n, dtype=np.bool_)
    for r in range(n):
        secret_room[r] = chance(g, 0, p[P_SECRET_ROOM])
    # every edge between neighbouring cells, in random order (Kruskal)
    edges = np.zeros((2 * n, 3), dtype=np.int64)
    m = 0
    for r in range(n):
        if r % ncx < ncx - 1:
            edges[m, 0], edges[m, 1], edges[m, 2] = r, r + 1, 1
            m += 1
        if r // ncx < ncy - 1:
            edges[m, 0], edges[m, 1], edges[m, 2] = r, r + ncx, 0
            m += 1
    for i in range(m - 1, 0, -1):
        j = randint(g, 0, i + 1)
        for c in range(3):
            edges[i, c], edges[j, c] = edges[j, c], edges[i, c]
    parent = np.arange(n)
    for i in range(m):
        a, b, horizontal = edges[i, 0], edges[i, 1], edges[i, 2] == 1
        ra, rb = find_root(parent, a), find_root(parent, b)
        if ra == rb and not chance(g, 0, p[P_EXTRA_HALLS]):
            continue
        parent[ra] = rb
        cx, cy = a % ncx, a // ncx
        if horizontal:
            gap, span0, span1 = (cx + 1) * cw, cy * ch + 1, min(H - 2, (cy + 1) * ch - 1)
        else:
            gap, span0, span1 = (cy + 1) * ch, cx * cw + 1, min(W - 2, (cx + 1) * cw - 1)
        secret_a = secret_room[a] or chance(g, 0, p[P_SECRET_DOOR])
        secret_b = secret_room[b] or chance(g, 0, p[P_SECRET_DOOR])
        join_rooms(tiles, rect, a, b, horizontal, gap, span0, span1, g, secret_a, secret_b)


@njit(cache=True)
def walk_distances(tiles, sx, sy, dist):
    """Breadth-first paces from (sx, sy) over walkable tiles; -1 where unreachable."""
    H, W = tiles.shape
    dist[:] = -1
    queue = np.empty(H * W, dtype=np.int64)
    queue[0] = sy * W + sx
    dist[sy, sx] = 0
    head, tail = 0, 1
    while head < tail:
        cy, cx = queue[head] // W, queue[head] % W
        head += 1
        for d in range(4):
            nx, ny = cx + DX[d], cy + DY[d]
            if 0 <= nx < W and 0 <= ny < H and dist[ny, nx] < 0 and is_walkable(tiles[ny, nx]):
                dist[ny, nx] = dist[cy, cx] + 1
                queue[tail] = ny * W + nx
                tail += 1
    return tail


@njit(cache=True)
def random_tile(tiles, kind, g, e):
    """A uniformly chosen tile of one kind, as (x, y); (-1, -1) if there is none."""
    n = 0
    for y in range(tiles.shape[0]):
        for x in range(tiles.shape[1]):
            if tiles[y, x] == kind:
                n += 1
    if n == 0:
        return -1, -1
    k = randint(g, e, n)
    for y in range(tiles.shape[0]):
        for x in range(tiles.shape[1]):
            if tiles[y, x] == kind:
                if k == 0:
                    return x, y
                k -= 1
    return -1, -1


@njit(cache=True)
def place_stairs(tiles, stair_up, stair_down, has_down, g):
    """Stair up on a hall tile that reaches the most floor, stair down far from it (none on the
    deepest floor, RUN-1)."""
    H, W = tiles.shape
    dist = np.empty((H, W), dtype=np.int64)
    best, bx, by = -1, 0, 0
    for _ in range(8):
        x, y = random_tile(tiles, HALL, g, 0)
        reach = walk_distances(tiles, x, y, dist)
        if reach > best:
            best, bx, by = reach, x, y
    walk_distances(tiles, bx, by, dist)
    far = 0
    for y in range(H):
        for x in range(W):
            if tiles[y, x] == HALL and dist[y, x] > far:
                far = dist[y, x]
    tiles[by, bx] = STAIR_UP
    dx, dy = bx, by
    # the stair down: a random plain hall tile at least half the farthest distance away
    n = 0
    for y in range(H):
        for x in range(W):
            if tiles[y, x] == HALL and 2 * dist[y, x] >= far:
                n += 1
    if n == 0:
        dx, dy = random_tile(tiles, HALL, g, 0)
    else:
        k = randint(g, 0, n)
        for y in range(H):
            for x in range(W):
                if tiles[y, x] == HALL and 2 * dist[y, x] >= far:
                    if k == 0:
                        dx, dy = x, y
                    k -= 1
    if has_down:
        tiles[dy, dx] = STAIR_DOWN
    stair_up[0], stair_up[1] = bx, by
    stair_down[0], stair_down[1] = dx, dy


@njit(cache=True)
def generate_floor(s, p, e, f, g):
    """Carve floor f of env e: rooms, halls, doors, secret doors, stairs. Uses generation RNG g."""
    tiles, room_of, rect = s.tiles[e, f], s.room_of[e, f], s.room_rect[e, f]
    tiles[:] = ROCK
    room_of[:] = -1
    ncx, ncy = tiles.shape[1] // CELL, tiles.shape[0] // CELL
    s.num_rooms[e, f] = carve_rooms(tiles, room_of, rect, ncx, ncy, g)
    carve_halls(tiles, rect, ncx, ncy, p, g)
    is_deepest = f == s.floor_visited.shape[1] - 1
    place_stairs(tiles, s.stair_up[e, f], s.stair_down[e, f], not is_deepest, g)
