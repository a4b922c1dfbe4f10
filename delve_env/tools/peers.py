"""The peer environments `delve bench --peers` times next to Delve: how each is made.

Each peer is made the way its users make it, and `bench.gym_loop` steps it in the loop that
times Delve's single env, with a uniformly random action. Gymnasium's CartPole-v1 is always
there; MiniGrid, Crafter and NLE only when their packages import
(`pip install "delve-env[peers]"` installs them).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Peer:
    name: str  # its key in the results (and --json)
    label: str  # the table's setting column
    how: str  # how it is made and stepped, for the table's notes
    module: str | None  # the package it needs (None: Gymnasium alone)
    make: Callable[[int], object]  # seed -> env with Gymnasium's reset / step signatures


class CrafterEnv:
    """`crafter.Env` (the old Gym API: `reset() -> obs`, `step -> (obs, r, done, info)`) with
    Gymnasium's signatures; one extra Python call per step."""

    def __init__(self, seed: int):
        import crafter

        self.env = crafter.Env(seed=seed)
        self.action_space = self.env.action_space  # a Discrete-like space with .n

    def reset(self, *, seed=None, options=None):
        return self.env.reset(), {}  # the world seed was fixed when it was made

    def step(self, action):
        obs, reward, done, info = self.env.step(action)
        return obs, reward, done, False, info

    def close(self) -> None:
        pass


def _gym_make(env_id: str, module: str | None) -> Callable[[int], object]:
    def make(seed: int):
        import gymnasium as gym

        if module is not None:
            importlib.import_module(module)  # registers its ids
        return gym.make(env_id)

    return make


PEERS = (
    Peer("CartPole-v1", "peer: CartPole", 'gym.make("CartPole-v1")', None,
         _gym_make("CartPole-v1", None)),
    Peer("MiniGrid-DoorKey-8x8-v0", "peer: MiniGrid",
         'gym.make("MiniGrid-DoorKey-8x8-v0") after `import minigrid`', "minigrid",
         _gym_make("MiniGrid-DoorKey-8x8-v0", "minigrid")),
    Peer("Crafter", "peer: Crafter", "crafter.Env(seed=...) with its defaults (64x64 image "
         "obs), old Gym API adapted", "crafter", CrafterEnv),
    Peer("NetHackScore-v0", "peer: NetHack",
         'gym.make("NetHackScore-v0") after `import nle`', "nle",
         _gym_make("NetHackScore-v0", "nle")),
)  # fmt: skip

RATIO_PEERS = ("CartPole-v1", "MiniGrid-DoorKey-8x8-v0")  # the ratio columns, in order
SHORT_NAMES = {"CartPole-v1": "CartPole", "MiniGrid-DoorKey-8x8-v0": "MiniGrid"}


def unavailable(peer: Peer) -> str | None:
    """Why `peer` cannot be made here (its package does not import), or None if it can."""
    if peer.module is None:
        return None
    try:
        importlib.import_module(peer.module)
    except ModuleNotFoundError as err:
        if err.name == peer.module:
            return f"{peer.module} is not installed (pip install 'delve-env[peers]')"
        return f"{peer.module} does not import: {err}"
    except Exception as err:  # noqa: BLE001 - a broken optional install: skip it, say why
        return f"{peer.module} does not import: {type(err).__name__}: {err}"
    return None
