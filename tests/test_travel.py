"""Travel (docs/RULES.md, Travel): explore, travel to a stair and rest take many paces in one
step, each pace the very single move or wait a step would take; they stop where a player
would; and no free stall: the limit of time-free actions in a row."""

from collections import deque

import numpy as np
import pytest
from conftest import make_rng, make_scene

from delve_env import DelveEnv
from delve_env.engine.core.actions import (
    A_ATTACK,
    A_AUTOFIGHT,
    A_CANCEL,
    A_CAST,
    A_EXPLORE,
    A_GIVE,
    A_LOOT,
    A_MOVE,
    A_POWER,
    A_REST,
    A_RUN,
    A_SEARCH,
    A_SELECT,
    A_STAIRS,
    A_SWAP,
    A_TRAVEL_DOWN,
    A_TRAVEL_UP,
    A_WAIT,
    NUM_ACTIONS,
)
from delve_env.engine.core.params import (
    P_FREE_ACTIONS,
    P_HALL_WANDER,
    P_HEAL_PACES,
    P_JUNCTION_WANDER,
    P_MEAL_PACES,
    P_SEARCH_FIND,
)
from delve_env.engine.core.state import NO_HALL_SPOT, NO_SPOT, ONLY_SPOTS
from delve_env.engine.core.tables import (
    CHEST_NONE,
    DOOR,
    EV_SECRET,
    EXPLORE,
    FIGHT,
    HALL,
    KING_SLOT,
    MAX_MEMBERS,
    MEDICINAL_ALE,
    NUM_ITEM_SLOTS,
    ROCK,
    ROOM,
    SECRET,
    STAIR_DOWN,
    STAIR_UP,
)
from delve_env.engine.generation.floors import DX, DY, is_walkable
from delve_env.engine.rules.food import eat_meal
from delve_env.engine.rules.moving import arrive, land_in_hall, remember, reveal_floor, search_walls
from delve_env.engine.rules.party import join_king
from delve_env.engine.rules.travel import (
    DOWN_TO,
    EXPLORE_TO,
    NO_WAY,
    NUM_TRAVELS,
    SEARCH_HERE,
    SEARCH_TRIES,
    UNREACHED,
    UP_TO,
    WALKABLE_CODE,
    WAYS_FRESH,
    at_new_door,
    downhill,
    find_ways,
    first_steps,
    goal_paces,
    known_ways,
    search_first_steps,
    search_spot,
    spot_paces,
    stair_paces,
)

TRAVELS = (A_EXPLORE, A_TRAVEL_DOWN, A_TRAVEL_UP, A_REST)
UNCOUNTED = ("steps", "events", "log", "log_n")  # a step's own counter and its record


def fields(s) -> dict:
    return {k: getattr(s, k).copy() for k in s._fields if k not in UNCOUNTED}


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_a_travel_step_is_exactly_its_single_moves(difficulty):
    """On many seeds and many travel steps, interrupted ones and explore's searches included: the state (every field
    but the step count and the step's record), the rewards summed and the mask after one
    travel step are those the same paces taken one move at a time give."""
    a_env = DelveEnv(difficulty=difficulty, reward_mode="shaped")
    b_env = DelveEnv(difficulty=difficulty, reward_mode="shaped")
    rng = np.random.default_rng(0)
    ends = {"fight": 0, "explore": 0, "several paces": 0, "searches": 0}
    for seed in range(12):
        a_env.reset(seed=seed)
        b_env.reset(seed=seed)
        for _ in range(120):
            mask = a_env.action_masks()
            travels = [a for a in TRAVELS if mask[a]]
            if not travels or rng.random() < 0.3:
                a = int(rng.choice(np.flatnonzero(mask)))
                _, _, term, trunc, _ = a_env.step(a)
                if term or trunc:
                    break
                continue
            a = int(rng.choice(travels))
            b_env.load_state(a_env.save_state())
            pace = int(a_env.engine.state.pace[0])
            _, reward, term, trunc, info = a_env.step(a)
            paces = int(a_env.engine.state.pace[0]) - pace
            assert info["paces"] == paces >= 1
            b_rewards = 0.0
            s = b_env.engine.state
            ways = np.empty(NUM_TRAVELS, dtype=np.int64)
            for _ in range(paces):
                if a == A_REST:
                    m = A_WAIT
                else:
                    first_steps(s, 0, ways, -1)
                    way = int(ways[a - A_EXPLORE])
                    m = A_SEARCH if way == SEARCH_HERE else A_MOVE + way
                    ends["searches"] += way == SEARCH_HERE
                assert b_env.action_masks()[m]
                b_rewards += b_env.step(m)[1]
            want, got = fields(b_env.engine.state), fields(a_env.engine.state)
            assert [k for k in want if not np.array_equal(want[k], got[k])] == []
            assert np.array_equal(a_env.action_masks(), b_env.action_masks())
            assert reward == pytest.approx(b_rewards, abs=1e-5)  # float32 rewards
            mode = int(a_env.engine.state.mode[0])
            ends["fight"] += mode == FIGHT
            ends["explore"] += mode == EXPLORE
            ends["several paces"] += paces > 1
            if term or trunc:
                break
    assert min(ends.values()) > 0, ends


def part_explored_floors(rng_seed: int):
    """Random play of the easy game on 4 seeds, 240 steps each: the state (and where it is,
    (seed, step)) every 40 steps that end on a floor."""
    env = DelveEnv(difficulty="easy")
    rng = np.random.default_rng(rng_seed)
    for seed in range(4):
        env.reset(seed=seed)
        for step in range(240):
            _, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(env.action_masks()))))
            if term or trunc:
                break
            if step % 40 == 0 and env.engine.state.floor[0] != 0:
                yield env.engine.state, (seed, step)


def walk_down_every_tile(s, grid, where) -> int:
    """From every tile of the field `grid` off its sources (> 0), its downhill pace is the
    first pace `first_steps` takes toward explore's goal; returns how many tiles (the party
    is put back where it stood)."""
    ways = np.empty(NUM_TRAVELS, dtype=np.int64)
    x0, y0 = int(s.x[0]), int(s.y[0])
    tiles = list(zip(*np.nonzero(grid > 0)))
    for y, x in tiles:
        s.x[0], s.y[0] = x, y
        first_steps(s, 0, ways, EXPLORE_TO)
        assert downhill(s, 0, grid) == ways[EXPLORE_TO], (where, x, y)
    s.x[0], s.y[0] = x0, y0
    return len(tiles)


def test_walking_down_the_goal_field_takes_the_searchs_first_pace():
    """travel.goal_paces (one search from every explore goal, which explore walks down once
    it crosses known ground): from every remembered walkable tile off a goal, its downhill
    pace is the first pace `first_steps` takes from there (to the nearest goal, ties north,
    east, south, west), on floors part explored by random play."""
    checked = 0
    for s, where in part_explored_floors(1):
        grid = np.empty(s.tiles.shape[2:], dtype=np.int64)
        goal_paces(s, 0, grid)
        checked += walk_down_every_tile(s, grid, where)
    assert checked > 500


def test_a_walk_keeps_the_searchs_work_arrays_for_every_pace():
    """A walk hands `search_first_steps` the same work arrays at every pace: from every
    remembered walkable tile of floors part explored and of floors with no goal left, asked
    for every kind and told what is known or not, it finds what `first_steps` (arrays of its
    own) finds, and leaves `first` all UNREACHED for the next pace."""
    ways, fresh = np.empty(NUM_TRAVELS, dtype=np.int64), np.empty(NUM_TRAVELS, dtype=np.int64)
    floors = [(s, w) for s, w in part_explored_floors(2)]
    floors += [(s, w) for s, w, _ in goalless_floors(3)]
    checked = 0
    for s, where in floors:
        H, W = s.tiles.shape[2:]
        first = np.full(H * W, UNREACHED, dtype=np.int8)
        queue = np.empty(H * W, dtype=np.int32)
        x0, y0 = int(s.x[0]), int(s.y[0])
        for y, x in zip(*np.nonzero(WALKABLE_CODE[s.fog[0, s.floor[0]]])):
            s.x[0], s.y[0] = x, y
            for want, known in ((-1, 0), (EXPLORE_TO, 0), (EXPLORE_TO, ONLY_SPOTS), (UP_TO, 0)):
                learned = search_first_steps(s, 0, ways, want, known, first, queue)
                assert learned == first_steps(s, 0, fresh, want, known), (where, x, y)
                assert np.array_equal(ways, fresh), (where, x, y, want)
                assert (first == UNREACHED).all(), (where, x, y, want)
                checked += 1
        s.x[0], s.y[0] = x0, y0
    assert checked > 2000


def goalless_floors(rng_seed: int):
    """`part_explored_floors` with no explore goal left (the floor's map held, every room
    entered, no band left in one): each yielded twice, as it is and with every wall beside a
    hall searched out (the rooms' are left), as (state, where, searched_out); put back as it
    was afterwards."""
    for s, where in part_explored_floors(rng_seed):
        f = int(s.floor[0])
        kept = [s.maps_held[0].copy(), s.room_entered[0].copy(), s.searched[0].copy(),
                s.band_kind[0].copy()]  # fmt: skip
        s.maps_held[0] |= 1 << f
        s.room_entered[0, f] = True
        s.band_kind[0, f] = -1
        yield s, where, False
        walk = np.isin(s.tiles[0, f], (HALL, DOOR, STAIR_DOWN, STAIR_UP))
        hall = walk & (s.room_of[0, f] < 0) & (s.fog[0, f] != 0)
        for d in range(4):
            beside = np.roll(np.roll(hall, int(DY[d]), 0), int(DX[d]), 1)
            s.searched[0][beside] = SEARCH_TRIES
        yield s, where, True
        s.maps_held[0], s.room_entered[0], s.searched[0], s.band_kind[0] = kept


def test_walking_down_the_spot_field_takes_the_searchs_first_pace():
    """travel.spot_paces (one search from every search spot, which explore walks down when no
    goal is left in reach): from every remembered walkable tile off a spot, its downhill pace
    is the first pace `first_steps` takes from there (to the nearest spot in a hall, else in
    a room, ties north, east, south, west), on floors part explored by random play with
    their maps held and every room entered (no goal left), some walls searched out."""
    checked = {"hall": 0, "room": 0}
    for s, where, searched_out in goalless_floors(3):
        grid = np.empty(s.tiles.shape[2:], dtype=np.int64)
        spot_paces(s, 0, grid)
        checked["room" if searched_out else "hall"] += walk_down_every_tile(s, grid, where)
    assert min(checked.values()) > 100, checked


def test_with_no_goal_in_reach_explore_looks_for_search_spots_alone():
    """state.ONLY_SPOTS: with no explore goal in reach, the search told so (which stops at
    the nearest spot in a hall rather than searching the whole known floor for a goal)
    takes the first pace the full search takes, from every remembered walkable tile, on
    floors part explored by random play with their maps held and every room entered, with
    and without the walls beside halls searched out (then the spots are in rooms), and with
    every wall searched out (no spot). The search says whether a spot in reach is in a hall
    (NO_HALL_SPOT) or any is (NO_SPOT), as a plain search finds; told so, it stops at the
    nearest spot in a room, or does not search, and still takes the same pace."""
    ways, told = np.empty(NUM_TRAVELS, dtype=np.int64), np.empty(NUM_TRAVELS, dtype=np.int64)
    checked = {"hall": 0, "room": 0, "search here": 0, "rooms only": 0, "no spot": 0}
    for s, where, searched_out in goalless_floors(3):
        x0, y0 = int(s.x[0]), int(s.y[0])
        f = int(s.floor[0])
        searched = s.searched[0].copy()
        for every_wall in (False, True):
            if every_wall:
                s.searched[0] = SEARCH_TRIES
            for y, x in zip(*np.nonzero(WALKABLE_CODE[s.fog[0, f]])):
                s.x[0], s.y[0] = x, y
                reach = zip(*np.nonzero(paces_from(s, [(x, y)]) >= 0))
                views = s.fog[0, f], s.searched[0], s.room_entered[0, f]
                kinds = {search_spot(*views, int(c), int(r)) for r, c in reach}
                bits = ONLY_SPOTS | (0 if 1 in kinds else NO_HALL_SPOT)
                bits |= 0 if kinds & {1, 2} else NO_SPOT
                for want in (-1, EXPLORE_TO):
                    learned = first_steps(s, 0, ways, want)
                    assert learned == bits, (where, x, y)
                    assert first_steps(s, 0, told, want, ONLY_SPOTS) == learned
                    assert (ways == told).all(), (where, x, y, want)
                    assert first_steps(s, 0, told, want, learned) == learned  # told it all
                    assert (ways == told).all(), (where, x, y, want, learned)
                checked["no spot" if every_wall else "room" if searched_out else "hall"] += 1
                checked["search here"] += ways[EXPLORE_TO] == SEARCH_HERE
                checked["rooms only"] += bits == ONLY_SPOTS | NO_HALL_SPOT
                assert (ways[EXPLORE_TO] == NO_WAY) == (bits & NO_SPOT != 0)
            s.searched[0] = searched
        s.x[0], s.y[0] = x0, y0
    assert min(checked.values()) > 20, checked


def paces_from(s, sources) -> np.ndarray:
    """Paces over remembered walkable tiles of the party's floor from the nearest of
    `sources` ((x, y) tiles) to each tile, -1 where none is reached: the searches' oracle."""
    f = int(s.floor[0])
    H, W = s.tiles.shape[2:]
    grid = np.full((H, W), -1, dtype=np.int64)
    todo = deque(sources)
    for x, y in sources:
        grid[y, x] = 0
    while todo:
        x, y = todo.popleft()
        for d in range(4):
            nx, ny = x + int(DX[d]), y + int(DY[d])
            if not (0 <= nx < W and 0 <= ny < H) or grid[ny, nx] >= 0:
                continue
            if s.fog[0, f, ny, nx] and is_walkable(s.tiles[0, f, ny, nx]):
                grid[ny, nx] = grid[y, x] + 1
                todo.append((nx, ny))
    return grid


def shortest(s, goal) -> int:
    """Paces of the shortest walk over remembered walkable tiles from the party to `goal`."""
    x, y = goal
    return int(paces_from(s, [(int(s.x[0]), int(s.y[0]))])[y, x])


def explore_goals(s) -> list:
    """Explore's goals as docs/RULES.md words them: remembered walkable tiles of a known
    room not entered or whose band was fled, and, while the floor's map is not held, beside
    an unseen tile."""
    f = int(s.floor[0])
    fog, tiles, rooms = s.fog[0, f], s.tiles[0, f], s.room_of[0, f]
    held = (int(s.maps_held[0]) >> f) & 1
    goals = []
    for y, x in zip(*np.nonzero(fog)):
        if not is_walkable(tiles[y, x]):
            continue
        r = int(rooms[y, x])
        unseen = any(fog[y + int(DY[d]), x + int(DX[d])] == 0 for d in range(4))
        fled = r >= 0 and s.band_kind[0, f, r, 0] >= 0
        if (r >= 0 and not s.room_entered[0, f, r]) or fled or (not held and unseen):
            goals.append((int(x), int(y)))
    return goals


def test_the_searches_fields_are_the_shortest_walks():
    """travel.goal_paces and travel.stair_paces equal breadth-first searches written plainly,
    on floors part explored by random play, with the floor's map held and not (held: what
    is unseen is rock, no goal; MAP-5: the stair down is a goal only once a map opens it)."""
    checked = {"goals": 0, "held": 0, "up": 0, "down": 0, "closed": 0}
    for s, where in part_explored_floors(2):
        grid = np.empty(s.tiles.shape[2:], dtype=np.int64)
        f = int(s.floor[0])
        held = int(s.maps_held[0])
        for bits in (held & ~(1 << f), held | (1 << f)):
            s.maps_held[0] = bits
            goal_paces(s, 0, grid)
            assert np.array_equal(grid, paces_from(s, explore_goals(s))), (where, bits)
            checked["held" if bits >> f & 1 else "goals"] += int((grid >= 0).sum())
            for kind, stair, name in (
                (UP_TO, s.stair_up, "up"),
                (DOWN_TO, s.stair_down, "down"),
            ):
                x, y = int(stair[0, f, 0]), int(stair[0, f, 1])
                stair_paces(s, 0, kind, grid)
                seen, opened = s.fog[0, f, y, x] != 0, kind == UP_TO or bits >> f != 0
                goal = seen and opened
                want = paces_from(s, [(x, y)] if goal else [])
                assert np.array_equal(grid, want), (where, name, bits)
                checked[name if goal else "closed"] += int(seen)
        s.maps_held[0] = held
    assert min(checked.values()) > 0, checked


def quiet_floor(scene) -> tuple[int, int]:
    """Down to floor 1, its map held, every room entered and emptied, no bands, no wandering:
    nothing to stop a walk. Returns the stair down."""
    s = scene.s
    scene.act(A_STAIRS)
    f = int(s.floor[0])
    s.maps_held[0] |= 1 << f
    reveal_floor(s, 0, f)  # the layout known (as read_map shows it)
    s.room_entered[0, f, :] = True
    s.band_kind[0, f] = -1
    s.room_gold[0, f] = 0
    s.room_items[0, f] = 0
    s.room_pages[0, f] = -1
    s.room_map[0, f] = False
    s.room_chest[0, f] = CHEST_NONE
    s.book_room[0] = -1  # (the book too)
    scene.p[P_HALL_WANDER] = scene.p[P_JUNCTION_WANDER] = 0.0
    return int(s.stair_down[0, f, 0]), int(s.stair_down[0, f, 1])


def test_travel_down_walks_a_shortest_way_and_stops_on_the_stair(scene):
    """With nothing to stop for, travel to the stair down takes exactly the shortest walk's
    paces over the remembered tiles and ends on the stair."""
    s = scene.s
    want = shortest(s, quiet_floor(scene))
    assert want > 1
    s.maps_held[0] = 0
    assert not scene.legal(A_TRAVEL_DOWN)  # seen but closed (MAP-5)
    s.maps_held[0] = 2
    _, _, _, _, info = scene.act(A_TRAVEL_DOWN)
    assert info["paces"] == want
    assert s.tiles[0, 1, s.y[0], s.x[0]] == STAIR_DOWN
    assert not scene.legal(A_TRAVEL_DOWN)  # on it: nothing left to walk


def test_the_pace_cap_ends_a_long_walk():
    """travel_paces caps one step's paces (checked at two caps)."""
    for cap in (3, 7):
        scene = make_scene(seed=4, travel_paces=cap)
        assert shortest(scene.s, quiet_floor(scene)) > cap
        assert scene.act(A_TRAVEL_DOWN)[4]["paces"] == cap


def test_rest_waits_until_no_one_can_heal(scene):
    """Rest is offered while a standing member can heal and there are rations; it waits
    until everyone is whole, and is not offered then."""
    env = scene.env
    s = scene.s
    scene.act(A_STAIRS)
    scene.p[P_HALL_WANDER] = scene.p[P_JUNCTION_WANDER] = 0.0
    assert not scene.legal(A_REST)
    s.hp[0, 0] = s.ceiling[0, 0] - 2
    assert scene.legal(A_REST)
    _, _, _, _, info = env.step(A_REST)
    assert info["paces"] == 2 * int(scene.p[P_HEAL_PACES]) - int(s.heal_clock[0])
    assert s.hp[0, 0] == s.ceiling[0, 0]
    assert not scene.legal(A_REST)
    s.hp[0, 0] = s.ceiling[0, 0] - 2
    s.rations[0] = 0  # FOOD-3: no rations, no healing
    assert not scene.legal(A_REST)


def test_explore_walks_back_to_a_room_whose_band_was_fled():
    """A room entered and fled (its band still there) stays a goal of explore: on a floor
    with nothing else left, explore walks to its door, stops there, and steps in on the next
    (the band fights). Once its band is beaten, explore has no goal there."""
    for seed, nth in ((4, 0), (4, 2), (6, 1)):
        scene = make_scene(seed=seed)
        env, s = scene.env, scene.s
        quiet_floor(scene)
        f = int(s.floor[0])
        s.searched[0] = 255  # every wall searched: no search spot either
        s.ways_known[0] = 0
        assert not scene.legal(A_EXPLORE)
        paces = paces_from(s, [(int(s.x[0]), int(s.y[0]))])  # (a room behind a secret door: -1)
        reached = [
            r for r in range(int(s.num_rooms[0, f])) if (paces[s.room_of[0, f] == r] > 0).any()
        ]
        room = reached[nth]
        s.band_kind[0, f, room, 0], s.band_hp[0, f, room, 0] = 0, 200  # fled from: still there
        s.ways_known[0] = 0
        assert scene.legal(A_EXPLORE)
        want = int(paces[(s.room_of[0, f] == room) & (paces > 0)].min()) - 1  # one short: the door
        _, _, _, _, info = env.step(A_EXPLORE)
        assert info["paces"] == want and at_new_door(s, 0), (seed, room)
        assert s.mode[0] == EXPLORE and s.room_of[0, f, s.y[0], s.x[0]] < 0
        _, _, _, _, info = env.step(A_EXPLORE)
        assert info["paces"] == 1 and s.mode[0] == FIGHT and s.fight_room[0] == room
        s.foe_hp[0, 0] = 1  # beaten within a step or two: the room is theirs
        while s.mode[0] == FIGHT:
            env.step(A_AUTOFIGHT if env.action_masks()[A_AUTOFIGHT] else A_ATTACK)
        assert s.band_kind[0, f, room, 0] < 0 and s.mode[0] == EXPLORE
        assert not env.action_masks()[A_EXPLORE], (seed, room)  # the step's own mask
        assert not scene.legal(A_EXPLORE)  # and the mask made afresh


def test_explore_stops_at_the_door_of_a_room_not_entered(scene):
    """Explore walks until the door of a room not yet entered, and steps in on the next."""
    scene = make_scene(seed=2)
    env, s = scene.env, scene.s
    scene.act(A_STAIRS)
    scene.p[P_HALL_WANDER] = scene.p[P_JUNCTION_WANDER] = 0.0
    for _ in range(40):
        rooms = int(s.stat_rooms[0])
        assert scene.legal(A_EXPLORE)
        env.step(A_EXPLORE)
        if at_new_door(s, 0):
            door = (int(s.x[0]), int(s.y[0]))
            _, _, _, _, info = env.step(A_EXPLORE)
            assert s.stat_rooms[0] == rooms + 1  # one pace in: a new room, and it stops
            assert info["paces"] == 1 and s.room_of[0, 1, s.y[0], s.x[0]] >= 0
            assert abs(int(s.x[0]) - door[0]) + abs(int(s.y[0]) - door[1]) == 1
            return
        if s.mode[0] != EXPLORE:
            env.step(int(np.flatnonzero(env.action_masks())[0]))
    pytest.fail("explore never reached a door")


@pytest.mark.parametrize("limit", [2, 5])
def test_no_free_stall(scene, limit):
    """free_actions time-free actions in a row, then only what passes time or takes the
    stairs is offered, until a pace passes (two limits)."""
    env = scene.env
    s = scene.s
    scene.act(A_STAIRS)
    scene.p[P_FREE_ACTIONS] = limit
    s.free_streak[0] = 0  # (taking the stairs was one)
    for i in range(limit):
        assert scene.legal(A_SWAP), i
        env.step(A_SWAP)
    mask = env.action_masks()
    assert not mask[A_SWAP] and not mask[A_SELECT : A_SELECT + 55].any()
    assert mask[A_WAIT] and mask[A_STAIRS - 1]  # wait and search pass time
    env.step(A_WAIT)
    assert s.free_streak[0] == 0 and env.action_masks()[A_SWAP]


@pytest.mark.parametrize("limit", [2, 5])
def test_no_free_stall_in_a_fight(scene, limit):
    """In a fight, actions that end no turn (selecting an item and putting it back) count
    too: at free_actions in a row only what ends the turn is offered; a turn starts the
    count again (two limits)."""
    env = scene.env
    s = scene.s
    scene.act(A_STAIRS)
    scene.tough()
    scene.fight([1], hps=[30000])  # a goblin
    s.item[0, :, 3] = MEDICINAL_ALE  # every member's own, to drink on its turn
    s.hp[0, :4] -= 5
    m = int(s.order[0, s.actor[0]])
    scene.p[P_FREE_ACTIONS] = limit
    s.free_streak[0] = 0
    ale = A_SELECT + m * NUM_ITEM_SLOTS + 3
    for i in range(limit // 2):
        assert scene.legal(ale), i
        env.step(ale)
        env.step(A_CANCEL)
    if limit % 2:
        env.step(ale)
        env.step(A_CANCEL)  # the last one may only put it back
    mask = env.action_masks()
    assert s.free_streak[0] >= limit and s.mode[0] == FIGHT
    assert not mask[A_SELECT:A_GIVE].any() and not mask[A_CAST:A_POWER].any()
    assert mask[A_ATTACK] and mask[A_RUN]
    env.step(A_ATTACK)
    m = int(s.order[0, s.actor[0]])
    assert s.free_streak[0] == 0 and env.action_masks()[A_SELECT + m * NUM_ITEM_SLOTS + 3]


def test_travel_actions_are_named_and_last():
    from delve_env.engine.core.actions import action_name

    assert [action_name(a) for a in TRAVELS] == [
        "explore", "travel to the stair down", "travel to the stair up", "rest"
    ]  # fmt: skip
    assert TRAVELS[-1] == NUM_ACTIONS - 2  # autofight is last (test_autofight.py)


def test_the_step_cap_is_750_steps_a_floor_unless_set():
    """RUN-5: max_steps defaults to 750 a floor (about four times the expert's longest games);
    a value given replaces it."""
    from delve_env.config import Config
    from delve_env.engine.core.params import P_MAX_STEPS

    assert Config(depth=2).params()[P_MAX_STEPS] == 1500
    assert Config(difficulty="hard").params()[P_MAX_STEPS] == 6000
    assert Config(depth=5, max_steps=7).params()[P_MAX_STEPS] == 7
    assert Config(depth=3).snapshot_dict()["max_steps"] == 2250


def test_loot_is_offered_only_when_it_would_take_something(scene):
    """An item with no pack room for it is no loot to take; gold or a page still is."""
    s = scene.s
    r = (int(s.book_room[0]) + 1) % int(s.num_rooms[0, 1])  # (floor 1 holds the book)
    scene.stand_in_room(1, r)
    s.room_gold[0, 1, r], s.room_pages[0, 1, r], s.room_map[0, 1, r] = 0, -1, False
    s.room_items[0, 1, r] = 0
    s.room_items[0, 1, r, 0] = 1
    s.band_kind[0, 1, r] = -1
    assert scene.legal(A_LOOT)
    s.item[0, :, 3:] = 1  # every pack full
    assert not scene.legal(A_LOOT)
    s.room_gold[0, 1, r] = 5
    assert scene.legal(A_LOOT)
    s.room_gold[0, 1, r] = 0
    s.room_pages[0, 1, r, 0] = 2
    assert scene.legal(A_LOOT)


def potential(scene) -> float:
    from delve_env.engine.outputs.rewards import game_potential

    return game_potential(scene.s, 0)


def food_potential(s) -> float:
    """The potential's rations: 0.01 a ration held, up to 30, less 0.01 a ration eaten."""
    return 0.01 * (min(int(s.rations[0]), 30) - int(s.stat_eaten[0]))


def test_the_progress_potential_going_down(scene_factory):
    """Tiles seen; the deepest floor's stair down opened (its map or a deeper one held),
    then seen, and each pace nearer it (checked at two distances);
    taking the stairs from it changes nothing but the tiles seen."""
    scene = scene_factory(depth=3, reward_mode="shaped")
    s = scene.s
    scene.act(A_STAIRS)
    seen = int(s.stat_tiles[0])
    tiles = 0.0002 * seen + food_potential(s)
    x, y = int(s.stair_down[0, 1, 0]), int(s.stair_down[0, 1, 1])
    s.fog[0, 1, y, x] = 0
    assert potential(scene) == pytest.approx(tiles)  # shut, not seen
    for maps in (2, 4):  # MAP-5: this floor's map, or a deeper one, opens the stair down
        s.maps_held[0] = maps
        assert potential(scene) == pytest.approx(tiles + 0.15), maps  # not seen
    s.fog[0, 1, y, x] = 1
    s.maps_held[0] = 0
    assert potential(scene) == pytest.approx(tiles)  # seen, shut
    s.maps_held[0] |= 2
    for dx in (3, 8):
        s.x[0], s.y[0] = x - dx, y
        assert potential(scene) == pytest.approx(tiles + 0.15 + 0.05 + 0.002 * (50 - dx))
    s.x[0], s.y[0] = x, y
    before = potential(scene)
    assert before == pytest.approx(tiles + 0.3)
    scene.act(A_STAIRS)
    assert s.floor[0] == 2
    new_tiles = 0.0002 * (int(s.stat_tiles[0]) - seen)
    assert potential(scene) == pytest.approx(before + new_tiles)  # stair term 0 on floor 2
    s.has_book[0] = True
    assert potential(scene) == pytest.approx(before + new_tiles + 0.3)
    base = before + new_tiles + 0.3 - 0.01 * min(int(s.rations[0]), 30)  # less those held
    for held, counted in ((12, 12), (25, 25), (70, 30)):  # 0.01 a ration held, up to 30
        s.rations[0] = held
        assert potential(scene) == pytest.approx(base + 0.01 * counted), held
    for members in (4, 2):  # a meal: 0.01 a ration eaten, one a standing member
        eaten = int(s.stat_eaten[0])
        s.hp[0, members:MAX_MEMBERS] = 0
        eat_meal(s, 0, make_rng())
        assert int(s.stat_eaten[0]) == eaten + members
    assert potential(scene) == pytest.approx(base + 0.3 - 0.06)  # 64 held: still 30 counted
    s.rations[0] = 10
    before_meal = potential(scene)
    eat_meal(s, 0, make_rng())  # two standing: 2 rations fewer held and 2 more eaten
    assert potential(scene) == pytest.approx(before_meal - 0.04)


def test_the_progress_potential_above_the_deepest_floor(scene_factory):
    """Above the deepest floor: 0.15 a floor back down to it, less 0.002 a pace nearer the
    floor's stair down (two floors, two distances); the deepest floor's way on, once opened,
    counts there too. Going up costs what coming back down pays, and taking the stairs down
    never lowers the potential."""
    scene = scene_factory(depth=5, reward_mode="shaped")
    s = scene.s
    scene.p[P_HALL_WANDER] = scene.p[P_JUNCTION_WANDER] = 0.0
    scene.act(A_STAIRS)
    s.stat_deepest[0] = 3  # floors 1 and 2 left behind: 0.3 each
    done = 0.0002 * int(s.stat_tiles[0]) + food_potential(s) + 0.3 * 2
    for f in (2, 0):
        dx, dy = int(s.stair_down[0, f, 0]), int(s.stair_down[0, f, 1])
        for away in (0, 9):
            s.floor[0], s.x[0], s.y[0] = f, dx - away, dy
            want = done - 0.15 * (3 - f) + 0.002 * (50 - away)
            assert potential(scene) == pytest.approx(want), (f, away)
            s.maps_held[0] = 1 << 3  # the deepest floor's map: its way on opened
            assert potential(scene) == pytest.approx(want + 0.15), (f, away)
            s.maps_held[0] = 0
    s.stat_deepest[0], s.floor[0] = 1, 1  # on floor 1, its stair up: up and back down
    s.x[0], s.y[0] = int(s.stair_up[0, 1, 0]), int(s.stair_up[0, 1, 1])
    before = potential(scene)
    scene.act(A_STAIRS)
    assert s.floor[0] == 0
    assert potential(scene) == pytest.approx(before - 0.15 + 0.002 * 50)
    scene.act(A_STAIRS)
    assert s.floor[0] == 1 and potential(scene) == pytest.approx(before)


def test_the_progress_potential_with_the_king(scene_factory):
    """With the king: 0.3, every floor down counted done (0.3 each: its map and its stair
    reached), 0.2 a floor climbed and 0.002 a pace nearer the stair up (two floors, two
    distances)."""
    scene = scene_factory(depth=3, reward_mode="shaped")
    s = scene.s
    s.has_king[0] = True
    s.rations[0] = 7
    tiles = 0.0002 * int(s.stat_tiles[0]) + 0.07  # and the rations held
    for f, climbed in ((3, 0), (2, 1)):
        ux, uy = int(s.stair_up[0, f, 0]), int(s.stair_up[0, f, 1])
        for dy in (0, 5):
            s.floor[0], s.x[0], s.y[0] = f, ux, uy + dy
            want = tiles + 0.3 + 0.3 * 2 + 0.2 * climbed + 0.002 * (50 - dy)
            assert potential(scene) == pytest.approx(want), (f, dy)


def test_a_finished_run_keeps_its_progress_potential(scene_factory):
    """The potential is kept when the run ends: the last step pays the win (with the book's
    bonus) or the loss and the potential's change only, not the progress held."""
    for won in (True, False):
        scene = scene_factory(depth=3, reward_mode="shaped")
        s = scene.s
        scene.act(A_STAIRS)
        scene.p[P_HALL_WANDER] = scene.p[P_JUNCTION_WANDER] = 0.0
        join_king(s, 0, make_rng())
        s.hp[0, KING_SLOT] = s.hp[0, KING_SLOT] if won else 0
        s.has_book[0] = won
        before = potential(scene)
        _, reward, term, *_ = scene.act(A_STAIRS if won else A_WAIT)
        change = potential(scene) - before  # the climb out of floor 1, or nothing
        assert term and potential(scene) > 0.5
        free = -0.002 if won else 0.0  # the stairs pass no pace
        assert reward == pytest.approx((1.5 if won else -1.0) + change + free, abs=1e-5)


def test_a_step_is_paid_its_potentials_change_and_a_free_action_costs(scene_factory):
    """Shaped: a step's reward is its events' terms plus the potential's change; a swap (no
    pace) costs 0.002 more. Sparse: neither."""
    for mode, cost in (("shaped", -0.002), ("sparse", 0.0)):
        scene = scene_factory(depth=3, reward_mode=mode)
        scene.p[P_HALL_WANDER] = scene.p[P_JUNCTION_WANDER] = 0.0
        scene.act(A_STAIRS)
        before = potential(scene)
        _, reward, *_ = scene.act(A_SWAP)
        assert potential(scene) == pytest.approx(before)
        assert reward == pytest.approx(cost)
        _, reward, *_ = scene.act(A_WAIT)
        assert reward == pytest.approx(0.0)


def test_a_walk_stops_entering_a_room_with_loot():
    """Travel stops on the first tile of another room that holds loot (here: gold left in a
    room the walk to the stair down crosses), not before, and walks through it otherwise."""
    ways = np.empty(NUM_TRAVELS, dtype=np.int64)
    for seed in range(8):
        scene = make_scene(seed=seed)
        s = scene.s
        quiet_floor(scene)
        snap = scene.save()
        paces, room = 0, -1
        while room < 0:
            first_steps(s, 0, ways, -1)
            if ways[DOWN_TO] == NO_WAY:
                break
            scene.act(A_MOVE + int(ways[DOWN_TO]))
            paces += 1
            room = int(s.room_of[0, 1, s.y[0], s.x[0]])
        if room < 0:
            continue  # this floor's walk crosses no room
        where = (int(s.x[0]), int(s.y[0]))
        scene.load(snap)
        s.room_gold[0, 1, room] = 5
        _, _, _, _, info = scene.act(A_TRAVEL_DOWN)
        assert info["paces"] == paces and (int(s.x[0]), int(s.y[0])) == where
        return
    pytest.fail("no walk crossed a room")


def test_hunger_stops_a_walk(scene):
    """A meal due with no rations wounds (FOOD-2): the walk stops on that pace."""
    s = scene.s
    quiet_floor(scene)
    s.rations[0] = 0
    s.meal_clock[0] = int(scene.p[P_MEAL_PACES]) - 3
    hp = s.hp[0].copy()
    _, _, _, _, info = scene.act(A_TRAVEL_DOWN)
    assert info["paces"] == 3 and (s.hp[0] < hp).any()


def test_the_soak_checker_flags_a_broken_free_streak(scene):
    """invariants.InvariantChecker: a free streak kept across a pace, or negative, is reported; a
    streak that grows with no pace is not."""
    from delve_env.checks import invariants

    s = scene.s
    checker = invariants.InvariantChecker()
    assert checker.check(s) == []
    s.free_streak[0] = 3
    s.steps[0] += 1
    assert checker.check(s) == []  # time-free actions: no pace
    s.pace[0] += 1
    s.steps[0] += 1
    assert [v.rule for v in checker.check(s)] == ["free streak kept across a pace"]
    s.free_streak[0] = -1
    s.steps[0] += 1
    assert "free streak negative" in [v.rule for v in checker.check(s)]


def test_the_soak_checker_flags_a_party_in_a_room_not_seen_whole(scene):
    """invariants.InvariantChecker: standing in a room, every tile of it and of its walls is
    remembered (a pace within a room looks at nothing new); one forgotten wall tile is
    reported, standing in the hall it is not."""
    from delve_env.checks import invariants

    s = scene.s
    quiet_floor(scene)
    room = int(np.flatnonzero(s.num_rooms[0, 1] > np.arange(s.room_rect.shape[2]))[0])
    x0, y0, x1, y1 = (int(v) for v in s.room_rect[0, 1, room])
    s.x[0], s.y[0] = x0, y0
    remember(s, 0, 1, x0 - 1, y0 - 1, x1 + 1, y1 + 1)  # as stepping in does
    scene.refresh()
    checker = invariants.InvariantChecker()
    assert checker.check(s) == []
    s.fog[0, 1, y1 + 1, x1 + 1] = 0
    s.steps[0] += 1
    assert "the party in a room it has not seen whole" in [v.rule for v in checker.check(s)]


def hidden_room_floor(scene, find: float):
    """Floor 1 made over: the party stands at the west wall of room 1 (entered), whose door
    opens on a hall running east to a secret door (16, 10) into room 0 (never seen). Known:
    x 4..16, y 7..13; unseen ground lies only behind room 1's west wall and behind the secret
    door. No bands, no wandering; searches find with chance `find`."""
    s = scene.s
    scene.act(A_STAIRS)
    s.tiles[0, 1] = ROCK
    s.room_of[0, 1] = -1
    s.fog[0, 1] = 0
    s.num_rooms[0, 1] = 2
    for r, (x0, x1) in enumerate([(17, 20), (5, 8)]):
        s.tiles[0, 1, 9:12, x0 : x1 + 1] = ROOM
        s.room_of[0, 1, 9:12, x0 : x1 + 1] = r
        s.room_rect[0, 1, r] = (x0, 9, x1, 11)
    s.tiles[0, 1, 10, 9] = DOOR
    s.tiles[0, 1, 10, 10:16] = HALL
    s.tiles[0, 1, 10, 16] = SECRET
    s.room_entered[0, 1, :2] = (False, True)
    s.room_known[0, 1, :2] = (False, True)
    s.band_kind[0, 1] = -1
    s.room_gold[0, 1] = 0
    s.room_items[0, 1] = 0
    s.room_pages[0, 1] = -1
    s.room_chest[0, 1] = 0
    s.stair_up[0, 1] = s.stair_down[0, 1] = (40, 20)  # unseen: no travel goal
    s.x[0], s.y[0] = 5, 10
    s.searched[0] = 0
    remember(s, 0, 1, 4, 7, 16, 13)
    scene.p[P_HALL_WANDER] = scene.p[P_JUNCTION_WANDER] = 0.0
    scene.p[P_SEARCH_FIND] = find
    scene.refresh()


def test_explore_searches_at_the_end_of_a_hall_for_the_secret_door(scene):
    """With nothing left to walk to, explore goes to a hall's wall with ground not yet been in
    behind it (before the nearer wall of a room) and searches there: it stops when the secret
    door is found."""
    hidden_room_floor(scene, find=1.0)
    s = scene.s
    ways = np.empty(NUM_TRAVELS, dtype=np.int64)
    first_steps(s, 0, ways, -1)
    assert ways[0] == 1  # east, to the hall, though the room's west wall is where it stands
    _, _, _, _, info = scene.env.step(A_EXPLORE)
    assert info["paces"] == 10 + 1  # ten moves, one search
    assert (int(s.x[0]), int(s.y[0])) == (15, 10)
    assert s.tiles[0, 1, 10, 16] == DOOR and s.events[0] & EV_SECRET


def test_explore_searches_a_wall_four_times_then_the_next(scene_factory):
    """SEARCH_TRIES searches beside a wall, then explore moves on: the hall's wall first, then
    a room's; once no wall is left to search, explore is not offered."""
    scene = scene_factory(travel_paces=10 + SEARCH_TRIES)
    hidden_room_floor(scene, find=0.0)
    s = scene.s
    _, _, _, _, info = scene.env.step(A_EXPLORE)
    assert info["paces"] == 10 + SEARCH_TRIES
    assert (int(s.x[0]), int(s.y[0])) == (15, 10) and s.searched[0, 10, 16] == SEARCH_TRIES
    assert s.tiles[0, 1, 10, 16] == SECRET
    ways = np.empty(NUM_TRAVELS, dtype=np.int64)
    first_steps(s, 0, ways, -1)
    assert ways[0] == 3  # west, back to the room's wall
    s.searched[0, 9:12, 4] = SEARCH_TRIES
    assert not scene.refresh()[A_EXPLORE]


def test_the_searches_counted_are_of_this_visit_to_the_floor(scene):
    """`searched` counts the searches beside each tile since the party came to this floor."""
    s = scene.s
    scene.act(A_STAIRS)
    scene.p[P_HALL_WANDER] = scene.p[P_JUNCTION_WANDER] = 0.0
    scene.act(A_SEARCH)
    x, y = int(s.x[0]), int(s.y[0])
    assert s.searched[0, y - 1, x] == s.searched[0, y, x + 1] == 1 and s.searched[0, y, x] == 0
    scene.act(A_STAIRS)  # up to the courtyard, and down again
    scene.act(A_STAIRS)
    assert s.floor[0] == 1 and not s.searched[0].any()


def test_the_soak_checker_flags_a_search_made_from_nowhere(scene):
    """invariants.InvariantChecker: a wall counted as searched beside no seen walkable tile of the
    party's floor is reported; one beside where the party stands is not."""
    from delve_env.checks import invariants

    s = scene.s
    scene.act(A_STAIRS)
    checker = invariants.InvariantChecker()
    s.searched[0, int(s.y[0]) - 1, int(s.x[0])] = 2
    assert checker.check(s, stepped=False) == []
    s.searched[0, 0, 0] = 1
    rules = [v.rule for v in checker.check(s, stepped=False)]
    assert rules == ["searched beside no tile of this floor seen"]


def test_the_soak_checker_lets_dispel_magic_end_the_foul_lantern(scene):
    """invariants.InvariantChecker: effects are spent one a pace, but dispel magic ends the foul
    lantern's WARD at once (spells.end_foul_ward); a kind WARD gone at once is reported."""
    from delve_env.checks import invariants
    from delve_env.engine.core.tables import WARD

    s = scene.s
    for foul, want in ((True, []), (False, ["effect spent but by one pace"])):
        checker = invariants.InvariantChecker()
        s.effects[0, WARD], s.ward_foul[0] = 50, foul
        assert checker.check(s) == []
        s.effects[0, WARD], s.ward_foul[0] = 0, False
        s.steps[0] += 1
        assert [v.rule for v in checker.check(s)] == want


def test_the_kept_ways_follow_the_known_map(scene):
    """travel.known_ways keeps the travel goals between steps until the known map changes:
    entering the last room not entered (already seen, so no tile changes) takes explore off
    the mask that very step, as a fresh search says; a search spends a wall's spot."""
    hidden_room_floor(scene, find=0.0)
    s = scene.s
    s.tiles[0, 1, 10, 16] = DOOR  # the room behind is seen through its door, not entered
    remember(s, 0, 1, 16, 8, 21, 12)
    s.searched[0] = SEARCH_TRIES  # and no wall is left to search
    s.x[0] = 16
    assert scene.legal(A_EXPLORE)  # (a full recompute: the kept ways searched again)
    _, _, _, _, info = scene.env.step(A_MOVE + 1)  # east, into the room
    assert s.room_entered[0, 1, 0]
    assert not info["action_mask"][A_EXPLORE] and not find_ways(s, 0) & (1 << EXPLORE_TO)
    s.searched[0, 10, 21] = SEARCH_TRIES - 1  # one search left beside the east wall
    s.fog[0, 1, 9:12, 22:24] = 0  # with unseen ground behind it
    scene.refresh()
    s.x[0] = 20
    assert scene.legal(A_EXPLORE)
    _, _, _, _, info = scene.env.step(A_SEARCH)
    assert not info["action_mask"][A_EXPLORE]


def test_a_search_keeps_only_spots_and_new_ground_spends_it(scene):
    """state.ONLY_SPOTS is kept in `ways_known` while it holds: found by the kept ways' search
    when no explore goal is in reach, spent by new ground seen, kept by a search that finds
    nothing (it spends spots, not goals), spent by one that finds a secret door; the kept
    ways are then searched again with nothing taken on trust, as a fresh search says."""
    hidden_room_floor(scene, find=0.0)
    s, rng = scene.s, make_rng(0)
    only_spots = WAYS_FRESH | ONLY_SPOTS | 1 << EXPLORE_TO
    assert s.ways_known[0] == only_spots == find_ways(s, 0)
    s.fog[0, 1, 10, 15] = 0  # the hall's end forgotten, then seen again
    remember(s, 0, 1, 15, 10, 15, 10)
    assert s.ways_known[0] == 0
    assert known_ways(s, 0) == find_ways(s, 0) == only_spots
    search_walls(s, scene.p, 0, rng)
    assert s.ways_known[0] == ONLY_SPOTS
    assert known_ways(s, 0) == find_ways(s, 0) == only_spots
    s.x[0] = 15  # beside the secret door, found this time
    scene.p[P_SEARCH_FIND] = 1.0
    search_walls(s, scene.p, 0, rng)
    assert s.tiles[0, 1, 10, 16] == DOOR and s.ways_known[0] == 0
    assert known_ways(s, 0) == find_ways(s, 0) == WAYS_FRESH | 1 << EXPLORE_TO


def test_a_search_keeps_no_hall_spot_and_new_ground_spends_it(scene):
    """state.NO_HALL_SPOT (and NO_SPOT): with no explore goal in reach and every search spot
    in reach in a room (or none), the kept ways' search says so; a search that finds nothing
    keeps it (it spends spots), new ground seen spends it, and the kept ways equal a fresh
    search each time. Told so, explore's search stops at the nearest spot in a room, the
    full search's way (or finds no way without searching)."""
    hidden_room_floor(scene, find=0.0)
    s, rng = scene.s, make_rng(0)
    s.searched[0, 10, 16] = SEARCH_TRIES  # the hall's end searched out: room 1's west wall left
    rooms_only = WAYS_FRESH | ONLY_SPOTS | NO_HALL_SPOT | 1 << EXPLORE_TO
    s.ways_known[0] = 0
    assert known_ways(s, 0) == find_ways(s, 0) == rooms_only
    ways, told = np.empty(NUM_TRAVELS, dtype=np.int64), np.empty(NUM_TRAVELS, dtype=np.int64)
    for x, way in ((5, SEARCH_HERE), (8, 3), (12, 3)):  # on the wall's spots; east of them
        s.x[0] = x
        assert first_steps(s, 0, ways, EXPLORE_TO) == ONLY_SPOTS | NO_HALL_SPOT
        assert (
            first_steps(s, 0, told, EXPLORE_TO, ONLY_SPOTS | NO_HALL_SPOT)
            == ONLY_SPOTS | NO_HALL_SPOT
        )
        assert ways[EXPLORE_TO] == told[EXPLORE_TO] == way, x
    s.x[0] = 5
    search_walls(s, scene.p, 0, rng)
    assert s.ways_known[0] == ONLY_SPOTS | NO_HALL_SPOT
    assert known_ways(s, 0) == find_ways(s, 0) == rooms_only
    s.searched[0, 9:12, 4] = SEARCH_TRIES  # room 1's west wall searched out: no spot left
    search_walls(s, scene.p, 0, rng)
    no_spot = WAYS_FRESH | ONLY_SPOTS | NO_HALL_SPOT | NO_SPOT  # explore has no way
    assert known_ways(s, 0) == find_ways(s, 0) == no_spot
    assert first_steps(s, 0, ways, EXPLORE_TO, no_spot) == no_spot & ~WAYS_FRESH
    assert ways[EXPLORE_TO] == NO_WAY
    search_walls(s, scene.p, 0, rng)
    assert s.ways_known[0] == ONLY_SPOTS | NO_HALL_SPOT | NO_SPOT
    assert known_ways(s, 0) == find_ways(s, 0) == no_spot
    s.searched[0, 10, 16] = 0  # the hall's end worth searching again: only new ground tells
    remember(s, 0, 1, 3, 9, 3, 9)  # (new ground: a tile behind the west wall seen)
    assert s.ways_known[0] == 0
    assert known_ways(s, 0) == find_ways(s, 0) == WAYS_FRESH | ONLY_SPOTS | 1 << EXPLORE_TO


STAIRS = (1 << DOWN_TO) | (1 << UP_TO)


@pytest.mark.parametrize("jump", ["arrive", "land"])
def test_a_stair_is_in_reach_while_the_known_map_joins_it_to_the_party(scene, jump):
    """reach.py: whether a stair is in reach is asked of the known map's sets. New ground
    seen apart from the party's keeps the stair in reach; arriving or landing apart from it
    puts it out of reach (off the mask) until tiles seen join the two, and then it is in
    reach at once, as a search of the known map finds."""
    hidden_room_floor(scene, find=0.0)
    s = scene.s
    s.tiles[0, 1, 10, 10:16] = ROCK  # no hall: the party's room is all it can walk
    s.fog[0, 1, 10, 10:16] = 0
    s.tiles[0, 1, 9, 6] = STAIR_UP
    s.stair_up[0, 1] = (6, 9)  # in the party's room
    s.tiles[0, 1, 20, 30:33] = HALL  # a hall apart, the floor's only one
    scene.refresh()
    assert s.ways_known[0] & (WAYS_FRESH | STAIRS) == WAYS_FRESH | 1 << UP_TO
    remember(s, 0, 1, 29, 19, 33, 21)  # new ground seen, apart
    assert s.ways_known[0] == 0
    assert known_ways(s, 0) == find_ways(s, 0)
    assert s.ways_known[0] & (WAYS_FRESH | STAIRS) == WAYS_FRESH | 1 << UP_TO
    if jump == "arrive":
        arrive(s, 0, 1, 31, 20)
    else:
        land_in_hall(s, 0, s.rng)
    assert (int(s.x[0]), int(s.y[0])) in [(30, 20), (31, 20), (32, 20)]
    assert s.ways_known[0] == 0
    assert known_ways(s, 0) == find_ways(s, 0)
    assert s.ways_known[0] & (WAYS_FRESH | STAIRS) == WAYS_FRESH
    ways = np.empty(NUM_TRAVELS, dtype=np.int64)
    first_steps(s, 0, ways, UP_TO)
    assert ways[UP_TO] == NO_WAY  # (the search agrees)
    scene.env.step(A_WAIT)
    assert not scene.env.action_masks()[A_TRAVEL_UP]
    s.tiles[0, 1, 10:20, 30] = HALL  # a hall from the party's north, then west to the door
    s.tiles[0, 1, 10, 10:30] = HALL
    remember(s, 0, 1, 30, 10, 30, 19)
    remember(s, 0, 1, 11, 10, 29, 10)  # all seen but its last tile: still apart
    assert known_ways(s, 0) & STAIRS == 0
    remember(s, 0, 1, 10, 10, 10, 10)  # the last tile seen: the sets join
    assert known_ways(s, 0) == find_ways(s, 0)
    assert known_ways(s, 0) & STAIRS == 1 << UP_TO
    first_steps(s, 0, ways, UP_TO)
    assert ways[UP_TO] != NO_WAY
    scene.env.step(A_WAIT)
    assert scene.env.action_masks()[A_TRAVEL_UP]


def test_the_searches_read_walkable_ground_off_the_fog(scene):
    """travel.WALKABLE_CODE: the searches tell a remembered tile walkable from its fog code
    alone, exactly where its tile is walkable: rock and an unfound secret door (shown as
    rock) are not; a found secret door, halls, doors, stairs and rooms' tiles are. (Every
    tile of each floor remembered, half its secret doors found by searching.)"""
    s = scene.s
    scene.p[P_SEARCH_FIND] = 1.0
    checked = set()
    for seed in range(6):
        scene.env.reset(seed=seed)
        for f in range(1, s.tiles.shape[1]):
            H, W = s.tiles.shape[2:]
            remember(s, 0, f, 0, 0, W - 1, H - 1)  # every tile, a secret door as rock
            secret = np.argwhere(s.tiles[0, f] == SECRET)
            for y, x in secret[: len(secret) // 2]:  # half of them found
                for d in range(4):
                    if is_walkable(s.tiles[0, f, y + DY[d], x + DX[d]]):
                        s.floor[0], s.x[0], s.y[0] = f, x + DX[d], y + DY[d]
                        search_walls(s, scene.p, 0, make_rng())
                        break
            walkable = [[is_walkable(t) for t in row] for row in s.tiles[0, f]]
            assert np.array_equal(WALKABLE_CODE[s.fog[0, f]], walkable)
            checked |= set(np.unique(s.tiles[0, f]).tolist())
    assert checked == {ROCK, HALL, ROOM, DOOR, SECRET, STAIR_DOWN, STAIR_UP}
