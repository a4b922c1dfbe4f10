"""The scripted expert on the party's knowledge (agents/fog.py): it acts the same whatever lies
where the party has not looked, and takes a room as guarded only where a band was heard or
met; where the scripted expert, with its sight, does not."""

import copy

import numpy as np
import pytest

from agents.fog import FogExpert, beside
from agents.scripted import ScriptedAgent
from delve_env.engine.core.state import ROOM_MARK
from delve_env.engine.core.tables import HALL
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


def test_beside_marks_the_four_neighbours():
    grid = np.zeros((4, 5), dtype=bool)
    grid[1, 2] = True
    want = np.zeros_like(grid)
    want[0, 2] = want[2, 2] = want[1, 1] = want[1, 3] = True
    assert (beside(grid) == want).all()


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
