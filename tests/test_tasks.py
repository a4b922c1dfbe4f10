"""Sub-tasks: slices of the same game with their own start and end (ENV.md, Entry points)."""

import gymnasium as gym
import numpy as np
import pytest

import delve_env  # noqa: F401  (registers the ids)
from delve_env.engine.actions import A_ATTACK, A_RUN, A_STAIRS
from delve_env.engine.tables import EXPLORE, FIGHT, STAIR_DOWN


def test_explore_starts_on_the_floors_stair_up_and_is_won_down_its_stair():
    env = gym.make("Delve-Explore-v0", floor=3).unwrapped
    env.reset(seed=1)
    s = env.state
    assert s.floor[0] == 3 and s.mode[0] == EXPLORE
    assert (s.x[0], s.y[0]) == tuple(s.stair_up[0, 3])
    s.maps_held[0] |= 1 << 3  # holding the floor's map opens its stair down (MAP-5)
    s.x[0], s.y[0] = s.stair_down[0, 3]
    assert s.tiles[0, 3, s.y[0], s.x[0]] == STAIR_DOWN
    env.engine.refresh(np.ones(1, dtype=bool))
    _, reward, terminated, _, info = env.step(A_STAIRS)
    assert terminated and reward == 1.0 and info["episode_stats"]["won"]


def test_explore_is_lost_by_going_back_up():
    env = gym.make("Delve-Explore-v0", floor=2).unwrapped
    env.reset(seed=2)
    _, reward, terminated, _, info = env.step(A_STAIRS)  # the stair up it stands on
    assert terminated and reward == -1.0 and not info["episode_stats"]["won"]


@pytest.mark.parametrize("seed", range(5))
def test_combat_starts_in_a_fight_with_a_floors_band(seed):
    env = gym.make("Delve-Combat-v0", floor=4).unwrapped
    env.reset(seed=seed)
    s = env.state
    r = s.room_of[0, 4, s.y[0], s.x[0]]
    assert s.floor[0] == 4 and r >= 0 and s.fight_room[0] == r
    assert s.mode[0] == FIGHT or s.outcome[0] != 0  # an ambush can end it at once


def test_combat_is_won_by_beating_the_band_and_lost_by_running():
    env = gym.make("Delve-Combat-v0", floor=1).unwrapped
    env.reset(seed=0)
    s = env.state
    s.foe_hp[0, :] = np.where(s.foe_kind[0] >= 0, 1, 0)
    s.foe_kind[0, 1:] = -1  # one foe with one heart left
    env.engine.refresh(np.ones(1, dtype=bool))
    done = False
    while not done:
        _, reward, terminated, truncated, info = env.step(A_ATTACK)
        done = terminated or truncated
    assert terminated and reward == 1.0 and info["episode_stats"]["won"]
    env.reset(seed=0)
    _, reward, terminated, _, info = env.step(A_RUN)
    assert terminated and reward == -1.0 and not info["episode_stats"]["won"]
