"""RUN-AWAY-1 for wandering bands: a band the party fled from in a hall stays on the tile of
the fight, wounds and all (`linger_*`, one a floor), shows on the map there, and fights again
when the party walks onto that tile."""

from __future__ import annotations

import numpy as np

from delve_env.engine.core.actions import A_RUN, A_WAIT
from delve_env.engine.core.tables import EXPLORE, FIGHT, MONSTER_NAMES
from delve_env.engine.generation.floors import DX, DY, is_walkable
from delve_env.engine.outputs.layout import BAND_HERE, CROP

GOBLIN = MONSTER_NAMES.index("goblin")
RAT = MONSTER_NAMES.index("giant rat")


def flee_in_hall(scene, kinds, hps):
    """A wandering band fought on a plain hall tile of floor 1, then the party runs; returns
    the tile of the fight."""
    s = scene.s
    scene.calm()
    scene.tough()
    x, y = scene.hall_tile(1, junction=False)
    scene.put(1, x, y)
    scene.fight(kinds, hps=hps)
    scene.act(A_RUN)
    assert s.mode[0] == EXPLORE
    return x, y


def neighbour(scene, x, y):
    """A walkable tile next to (x, y) and the move from it onto (x, y)."""
    t = scene.tiles(1)
    for d in range(4):
        nx, ny = x + DX[d], y + DY[d]
        if is_walkable(t[ny, nx]):
            return (int(nx), int(ny)), scene.direction(x - nx, y - ny)
    raise AssertionError("no neighbour")


def test_run_away_1_a_wandering_band_stays_on_its_tile_wounds_and_all(scene):
    s = scene.s
    x, y = flee_in_hall(scene, [GOBLIN, RAT, GOBLIN], [2, 0, 4])  # the rat was killed
    assert list(s.linger_kind[0, 1, :3]) == [GOBLIN, GOBLIN, -1]
    assert list(s.linger_hp[0, 1, :3]) == [2, 4, 0]
    assert tuple(s.linger_xy[0, 1]) == (x, y)
    assert (s.foe_kind[0] == -1).all()


def test_run_away_1_walking_onto_its_tile_fights_the_wounded_band_again(scene):
    s = scene.s
    x, y = flee_in_hall(scene, [GOBLIN, GOBLIN], [2, 4])
    (nx, ny), d = neighbour(scene, x, y)
    scene.put(1, nx, ny)
    scene.act(A_WAIT)  # next to it: nothing happens
    assert s.mode[0] == EXPLORE
    scene.act(d)
    assert s.mode[0] == FIGHT and s.fight_room[0] == -1
    assert list(s.foe_kind[0, :3]) == [GOBLIN, GOBLIN, -1]
    assert s.foe_hp[0, 0] <= 2 and s.foe_hp[0, 1] <= 4  # (an ambush may bring counter-blows)
    assert (s.linger_kind[0, 1] == -1).all() and (s.linger_hp[0, 1] == 0).all()


def test_run_away_1_the_band_shows_on_the_map_where_it_stays(scene):
    s = scene.s
    x, y = flee_in_hall(scene, [GOBLIN], [3])
    (nx, ny), _ = neighbour(scene, x, y)
    scene.put(1, nx, ny)
    crop = scene.obs()["map"][0]
    half = CROP // 2
    assert crop[y - ny + half, x - nx + half] == BAND_HERE
    s.linger_kind[0, 1] = -1  # gone: the tile shows as the hall again
    s.linger_hp[0, 1] = 0
    assert scene.obs()["map"][0][y - ny + half, x - nx + half] != BAND_HERE


def test_run_away_1_fleeing_the_rejoined_band_leaves_it_again(scene):
    s = scene.s
    x, y = flee_in_hall(scene, [GOBLIN], [3])
    (nx, ny), d = neighbour(scene, x, y)
    scene.put(1, nx, ny)
    scene.act(d)
    if s.mode[0] == FIGHT:  # (unless counter-blows in an ambush finished it)
        hp = int(s.foe_hp[0, 0])
        scene.act(A_RUN)
        assert s.linger_kind[0, 1, 0] == GOBLIN and s.linger_hp[0, 1, 0] == hp
        assert tuple(s.linger_xy[0, 1]) == (x, y)
    assert np.all(s.linger_kind[0, 2] == -1)  # other floors keep none
