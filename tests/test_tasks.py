"""Sub-tasks: slices of the same game with their own start and end (ENV.md, Entry points)."""

import itertools
import math

import gymnasium as gym
import numpy as np
import pytest

import delve_env  # noqa: F401  (registers the ids)
from delve_env import DelveEnv
from delve_env.engine.core.actions import (
    A_ATTACK,
    A_LOOT,
    A_MOVE,
    A_PUSH,
    A_RING,
    A_RUN,
    A_SELECT,
    A_STAIRS,
    A_SWAP,
    A_WORK,
)
from delve_env.engine.core.params import P_HALL_WANDER, P_JUNCTION_WANDER
from delve_env.engine.core.tables import EXPLORE, FIGHT, STAIR_DOWN, STAIR_UP
from delve_env.engine.outputs.layout import PUZZLE_BEST
from delve_env.engine.outputs.rewards import EVENT_WEIGHTS, FREE_ACTION_REWARD
from delve_env.engine.rules.tasks import (
    EXPLORE_TILE_REWARD,
    MAP_HELD_REWARD,
    PLATE_CELL_REWARD,
    PLATE_LIT_REWARD,
    STAIR_PACE_REWARD,
    STAIR_SEEN_REWARD,
    WALL_INFO_REWARD,
    WALL_RING_REWARD,
    WORKER_HP_REWARD,
)


def test_explore_starts_on_the_floors_stair_up_and_is_won_down_its_stair():
    env = gym.make("Delve-Explore-v0", floor=3).unwrapped
    env.reset(seed=1)
    s = env.engine.state
    assert s.floor[0] == 3 and s.mode[0] == EXPLORE
    assert (s.x[0], s.y[0]) == tuple(s.stair_up[0, 3])
    s.maps_held[0] |= 1 << 3  # holding the floor's map opens its stair down (MAP-5)
    s.x[0], s.y[0] = s.stair_down[0, 3]
    assert s.tiles[0, 3, s.y[0], s.x[0]] == STAIR_DOWN
    env.engine.refresh(np.ones(1, dtype=bool))
    _, reward, terminated, _, info = env.step(A_STAIRS)
    assert terminated and reward == 1.0 and info["episode_stats"]["won"]


def test_explore_closes_its_stair_up_and_freezes_order_and_packs():
    """The explore sub-task trains the way down: no stair up, no swaps, gives or wearing
    (docs/RULES.md); the whole game offers them on the same spot."""
    env = gym.make("Delve-Explore-v0", floor=2).unwrapped
    _, info = env.reset(seed=2)
    s = env.engine.state
    assert s.tiles[0, 2, s.y[0], s.x[0]] == STAIR_UP
    mask = info["action_mask"]
    assert not mask[A_STAIRS]
    assert not mask[A_SWAP : A_SWAP + 4].any() and not mask[A_SELECT:A_WORK].any()
    game = DelveEnv(depth=3)
    game.reset(seed=2)
    g = game.engine.state
    g.floor[0], g.x[0], g.y[0] = 2, *g.stair_up[0, 2]
    g.floor_visited[0, 2] = True
    game.engine.refresh(np.ones(1, dtype=bool))
    mask = game.action_masks()
    assert mask[A_STAIRS] and mask[A_SWAP] and mask[A_SELECT:A_WORK].any()


def shaped(env_id: str, **config):
    env = gym.make(env_id, reward_mode="shaped", **config).unwrapped
    sparse = gym.make(env_id, **config).unwrapped
    return env, sparse


def test_explore_shaping_pays_for_every_tile_seen_and_sparse_pays_nothing():
    env, sparse = shaped("Delve-Explore-v0", floor=1)
    for e in (env, sparse):
        e.reset(seed=4)
        e.engine.params[P_HALL_WANDER] = e.engine.params[P_JUNCTION_WANDER] = 0.0
    move = int(np.flatnonzero(env.action_masks()[A_MOVE : A_MOVE + 4])[0])
    before = int(env.engine.state.stat_tiles[0])
    _, reward, *_ = env.step(move)
    new = int(env.engine.state.stat_tiles[0]) - before
    assert new > 0 and reward == pytest.approx(EXPLORE_TILE_REWARD * new, abs=1e-6)
    _, reward, *_ = sparse.step(move)
    assert reward == 0.0


def test_explore_shaping_pays_for_the_floors_map():
    """Looting the floor's map (it opens the stair down, MAP-5) pays MAP_HELD_REWARD beside the
    tiles and the stair it shows and the game's own shaped terms."""
    env, _ = shaped("Delve-Explore-v0", floor=1)
    env.reset(seed=4)
    s = env.engine.state
    r = int(np.flatnonzero(s.room_map[0, 1])[0])
    s.band_kind[0, 1, r, :] = -1
    s.room_chest[0, 1, r] = 0  # no chest keeps the map shut (CHEST-1)
    s.x[0], s.y[0] = s.room_rect[0, 1, r, 0], s.room_rect[0, 1, r, 1]
    s.room_entered[0, 1, r] = True
    env.engine.refresh(np.ones(1, dtype=bool))
    sx, sy = (int(v) for v in s.stair_down[0, 1])

    def stair():
        if s.fog[0, 1, sy, sx] == 0:
            return 0.0
        paces = min(50, abs(int(s.x[0]) - sx) + abs(int(s.y[0]) - sy))
        return STAIR_SEEN_REWARD + STAIR_PACE_REWARD * (50 - paces)

    tiles, before = int(s.stat_tiles[0]), stair()
    _, reward, *_ = env.step(A_LOOT)
    assert s.maps_held[0] >> 1 & 1
    events = sum(w for i, w in enumerate(EVENT_WEIGHTS) if s.events[0] >> i & 1)
    tiles = EXPLORE_TILE_REWARD * (int(s.stat_tiles[0]) - tiles)
    free = FREE_ACTION_REWARD  # looting passes no pace
    expected = MAP_HELD_REWARD + tiles + stair() - before + events + free
    assert reward == pytest.approx(expected, abs=1e-6)


def test_explore_shaping_pays_for_seeing_the_stair_down_then_for_each_pace_nearer():
    env, _ = shaped("Delve-Explore-v0", floor=1, max_steps=100_000)
    env.reset(seed=4)
    env.engine.params[P_HALL_WANDER] = env.engine.params[P_JUNCTION_WANDER] = 0.0
    s = env.engine.state
    sx, sy = (int(v) for v in s.stair_down[0, 1])
    assert s.fog[0, 1, sy, sx] == 0
    moves = [m for m in range(4) if env.action_masks()[A_MOVE + m]]

    def step(action):  # the reward less what newly seen tiles pay
        tiles = int(s.stat_tiles[0])
        _, reward, *_ = env.step(action)
        return reward - EXPLORE_TILE_REWARD * (int(s.stat_tiles[0]) - tiles)

    start = env.save_state()
    assert step(A_MOVE + moves[0]) == pytest.approx(0.0, abs=1e-6)  # no stair in sight
    env.load_state(start)
    s.fog[0, 1, sy, sx] = 1 + STAIR_DOWN  # as if just seen from afar
    dist = abs(int(s.x[0]) - sx) + abs(int(s.y[0]) - sy)
    assert dist <= 50
    snap = env.save_state()
    for m in moves:  # one step each way: nearer pays a pace, farther charges one
        env.load_state(snap)
        reward = step(A_MOVE + m)
        new = abs(int(s.x[0]) - sx) + abs(int(s.y[0]) - sy)
        assert reward == pytest.approx(STAIR_PACE_REWARD * (dist - new), abs=1e-6)
    # walking until the stair comes into view: that step pays its sight and the paces left
    env.load_state(start)
    s.hp[0, :4] = s.ceiling[0, :4] = 1000  # fights on the way must not end the walk
    rng = np.random.default_rng(0)
    while s.fog[0, 1, sy, sx] == 0:  # no looting: a map has rewards of its own
        mask = env.action_masks()
        mask[A_LOOT] = False
        reward = step(int(rng.choice(np.flatnonzero(mask))))
        assert s.outcome[0] == 0
    paces = min(50, abs(int(s.x[0]) - sx) + abs(int(s.y[0]) - sy))
    assert reward == pytest.approx(STAIR_SEEN_REWARD + STAIR_PACE_REWARD * (50 - paces), abs=1e-6)


def push(env, cell):
    """Push a plate cell; the reward less what the lights that went out (or on) paid."""
    s = env.engine.state
    lit = int(s.plate_lit[0, 1].sum())
    _, reward, terminated, *_ = env.step(A_PUSH + int(cell))
    return reward - PLATE_LIT_REWARD * (lit - int(s.plate_lit[0, 1].sum())), terminated


def test_lock_shaping_charges_the_workers_wounds():
    """A take-back on the plate undoes its wrong push (+0.1) but costs the wound (PLATE-1)."""
    env, _ = shaped("Delve-Vault-v0", lock="plate", floor=1)
    env.reset(seed=5)
    s = env.engine.state
    s.hp[0, :] = s.ceiling[0, :] = 100
    other = np.flatnonzero(~s.plate_key[0, 1, :3, :3].ravel())
    push(env, other[0])
    before = int(s.hp[0, s.worker[0]])
    reward, terminated = push(env, other[0])
    lost = before - int(s.hp[0, s.worker[0]])
    assert lost >= 1 and not terminated
    assert reward == pytest.approx(PLATE_CELL_REWARD - WORKER_HP_REWARD * lost)


def test_plate_shaping_pays_each_push_of_the_solution_and_charges_each_other():
    env, _ = shaped("Delve-Vault-v0", lock="plate", floor=1)
    env.reset(seed=5)
    s = env.engine.state
    key = np.flatnonzero(s.plate_key[0, 1, :3, :3].ravel())
    other = np.flatnonzero(~s.plate_key[0, 1, :3, :3].ravel())
    if len(other):
        reward, terminated = push(env, other[0])
        assert not terminated and reward == pytest.approx(-PLATE_CELL_REWARD)
        hp = int(s.hp[0, s.worker[0]])
        reward, terminated = push(env, other[0])  # taken back: wounded
        lost = hp - int(s.hp[0, s.worker[0]])
        assert reward == pytest.approx(PLATE_CELL_REWARD - WORKER_HP_REWARD * lost) or terminated
        env.reset(seed=5)
    for i, cell in enumerate(key):
        reward, terminated = push(env, cell)
        win = 1.0 if i == len(key) - 1 else 0.0
        assert reward == pytest.approx(PLATE_CELL_REWARD + win)
    assert terminated


def test_plate_shaping_pays_for_each_light_put_out():
    """Pushing a corner that puts out three lights pays 3 x PLATE_LIT_REWARD beside the cell's
    own +-0.1 (the plate set by hand: key = the corner alone)."""
    env, _ = shaped("Delve-Vault-v0", lock="plate", floor=1)
    env.reset(seed=5)
    s = env.engine.state
    s.plate_key[0, 1] = False
    s.plate_key[0, 1, 0, 0] = True
    s.plate_lit[0, 1] = False
    s.plate_lit[0, 1, 0, :2] = s.plate_lit[0, 1, 1, 0] = True  # what pushing (0, 0) lights
    s.plate_lit[0, 1, 2, 2] = True  # and one more, so the plate stays shut
    env.engine.refresh(np.ones(1, dtype=bool))
    _, reward, terminated, *_ = env.step(A_PUSH + 0)
    assert not terminated and s.plate_lit[0, 1].sum() == 1
    assert reward == pytest.approx(PLATE_CELL_REWARD + 3 * PLATE_LIT_REWARD)


def told(history, n=5):
    """What the guesses shown tell: the share of log(combinations) they rule out (counted
    here by brute force, apart from the engine's count)."""
    agree = sum(
        all(sum(a == b for a, b in zip(code, g)) == right for g, right in history)
        for code in itertools.product(range(n), repeat=3)
    )
    return 1 - math.log(agree) / math.log(n**3)


def test_wall_shaping_pays_once_for_each_ring_of_a_better_guess_and_for_what_guesses_tell():
    env, _ = shaped("Delve-Vault-v0", lock="wall", floor=1)
    env.reset(seed=6)
    s = env.engine.state
    s.hp[0, :] = s.ceiling[0, :] = 1000  # wrong guesses wound: keep the worker standing
    combo = [int(v) for v in s.wall_combo[0, 1]]
    wrong = [(c + 1) % 5 for c in combo]
    set_rings = int(s.wall_num_set[0, 1])  # a Rogue worker finds the first ring set
    history = []

    def guess(rings):  # the shaped reward less the worker's wounds and what the guess told
        before = told(history)
        total = 0.0
        for ring in rings[set_rings:]:
            hp = int(s.hp[0, s.worker[0]])
            _, reward, terminated, *_ = env.step(A_RING + ring)
            total += reward + WORKER_HP_REWARD * (hp - int(s.hp[0, s.worker[0]]))
        history.append((rings, sum(a == b for a, b in zip(rings, combo))))
        info = (1.0 if terminated else told(history)) - before
        assert info >= 0
        return total - WALL_INFO_REWARD * info, terminated

    assert guess([combo[0], wrong[1], wrong[2]])[0] == pytest.approx(0.1, abs=1e-6)
    assert guess([wrong[0], combo[1], wrong[2]])[0] == pytest.approx(0.0, abs=1e-6)  # not better
    assert guess([combo[0], combo[1], wrong[2]])[0] == pytest.approx(0.1, abs=1e-6)
    total, terminated = guess(combo)
    assert terminated and total == pytest.approx(1.0 + WALL_RING_REWARD, abs=1e-6)


def test_wall_shaping_pays_nothing_for_a_guess_that_tells_nothing_new():
    """Repeating a guess rules nothing out: it pays no information (only its wound)."""
    env, _ = shaped("Delve-Vault-v0", lock="wall", floor=1)
    env.reset(seed=6)
    s = env.engine.state
    s.hp[0, :] = s.ceiling[0, :] = 1000
    s.cls[0, s.worker[0]] = 0  # a Hero: no ring preset
    s.wall_num_set[0, 1] = 0
    combo = [int(v) for v in s.wall_combo[0, 1]]
    wrong = [(c + 1) % 5 for c in combo]
    rewards = []
    for _ in range(2):
        total = 0.0
        for ring in wrong:
            hp = int(s.hp[0, s.worker[0]])
            _, reward, *_ = env.step(A_RING + ring)
            total += reward + WORKER_HP_REWARD * (hp - int(s.hp[0, s.worker[0]]))
        rewards.append(total)
    # 64 of 125 left
    assert rewards[0] == pytest.approx(WALL_INFO_REWARD * told([(wrong, 0)]), abs=1e-6)
    assert rewards[1] == pytest.approx(0.0, abs=1e-6)


@pytest.mark.parametrize("seed", range(5))
def test_combat_starts_in_a_fight_with_a_floors_band(seed):
    env = gym.make("Delve-Combat-v0", floor=4).unwrapped
    env.reset(seed=seed)
    s = env.engine.state
    r = s.room_of[0, 4, s.y[0], s.x[0]]
    assert s.floor[0] == 4 and r >= 0 and s.fight_room[0] == r
    assert s.mode[0] == FIGHT or s.outcome[0] != 0  # an ambush can end it at once


def test_combat_is_won_by_beating_the_band_and_lost_by_running():
    env = gym.make("Delve-Combat-v0", floor=1).unwrapped
    env.reset(seed=0)
    s = env.engine.state
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


def test_explore_needs_a_floor_below_its_own():
    """The explore task's floor has a stair down, so its floor is at most 11 (depth 12)."""
    with pytest.raises(ValueError, match=r"floor must be an integer in 1\.\.11"):
        gym.make("Delve-Explore-v0", floor=12)
    env = gym.make("Delve-Explore-v0", floor=11).unwrapped
    env.reset(seed=0)
    assert env.engine.state.tiles.shape[1] - 1 == 12


def test_the_wall_shows_its_best_guess():
    """The puzzle's best guess is the shown guess with the most rings right, the latest of
    equals (docs/OBSERVATION.md), so a policy can build on it without searching the history."""
    env = gym.make("Delve-Vault-v0", lock="wall", floor=1).unwrapped
    env.reset(seed=6)
    s = env.engine.state
    s.hp[0, :] = s.ceiling[0, :] = 1000
    combo = [int(v) for v in s.wall_combo[0, 1]]
    wrong = [(c + 1) % 5 for c in combo]
    s.wall_num_set[0, 1] = 0
    s.wall_set[0, 1] = 0
    s.cls[0, s.worker[0]] = 0  # not a Rogue: no ring is set for the worker
    env.engine.refresh(np.ones(1, dtype=bool))
    best = PUZZLE_BEST
    for rings, shown in (
        ([wrong[0], combo[1], wrong[2]], [wrong[0], combo[1], wrong[2], 1]),
        ([wrong[0], wrong[1], wrong[2]], [wrong[0], combo[1], wrong[2], 1]),  # worse: kept
        ([combo[0], wrong[1], wrong[2]], [combo[0], wrong[1], wrong[2], 1]),  # equal: latest
        ([combo[0], combo[1], wrong[2]], [combo[0], combo[1], wrong[2], 2]),
    ):
        for ring in rings:
            obs, *_ = env.step(A_RING + ring)
        assert list(obs["puzzle"][best : best + 4]) == [v + 1 for v in shown]
