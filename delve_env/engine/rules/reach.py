"""Which remembered tiles of the party's floor join up: a union-find of its known map.

`s.reach[e]` (flat, a floor's tiles) holds 0 on a tile that is not a remembered walkable one,
minus the size of its set on a set's root, else its parent's flat index (the floor's edge is
rock, so no walkable tile has index 0). The known map only grows, so sets only merge: a tile
joins its walkable neighbours as it is remembered (`moving.remember`), and the floor's sets
are built afresh on arriving there. Travel asks whether a stair is in the party's set
(`travel.find_ways`) without walking the floor: when the party has landed apart from the
stairs after a flight, a search would walk all it knows at every new tile to prove them out
of reach. The smaller set joins the larger, so a root is at most log2(tiles) parents away,
and asking changes nothing.
"""

import numpy as np

from ..compiled.jit import njit
from ..generation.floors import is_walkable


@njit(cache=True, inline="always")
def root(reach, c):
    """The root of tile c's set (c a remembered walkable tile)."""
    while reach[c] > 0:
        c = reach[c]
    return c


@njit(cache=True)
def add_tile(reach, c, W):
    """Tile c (flat, of a floor W wide) is now a remembered walkable tile: its own set, merged
    with each remembered walkable neighbour's."""
    reach[c] = -1
    for n in (c - W, c + 1, c + W, c - 1):
        if reach[n] != 0:
            a, b = root(reach, c), root(reach, n)
            if a != b:
                if reach[a] > reach[b]:  # (sizes are negative: a is the larger set)
                    a, b = b, a
                reach[a] += reach[b]
                reach[b] = a


@njit(cache=True)
def build_reach(s, e):
    """The sets of the party's floor as the party remembers it (on arriving there)."""
    f = s.floor[e]
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    reach, fog, tiles = s.reach[e].reshape(H * W), s.fog[e, f].reshape(H * W), s.tiles[e, f]
    reach[:] = 0
    if f == 0:
        return
    flat = tiles.reshape(H * W)
    for c in range(W, H * W - W):  # the edge rows are rock
        if fog[c] != 0 and is_walkable(flat[c]):
            add_tile(reach, c, W)


@njit(cache=True)
def joined(s, e, x, y):
    """Tile (x, y) of the party's floor is remembered and the party can walk to it on the
    known map (the party's own tile included)."""
    W = s.tiles.shape[3]
    reach = s.reach[e].reshape(s.reach.shape[1] * W)
    c = y * W + x
    return reach[c] != 0 and root(reach, c) == root(reach, s.y[e] * W + s.x[e])


@njit(cache=True)
def sets_as_walked(s, e):
    """Whether `reach` holds exactly the party's floor's remembered walkable tiles, each set
    exactly those a walk over them joins, with its size at its root (the soak's check). The
    courtyard has no map: no sets."""
    f = s.floor[e]
    H, W = s.tiles.shape[2], s.tiles.shape[3]
    reach = s.reach[e].reshape(H * W)
    fog, tiles = s.fog[e, f].reshape(H * W), s.tiles[e, f].reshape(H * W)
    known = np.zeros(H * W, dtype=np.bool_)
    if f > 0:
        for c in range(H * W):
            known[c] = fog[c] != 0 and is_walkable(tiles[c])
    for c in range(H * W):
        if (reach[c] != 0) != known[c]:
            return False
    walked = np.zeros(H * W, dtype=np.bool_)
    rooted = np.zeros(H * W, dtype=np.bool_)  # the roots of the sets walked so far
    queue = np.empty(H * W, dtype=np.int64)
    for start in range(H * W):
        if not known[start] or walked[start]:
            continue
        top = root(reach, start)
        if rooted[top]:  # two walks apart, one set
            return False
        rooted[top] = True
        walked[start] = True
        queue[0] = start
        head, tail = 0, 1
        while head < tail:
            c = queue[head]
            head += 1
            if root(reach, c) != top:  # one walk, two sets
                return False
            for n in (c - W, c + 1, c + W, c - 1):
                if 0 <= n < H * W and known[n] and not walked[n]:
                    walked[n] = True
                    queue[tail] = n
                    tail += 1
        if -reach[top] != tail:
            return False
    return True
