"""The privileged state (`env.state()`, `venv.state()`; engine/outputs/privileged.py): every
field read on a hand-set floor, what the observation hides and the state holds, and that
asking for it changes no game, on the single env and in any slot of the vector env."""

import numpy as np
import pytest

from delve_env import DelveEnv
from delve_env.engine.core.tables import DOOR, HALL, MAX_ROOMS, ROCK, ROOM, SECRET, STAIR_DOWN
from delve_env.engine.outputs import privileged as pv
from delve_env.engine.outputs.layout import OBS_BYTES
from delve_env.vector import DelveVectorEnv


def field(state: np.ndarray, part_at: int, at: int, row: int = 0, row_size: int = 0):
    return int(state[part_at + row * row_size + at])


def room_field(state: np.ndarray, r: int, at: int) -> int:
    return field(state, pv.ROOMS_AT, at, r, pv.ROOM_ROW)


@pytest.fixture
def floor(scene):
    """Floor 1 made by hand: rock everywhere but a hall along row 5 from (2, 5) to (12, 5),
    the stair down at its east end, a secret door at (7, 6) (unfound: a wall to walk) under
    which room 0 lies (interior x 6-8, y 7-9), and a door at (2, 6) to room 1 (x 1-3, y
    7-9). Only the hall's first four tiles are seen; the party stands on (2, 5)."""
    s, f = scene.s, 1
    s.tiles[0, f] = ROCK
    s.fog[0, f] = 0
    s.room_of[0, f] = -1
    s.tiles[0, f, 5, 2:13] = HALL
    s.tiles[0, f, 5, 12] = STAIR_DOWN
    s.stair_down[0, f] = (12, 5)
    s.tiles[0, f, 6, 7] = SECRET
    s.tiles[0, f, 6, 2] = DOOR
    for r, (x0, x1) in enumerate(((6, 8), (1, 3))):
        s.tiles[0, f, 7:10, x0 : x1 + 1] = ROOM
        s.room_of[0, f, 7:10, x0 : x1 + 1] = r
        s.room_rect[0, f, r] = (x0, 7, x1, 9)
    s.num_rooms[0, f] = 2
    s.room_known[0, f] = False
    s.room_entered[0, f] = False
    s.room_heard[0, f] = False
    s.room_map[0, f] = False
    s.band_kind[0, f] = -1
    s.band_hp[0, f] = 0
    s.fog[0, f, 5, 2:6] = 1 + HALL
    scene.put(f, 2, 5)
    scene.refresh()
    return scene


def test_the_floor_is_every_tile_as_it_is_with_the_unseen_marked(floor):
    state = floor.env.state()
    tiles = state[pv.FLOOR_AT : pv.FLOOR_AT + pv.HEIGHT * pv.WIDTH].reshape(pv.HEIGHT, pv.WIDTH)
    assert list(tiles[5, 2:6]) == [1 + HALL] * 4  # seen
    assert list(tiles[5, 6:12]) == [1 + HALL + pv.UNSEEN] * 6  # there, never seen
    assert tiles[5, 12] == 1 + STAIR_DOWN + pv.UNSEEN
    assert tiles[6, 7] == 1 + SECRET + pv.UNSEEN and tiles[6, 2] == 1 + DOOR + pv.UNSEEN
    assert tiles[0, 0] == 1 + ROCK + pv.UNSEEN
    assert state[:OBS_BYTES].tobytes() == floor.env.unwrapped.engine.obs_record[0].tobytes()


def test_paces_are_the_true_walk_and_a_secret_door_unfound_is_a_wall(floor):
    s = floor.s
    state = floor.env.state()
    assert field(state, pv.RUN_AT, pv.RUN_DOWN) == 10  # (2, 5) to (12, 5)
    assert room_field(state, 1, pv.ROOM_PACES) == 2  # the door below, then the room
    assert room_field(state, 0, pv.ROOM_PACES) == pv.FAR  # behind the unfound secret door
    s.tiles[0, 1, 6, 7] = DOOR  # found: the secret door is a door (SECRET-2)
    state = floor.env.state()
    assert room_field(state, 0, pv.ROOM_PACES) == 5 + 2  # along the hall to x 7, down two
    floor.put(1, 5, 5)
    assert field(floor.env.state(), pv.RUN_AT, pv.RUN_DOWN) == 7
    assert field(floor.env.state(), pv.RUN_AT, pv.RUN_UP) == pv.FAR  # no walk to a stair up


def test_a_room_s_row_holds_its_band_and_what_lies_in_it(floor):
    s, f = floor.s, 1
    s.band_kind[0, f, 0, :3] = (4, 4, 7)
    s.band_hp[0, f, 0, :3] = (10, 0, 25)  # the second has fallen
    s.room_map[0, f, 0] = True
    s.book_floor[0], s.book_room[0] = f, 1
    s.room_gold[0, f, 1] = 300
    s.room_items[0, f, 1] = (-1, 5, 9)[: s.room_items.shape[3]]
    s.room_pages[0, f, 1] = -1
    s.room_feature[0, f, 1] = 2
    s.room_chest[0, f, 0] = 2
    s.room_heard[0, f, 0] = True
    state = floor.env.state()
    assert room_field(state, 0, pv.ROOM_EXISTS) == room_field(state, 1, pv.ROOM_EXISTS) == 1
    assert all(room_field(state, r, pv.ROOM_EXISTS) == 0 for r in range(2, MAX_ROOMS))
    assert [room_field(state, 0, pv.ROOM_RECT + k) for k in range(4)] == [6, 7, 8, 9]
    assert room_field(state, 0, pv.ROOM_FOES) == 2 and room_field(state, 0, pv.ROOM_BAND_HP) == 35
    assert [room_field(state, 0, pv.ROOM_BAND + k) for k in range(3)] == [5, 0, 8]
    assert room_field(state, 0, pv.ROOM_MAP) == 1 and room_field(state, 1, pv.ROOM_MAP) == 0
    assert room_field(state, 1, pv.ROOM_BOOK) == 1 and room_field(state, 0, pv.ROOM_BOOK) == 0
    assert room_field(state, 0, pv.ROOM_HEARD) == 1 and room_field(state, 0, pv.ROOM_CHEST) == 2
    assert room_field(state, 1, pv.ROOM_GOLD) == 255  # capped
    assert room_field(state, 1, pv.ROOM_ITEMS) == 2 and room_field(state, 1, pv.ROOM_FEATURE) == 2
    assert field(state, pv.RUN_AT, pv.RUN_BOOK_FLOOR) == f
    assert field(state, pv.RUN_AT, pv.RUN_BOOK_ROOM) == 2
    s.has_book[0] = True  # the book is the party's: it lies nowhere
    assert room_field(floor.env.state(), 1, pv.ROOM_BOOK) == 0


def test_the_king_s_room_is_marked_on_the_last_floor_only(floor):
    s = floor.s
    s.king_room[0] = 0
    assert room_field(floor.env.state(), 0, pv.ROOM_KING) == 0  # floor 1 of 2
    f = floor.depth
    s.band_kind[0, f] = -1
    floor.put(f, int(s.stair_up[0, f, 0]), int(s.stair_up[0, f, 1]))
    state = floor.env.state()
    assert room_field(state, 0, pv.ROOM_KING) == 1
    assert field(state, pv.RUN_AT, pv.RUN_UP) == 0 and field(state, pv.RUN_AT, pv.RUN_DOWN) == 255
    assert field(state, pv.RUN_AT, pv.RUN_KING_ROOM) == 1
    assert field(state, pv.RUN_AT, pv.RUN_DEPTH) == f == field(state, pv.RUN_AT, pv.RUN_FLOOR)


def test_the_state_holds_what_the_observation_hides(floor):
    """A band in a room never entered nor heard, the map's room and the unseen stair: the
    observation is the same whether they are there or not; the state is not."""
    s, f = floor.s, 1
    obs_before, state_before = floor.refresh().copy(), floor.env.state()
    s.band_kind[0, f, 1, 0], s.band_hp[0, f, 1, 0] = 3, 12
    s.room_map[0, f, 1] = True
    s.tiles[0, f, 5, 9] = ROCK  # the hall cut where the party has not looked
    obs_after, state_after = floor.refresh().copy(), floor.env.state()
    assert obs_after.tobytes() == obs_before.tobytes()
    assert room_field(state_after, 1, pv.ROOM_FOES) == 1
    assert room_field(state_after, 1, pv.ROOM_MAP) == 1
    assert field(state_after, pv.RUN_AT, pv.RUN_DOWN) == pv.FAR
    assert state_after.tobytes() != state_before.tobytes()


def test_seen_share_counts_the_walkable_tiles_seen(floor):
    state = floor.env.state()
    walkable = 11 + 1 + 9 + 9  # hall and stair, the door, two rooms
    assert field(state, pv.RUN_AT, pv.RUN_SEEN) == 255 * 4 // walkable


def play_asking(env_or_venv, actions_of, steps: int, ask: bool):
    """Records, rewards of `steps` steps of legal actions, calling state() each step or not."""
    out = []
    for k in range(steps):
        if ask:
            env_or_venv.state()
        obs, reward, *_ = env_or_venv.step(actions_of(k))
        out.append((env_or_venv.engine.obs_record.tobytes(), np.asarray(reward).tobytes()))
    return out


def test_asking_for_the_state_changes_no_game_in_the_single_or_the_vector_env():
    def first_legal(engine):
        return lambda k: np.array([np.flatnonzero(m)[(k * 7) % m.sum()] for m in engine.masks])

    for ask in (False, True):
        env = DelveEnv(difficulty="hard")
        env.reset(seed=9)
        pick = first_legal(env.unwrapped.engine)
        got = play_asking(env, lambda k, pick=pick: int(pick(k)[0]), 200, ask)
        if not ask:
            alone = got
    assert got == alone
    runs = []
    for ask in (False, True):
        venv = DelveVectorEnv(3, difficulty="hard")
        venv.reset(seed=[5, 9, 2])
        runs.append(play_asking(venv, first_legal(venv.engine), 200, ask))
    assert runs[0] == runs[1]


def test_the_vector_env_s_states_are_each_slot_s_single_env_state():
    venv = DelveVectorEnv(3, difficulty="normal")
    venv.reset(seed=[4, 8, 15])
    states = venv.state()
    assert states.shape == (3, pv.STATE_BYTES) and states.dtype == np.uint8
    for e, seed in enumerate((4, 8, 15)):
        env = DelveEnv(difficulty="normal")
        env.reset(seed=seed)
        assert env.state().tobytes() == states[e].tobytes()
        assert env.state_space.contains(env.state())
    assert venv.single_state_space == env.state_space


def test_the_state_stays_in_its_space_through_games():
    venv = DelveVectorEnv(4, difficulty="hard", max_steps=400)
    venv.reset(seed=1)
    rng = np.random.default_rng(1)
    high = venv.single_state_space.high
    for _ in range(400):
        assert (venv.state() <= high).all()
        m = venv.engine.masks
        venv.step(np.array([rng.choice(np.flatnonzero(row)) for row in m]))


def test_the_docs_carry_the_state_s_table():
    from pathlib import Path

    page = (Path(__file__).resolve().parents[1] / "docs" / "OBSERVATION.md").read_text()
    assert pv.markdown() in page
