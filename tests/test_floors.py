"""Floors, moving, fog of war, maps and secret doors: MAP-1..6, SECRET-1..2."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import make_rng

from delve_env import DelveEnv
from delve_env.engine.core.actions import A_LOOT, A_MOVE, A_SEARCH, A_STAIRS, A_WAIT
from delve_env.engine.core.params import P_HEIGHT, P_SEARCH_FIND, P_WIDTH
from delve_env.engine.core.tables import (
    DOOR,
    EV_NEW_ROOM,
    EV_SECRET,
    HALL,
    MAX_DEPTH,
    NUM_SPELLS,
    ROCK,
    ROOM,
    SECRET,
    STAIR_DOWN,
    STAIR_UP,
)
from delve_env.engine.generation.floors import DX, DY, is_junction, walk_distances
from delve_env.engine.outputs.layout import BAND_HERE, CROP, LOOT_HERE
from delve_env.engine.rules import moving
from delve_env.engine.rules.loot import stock_floor
from delve_env.engine.rules.moving import search_walls

SEEDS = range(200)
HALLS = (HALL, STAIR_DOWN, STAIR_UP)
WALKABLE = (HALL, ROOM, DOOR, STAIR_DOWN, STAIR_UP)


class Floor:
    """One generated floor, copied out of the state."""

    def __init__(self, s, seed, f):
        self.seed, self.f = seed, f
        self.tiles = s.tiles[0, f].copy()
        self.room_of = s.room_of[0, f].copy()
        self.rects = s.room_rect[0, f, : s.num_rooms[0, f]].copy()
        self.up = tuple(int(v) for v in s.stair_up[0, f])
        self.down = tuple(int(v) for v in s.stair_down[0, f])
        self.room_map = s.room_map[0, f, : s.num_rooms[0, f]].copy()

    def reach(self, tiles):
        dist = np.empty(tiles.shape, dtype=np.int64)
        walk_distances(tiles, self.up[0], self.up[1], dist)
        return dist

    def neighbours(self, x, y):
        for d in range(4):
            yield int(x + DX[d]), int(y + DY[d]), d


@pytest.fixture(scope="module")
def floors() -> list[Floor]:
    """Every floor of 200 generated depth-2 dungeons (400 floors)."""
    env = DelveEnv(depth=2)
    out = []
    for seed in SEEDS:
        env.reset(seed=seed)
        for f in (1, 2):
            out.append(Floor(env.engine.state, seed, f))
    return out


# --- MAP-1 ---------------------------------------------------------------------------------


def test_map_1_floor_is_a_default_48_by_24_grid_of_the_listed_tiles(scene, floors):
    """MAP-1: the grid is 48 x 24 by default (tunable) and holds only rock, halls, rooms,
    doors, secret doors and stairs."""
    assert scene.p[P_WIDTH] == 48 and scene.p[P_HEIGHT] == 24
    assert scene.s.tiles.shape[2:] == (24, 48)
    for fl in floors:
        assert set(np.unique(fl.tiles)) <= {ROCK, HALL, ROOM, DOOR, SECRET, STAIR_DOWN, STAIR_UP}
        assert (fl.tiles == HALL).any() and (fl.tiles == ROOM).any() and (fl.tiles == DOOR).any()


def test_map_1_the_floors_edge_is_rock(floors):
    """MAP-1: every tile on a floor's edge is rock, so a walkable tile's four neighbours all
    lie on the floor (travel's searches step without bounds checks)."""
    for fl in floors:
        t = fl.tiles
        edge = np.concatenate([t[0], t[-1], t[:, 0], t[:, -1]])
        assert (edge == ROCK).all(), (fl.seed, fl.f)


def test_map_1_exactly_one_stair_down_and_one_stair_up_each_in_a_hall(floors):
    """MAP-1: one stair down and one stair up per floor, each in a hall (not in a room, with a
    hall tile beside it and no room tile beside it). RUN-1: the deepest floor has no way down."""
    for fl in floors:
        t = fl.tiles
        deepest = fl.f == 2
        assert (t == STAIR_UP).sum() == 1 and (t == STAIR_DOWN).sum() == (0 if deepest else 1)
        assert t[fl.up[1], fl.up[0]] == STAIR_UP
        stairs = [fl.up] if deepest else [fl.up, fl.down]
        if not deepest:
            assert t[fl.down[1], fl.down[0]] == STAIR_DOWN
        for x, y in stairs:
            assert fl.room_of[y, x] == -1
            near = [t[ny, nx] for nx, ny, _ in fl.neighbours(x, y)]
            assert HALL in near, (fl.seed, fl.f)
            assert ROOM not in near, (fl.seed, fl.f)


def test_map_1_rooms_are_walled_rectangles(floors):
    """MAP-1: a room is a rectangle of room tiles; its wall ring is rock, doors or secret
    doors, and nothing else is a room tile."""
    for fl in floors:
        covered = np.zeros(fl.tiles.shape, dtype=bool)
        for r, (x0, y0, x1, y1) in enumerate(fl.rects):
            assert x0 <= x1 and y0 <= y1
            inside = fl.tiles[y0 : y1 + 1, x0 : x1 + 1]
            assert (inside == ROOM).all() and (fl.room_of[y0 : y1 + 1, x0 : x1 + 1] == r).all()
            covered[y0 : y1 + 1, x0 : x1 + 1] = True
            ring = fl.tiles[y0 - 1 : y1 + 2, x0 - 1 : x1 + 2].copy()
            ring[1:-1, 1:-1] = ROCK
            assert np.isin(ring, (ROCK, DOOR, SECRET)).all(), (fl.seed, fl.f, r)
        assert ((fl.tiles == ROOM) == covered).all()
        assert ((fl.room_of >= 0) == covered).all()


def test_map_1_every_door_lies_between_a_room_and_a_hall(floors):
    """MAP-1: each door (plain or secret) has exactly one room tile beside it and a hall
    tile straight across from it."""
    for fl in floors:
        ys, xs = np.nonzero(np.isin(fl.tiles, (DOOR, SECRET)))
        assert len(xs) > 0
        for y, x in zip(ys, xs):
            rooms = [(nx, ny) for nx, ny, _ in fl.neighbours(x, y) if fl.tiles[ny, nx] == ROOM]
            assert len(rooms) == 1, (fl.seed, fl.f, x, y)
            rx, ry = rooms[0]
            assert fl.tiles[2 * y - ry, 2 * x - rx] in HALLS, (fl.seed, fl.f, x, y)


def test_map_1_every_room_reachable_from_the_stair_up_once_secret_doors_are_found(floors):
    """MAP-1: with every secret door found (turned into a door), every room and the stair
    down can be walked to from the stair up."""
    for fl in floors:
        opened = fl.tiles.copy()
        opened[opened == SECRET] = DOOR
        dist = fl.reach(opened)
        for r, (x0, y0, _, _) in enumerate(fl.rects):
            assert dist[y0, x0] >= 0, (fl.seed, fl.f, r)
        assert dist[fl.down[1], fl.down[0]] >= 0


# --- MAP-2 ---------------------------------------------------------------------------------


def draw(rows: list[str]) -> np.ndarray:
    """A hand-drawn tile grid: '#' rock, '.' hall, 'r' room, '+' door, 's' secret door,
    '>' stair down, '<' stair up."""
    code = {"#": ROCK, ".": HALL, "r": ROOM, "+": DOOR, "s": SECRET, ">": STAIR_DOWN, "<": STAIR_UP}
    return np.array([[code[c] for c in row] for row in rows], dtype=np.int8)


def test_map_2_junction_is_a_hall_tile_with_three_or_more_walkable_neighbours():
    """MAP-2: a T and a cross are junctions; a straight hall, a corner and a dead end are not."""
    t = draw(
        [
            "#########",
            "#.#...#.#",
            "#.......#",
            "#.#.#####",
            "#########",
        ]
    )
    assert is_junction(t, 1, 2)  # T: north, south, east
    assert is_junction(t, 3, 2)  # cross
    assert is_junction(t, 4, 2)  # T: north, west, east
    assert not is_junction(t, 6, 2)  # straight
    assert not is_junction(t, 7, 2)  # corner
    assert not is_junction(t, 5, 1)  # corner
    assert not is_junction(t, 7, 1)  # dead end
    assert not is_junction(t, 0, 0)  # rock


def test_map_2_doors_and_stairs_count_as_walkable_neighbours_secret_doors_do_not():
    """MAP-2: a door or a stair beside a hall tile counts as a walkable neighbour; a secret
    door (not found) does not; a stair tile is itself a hall tile."""
    t = draw(
        [
            "#######",
            "#r###.#",
            "#r+.s.#",
            "#######",
            "#.<.#.#",
            "##.##>#",
            "#######",
        ]
    )
    # (3, 2): west door, east secret door, nothing else -> 1 walkable neighbour
    assert not is_junction(t, 3, 2)
    t2 = t.copy()
    t2[1, 3] = HALL  # a hall north too: door + hall = 2
    assert not is_junction(t2, 3, 2)
    t2[2, 4] = DOOR  # the secret door found: 3
    assert is_junction(t2, 3, 2)
    assert is_junction(t, 2, 4)  # stair up with three hall neighbours is a junction
    assert not is_junction(t, 5, 4)  # hall with only a stair down below
    t3 = t.copy()
    t3[4, 4] = t3[4, 6] = HALL
    assert is_junction(t3, 5, 4)  # halls west and east and the stair down below: 3
    assert not is_junction(t, 1, 2)  # a room tile is never a junction


# --- MAP-3 ---------------------------------------------------------------------------------


def test_map_3_party_moves_one_tile_per_pace_in_four_directions(scene):
    """MAP-3: each move steps the token one tile N/E/S/W and costs one pace; a move into
    rock is not allowed."""
    scene.calm()
    x, y = scene.hall_tile(1, junction=True)
    scene.put(1, x, y)
    t = scene.tiles(1)
    snap = scene.save()
    moved = 0
    for d in range(4):
        scene.load(snap)
        nx, ny = x + DX[d], y + DY[d]
        if t[ny, nx] in WALKABLE:
            scene.act(A_MOVE + d)
            assert (scene.s.x[0], scene.s.y[0]) == (nx, ny)
            assert scene.s.pace[0] == 1
            moved += 1
        else:
            assert not scene.legal(A_MOVE + d)
    assert moved >= 3


def test_map_3_rooms_are_entered_only_through_doors(floors):
    """MAP-3: no hall or stair tile touches a room tile, so a room is only entered by
    stepping through one of its doors."""
    for fl in floors:
        ys, xs = np.nonzero(fl.tiles == ROOM)
        for y, x in zip(ys, xs):
            for nx, ny, _ in fl.neighbours(x, y):
                assert fl.tiles[ny, nx] in (ROOM, DOOR, SECRET, ROCK), (fl.seed, fl.f, x, y)


def test_map_3_stepping_through_a_door_enters_the_room(scene):
    """MAP-3: the whole party steps from the door into the room: the token is inside and the
    room counts as entered."""
    s = scene.s
    r = 0
    scene.clear_band(1, r)
    assert not s.room_entered[0, 1, r]
    scene.enter_room(1, r)
    assert scene.s.room_of[0, 1, s.y[0], s.x[0]] == r
    assert s.room_entered[0, 1, r]
    assert s.events[0] & EV_NEW_ROOM
    assert s.pace[0] == 1


# --- MAP-4 ---------------------------------------------------------------------------------


def test_map_4_fog_of_war_remembers_what_the_party_has_seen(scene):
    """MAP-4: arriving on a floor shows only the tiles around the party; walking adds the
    new neighbours and keeps everything seen before."""
    scene.calm()
    s = scene.s
    scene.act(A_STAIRS)  # courtyard -> floor 1
    x, y = int(s.x[0]), int(s.y[0])
    seen = s.fog[0, 1] > 0
    assert seen.sum() == 9 and seen[y - 1 : y + 2, x - 1 : x + 2].all()
    before = seen.copy()
    d = next(d for d in range(4) if scene.legal(A_MOVE + d))
    scene.act(A_MOVE + d)
    nx, ny = x + DX[d], y + DY[d]
    after = s.fog[0, 1] > 0
    assert (after | ~before).all()  # nothing forgotten
    assert after[ny - 1 : ny + 2, nx - 1 : nx + 2].all()
    assert after.sum() > before.sum()
    # the observation shows fog (code 0) for what was never seen
    crop = scene.obs()["map"][0]
    half = CROP // 2
    for i in range(CROP):
        for j in range(CROP):
            ty, tx = ny - half + i, nx - half + j
            if 0 <= ty < after.shape[0] and 0 <= tx < after.shape[1]:
                assert (crop[i, j] == 0) == (not after[ty, tx])


def test_map_4_a_room_becomes_known_when_entered(scene):
    """MAP-4: no room is known at the start; entering one makes it known, with its whole
    interior and walls seen."""
    s = scene.s
    assert not s.room_known[0].any()
    r = 1
    scene.clear_band(1, r)
    scene.enter_room(1, r)
    assert s.room_known[0, 1, r]
    x0, y0, x1, y1 = s.room_rect[0, 1, r]
    assert (s.fog[0, 1, y0 - 1 : y1 + 2, x0 - 1 : x1 + 2] > 0).all()
    assert s.room_known[0, 1].sum() == 1


def test_map_4_reading_the_floor_map_reveals_its_rooms(scene):
    """MAP-4: a room becomes known when revealed by map reading: taking the floor's map
    makes every room of that floor known."""
    s = scene.s
    r = int(np.nonzero(s.room_map[0, 1])[0][0])
    scene.stand_in_room(1, r)
    scene.act(A_LOOT)
    assert s.maps_held[0] >> 1 & 1
    assert s.room_known[0, 1, : s.num_rooms[0, 1]].all()


# --- MAP-5 ---------------------------------------------------------------------------------


def test_map_5_each_floor_has_one_map_lying_in_one_of_its_rooms(floors):
    """MAP-5: every floor's map lies in exactly one of its rooms."""
    for fl in floors:
        assert fl.room_map.sum() == 1


def test_map_5_page_1_the_map_and_the_pages_may_lie_in_any_room_and_be_any_spell(scene):
    """MAP-5, PAGE-1: the map's room and each page's spell are drawn uniformly: over 300
    restockings of floor 1 the map lies in every one of its rooms, first and last, and the
    pages are every one of the 12 spells, 0 and 11 included."""
    s, p = scene.s, scene.p
    n = int(s.num_rooms[0, 1])
    map_rooms, spells = set(), set()
    for seed in range(300):
        s.room_map[0, 1] = False  # generation clears it before stocking
        stock_floor(s, p, 0, 1, make_rng(seed))
        assert s.room_map[0, 1].sum() == 1
        map_rooms.add(int(np.nonzero(s.room_map[0, 1])[0][0]))
        pages = s.room_pages[0, 1, :n]
        spells.update(pages[pages >= 0].tolist())
    assert map_rooms == set(range(n))
    assert spells == set(range(NUM_SPELLS))


def stand_on(scene, f, kind):
    x, y = scene.s.stair_down[0, f] if kind == STAIR_DOWN else scene.s.stair_up[0, f]
    scene.put(f, int(x), int(y))


@pytest.mark.parametrize(
    "maps, is_open",
    [((), False), ((1,), False), ((2,), True), ((3,), True), ((4,), True), ((1, 3), True)],
)
def test_map_5_stair_down_opens_only_with_a_map_of_this_floor_or_deeper(
    scene_factory, maps, is_open
):
    """MAP-5: the stair down on floor 2 opens with the map of floor 2, 3 or 4, not with
    floor 1's map or none ("the deepest map you hold is the deepest stair that opens")."""
    sc = scene_factory(depth=4)
    stand_on(sc, 2, STAIR_DOWN)
    sc.s.maps_held[0] = sum(1 << f for f in maps)
    assert sc.legal(A_STAIRS) == is_open


def test_map_5_taking_an_open_stair_down_leads_to_the_next_floors_stair_up(scene_factory):
    """MAP-5: with the map held the stair down of floor 1 takes the party to floor 2,
    where it stands on the stair up."""
    sc = scene_factory(depth=4)
    stand_on(sc, 1, STAIR_DOWN)
    sc.s.maps_held[0] = 1 << 1
    sc.act(A_STAIRS)
    s = sc.s
    assert s.floor[0] == 2
    assert (s.x[0], s.y[0]) == tuple(s.stair_up[0, 2])


def test_map_5_stairs_up_are_always_open(scene_factory):
    """MAP-5: with no map at all, the stair up of floor 3 opens and leads to floor 2's
    stair down."""
    sc = scene_factory(depth=4)
    stand_on(sc, 3, STAIR_UP)
    sc.s.maps_held[0] = 0
    sc.act(A_STAIRS)
    s = sc.s
    assert s.floor[0] == 2 and (s.x[0], s.y[0]) == tuple(s.stair_down[0, 2])


def test_map_5_the_stair_up_from_floor_1_leads_to_the_courtyard(scene):
    """MAP-5: floor 1's stair up goes to floor 0, the courtyard."""
    stand_on(scene, 1, STAIR_UP)
    scene.act(A_STAIRS)
    assert scene.s.floor[0] == 0
    assert scene.s.outcome[0] == 0


@pytest.mark.nojit
def test_map_5_looting_the_map_opens_the_stair_down(scene):
    """MAP-5: the floor's map is an item in a room; once looted the stair down opens."""
    s = scene.s
    stand_on(scene, 1, STAIR_DOWN)
    assert not scene.legal(A_STAIRS)
    r = int(np.nonzero(s.room_map[0, 1])[0][0])
    scene.stand_in_room(1, r)
    scene.act(A_LOOT)
    assert not s.room_map[0, 1, r]
    stand_on(scene, 1, STAIR_DOWN)
    assert scene.legal(A_STAIRS)


@pytest.mark.nojit
def test_map_5_looting_a_deep_floors_map_holds_that_map_alone(scene_factory):
    """MAP-5 on every floor down to MAX_DEPTH: looting floor f's map holds floor f's map and
    no other (the bit is not computed in the int8 of the floor number)."""
    sc = scene_factory(depth=MAX_DEPTH)
    s = sc.s
    for f in range(1, MAX_DEPTH + 1):
        s.maps_held[0] = 0
        sc.stand_in_room(f, int(np.nonzero(s.room_map[0, f])[0][0]))
        sc.act(A_LOOT)
        assert s.maps_held[0] == 1 << f, f"floor {f}"


# --- MAP-6 ---------------------------------------------------------------------------------


def test_map_6_holding_the_map_shows_the_layout_but_not_secret_doors(scene_factory):
    """MAP-6: after taking floor 1's map every hall, room, door and stair tile of the floor
    is seen; secret doors stay unseen."""
    sc = None
    for seed in range(50):
        sc = scene_factory(seed=seed)
        if (sc.tiles(1) == SECRET).any():
            break
    s = sc.s
    t = sc.tiles(1).copy()
    assert (t == SECRET).any()
    r = int(np.nonzero(s.room_map[0, 1])[0][0])
    sc.stand_in_room(1, r)
    sc.act(A_LOOT)
    seen = s.fog[0, 1] > 0
    assert seen[np.isin(t, WALKABLE)].all()
    assert not seen[t == SECRET].any()


def test_map_6_holding_the_map_does_not_show_what_is_in_the_rooms(scene):
    """MAP-6: after reading the map, a guarded room the party never entered still shows as
    plain room floor in the observation (no band, no loot marks)."""
    s = scene.s
    r_map = int(np.nonzero(s.room_map[0, 1])[0][0])
    scene.stand_in_room(1, r_map)
    scene.act(A_LOOT)
    other = next(r for r in range(s.num_rooms[0, 1]) if r != r_map)
    s.band_kind[0, 1, other, 0] = 1
    s.band_hp[0, 1, other, 0] = 5
    s.room_gold[0, 1, other] = 9
    _, _, (ox, oy) = scene.door_of(1, other)
    scene.put(1, ox, oy)
    crop = scene.obs()["map"][0]
    half = CROP // 2
    x0, y0, x1, y1 = s.room_rect[0, 1, other]
    shown = 0
    for i in range(CROP):
        for j in range(CROP):
            ty, tx = oy - half + i, ox - half + j
            if x0 <= tx <= x1 and y0 <= ty <= y1:
                assert crop[i, j] not in (BAND_HERE, LOOT_HERE)
                assert crop[i, j] == 1 + ROOM
                shown += 1
    assert shown > 0


# --- SECRET-1 ------------------------------------------------------------------------------


def test_secret_1_secret_door_is_a_wall_tile_between_a_room_and_a_hall_alongside(floors):
    """SECRET-1: a secret door is in a room's wall ring, with the room on one side, a hall
    straight across, and that hall running alongside the wall (a hall tile next to the
    outside tile, parallel to the wall)."""
    count = 0
    for fl in floors:
        ys, xs = np.nonzero(fl.tiles == SECRET)
        for y, x in zip(ys, xs):
            count += 1
            rooms = [(nx, ny) for nx, ny, _ in fl.neighbours(x, y) if fl.tiles[ny, nx] == ROOM]
            assert len(rooms) == 1
            rx, ry = rooms[0]
            ox, oy = 2 * x - rx, 2 * y - ry
            assert fl.tiles[oy, ox] in HALLS
            ax, ay = ry - y, rx - x  # along the wall
            along = [fl.tiles[oy + k * ay, ox + k * ax] for k in (-1, 1)]
            assert any(a in HALLS for a in along), (fl.seed, fl.f, x, y)
            # no doorway beside it in the same wall
            beside = [fl.tiles[y + k * ay, x + k * ax] for k in (-1, 1)]
            assert all(b == ROCK for b in beside), (fl.seed, fl.f, x, y)
    assert count > 50


def test_secret_1_some_rooms_can_only_be_reached_through_a_secret_door(floors):
    """SECRET-1: over many floors, some room cannot be walked to from the stair up while its
    secret doors are unfound, and can once they are found."""
    hidden = 0
    for fl in floors:
        closed = fl.reach(fl.tiles)
        opened_tiles = fl.tiles.copy()
        opened_tiles[opened_tiles == SECRET] = DOOR
        opened = fl.reach(opened_tiles)
        for x0, y0, _, _ in fl.rects:
            if closed[y0, x0] < 0 and opened[y0, x0] >= 0:
                hidden += 1
    assert hidden > 0


def test_secret_1_a_secret_door_cannot_be_walked_through_until_found(scene):
    """SECRET-1/SECRET-2: moving into an unfound secret door is not allowed; once search
    finds it, it is a door the party can step into."""
    s, t = scene.s, scene.tiles(1)
    x, y = scene.hall_tile(1, junction=False)
    d = next(d for d in range(4) if t[y + DY[d], x + DX[d]] == ROCK)
    t[y + DY[d], x + DX[d]] = SECRET
    scene.put(1, x, y)
    assert not scene.legal(A_MOVE + d)
    p = scene.p.copy()
    p[P_SEARCH_FIND] = 1.0
    search_walls(s, p, 0, scene.rng())
    assert t[y + DY[d], x + DX[d]] == DOOR
    assert s.events[0] & EV_SECRET
    assert scene.legal(A_MOVE + d)


# --- SECRET-2 ------------------------------------------------------------------------------


def secret_scene(scene, from_room: bool):
    """Find a secret door on some floor, turn others back to plain rock-free state, and
    stand next to it on the hall side or the room side. Returns (door x, y)."""
    for f in (1, 2):
        t = scene.tiles(f)
        ys, xs = np.nonzero(t == SECRET)
        if len(xs):
            break
    else:
        # draw one: a plain door of room 0 becomes secret
        f = 1
        (x, y), _, _ = scene.door_of(1, 0)
        scene.tiles(1)[y, x] = SECRET
        ys, xs = np.array([y]), np.array([x])
    y, x = int(ys[0]), int(xs[0])
    t = scene.tiles(f)
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if t[ny, nx] == ROOM:
            rx, ry = nx, ny
    stand = (rx, ry) if from_room else (2 * x - rx, 2 * y - ry)
    scene.put(f, *stand)
    return f, x, y


@pytest.mark.parametrize("from_room", [False, True])
def test_secret_2_search_finds_an_adjacent_secret_door_half_the_time(scene, from_room):
    """SECRET-2: each search finds a secret door next to the party with chance 1/2, from the
    hall side and from the room side."""
    f, x, y = secret_scene(scene, from_room)
    s, t = scene.s, scene.tiles(f)
    g = scene.rng(7)
    n, found = 2000, 0
    for _ in range(n):
        t[y, x] = SECRET
        search_walls(s, scene.p, 0, g)
        found += t[y, x] == DOOR
    assert 0.44 < found / n < 0.56


def test_secret_2_search_tries_every_adjacent_secret_door_independently(scene):
    """SECRET-2: two secret doors next to the party are each found with chance 1/2: both
    about a quarter of the time, none about a quarter."""
    x, y = scene.hall_tile(1, junction=False)
    t = scene.tiles(1)
    rock = [d for d in range(4) if t[y + DY[d], x + DX[d]] == ROCK]
    assert len(rock) >= 2
    a, b = rock[:2]
    scene.put(1, x, y)
    g = scene.rng(11)
    n, both, none = 2000, 0, 0
    for _ in range(n):
        t[y + DY[a], x + DX[a]] = SECRET
        t[y + DY[b], x + DX[b]] = SECRET
        search_walls(scene.s, scene.p, 0, g)
        got = int(t[y + DY[a], x + DX[a]] == DOOR) + int(t[y + DY[b], x + DX[b]] == DOOR)
        both += got == 2
        none += got == 0
    assert 0.20 < both / n < 0.30
    assert 0.20 < none / n < 0.30


def test_secret_2_search_never_finds_a_secret_door_that_is_not_orthogonally_adjacent(scene):
    """SECRET-2: only secret doors orthogonally next to the party can be found: one two tiles
    away or diagonal never is, even with a find chance of 1."""
    x, y = scene.hall_tile(1, junction=False)
    t = scene.tiles(1)
    scene.put(1, x, y)
    far = [(x + 2, y), (x - 2, y), (x, y + 2), (x, y - 2), (x + 1, y + 1), (x - 1, y - 1)]
    H, W = t.shape
    far = [(fx, fy) for fx, fy in far if 0 <= fx < W and 0 <= fy < H and t[fy, fx] == ROCK]
    assert far
    for fx, fy in far:
        t[fy, fx] = SECRET
    p = scene.p.copy()
    p[P_SEARCH_FIND] = 1.0
    g = scene.rng(3)
    for _ in range(50):
        search_walls(scene.s, p, 0, g)
    for fx, fy in far:
        assert t[fy, fx] == SECRET


def test_secret_2_a_found_secret_door_is_remembered_as_one(scene):
    """SECRET-2: a found secret door is a door to walk through, but the map keeps it apart
    from a plain door (crop code 1 + SECRET), also once seen again and after the floor's map
    is read (MAP-6); an unfound one shows as rock."""
    scene.p[P_SEARCH_FIND] = 1.0
    f, x, y = secret_scene(scene, from_room=False)
    half = CROP // 2
    sx, sy = int(scene.s.x[0]), int(scene.s.y[0])
    at = (y - sy + half, x - sx + half)
    moving.remember(scene.s, 0, f, x - 1, y - 1, x + 1, y + 1)
    assert scene.obs()["map"][0][at] == 1 + ROCK
    search_walls(scene.s, scene.p, 0, scene.rng())
    assert scene.tiles(f)[y, x] == DOOR
    assert scene.obs()["map"][0][at] == 1 + SECRET
    moving.remember(scene.s, 0, f, x - 1, y - 1, x + 1, y + 1)  # seen again
    moving.reveal_floor(scene.s, 0, f)
    assert scene.obs()["map"][0][at] == 1 + SECRET


def test_secret_2_search_costs_one_pace(scene):
    """SECRET-2/TIME-1: SEARCH is an action that costs one pace and may turn a secret door
    next to the party into a door."""
    scene.calm()
    scene.p[P_SEARCH_FIND] = 1.0
    f, x, y = secret_scene(scene, from_room=False)
    scene.act(A_SEARCH)
    assert scene.s.pace[0] == 1
    assert scene.tiles(f)[y, x] == DOOR
    assert scene.s.events[0] & EV_SECRET
    scene.act(A_WAIT)
    assert scene.s.pace[0] == 2
