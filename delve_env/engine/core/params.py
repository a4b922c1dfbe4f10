"""Tunable numbers, one table per difficulty preset (DIFF-1).

Compiled code reads a flat float64 vector `p` indexed by the `P_*` constants below, so a
config can change any number without recompiling. Numbers without a *(tunable)* mark in
GAME.md are not here: they live in the code or in `tables.py`.
"""

import numpy as np

from .tables import CLERIC, HERO, ROGUE, WIZARD

(
    P_DEPTH,  # RUN-1 floors below the courtyard
    P_WIDTH,  # MAP-1 floor grid width
    P_HEIGHT,  # MAP-1 floor grid height
    P_PURSE_FACTOR,  # START-1 gold per member = 5 x this
    P_START_RATIONS,  # START-1
    P_MEAL_PACES,  # FOOD-1 paces between meals
    P_HEAL_PACES,  # HEAL-1 paces between heals
    P_FRONT_AIM,  # PARTY-2 chance a monster aims at the front
    P_HALL_WANDER,  # WANDER-1 plain hall tile, before hunting
    P_HALL_WANDER_HUNT,  # WANDER-1 plain hall tile, hunting
    P_JUNCTION_WANDER,  # WANDER-1 junction, before hunting
    P_JUNCTION_WANDER_HUNT,  # WANDER-1 junction, hunting
    P_SEARCH_FIND,  # SECRET-2 chance per adjacent secret door
    P_KILL_XP,  # XP-1 XP per monster heart
    P_XP_FACTOR,  # XP-3 level cost factor
    P_MONSTER_HEARTS,  # DIFF-1 monster strength: hearts factor
    P_MONSTER_ATK,  # DIFF-1 monster strength: extra attack bonus
    P_GUARD_CHANCE,  # chance an ordinary room holds a band
    P_PAGES_PER_FLOOR,  # PAGE-1
    P_SECRET_ROOM,  # SECRET-1 chance a room is reachable only through secret doors
    P_SECRET_DOOR,  # SECRET-1 chance any other door is secret
    P_EXTRA_HALLS,  # MAP-1 chance of a hall beyond the spanning tree
    P_TRAP_AVOID_STEP,  # CHEST-1 trap avoidance lost per difficulty step
    P_WALL_WOUND,  # WALL-1 wall wound factor
    P_REWARD_SHAPED,  # 1 for shaped rewards, 0 for sparse
    P_MAX_STEPS,  # step cap before truncation (RUN-5)
    P_VAULT_CHANCE,  # VAULT-1 chance a floor has a vault
    P_TASK,  # TASK_GAME, or a sub-task (tasks.py)
    P_TASK_FLOOR,  # the sub-task's floor
    P_TASK_LOCK,  # the vault task's lock: 1 wall, 2 plate
    P_ROOM_GOLD_CHANCE,  # LOOT-1 chance a room holds gold
    P_ROOM_GOLD_DICE,  # LOOT-1 a room's gold: this many d6 x floor
    P_ROOM_ITEM_CHANCE,  # LOOT-1 chance a room holds an item from its tier's table
    P_BAND_SIZE,  # MON-1 the most monsters a band of floors 1-3 rolls
    P_BAND_SIZE_PER_TIER,  # MON-1 the most grows by this per tier below (capped at MAX_FOES)
    P_BAND_SECOND_KIND,  # MON-1 chance a band has a second kind
    P_WANDER_GOLD_DICE,  # WANDER-3 a beaten wandering band's gold: this many d6 x floor
    P_VAULT_GOLD_FACTOR,  # VAULT-1 a vault adds this many room gold rolls
    P_VAULT_ITEMS,  # VAULT-1 items a vault adds from the next tier's table
    P_VAULT_WALL_CHANCE,  # VAULT-1 chance a vault's lock is a tumbler wall (else a plate)
    P_LANTERN_PACES,  # EFFECT-1 paces a lit lantern's WARD lasts
    P_SCROLL_PACES,  # EFFECT-1 paces a read ESP, SATED or LIGHT scroll lasts
    P_STATUE_CHANCE,  # STATUE-1 chance a floor has a living statue
    P_STATUE_PRICE,  # STATUE-1 posted price P = this x floor
    P_CHEST_CHANCE,  # CHEST-1 chance an ordinary room holds a chest
    P_MAP_CHEST,  # CHEST-1 chance the floor map's room holds a chest ("often in one")
    P_CHEST_TRAP,  # CHEST-1 chance a chest is trapped, floor 0
    P_CHEST_TRAP_PER_FLOOR,  # CHEST-1 ... plus this per floor
    P_BATH_CHANCE,  # BATH-1 chance a floor has a Bath of Fates
    P_BATH_LEVEL,  # BATH-1 outcome weights: a level's worth of XP
    P_BATH_CEILING_UP,  # +1d6 ceiling
    P_BATH_CEILING_DOWN,  # -1d3 ceiling
    P_BATH_XP_LOSS,  # lose 1d6 x 10 XP
    P_BATH_HEAL,  # full heal
    P_BATH_NOTHING,  # nothing
    P_PRACTICE_XP,  # COURT-2 share of a real fight's XP a practice bout gives
    P_PRACTICE_MAX_LEVEL,  # COURT-2 only members below this level gain it
    P_LISTEN_HEAR,  # LISTEN-1 chance a band behind the door is heard
    P_BRIBE_REVEAL,  # BRIBE-2 chance a paid band reveals the floor's rooms
    P_BRIBE_STONE,  # BRIBE-2 chance a paid band hands over a summoning stone
    P_FIGHT_LOG,  # 1: the engine writes the fight log of each step (fightlog.py), 0: off
    P_TRAVEL_PACES,  # the most paces one explore, travel or rest step takes (travel.py)
    P_FREE_ACTIONS,  # time-free actions in a row before only time-passing ones are offered
    NUM_PARAMS,
) = range(64)

TASK_GAME, TASK_VAULT, TASK_EXPLORE, TASK_COMBAT = 0, 1, 2, 3

DIFFICULTIES = ("easy", "normal", "hard")

# One row per difficulty; a harder preset is never easier in any rule (DIFF-1).
PRESETS = {
    "easy": {
        P_DEPTH: 4,
        P_PURSE_FACTOR: 4,
        P_XP_FACTOR: 1.0,
        P_MONSTER_HEARTS: 0.75,
        P_MONSTER_ATK: 0,
        P_TRAP_AVOID_STEP: 0,
        P_WALL_WOUND: 1.0,
    },
    "normal": {
        P_DEPTH: 6,
        P_PURSE_FACTOR: 2,
        P_XP_FACTOR: 1.25,
        P_MONSTER_HEARTS: 1.0,
        P_MONSTER_ATK: 0,
        P_TRAP_AVOID_STEP: 1,
        P_WALL_WOUND: 1.5,
    },
    "hard": {
        P_DEPTH: 8,
        P_PURSE_FACTOR: 1,
        P_XP_FACTOR: 1.5,
        P_MONSTER_HEARTS: 1.25,
        P_MONSTER_ATK: 1,
        P_TRAP_AVOID_STEP: 2,
        P_WALL_WOUND: 2.0,
    },
}

# Numbers shared by every preset.
COMMON = {
    P_WIDTH: 48,
    P_HEIGHT: 24,
    P_START_RATIONS: 20,
    P_MEAL_PACES: 120,
    P_HEAL_PACES: 6,
    P_FRONT_AIM: 0.7,
    P_HALL_WANDER: 1 / 200,
    P_HALL_WANDER_HUNT: 10 / 100,
    P_JUNCTION_WANDER: 3 / 100,
    P_JUNCTION_WANDER_HUNT: 60 / 100,
    P_SEARCH_FIND: 0.5,
    P_KILL_XP: 5,
    P_GUARD_CHANCE: 0.5,
    P_PAGES_PER_FLOOR: 2,
    P_SECRET_ROOM: 0.15,
    P_SECRET_DOOR: 0.1,
    P_EXTRA_HALLS: 0.3,
    P_REWARD_SHAPED: 0,
    P_MAX_STEPS: 20000,  # a config's default is STEPS_PER_FLOOR x depth (config.py)
    P_VAULT_CHANCE: 0.5,
    P_TASK: TASK_GAME,
    P_ROOM_GOLD_CHANCE: 0.6,
    P_ROOM_GOLD_DICE: 2,
    P_ROOM_ITEM_CHANCE: 0.3,
    P_BAND_SIZE: 2,
    P_BAND_SIZE_PER_TIER: 1,
    P_BAND_SECOND_KIND: 0.3,
    P_WANDER_GOLD_DICE: 1,
    P_VAULT_GOLD_FACTOR: 3,
    P_VAULT_ITEMS: 2,
    P_VAULT_WALL_CHANCE: 0.5,
    P_LANTERN_PACES: 600,
    P_SCROLL_PACES: 240,
    P_STATUE_CHANCE: 0.3,
    P_STATUE_PRICE: 25,
    P_CHEST_CHANCE: 0.25,
    P_MAP_CHEST: 0.5,
    P_CHEST_TRAP: 0.3,
    P_CHEST_TRAP_PER_FLOOR: 0.02,
    P_BATH_CHANCE: 0.25,
    P_BATH_LEVEL: 1,
    P_BATH_CEILING_UP: 2,
    P_BATH_CEILING_DOWN: 2,
    P_BATH_XP_LOSS: 2,
    P_BATH_HEAL: 2,
    P_BATH_NOTHING: 3,
    P_PRACTICE_XP: 0.25,
    P_PRACTICE_MAX_LEVEL: 3,
    P_LISTEN_HEAR: 1 / 3,
    P_BRIBE_REVEAL: 0.5,
    P_BRIBE_STONE: 0.25,
    P_FIGHT_LOG: 0,
    P_TRAVEL_PACES: 100,
    P_FREE_ACTIONS: 40,
}

DEFAULT_PARTY = (HERO, ROGUE, WIZARD, CLERIC)


def make_params(
    difficulty: str = "normal", overrides: dict[int, float] | None = None
) -> np.ndarray:
    """The parameter vector of a preset, with overrides keyed by `P_*` index."""
    p = np.zeros(NUM_PARAMS, dtype=np.float64)
    for index, value in {**COMMON, **PRESETS[difficulty], **(overrides or {})}.items():
        p[index] = value
    return p
