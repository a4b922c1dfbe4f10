"""The scripted players' walks, compiled: a first step toward the nearest goal tile, the fog's
frontier and its search spots. They run at nearly every step of a scripted game, so they are
numba kernels over a floor's arrays (as the engine's own searches are) rather than numpy
expressions built anew each step."""

from __future__ import annotations

import numpy as np

from delve_env.engine.compiled.jit import njit  # cached by its place in the project
from delve_env.engine.core.actions import A_MOVE
from delve_env.engine.core.tables import ROCK
from delve_env.engine.generation.floors import DX, DY, is_walkable, walk_distances


@njit(cache=True)
def first_step(tiles, x, y, goal):
    """The first move of a shortest walk from (x, y) to the nearest goal tile (the first such
    tile in row order among the nearest), or -1 when none is reachable or (x, y) is one."""
    H, W = tiles.shape
    dist = np.empty((H, W), dtype=np.int64)
    walk_distances(tiles, x, y, dist)
    best, gx, gy = 1 << 30, -1, -1
    for ty in range(H):
        for tx in range(W):
            if goal[ty, tx] and 0 <= dist[ty, tx] < best:
                best, gx, gy = dist[ty, tx], tx, ty
    if gx < 0 or goal[y, x]:  # (the party's own tile is always reached)
        return -1
    walk_distances(tiles, gx, gy, dist)
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if 0 <= nx < W and 0 <= ny < H and dist[ny, nx] == dist[y, x] - 1:
            return A_MOVE + d
    return -1


@njit(cache=True)
def walk_step(tiles, fog, blind, room_of, shut, x, y, goal):
    """`first_step` over a floor's ground, unseen tiles (fog 0) taken for rock when `blind`,
    walled off in the rooms `shut` marks (indexed by room) while another way exists; the
    party's own tile is never walled off. -1 when no goal tile is reachable."""
    H, W = tiles.shape
    ground = tiles.copy()
    detour = tiles.copy()
    walled = False
    for ty in range(H):
        for tx in range(W):
            if blind and fog[ty, tx] == 0:
                ground[ty, tx] = ROCK
            r = room_of[ty, tx]
            if r >= 0 and shut[r] and (tx != x or ty != y):
                detour[ty, tx] = ROCK
                walled = True
            else:
                detour[ty, tx] = ground[ty, tx]
    if walled:
        a = first_step(detour, x, y, goal)
        if a >= 0:
            return a
    return first_step(ground, x, y, goal)


@njit(cache=True)
def frontier(tiles, fog, x, y):
    """Seen ground beside unseen ground (north, east, south or west), the party's tile aside."""
    H, W = tiles.shape
    out = np.zeros((H, W), dtype=np.bool_)
    for ty in range(H):
        for tx in range(W):
            if fog[ty, tx] == 0 or not is_walkable(tiles[ty, tx]) or (tx == x and ty == y):
                continue
            for d in range(4):
                nx, ny = tx + DX[d], ty + DY[d]
                if 0 <= nx < W and 0 <= ny < H and fog[ny, nx] == 0:
                    out[ty, tx] = True
                    break
    return out


@njit(cache=True)
def search_spots(tiles, fog):
    """Seen ground beside rock with unseen ground behind it (spot + d rock, spot + 2d unseen):
    where a search may find a secret door to unseen parts."""
    H, W = tiles.shape
    out = np.zeros((H, W), dtype=np.bool_)
    for ty in range(H):
        for tx in range(W):
            if fog[ty, tx] == 0 or not is_walkable(tiles[ty, tx]):
                continue
            for d in range(4):
                wx, wy = tx + DX[d], ty + DY[d]
                bx, by = tx + 2 * DX[d], ty + 2 * DY[d]
                if (
                    0 <= bx < W
                    and 0 <= by < H
                    and not is_walkable(tiles[wy, wx])
                    and fog[by, bx] == 0
                ):
                    out[ty, tx] = True
                    break
    return out
