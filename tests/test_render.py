"""Rendering reads the state only: text and pictures of the remembered floor, the party and
the screen of each mode; `delve watch --gif` records the pictures."""

import numpy as np
import pytest

from delve_env import DelveEnv
from delve_env.engine.core.actions import A_CANCEL, A_STAIRS, select_action
from delve_env.engine.core.state import FOUND_CODE
from delve_env.engine.core.tables import (
    BATH,
    CHOICE,
    DOOR,
    MODE_NAMES,
    NUM_EQUIP,
    PLATE,
    ROCK,
    SECRET,
    STATUE,
    STORE,
    WALL,
)
from delve_env.tools import cli
from delve_env.ui.picture import PANEL_BG, TILE, YELLOW, frame_shape, render_rgb, tile_atlas
from delve_env.ui.text import render_floor

FRAME = frame_shape(24, 48)  # the usual floor: (384, 1104, 3)
MAP_W = 48 * TILE  # the map's pixels end here, the panel's start


def frame(scene) -> np.ndarray:
    return render_rgb(scene.s, scene.p, 0)


def tile_px(image: np.ndarray, x: int, y: int) -> np.ndarray:
    return image[y * TILE : (y + 1) * TILE, x * TILE : (x + 1) * TILE]


def set_mode(scene, mode: str) -> None:
    """Put the scene in one of the modes, with its screen's state set by hand (the picture
    only reads it)."""
    s = scene.s
    if mode == "store":  # the courtyard's store
        scene.put(0, int(s.x[0]), int(s.y[0]))
        s.mode[0] = STORE
        return
    scene.stand_in_room(1, 0)
    worker = int(s.order[0, 0])
    if mode == "fight":
        scene.fight([1, 4], hps=[3, 5])
    elif mode == "wall":
        s.mode[0], s.worker[0] = WALL, worker
        s.wall_num_set[0, 1], s.wall_set[0, 1, 0] = 1, 3
        s.wall_history[0, 1] = -1
        s.wall_history[0, 1, 0] = (1, 2, 3, 1)
    elif mode == "plate":
        s.mode[0], s.worker[0] = PLATE, worker
        s.plate_lit[0, 1] = False
        s.plate_lit[0, 1, 0, :2] = True
    elif mode == "statue":
        s.mode[0], s.statue_price[0, 1] = STATUE, 120
    elif mode == "choice":
        s.level[0, worker], s.options[0, worker] = 2, -1
        s.mode[0] = CHOICE
    elif mode == "bath":
        s.mode[0] = BATH


MODES = ("explore", "fight", "wall", "plate", "store", "statue", "choice", "bath")


def test_rgb_array_draws_the_remembered_floor_with_the_party():
    env = DelveEnv(render_mode="rgb_array", depth=2)
    env.reset(seed=0)
    env.step(A_STAIRS)
    s = env.engine.state
    image = env.render()
    assert image.shape == FRAME and image.dtype == np.uint8
    party = tile_px(image, int(s.x[0]), int(s.y[0]))
    assert (party == YELLOW).all(axis=2).sum() > 20  # the '@'
    y, x = np.argwhere(s.fog[0, 1] == 0)[0]
    assert (tile_px(image, x, y) == 0).all()  # fog is black
    assert (image[:, MAP_W + 2 :] == PANEL_BG).all(axis=2).mean() > 0.5  # the panel


@pytest.mark.parametrize("mode", MODES)
def test_every_mode_draws_a_fixed_frame_and_reads_the_state_only(scene, mode):
    """The frame keeps its shape and dtype in every mode (Gymnasium's fixed space), differs
    from the plain exploring one, and drawing it changes no state and draws no RNG."""
    scene.stand_in_room(1, 0)
    plain = frame(scene)
    set_mode(scene, mode)
    before = scene.save()
    image = frame(scene)
    after = scene.save()
    assert image.shape == FRAME and image.dtype == np.uint8
    assert all((before[k] == after[k]).all() for k in before), "rendering changed the state"
    if mode != "explore":
        assert MODE_NAMES[scene.s.mode[0]] == mode
        assert (image[:, MAP_W:] != plain[:, MAP_W:]).any()  # the mode's panel


def test_moving_the_party_changes_the_map(scene):
    x, y = scene.stand_in_room(1, 0)
    first = frame(scene)
    scene.s.x[0] = x + 1
    second = frame(scene)
    changed = (first[:, :MAP_W] != second[:, :MAP_W]).any(axis=2)
    ys, xs = np.nonzero(changed)
    assert changed.any() and set(xs // TILE) <= {x, x + 1} and set(ys // TILE) == {y}


def test_foe_hearts_change_the_panel(scene):
    set_mode(scene, "fight")
    first = frame(scene)
    scene.s.foe_hp[0, 0] -= 1
    second = frame(scene)
    assert (first[:, :MAP_W] == second[:, :MAP_W]).all()  # the map stays as it was
    assert (first[:, MAP_W:] != second[:, MAP_W:]).any()


def test_a_lit_plate_cell_and_a_set_ring_change_the_picture(scene):
    set_mode(scene, "plate")
    first = frame(scene)
    scene.s.plate_lit[0, 1, 2, 2] = True
    assert (frame(scene) != first).any()
    set_mode(scene, "wall")
    first = frame(scene)
    scene.s.wall_num_set[0, 1], scene.s.wall_set[0, 1, 1] = 2, 4
    assert (frame(scene) != first).any()


def test_known_bands_and_loot_show_on_the_map(scene):
    """A band shows in a room entered (or heard at its door, LISTEN-1) whose band remains;
    gold shows in an entered room; an unknown room shows nothing."""
    s, f = scene.s, 1
    scene.put(f, *scene.hall_tile(f, junction=False))
    r = int(np.flatnonzero(s.band_kind[0, f, : s.num_rooms[0, f], 0] >= 0)[0])
    x0, y0, x1, y1 = (int(v) for v in s.room_rect[0, f, r])
    s.fog[0, f, y0 : y1 + 1, x0 : x1 + 1] = 1  # seen, but not entered
    s.room_gold[0, f, r] = 9
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    plain = frame(scene)
    s.room_heard[0, f, r] = True
    heard = frame(scene)
    assert (tile_px(heard, cx, cy) != tile_px(plain, cx, cy)).any()
    s.room_entered[0, f, r] = True
    entered = frame(scene)
    assert (tile_px(entered, x0, y0) != tile_px(heard, x0, y0)).any()  # the gold
    scene.clear_band(f, r)
    assert (tile_px(frame(scene), cx, cy) != tile_px(entered, cx, cy)).any()


def test_a_found_secret_door_is_drawn_apart_from_a_door(scene):
    """SECRET-2: in the picture and the text a found secret door has its own tile and glyph;
    an unfound one is drawn as the rock around it."""
    scene.stand_in_room(1, 0)
    s = scene.s
    (x, y), _, _ = scene.door_of(1, 0)
    s.fog[0, 1, y, x] = 1 + DOOR  # seen as a plain door
    door = tile_px(frame(scene), x, y).copy()
    assert render_floor(s, 0)[y][x] == "+"
    s.fog[0, 1, y, x] = FOUND_CODE
    found = tile_px(frame(scene), x, y)
    assert (found != door).any()
    assert render_floor(s, 0)[y][x] == "="
    s.fog[0, 1, y, x] = 1 + ROCK
    s.tiles[0, 1, y, x] = SECRET
    hidden = tile_px(frame(scene), x, y)
    assert render_floor(s, 0)[y][x] == "#"
    assert (hidden == tile_atlas()[1 + ROCK]).all()


def test_the_courtyard_is_a_scene_and_a_store_lists_its_lines(scene):
    s = scene.s
    scene.put(0, 0, 0)
    court = frame(scene)
    assert (court[:, :MAP_W] != 0).all(axis=2).mean() > 0.9  # no fog: a drawn scene
    s.mode[0] = STORE
    store = frame(scene)
    s.gold[0] = 0  # nothing affordable: the lines dim
    assert (frame(scene)[:, MAP_W:] != store[:, MAP_W:]).any()


def test_watch_gif_records_the_episode(tmp_path, capsys):
    pil = pytest.importorskip("PIL.Image")
    out = tmp_path / "watch.gif"
    args = ["watch", "--gif", str(out), "--steps", "6", "--agent", "random", "--seed", "1"]
    assert cli.main(args + ["--depth", "2", "--fps", "5"]) == 0
    assert "wrote 7 frames" in capsys.readouterr().out
    with pil.open(out) as gif:
        assert gif.n_frames >= 3
        assert gif.size == (FRAME[1], FRAME[0])
        assert gif.info["duration"] == 200


def test_watch_gif_needs_a_positive_fps(tmp_path):
    with pytest.raises(SystemExit):
        cli.main(["watch", "--gif", str(tmp_path / "x.gif"), "--fps", "0"])


def test_rendering_never_changes_the_game():
    quiet, drawn = DelveEnv(depth=2), DelveEnv(depth=2, render_mode="ansi")
    quiet.reset(seed=4)
    drawn.reset(seed=4)
    for _ in range(5):
        drawn.render()
        a = int(np.flatnonzero(quiet.action_masks())[0])
        o1, *_ = quiet.step(a)
        o2, *_ = drawn.step(a)
        assert all((o1[k] == o2[k]).all() for k in o1)
    assert quiet.engine.state.rng[0] == drawn.engine.state.rng[0]


def test_text_shows_the_item_selected_for_the_next_action():
    """PARTY-4: while an item is selected the text view names it and what can follow."""
    env = DelveEnv(depth=2, render_mode="ansi")
    env.reset(seed=0)
    assert "selected:" not in env.render()
    env.step(select_action(1, NUM_EQUIP))  # the rogue's short bow
    assert "selected: rogue's pack slot 1 (short bow)" in env.render()
    env.step(A_CANCEL)
    assert "selected:" not in env.render()


def test_the_picture_names_find_familiars_varmint():
    """An ally of kind NUM_MONSTERS (find familiar) is drawn as 'familiar', not an error."""
    from delve_env.engine.core.tables import FIGHT
    from delve_env.engine.rules.fights import FAMILIAR

    env = DelveEnv(depth=2, render_mode="rgb_array")
    env.reset(seed=0)
    s = env.engine.state
    s.mode[0], s.ally_kind[0], s.ally_hp[0] = FIGHT, FAMILIAR, 3
    s.foe_kind[0, 0], s.foe_hp[0, 0], s.foe_max[0, 0] = 0, 2, 2
    assert env.render().shape[2] == 3
