"""The scripted expert on the party's knowledge (agents/fog.py): it acts the same whatever lies
where the party has not looked, and takes a room as guarded only where a band was heard or
met; where the scripted expert, with its sight, does not."""

import copy

import numpy as np
import pytest

from agents.fog import FogExpert
from agents.paths import first_step, frontier, search_spots, walk_step
from agents.scripted import ScriptedAgent
from delve_env.engine.core.actions import A_MOVE
from delve_env.engine.core.state import ROOM_MARK
from delve_env.engine.core.tables import HALL, ROCK, ROOM
from delve_env.engine.generation.floors import DX, DY
from delve_env.env import DelveEnv


def change_the_unknown(env) -> None:
    """Change what the party does not know of its floor: every unseen tile becomes open hall
    (a walk through the unseen would take its new shortcuts), the floor's map moves to
    another room never entered, and the bands of rooms never heard or entered leave. The
    state differs from `env`'s only in what the observation does not show."""
    s = env.unwrapped.engine.state
    f, n = int(s.floor[0]), int(s.num_rooms[0, int(s.floor[0])])
    s.tiles[0, f][s.fog[0, f] == 0] = HALL
    unknown = [r for r in range(n) if not s.room_entered[0, f, r] and not s.room_heard[0, f, r]]
    if len(unknown) > 1 and s.room_map[0, f, unknown].any():
        s.room_map[0, f, :n] = False
        s.room_map[0, f, unknown[-1] if s.room_map[0, f, unknown[0]] else unknown[0]] = True
    king = int(s.king_room[0])
    if f == s.floor_visited.shape[1] - 1 and king in unknown and len(unknown) > 1:
        s.king_room[0] = unknown[-1] if king == unknown[0] else unknown[0]
    for r in unknown:
        s.band_kind[0, f, r] = -1


def acts_the_same_unseen(agent, seed: int, points: int = 100, every: int = 7) -> list[bool]:
    """At `points` moments of a game on floor 1 and below: whether `agent` (its memory as it
    is) takes the same action when what the party does not know is changed."""
    env = DelveEnv(difficulty="easy", depth=3)
    env.reset(seed=seed)
    same = []
    for step in range(points * every):
        if step % every == every - 1 and env.engine.state.floor[0] > 0:
            other = copy.deepcopy(env)
            change_the_unknown(other)
            same.append(copy.deepcopy(agent).act(other) == copy.deepcopy(agent).act(env))
        _, _, terminated, truncated, _ = env.step(agent.act(env))
        if terminated or truncated:
            break
    return same


@pytest.mark.parametrize("seed", [0, 1])
def test_the_fog_expert_acts_the_same_whatever_the_party_has_not_seen(seed):
    same = acts_the_same_unseen(FogExpert(), seed)
    assert len(same) >= 5 and all(same)


def test_the_scripted_expert_acts_on_what_the_party_has_not_seen():
    """What the test above would catch: with its sight of the layout, the scripted expert
    walks through unseen ground to the map's room, and opening it changes its move."""
    same = acts_the_same_unseen(ScriptedAgent(), 0) + acts_the_same_unseen(ScriptedAgent(), 1)
    assert not all(same)


def test_a_room_is_guarded_for_the_fog_expert_only_where_the_party_heard_or_met_a_band():
    env = DelveEnv(difficulty="easy", depth=2)
    env.reset(seed=3)
    s = env.engine.state
    s.floor[0] = 1
    guarded = np.flatnonzero(s.band_kind[0, 1, : s.num_rooms[0, 1], 0] >= 0)
    assert len(guarded) > 0
    fog, sighted = FogExpert(), FogExpert(hidden=("tiles", "rooms"))
    assert not fog.guarded(s, 1).any()  # nothing heard yet
    assert (np.flatnonzero(sighted.guarded(s, 1)) == guarded).all()
    from delve_env.engine.outputs.layout import BAND_HERE

    s.room_code[0, 1, guarded[0]] = BAND_HERE  # as a listen at its door shows it
    assert np.flatnonzero(fog.guarded(s, 1)).tolist() == [guarded[0]]


def move(d: int) -> int:
    return A_MOVE + d


def direction(dx: int, dy: int) -> int:
    return next(d for d in range(4) if (DX[d], DY[d]) == (dx, dy))


def test_the_first_step_goes_toward_the_nearest_goal_tile_and_the_first_of_ties():
    tiles = np.full((3, 7), HALL, dtype=np.uint8)
    goal = np.zeros(tiles.shape, dtype=bool)
    goal[1, 0] = goal[1, 5] = True  # 3 and 2 paces from (3, 1)
    assert first_step(tiles, 3, 1, goal) == move(direction(1, 0))
    goal[1, 1] = True  # now 2 paces each way: the first in row order (x 1) wins
    assert first_step(tiles, 3, 1, goal) == move(direction(-1, 0))
    goal[1, 3] = True  # standing on a goal: no step
    assert first_step(tiles, 3, 1, goal) == -1
    goal[:] = False
    goal[1, 6] = True
    tiles[:, 5] = ROCK  # walled off: no step
    assert first_step(tiles, 3, 1, goal) == -1


def test_a_walk_goes_round_a_shut_room_while_another_way_exists_and_blind_over_rock():
    # a row of hall with a room (number 0) in its middle, and a hall loop above it
    tiles = np.full((3, 7), HALL, dtype=np.uint8)
    tiles[1, 1:6] = ROCK
    tiles[2, 2:5] = ROOM
    room_of = np.full(tiles.shape, -1, dtype=np.int8)
    room_of[2, 2:5] = 0
    fog = np.ones(tiles.shape, dtype=np.uint8)
    goal = np.zeros(tiles.shape, dtype=bool)
    goal[2, 6] = True
    shut = np.zeros(9, dtype=bool)
    east, north = move(direction(1, 0)), move(direction(0, -1))
    assert walk_step(tiles, fog, False, room_of, shut, 0, 2, goal) == east  # through the room
    shut[0] = True
    assert walk_step(tiles, fog, False, room_of, shut, 0, 2, goal) == north  # round it
    west = move(direction(-1, 0))  # standing in the shut room: out of it the long way round
    assert walk_step(tiles, fog, False, room_of, shut, 2, 2, goal) == west
    fog[0, 3] = 0  # the loop unseen: blind, the only way is through the shut room
    assert walk_step(tiles, fog, True, room_of, shut, 0, 2, goal) == east
    assert walk_step(tiles, fog, False, room_of, shut, 0, 2, goal) == north  # sighted


def test_the_frontier_is_seen_ground_beside_unseen_and_search_spots_face_rock_then_unseen():
    tiles = np.full((5, 6), HALL, dtype=np.uint8)
    tiles[:, 3] = ROCK
    fog = np.ones(tiles.shape, dtype=np.uint8)
    fog[:, 4:] = 0  # beyond the rock, unseen
    fog[0, 0] = 0
    want = np.zeros(tiles.shape, dtype=bool)
    want[0, 1] = want[1, 0] = True  # beside the unseen corner (rock beside unseen is no ground)
    assert (frontier(tiles, fog, 3, 3) == want).all()
    want[1, 0] = False
    assert (frontier(tiles, fog, 0, 1) == want).all()  # the party's own tile left out
    spots = np.zeros(tiles.shape, dtype=bool)
    spots[:, 2] = True  # rock east, unseen ground beyond it
    fog[4, 4] = 1  # seen ground beyond the rock: nothing to find there
    spots[4, 2] = False
    assert (search_spots(tiles, fog) == spots).all()
    fog[2, 2] = 0  # an unseen spot is not searched from
    spots[2, 2] = False
    assert (search_spots(tiles, fog) == spots).all()


def test_the_fog_expert_refuses_an_unknown_part_to_hide():
    with pytest.raises(ValueError, match="walls"):
        FogExpert(hidden=("walls",))


def test_the_fog_expert_looks_for_the_map_s_room_among_the_rooms_it_knows():
    """On floor 2 with its map not found: the scripted expert walks to the map's room alone;
    the fog expert wants every room it has seen and not entered, wherever the map lies."""
    env = DelveEnv(difficulty="easy", depth=3)
    env.reset(seed=4)
    s = env.engine.state
    s.floor[0], f = 2, 2
    n = int(s.num_rooms[0, f])
    s.room_entered[0, f, :n] = False
    s.band_kind[0, f, :n] = -1
    s.fog[0, f] = 0
    for r in (0, 1):  # the party has seen rooms 0 and 1, none other
        s.fog[0, f][s.room_of[0, f] == r] = ROOM_MARK + r
    for map_room in (1, 2):
        s.room_map[0, f, :n] = False
        s.room_map[0, f, map_room] = True
        assert ScriptedAgent().wanted_rooms(s) == [map_room]
        assert FogExpert().wanted_rooms(s) == [0, 1]


@pytest.mark.parametrize("player, seed, digest", [
    ("scripted", 2000, "3e2513605cc75d20"), ("scripted", 2001, "41d6b60b90b5bf0c"),
    ("fog", 2000, "5b92cc32560e6664"), ("fog", 2001, "8e3d3b8026372d26"),
    ("fog", 2002, "91b3eec2d56a17e0"),
])  # fmt: skip
def test_the_scripted_players_play_the_same_actions_as_ever(player, seed, digest):
    """Whole games of easy, each action sequence's digest as the players played it before
    they were made quicker (a playtest's numbers stand on them): a change of play shows here."""
    import hashlib

    agent = ScriptedAgent() if player == "scripted" else FogExpert()
    env = DelveEnv(difficulty="easy")
    env.reset(seed=seed)
    actions, done = [], False
    while not done:
        actions.append(agent.act(env))
        _, _, terminated, truncated, _ = env.step(actions[-1])
        done = terminated or truncated
    assert hashlib.sha256(str(actions).encode()).hexdigest()[:16] == digest
