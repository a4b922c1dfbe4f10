"""Sub-tasks for curricula: small hooks that set up and end a slice of the same game.

Delve-Vault-v0 (one lock), Delve-Explore-v0 (one floor: find the map and the stair down) and
Delve-Combat-v0 (one fight against a floor's band). The rules are the game's own.
"""

import numpy as np

from ..compiled.jit import njit
from ..core.params import (
    P_REWARD_SHAPED,
    P_TASK,
    P_TASK_FLOOR,
    P_TASK_LOCK,
    TASK_COMBAT,
    TASK_EXPLORE,
    TASK_GAME,
    TASK_VAULT,
)
from ..core.rng import randint
from ..core.tables import EV_LOST, EV_WON, EXPLORE, WALL_HISTORY, WALL_LOCK, WALL_RINGS
from ..outputs.rewards import game_potential
from .fights import start_fight
from .monsters import roll_band
from .moving import arrive
from .party import num_standing
from .vaults import best_guess, num_symbols, place_vault, plate_size, start_work

TASK_GOLD_PER_FLOOR = 100  # the vault task's purse: two hints' worth

# Shaped sub-task rewards (reward_mode="shaped" only): each sub-task's progress is a potential
# whose change each step is added to the reward, so the best policy stays the same (Ng et al.
# 1999). Explore: tiles seen, the floor's map held (it opens the stair down, MAP-5), and once
# the stair down is seen, paces closer to it (the tiles are kept small beside the win: at 0.002
# they paid as much as the stair, docs/LEARNING.md).
# Wall: rings right in the best of the guesses shown, and what the guesses shown tell (the
# share of log(combinations) they rule out: a repeated or uninformative guess pays nothing).
# Plate: cells of the plate's making still
# to push (taken back: one more), and the lit cells (a local signal: pushing where lights
# go out is learned long before which cells undo the plate). Both locks: the worker's HP, so a
# wound costs at once.
# Combat needs none.
EXPLORE_TILE_REWARD = 0.0005
MAP_HELD_REWARD = 0.3
STAIR_SEEN_REWARD = 0.2
STAIR_PACE_REWARD = 0.004  # per pace (rows + columns) nearer the seen stair down, up to 50
WORKER_HP_REWARD = 0.02
WALL_RING_REWARD = 0.1
WALL_INFO_REWARD = 0.5
PLATE_CELL_REWARD = 0.1
PLATE_LIT_REWARD = 0.05


@njit(cache=True)
def setup_task(s, p, e, g):
    """Put a freshly generated run at the start of its sub-task (generation RNG g)."""
    f = int(p[P_TASK_FLOOR])
    task = p[P_TASK]
    if task == TASK_EXPLORE:  # on the floor's stair up, as if just come down
        arrive(s, e, f, s.stair_up[e, f, 0], s.stair_up[e, f, 1])
        return
    r = randint(g, 0, s.num_rooms[e, f])
    if task == TASK_VAULT:  # a cleared vault room, its first member at the lock
        place_vault(s, p, e, f, r, int(p[P_TASK_LOCK]), g)
        s.band_kind[e, f, r, :] = -1
        s.gold[e] = TASK_GOLD_PER_FLOOR * f
        arrive(s, e, f, s.room_rect[e, f, r, 0], s.room_rect[e, f, r, 1])
        start_work(s, e, s.order[e, 0])
    elif task == TASK_COMBAT:  # just through the door of a guarded room
        if s.band_kind[e, f, r, 0] < 0:
            roll_band(p, f, 0, g, 0, s.band_kind[e, f, r], s.band_hp[e, f, r])
        arrive(s, e, f, s.room_rect[e, f, r, 0], s.room_rect[e, f, r, 1])
        s.room_entered[e, f, r] = True
        s.ways_known[e] = 0  # (after arrive's: no goal in this room any more)
        start_fight(s, p, e, r, s.rng)


@njit(cache=True)
def cells_to_push(s, e, f):
    """Plate cells whose pushed state differs from the pushes that made the plate."""
    n = plate_size(f)
    left = 0
    for r in range(n):
        for c in range(n):
            left += s.plate_key[e, f, r, c] != s.plate_pushed[e, f, r, c]
    return left


@njit(cache=True)
def wall_candidates(s, e, f):
    """Combinations of floor f's wall that agree with every guess shown and its answer (the
    right one always does)."""
    n = num_symbols(f)
    count = 0
    for code in range(n**WALL_RINGS):
        agrees = True
        for h in range(WALL_HISTORY):
            if s.wall_history[e, f, h, 0] < 0:
                continue
            right, rest = 0, code
            for ring in range(WALL_RINGS):
                right += rest % n == s.wall_history[e, f, h, ring]
                rest //= n
            if right != s.wall_history[e, f, h, WALL_RINGS]:
                agrees = False
                break
        count += agrees
    return count


@njit(cache=True)
def task_potential(s, p, e):
    """The shaped reward's potential of the game's or a sub-task's progress (0 for combat and
    for sparse rewards)."""
    task = p[P_TASK]
    if p[P_REWARD_SHAPED] == 0 or task == TASK_COMBAT:
        return 0.0
    if task == TASK_GAME:
        return game_potential(s, e)
    f = int(p[P_TASK_FLOOR])
    if task == TASK_EXPLORE:
        held = MAP_HELD_REWARD * ((s.maps_held[e] >> f) & 1)
        return EXPLORE_TILE_REWARD * s.stat_tiles[e] + held + stair_potential(s, e, f)
    health = WORKER_HP_REWARD * s.hp[e, s.worker[e]]
    if s.vault_open[e, f]:
        done = 0.0
        if s.vault_lock[e, f] == WALL_LOCK:
            done = WALL_RING_REWARD * WALL_RINGS + WALL_INFO_REWARD
        return done + health
    if s.vault_lock[e, f] == WALL_LOCK:
        h = best_guess(s, e, f)
        right = 0 if h < 0 else int(s.wall_history[e, f, h, WALL_RINGS])
        n = num_symbols(f)
        told = 1.0 - np.log(wall_candidates(s, e, f)) / np.log(n**WALL_RINGS)
        return WALL_RING_REWARD * right + WALL_INFO_REWARD * told + health
    lit = PLATE_LIT_REWARD * np.count_nonzero(s.plate_lit[e, f])
    return -PLATE_CELL_REWARD * cells_to_push(s, e, f) - lit + health


@njit(cache=True)
def stair_potential(s, e, f):
    """Explore: a bonus once floor f's stair down has been seen, more the nearer the party."""
    if s.floor[e] != f:  # gone down (the win) or up: the floor's potential is spent
        return STAIR_SEEN_REWARD + STAIR_PACE_REWARD * 50 if s.floor[e] > f else 0.0
    x, y = s.stair_down[e, f, 0], s.stair_down[e, f, 1]
    if s.fog[e, f, y, x] == 0:
        return 0.0
    paces = min(50, abs(int(s.x[e]) - int(x)) + abs(int(s.y[e]) - int(y)))
    return STAIR_SEEN_REWARD + STAIR_PACE_REWARD * (50 - paces)


@njit(cache=True)
def end(s, e, outcome):
    s.outcome[e] = outcome
    s.events[e] |= EV_WON if outcome == 1 else EV_LOST


@njit(cache=True)
def update_task(s, p, e):
    """A sub-task is won when its goal is reached and lost when it no longer can be: the
    vault opens / its worker falls; the party goes down the floor's stair / everyone falls;
    the band is beaten / the party falls or runs."""
    f = int(p[P_TASK_FLOOR])
    task = p[P_TASK]
    anyone = num_standing(s, e) > 0
    if task == TASK_VAULT:
        if s.vault_open[e, f]:
            end(s, e, 1)
        elif s.mode[e] == EXPLORE:
            end(s, e, 2)
    elif task == TASK_EXPLORE:
        if s.floor[e] > f:
            end(s, e, 1)
        elif not anyone or s.floor[e] < f:
            end(s, e, 2)
    elif task == TASK_COMBAT and s.mode[e] == EXPLORE:
        r = s.room_of[e, f, s.y[e], s.x[e]]
        end(s, e, 1 if anyone and r >= 0 and s.band_kind[e, f, r, 0] < 0 else 2)
    elif not anyone:
        end(s, e, 2)
