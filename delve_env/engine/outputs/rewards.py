"""Rewards: the sparse outcome, plus small documented terms in shaped mode (ENV.md)."""

import numpy as np

from ..compiled.jit import njit
from ..core.params import P_REWARD_SHAPED
from ..core.tables import EVENT_NAMES, NUM_EVENTS

WIN_REWARD = 1.0
BOOK_BONUS = 0.5  # RUN-3: bringing the book home too is the better win
LOSS_REWARD = -1.0

# Shaped terms, one weight per event bit (tables.EVENT_NAMES); events not named are 0.
SHAPED_WEIGHTS = {
    "new room": 0.02,
    "new floor": 0.1,
    "kill": 0.02,
    "level up": 0.05,
    "death": -0.2,
    "map": 0.05,
    "page": 0.02,
}
EVENT_WEIGHTS = np.array([SHAPED_WEIGHTS.get(n, 0.0) for n in EVENT_NAMES], dtype=np.float64)
assert len(EVENT_WEIGHTS) == NUM_EVENTS


# Shaped mode charges each time-free action off the locks (step.count_free: in a fight, one
# that passes no turn), as NLE charges a step that passes no game time: party management stays
# free to do, not to loop.
FREE_ACTION_REWARD = -0.002

# The whole game's progress, shaped mode only: a potential whose change each step is added to
# the reward, so the best policy stays the same (Ng et al. 1999; tasks.task_potential). Going
# down: tiles seen; the deepest floor reached with its stair down opened (its map or a deeper
# one held, MAP-5), wherever the party is; on that floor, its stair down seen and each pace
# nearer it (rows + columns, up to 50); each floor left behind counts as its map and its stair
# reached; on a floor above the deepest, each floor back up costs and each pace nearer the
# stair down pays. The book held; the king in the party; then each floor climbed with him and
# each pace nearer the stair up. Taking a stair the way the quest goes never lowers the
# potential. Rations eaten: a meal costs what it eats, so paces walked to no purpose cost
# (FOOD-1). Rations held, up to 30: a party deep down with none starves and cannot heal
# (FOOD-2, FOOD-3); counted without a bound, a policy learned to hoard them, for the potential
# is kept at the end and paid them as a reward (docs/LEARNING.md).
GAME_TILE_REWARD = 0.0002
RATION_REWARD = 0.01
RATIONS_COUNTED = 30  # rations held count up to this many (the expert ends easy games with 32)
GAME_MAP_REWARD = 0.15  # the deepest floor's way on opened: its map is what parties fail to find
GAME_STAIR_SEEN_REWARD = 0.05
GAME_PACE_REWARD = 0.002  # per pace nearer the stair the party is heading for, up to 50
FLOOR_DONE_REWARD = GAME_MAP_REWARD + GAME_STAIR_SEEN_REWARD + 50 * GAME_PACE_REWARD
# A floor above the deepest costs this, less 0.002 a pace nearer its stair down: more than its
# 50 paces, so arriving a floor lower never lowers the potential. Without it a party that went
# up for rations had nothing drawing it back down, and stayed (docs/LEARNING.md).
BACK_DOWN_REWARD = 50 * GAME_PACE_REWARD + 0.05
BOOK_HELD_REWARD = 0.3
KING_HELD_REWARD = 0.3
CLIMB_REWARD = 0.1  # a floor climbed with the king, beside its 50 paces
CLIMB_DONE_REWARD = CLIMB_REWARD + 50 * GAME_PACE_REWARD


@njit(cache=True)
def paces_left(s, e, stair):
    """Rows + columns from the party to the floor's stair (x, y in `stair`), at most 50."""
    f = s.floor[e]
    return min(50, abs(int(s.x[e]) - int(stair[e, f, 0])) + abs(int(s.y[e]) - int(stair[e, f, 1])))


@njit(cache=True)
def game_potential(s, e):
    """The potential of the whole game's progress (the table above). It is kept when the run
    ends: the shaping is undiscounted (the change of the potential, whatever the agent's
    gamma), so a potential dropped to 0 at the end would make every ending, a win too, cost
    the progress held, and an agent would rather never finish (measured: docs/LEARNING.md)."""
    depth = s.floor_visited.shape[1] - 1
    f = int(s.floor[e])
    phi = GAME_TILE_REWARD * s.stat_tiles[e] + BOOK_HELD_REWARD * s.has_book[e]
    phi += RATION_REWARD * (min(int(s.rations[e]), RATIONS_COUNTED) - s.stat_eaten[e])
    if s.has_king[e]:
        phi += KING_HELD_REWARD + FLOOR_DONE_REWARD * (depth - 1)
        phi += CLIMB_DONE_REWARD * (depth - f)
        if f > 0:
            phi += GAME_PACE_REWARD * (50 - paces_left(s, e, s.stair_up))
        return phi
    deepest = int(s.stat_deepest[e])
    phi += FLOOR_DONE_REWARD * max(0, deepest - 1)
    if f < deepest:  # above the deepest floor (gone up for food, or fled): the way back down
        phi -= BACK_DOWN_REWARD * (deepest - f)
        phi += GAME_PACE_REWARD * (50 - paces_left(s, e, s.stair_down))
    if not (0 < deepest < depth and (s.maps_held[e] >> deepest) != 0):
        return phi  # MAP-5: the deepest floor's stair down is shut, no way on yet
    phi += GAME_MAP_REWARD
    if f == deepest and s.fog[e, f, s.stair_down[e, f, 1], s.stair_down[e, f, 0]] != 0:
        phi += GAME_STAIR_SEEN_REWARD + GAME_PACE_REWARD * (50 - paces_left(s, e, s.stair_down))
    return phi


@njit(cache=True)
def outcome_reward(s, e):
    """What env e's run pays for how it ended: a win (more with the book, RUN-3) or a loss; 0
    while it runs or when it was cut short."""
    if s.outcome[e] == 1:
        return WIN_REWARD + (BOOK_BONUS if s.has_book[e] else 0.0)
    if s.outcome[e] == 2:
        return LOSS_REWARD
    return 0.0


@njit(cache=True)
def step_reward(s, p, e):
    """The reward of env e's last step, from its outcome and its event bits."""
    r = outcome_reward(s, e)
    if p[P_REWARD_SHAPED] > 0:
        for i in range(NUM_EVENTS):
            if (s.events[e] >> i) & 1:
                r += EVENT_WEIGHTS[i]
    return r
