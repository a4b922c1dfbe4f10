"""Chests (CHEST-1): stocked at generation, opened by a member chosen by the action.

A room that holds no feature and is not the vault gets a chest with the chest chance (the
floor map's room with the map-chest chance: the map is "often in one"); a chest is trapped
with the trap chance + the per-floor chance x floor. While a chest is shut it holds the room's
items and the floor map: LOOT takes only the loose gold and pages (`loot.has_loot`). Opening
costs no time (TIME-2); a trapped chest's trap is avoided with 50% (+20 for a Rogue, -10 per
difficulty step above easy), else one of four traps, drawn uniformly, springs.
"""

from ..compiled.jit import njit
from ..core.params import (
    P_CHEST_CHANCE,
    P_CHEST_TRAP,
    P_CHEST_TRAP_PER_FLOOR,
    P_MAP_CHEST,
    P_TRAP_AVOID_STEP,
)
from ..core.rng import chance, randint, roll
from ..core.tables import (
    CHEST_NONE,
    CHEST_OPEN,
    CHEST_SHUT,
    CHEST_TRAPPED,
    EXPLORE,
    FEAT_NONE,
    MAX_MEMBERS,
    ROGUE,
    SIX_TRAP,
)
from .keeper import notice
from .moving import room_here
from .party import is_standing, lower_ceiling, wound
from .traits import ROGUE_EXPERTISE, has_option

TRAP_AVOID = 0.5  # CHEST-1: the opener's chance to avoid a trap
TRAP_AVOID_ROGUE = 0.2  # ... plus this for a Rogue
TRAP_AVOID_EXPERT = 0.2  # ... plus this for a Rogue with expertise (sleight of hand, CLASS-1)
TRAP_AVOID_PER_STEP = 0.1  # ... less this per difficulty step (params.P_TRAP_AVOID_STEP)
TRAP_WOUND, TRAP_CEILING, TRAP_RATIONS, TRAP_GAS = 0, 1, 2, 3  # the traps, drawn uniformly
NUM_TRAPS = 4


@njit(cache=True)
def stock_chests(s, p, e, f, g):
    """Put chests in floor f's rooms (generation RNG g): writes `room_chest`. Rooms with a
    feature and the vault room get none."""
    for r in range(s.num_rooms[e, f]):
        s.room_chest[e, f, r] = CHEST_NONE
        if s.room_feature[e, f, r] != FEAT_NONE or s.vault_room[e, f] == r:
            continue
        odds = p[P_MAP_CHEST] if s.room_map[e, f, r] else p[P_CHEST_CHANCE]
        if chance(g, 0, odds):
            trap = p[P_CHEST_TRAP] + p[P_CHEST_TRAP_PER_FLOOR] * int(f)
            s.room_chest[e, f, r] = CHEST_TRAPPED if chance(g, 0, trap) else CHEST_SHUT


@njit(cache=True)
def is_chest_shut(s, e, f, r):
    """Room r of floor f holds a chest not yet opened (trapped or not)."""
    chest = s.room_chest[e, f, r]
    return chest == CHEST_SHUT or chest == CHEST_TRAPPED


@njit(cache=True)
def chest_here(s, e):
    """The chest of the room the party stands in (tables.CHEST_*), CHEST_NONE in a hall."""
    r = room_here(s, e)
    return s.room_chest[e, s.floor[e], r] if r >= 0 else CHEST_NONE


@njit(cache=True)
def can_open(s, p, e, m):
    """Member m may open the chest of the room the party stands in: m stands, the party
    explores, and the room's chest is shut."""
    if s.mode[e] != EXPLORE or not is_standing(s, e, m):
        return False
    r = room_here(s, e)
    return r >= 0 and is_chest_shut(s, e, s.floor[e], r)


@njit(cache=True)
def trap_avoid_chance(s, p, e, m):
    """CHEST-1: 50%, +20 for a Rogue, +20 more for a Rogue with expertise (CLASS-1), -10 per
    difficulty step above easy."""
    avoid = TRAP_AVOID - TRAP_AVOID_PER_STEP * p[P_TRAP_AVOID_STEP]
    if s.cls[e, m] == ROGUE:
        avoid += TRAP_AVOID_ROGUE
    if has_option(s, e, m, ROGUE, 3, ROGUE_EXPERTISE):
        avoid += TRAP_AVOID_EXPERT
    return avoid


@njit(cache=True)
def spring_trap(s, e, m, rng):
    """One of the four traps on opener m: a 2d6 wound, ceiling -1d3 (never below 1), half the
    rations (rounded down, the rest kept), or a gas wounding every standing member d4. Wounds
    go through `party.wound`: death saves apply, and the quest sees a fallen party or king."""
    s.stat_traps[e] += 1
    if s.cls[e, m] != ROGUE:
        notice(s, e, SIX_TRAP)
    kind = randint(rng, e, NUM_TRAPS)
    if kind == TRAP_WOUND:
        wound(s, e, m, roll(rng, e, 2), rng)
    elif kind == TRAP_CEILING:
        lower_ceiling(s, e, m, roll(rng, e, 1, 3))
    elif kind == TRAP_RATIONS:
        s.rations[e] = int(s.rations[e]) - int(s.rations[e]) // 2
    else:
        for pos in range(MAX_MEMBERS):
            b = s.order[e, pos]
            if is_standing(s, e, b):
                wound(s, e, b, roll(rng, e, 1, 4), rng)


@njit(cache=True)
def open_chest(s, p, e, m, rng):
    """Member m opens the room's chest: a trap may spring (trapped chests only), then the
    chest is open and its items and map are the room's loot. Writes `room_chest`,
    `stat_chests`, `stat_traps`; the room's map code follows (`observe.update_room_code`)."""
    f, r = s.floor[e], room_here(s, e)
    if s.room_chest[e, f, r] == CHEST_TRAPPED and not chance(rng, e, trap_avoid_chance(s, p, e, m)):
        spring_trap(s, e, m, rng)
    s.room_chest[e, f, r] = CHEST_OPEN
    s.stat_chests[e] += 1
