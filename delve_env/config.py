"""Env configuration: validation with clear errors, and the engine parameters it implies."""

from dataclasses import asdict, dataclass

import numpy as np

from .engine.core.params import (
    DEFAULT_PARTY,
    DIFFICULTIES,
    P_BAND_SECOND_KIND,
    P_BAND_SIZE,
    P_BAND_SIZE_PER_TIER,
    P_BATH_CEILING_DOWN,
    P_BATH_CEILING_UP,
    P_BATH_CHANCE,
    P_BATH_HEAL,
    P_BATH_LEVEL,
    P_BATH_NOTHING,
    P_BATH_XP_LOSS,
    P_BRIBE_REVEAL,
    P_BRIBE_STONE,
    P_CHEST_CHANCE,
    P_CHEST_TRAP,
    P_CHEST_TRAP_PER_FLOOR,
    P_DEPTH,
    P_FIGHT_LOG,
    P_FREE_ACTIONS,
    P_GUARD_CHANCE,
    P_LANTERN_PACES,
    P_LISTEN_HEAR,
    P_MAP_CHEST,
    P_MAX_STEPS,
    P_PAGES_PER_FLOOR,
    P_PRACTICE_MAX_LEVEL,
    P_PRACTICE_XP,
    P_REWARD_SHAPED,
    P_ROOM_GOLD_CHANCE,
    P_ROOM_GOLD_DICE,
    P_ROOM_ITEM_CHANCE,
    P_SCROLL_PACES,
    P_STATUE_CHANCE,
    P_STATUE_PRICE,
    P_TASK,
    P_TASK_FLOOR,
    P_TASK_LOCK,
    P_TRAVEL_PACES,
    P_VAULT_CHANCE,
    P_VAULT_GOLD_FACTOR,
    P_VAULT_ITEMS,
    P_VAULT_WALL_CHANCE,
    P_WANDER_GOLD_DICE,
    make_params,
)
from .engine.core.tables import (
    CLASS_NAMES,
    MAX_DEPTH,
    MAX_FOES,
    MAX_ROOMS,
    PLAYABLE,
    ROOM_ITEMS,
    ROOM_PAGES,
)

REWARD_MODES = ("sparse", "shaped")
# RUN-5: the step cap a config gets unless it sets max_steps: about four times the scripted
# expert's longest games (easy 1,329 steps at depth 4, normal 1,909 at 6; hard's 99th
# percentile 3,722 at 8)
STEPS_PER_FLOOR = 750
RENDER_MODES = ("ansi", "rgb_array", "human")
INVALID_ACTION_MODES = ("noop", "raise")
TASKS = ("game", "vault", "explore", "combat")
LOCKS = ("wall", "plate")

# Tunable rule numbers a config may set (GAME.md *(tunable)*; None keeps the preset's value):
# key -> (`P_*` index, kind, lowest, highest, what it is). A "chance" is a number in [low, high];
# an "int" an integer in low..high (bounds keep the engine's int16 gold and fixed capacities safe);
# a "weight" a number in [low, high], one of a draw's relative weights.
TUNABLES = {
    "guard_chance": (P_GUARD_CHANCE, "chance", 0, 1, "chance a room holds a band (RUN-2)"),
    "room_gold_chance": (P_ROOM_GOLD_CHANCE, "chance", 0, 1, "chance a room holds gold (LOOT-1)"),
    "room_gold_dice": (P_ROOM_GOLD_DICE, "int", 0, 10, "a room's gold: this many d6 x floor"),
    "room_item_chance": (P_ROOM_ITEM_CHANCE, "chance", 0, 1, "chance a room holds an item"),
    "pages_per_floor": (P_PAGES_PER_FLOOR, "int", 0, MAX_ROOMS * ROOM_PAGES, "pages per floor"),
    "band_size": (P_BAND_SIZE, "int", 1, MAX_FOES, "most monsters in a band of floors 1-3 (MON-1)"),
    "band_size_per_tier": (P_BAND_SIZE_PER_TIER, "int", 0, MAX_FOES, "the most grows by this per tier"),
    "band_second_kind": (P_BAND_SECOND_KIND, "chance", 0, 1, "chance a band has a second kind"),
    "wander_gold_dice": (P_WANDER_GOLD_DICE, "int", 0, 10, "a wandering band's gold: d6s x floor"),
    "vault_chance": (P_VAULT_CHANCE, "chance", 0, 1, "chance a floor has a vault (VAULT-1)"),
    "vault_gold_factor": (P_VAULT_GOLD_FACTOR, "int", 0, 10, "room gold rolls a vault adds"),
    "vault_items": (P_VAULT_ITEMS, "int", 0, ROOM_ITEMS, "items a vault adds from the next tier"),
    "vault_wall_chance": (P_VAULT_WALL_CHANCE, "chance", 0, 1, "chance a vault lock is a wall"),
    "lantern_paces": (P_LANTERN_PACES, "int", 1, 10000, "paces a lit lantern's WARD lasts (EFFECT-1)"),
    "scroll_paces": (P_SCROLL_PACES, "int", 1, 10000, "paces a read ESP, SATED or LIGHT scroll lasts"),
    "statue_chance": (P_STATUE_CHANCE, "chance", 0, 1, "chance a floor has a living statue"),
    "statue_price": (P_STATUE_PRICE, "int", 1, 1000, "a statue's posted price: this x floor (STATUE-1)"),
    "listen_chance": (P_LISTEN_HEAR, "chance", 0, 1, "chance a band is heard at a door (LISTEN-1)"),
    "bribe_reveal_chance": (P_BRIBE_REVEAL, "chance", 0, 1, "chance a paid band shows the rooms"),
    "bribe_stone_chance": (P_BRIBE_STONE, "chance", 0, 1, "chance a paid band hands a stone"),
    "chest_chance": (P_CHEST_CHANCE, "chance", 0, 1, "chance a room holds a chest (CHEST-1)"),
    "map_chest": (P_MAP_CHEST, "chance", 0, 1, "chance the floor map's room holds a chest"),
    "chest_trap": (P_CHEST_TRAP, "chance", 0, 1, "chance a chest is trapped, before the floor's"),
    "chest_trap_per_floor": (P_CHEST_TRAP_PER_FLOOR, "chance", 0, 1, "trap chance added per floor"),
    "bath_chance": (P_BATH_CHANCE, "chance", 0, 1, "chance a floor has a Bath of Fates (BATH-1)"),
    "bath_level": (P_BATH_LEVEL, "weight", 0, 100, "bath weight: a level's worth of XP"),
    "bath_ceiling_up": (P_BATH_CEILING_UP, "weight", 0, 100, "bath weight: +1d6 ceiling"),
    "bath_ceiling_down": (P_BATH_CEILING_DOWN, "weight", 0, 100, "bath weight: -1d3 ceiling"),
    "bath_xp_loss": (P_BATH_XP_LOSS, "weight", 0, 100, "bath weight: lose 1d6 x 10 XP"),
    "bath_heal": (P_BATH_HEAL, "weight", 0, 100, "bath weight: full heal"),
    "bath_nothing": (P_BATH_NOTHING, "weight", 0, 100, "bath weight: nothing"),
    "practice_xp": (P_PRACTICE_XP, "chance", 0, 1, "share of kill XP a practice bout gives"),
    "practice_max_level": (P_PRACTICE_MAX_LEVEL, "int", 0, 100, "practice XP only below this level"),
    "travel_paces": (P_TRAVEL_PACES, "int", 1, 1000, "most paces one explore, travel or rest step takes"),
    "free_actions": (P_FREE_ACTIONS, "int", 1, 30000, "time-free actions in a row before only time-passing ones are offered"),
}  # fmt: skip

KEYS = ("difficulty", "depth", "party", "reward_mode", "max_steps", "render_mode",
        "invalid_action", "task", "lock", "floor", "fight_log", *TUNABLES)  # fmt: skip


@dataclass(frozen=True)
class Config:
    """One validated configuration of the whole game (ENV.md, Entry points).

    The keys are the fields below (the README lists them). The last group are rule numbers
    (`TUNABLES`: loot chances and gold rolls, band sizes, vault chance and loot, chests and
    their traps, baths and their outcome weights, practice bouts): None keeps
    the difficulty's value from `engine/core/params.py`; a value replaces it for the whole game.
    """

    difficulty: str = "normal"
    depth: int | None = None  # None: the difficulty's depth (RUN-1)
    party: tuple[str, ...] = tuple(CLASS_NAMES[c] for c in DEFAULT_PARTY)
    reward_mode: str = "sparse"
    max_steps: int | None = None  # None: STEPS_PER_FLOOR x the depth
    render_mode: str | None = None
    invalid_action: str = "noop"
    task: str = "game"  # or a sub-task: "vault", "explore", "combat"
    lock: str = "wall"  # the vault task's lock
    floor: int = 1  # the sub-task's floor
    fight_log: bool = False  # info["log"]: what each step's fights did (engine/outputs/fightlog.py)
    # Tunables (TUNABLES; None: the difficulty's value, in params.py)
    guard_chance: float | None = None
    room_gold_chance: float | None = None
    room_gold_dice: int | None = None
    room_item_chance: float | None = None
    pages_per_floor: int | None = None
    band_size: int | None = None
    band_size_per_tier: int | None = None
    band_second_kind: float | None = None
    wander_gold_dice: int | None = None
    vault_chance: float | None = None
    vault_gold_factor: int | None = None
    vault_items: int | None = None
    vault_wall_chance: float | None = None
    lantern_paces: int | None = None
    scroll_paces: int | None = None
    statue_chance: float | None = None
    statue_price: int | None = None
    listen_chance: float | None = None
    bribe_reveal_chance: float | None = None
    bribe_stone_chance: float | None = None
    chest_chance: float | None = None
    map_chest: float | None = None
    chest_trap: float | None = None
    chest_trap_per_floor: float | None = None
    bath_chance: float | None = None
    bath_level: float | None = None
    bath_ceiling_up: float | None = None
    bath_ceiling_down: float | None = None
    bath_xp_loss: float | None = None
    bath_heal: float | None = None
    bath_nothing: float | None = None
    practice_xp: float | None = None
    practice_max_level: int | None = None
    travel_paces: int | None = None
    free_actions: int | None = None

    @classmethod
    def from_kwargs(cls, **kwargs) -> "Config":
        """Validate keyword config; a bad key or value raises ValueError naming what is allowed."""
        for key in kwargs:
            if key not in KEYS:
                raise ValueError(f"unknown config key {key!r}; allowed keys: {', '.join(KEYS)}")
        config = cls(**kwargs)
        config.validate()
        return config

    def validate(self) -> None:
        _choice("difficulty", self.difficulty, DIFFICULTIES)
        _choice("reward_mode", self.reward_mode, REWARD_MODES)
        _choice("invalid_action", self.invalid_action, INVALID_ACTION_MODES)
        if self.render_mode is not None:
            _choice("render_mode", self.render_mode, RENDER_MODES)
        if self.depth is not None and not (_is_int(self.depth) and 2 <= self.depth <= MAX_DEPTH):
            raise ValueError(f"depth must be an integer in 2..{MAX_DEPTH}, got {self.depth!r}")
        if self.max_steps is not None and not (_is_int(self.max_steps) and self.max_steps >= 1):
            raise ValueError(
                f"max_steps must be a positive integer (or None), got {self.max_steps!r}"
            )
        if not isinstance(self.fight_log, (bool, np.bool_)):
            raise ValueError(f"fight_log must be True or False, got {self.fight_log!r}")
        _choice("task", self.task, TASKS)
        _choice("lock", self.lock, LOCKS)
        top = MAX_DEPTH - 1 if self.task == "explore" else MAX_DEPTH  # explore needs a floor below
        if not (_is_int(self.floor) and 1 <= self.floor <= top):
            raise ValueError(f"floor must be an integer in 1..{top}, got {self.floor!r}")
        party = self.party
        if (
            isinstance(party, str)
            or not isinstance(party, (tuple, list))
            or not 1 <= len(party) <= 4
        ):
            raise ValueError(
                f"party must be a tuple of 1..4 class names from {PLAYABLE}, got {party!r}"
            )
        for name in party:
            _choice("party", name, PLAYABLE)
        for key, (_, kind, low, high, _) in TUNABLES.items():
            _tunable(key, getattr(self, key), kind, low, high)

    def params(self) -> np.ndarray:
        """The engine's parameter vector for this config."""
        overrides = {
            P_REWARD_SHAPED: float(self.reward_mode == "shaped"),
            P_FIGHT_LOG: float(bool(self.fight_log)),
        }
        if self.depth is not None:
            overrides[P_DEPTH] = self.depth
        for key, (index, *_) in TUNABLES.items():
            if getattr(self, key) is not None:
                overrides[index] = getattr(self, key)
        if self.task != "game":  # the dungeon goes just deep enough for the task's floor
            depth = self.floor + 1 if self.task == "explore" else self.floor
            overrides.update({P_TASK: TASKS.index(self.task), P_TASK_FLOOR: self.floor,
                              P_TASK_LOCK: LOCKS.index(self.lock) + 1, P_DEPTH: max(2, depth)})  # fmt: skip
        p = make_params(self.difficulty, overrides)
        p[P_MAX_STEPS] = STEPS_PER_FLOOR * p[P_DEPTH] if self.max_steps is None else self.max_steps
        return p

    def snapshot_dict(self) -> dict:
        """The config as a snapshot records it (JSON-able): every key but `render_mode` and
        `invalid_action` and `fight_log`, which do not change the game; the party as a list, and `depth` as
        the dungeon's actual depth (so `depth=None` and the depth it stands for compare equal);
        likewise every tunable as the value the game is played with."""
        d = asdict(self)
        del d["render_mode"], d["invalid_action"], d["fight_log"]
        d["party"] = list(self.party)
        p = self.params()
        d["depth"] = int(p[P_DEPTH])
        for key, (index, kind, *_) in TUNABLES.items():
            d[key] = int(p[index]) if kind == "int" else float(p[index])
        d["max_steps"], d["floor"] = int(p[P_MAX_STEPS]), int(self.floor)
        return d

    def party_classes(self) -> np.ndarray:
        return np.array([CLASS_NAMES.index(name) for name in self.party], dtype=np.int8)


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _tunable(key: str, value, kind: str, low: float, high: float) -> None:
    """None (the preset's value), or an integer in low..high, or a chance or weight: a number
    in [low, high] (an int or float, not a bool, not NaN)."""
    if value is None:
        return
    if kind == "int":
        if not (_is_int(value) and low <= value <= high):
            raise ValueError(f"{key} must be an integer in {low}..{high} (or None), got {value!r}")
        return
    is_number = isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(
        value, (bool, np.bool_)
    )
    if not (is_number and low <= value <= high):  # NaN fails both comparisons
        raise ValueError(
            f"{key} must be a number in [{low}, {high}] (a {kind}; or None), got {value!r}"
        )


def _choice(key: str, value, allowed: tuple) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{key} must be one of {', '.join(map(repr, allowed))}; got {value!r}")


def markdown() -> str:
    """The tunables as a Markdown table, each preset's value beside its range (docs/CONFIG.md
    carries it)."""
    from .engine.core.params import make_params

    presets = {d: make_params(d) for d in DIFFICULTIES}
    rows = [
        "| key | kind | allowed | easy | normal | hard | what it is |",
        "|---|---|---|---:|---:|---:|---|",
    ]
    for key, (index, kind, low, high, what) in TUNABLES.items():
        values = [presets[d][index] for d in DIFFICULTIES]
        shown = [f"{v:g}" if kind != "int" else str(int(v)) for v in values]
        rows.append(f"| `{key}` | {kind} | {low}..{high} | {' | '.join(shown)} | {what} |")
    return "\n".join(rows) + "\n"
