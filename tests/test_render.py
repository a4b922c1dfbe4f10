"""Rendering reads the state only: text and pictures of the remembered floor."""

import numpy as np

from delve_env import DelveEnv
from delve_env.engine.actions import A_CANCEL, A_STAIRS, select_action
from delve_env.engine.tables import NUM_EQUIP
from delve_env.render import PARTY_COLOUR, TILE_PX


def test_rgb_array_draws_the_remembered_floor_with_the_party():
    env = DelveEnv(render_mode="rgb_array", depth=2)
    env.reset(seed=0)
    env.step(A_STAIRS)
    s = env.state
    image = env.render()
    assert image.shape == (24 * TILE_PX, 48 * TILE_PX, 3) and image.dtype == np.uint8
    y, x = int(s.y[0]) * TILE_PX, int(s.x[0]) * TILE_PX
    assert (image[y, x] == PARTY_COLOUR).all()
    unseen = np.argwhere(s.fog[0, 1] == 0)[0] * TILE_PX
    assert (image[unseen[0], unseen[1]] == 0).all()  # fog is black


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
    assert quiet.state.rng[0] == drawn.state.rng[0]


def test_text_shows_the_item_selected_for_the_next_action():
    """PARTY-4: while an item is selected the text view names it and what can follow."""
    env = DelveEnv(depth=2, render_mode="ansi")
    env.reset(seed=0)
    assert "selected:" not in env.render()
    env.step(select_action(1, NUM_EQUIP))  # the rogue's short bow
    assert "selected: rogue's pack slot 1 (short bow)" in env.render()
    env.step(A_CANCEL)
    assert "selected:" not in env.render()
