"""Env configuration: validation with clear errors, and the engine parameters it implies."""

from dataclasses import asdict, dataclass

import numpy as np

from .engine.params import (
    DEFAULT_PARTY,
    DIFFICULTIES,
    P_DEPTH,
    P_MAX_STEPS,
    P_REWARD_SHAPED,
    P_TASK,
    P_TASK_FLOOR,
    P_TASK_LOCK,
    make_params,
)
from .engine.tables import CLASS_NAMES, MAX_DEPTH, PLAYABLE

REWARD_MODES = ("sparse", "shaped")
RENDER_MODES = ("ansi", "rgb_array", "human")
INVALID_ACTION_MODES = ("noop", "raise")
TASKS = ("game", "vault", "explore", "combat")
LOCKS = ("wall", "plate")
KEYS = ("difficulty", "depth", "party", "reward_mode", "max_steps", "render_mode",
        "invalid_action", "task", "lock", "floor")  # fmt: skip


@dataclass(frozen=True)
class Config:
    """One validated configuration of the whole game (ENV.md, Entry points)."""

    difficulty: str = "normal"
    depth: int | None = None  # None: the difficulty's depth (RUN-1)
    party: tuple[str, ...] = tuple(CLASS_NAMES[c] for c in DEFAULT_PARTY)
    reward_mode: str = "sparse"
    max_steps: int = 20000
    render_mode: str | None = None
    invalid_action: str = "noop"
    task: str = "game"  # or a sub-task: "vault", "explore", "combat"
    lock: str = "wall"  # the vault task's lock
    floor: int = 1  # the sub-task's floor

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
        if not (_is_int(self.max_steps) and self.max_steps >= 1):
            raise ValueError(f"max_steps must be a positive integer, got {self.max_steps!r}")
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

    def params(self) -> np.ndarray:
        """The engine's parameter vector for this config."""
        overrides = {
            P_MAX_STEPS: self.max_steps,
            P_REWARD_SHAPED: float(self.reward_mode == "shaped"),
        }
        if self.depth is not None:
            overrides[P_DEPTH] = self.depth
        if self.task != "game":  # the dungeon goes just deep enough for the task's floor
            depth = self.floor + 1 if self.task == "explore" else self.floor
            overrides.update({P_TASK: TASKS.index(self.task), P_TASK_FLOOR: self.floor,
                              P_TASK_LOCK: LOCKS.index(self.lock) + 1, P_DEPTH: max(2, depth)})  # fmt: skip
        return make_params(self.difficulty, overrides)

    def snapshot_dict(self) -> dict:
        """The config as a snapshot records it (JSON-able): every key but `render_mode` and
        `invalid_action`, which do not change the game; the party as a list, and `depth` as
        the dungeon's actual depth (so `depth=None` and the depth it stands for compare equal)."""
        d = asdict(self)
        del d["render_mode"], d["invalid_action"]
        d["party"] = list(self.party)
        d["depth"] = int(self.params()[P_DEPTH])
        d["max_steps"], d["floor"] = int(self.max_steps), int(self.floor)
        return d

    def party_classes(self) -> np.ndarray:
        return np.array([CLASS_NAMES.index(name) for name in self.party], dtype=np.int8)


def _is_int(value) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _choice(key: str, value, allowed: tuple) -> None:
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{key} must be one of {', '.join(map(repr, allowed))}; got {value!r}")
