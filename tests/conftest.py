"""Shared fixtures for the rule tests: a reset env and a `Scene` helper that sets up game
situations by writing the engine's state arrays (env 0 of a batch of one)."""

from __future__ import annotations

import os
import sys

# `pytest -n auto` runs one worker a core: a trainer's torch and OpenMP threads stay on their
# worker's core and wait without spinning (a spinning pool takes the core another worker needs).
# Set before torch or numba starts a pool; the tests' `delve train` calls pass `--threads 1`.
os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numba
import numpy as np
import pytest
from numba import types
from numba.core.registry import CPUDispatcher

from delve_env import DelveEnv
from delve_env.engine.core.actions import (
    A_CANCEL,
    A_GIVE,
    A_STAIRS,
    A_USE,
    A_WEAR,
    NUM_ACTIONS,
    action_name,
    select_action,
)
from delve_env.engine.core.params import (
    P_HALL_WANDER,
    P_HALL_WANDER_HUNT,
    P_JUNCTION_WANDER,
    P_JUNCTION_WANDER_HUNT,
)
from delve_env.engine.core.tables import (
    DOOR,
    EXPLORE,
    FIGHT,
    HALL,
    MEDICINAL_ALE,
    NUM_KEEPER_EVENTS,
    ROOM,
    SECRET,
)
from delve_env.engine.generation.floors import DX, DY, is_junction
from delve_env.engine.rules.monsters import monster_hearts
from delve_env.engine.rules.moving import reveal_room
from delve_env.engine.rules.party import first_standing_position
from delve_env.engine.rules.reach import build_reach
from delve_env.engine.rules.travel import find_ways, known_ways

ONE = np.ones(1, dtype=np.bool_)


class Scene:
    """A reset `DelveEnv` (batch of one) with helpers to set a scene and act on it."""

    def __init__(self, env: DelveEnv):
        self.env = env

    @property
    def s(self):
        return self.env.engine.state

    @property
    def p(self) -> np.ndarray:
        """The env's own parameter vector (the one `step` uses; safe to change per test)."""
        return self.env.engine.params

    @property
    def depth(self) -> int:
        return self.s.tiles.shape[1] - 1

    # --- state bookkeeping ---------------------------------------------------------------
    def refresh(self) -> np.ndarray:
        """Recompute observation and mask after writing state (and the known map's sets,
        `reach.py`, as the map written shows them); returns the mask."""
        build_reach(self.s, 0)
        self.env.engine.refresh(ONE)
        return self.env.engine.masks[0]

    def legal(self, a: int) -> bool:
        return bool(self.refresh()[a])

    def act(self, a: int):
        """Refresh, check the action is legal, then step it through the Gymnasium layer."""
        assert self.legal(a), f"action {action_name(a)} is masked"
        return self.env.step(a)

    # --- items: select, then act on the selection (PARTY-4, ITEM-1) ----------------------
    def give(self, a: int, slot: int, b: int):
        """Member a's item slot (0-2 worn, 3-10 pack) goes to member b, as two actions."""
        self.act(select_action(a, slot))
        return self.act(A_GIVE + b)

    def wear(self, m: int, slot: int):
        """Member m wears the pack item in `slot`, or takes off the worn one."""
        self.act(select_action(m, slot))
        return self.act(A_WEAR)

    def use(self, m: int, slot: int, b: int):
        """Member m uses the consumable in `slot` on member b."""
        self.act(select_action(m, slot))
        return self.act(A_USE + b)

    def offers(self, m: int, slot: int, follow: int) -> bool:
        """Whether selecting member m's item slot is legal and then offers `follow` (A_GIVE +
        b, A_USE + b, A_WEAR); the selection is put back, the clock never moves."""
        if not self.legal(select_action(m, slot)):
            return False
        self.act(select_action(m, slot))
        offered = self.legal(follow)
        self.act(A_CANCEL)
        return offered

    def obs(self) -> dict:
        self.refresh()
        return {k: v[0].copy() for k, v in self.env.engine.obs.items()}

    def save(self) -> dict:
        """A copy of every state field of env 0."""
        return {name: np.array(a[0], copy=True) for name, a in zip(self.s._fields, self.s)}

    def load(self, snap: dict) -> None:
        for name, a in zip(self.s._fields, self.s):
            a[0] = snap[name]

    def calm(self) -> None:
        """No wandering bands (so walking tests are not interrupted by chance)."""
        for i in (P_HALL_WANDER, P_HALL_WANDER_HUNT, P_JUNCTION_WANDER, P_JUNCTION_WANDER_HUNT):
            self.p[i] = 0.0

    # --- placing the party ---------------------------------------------------------------
    def put(self, f: int, x: int, y: int) -> None:
        """Stand the party on tile (x, y) of floor f, exploring."""
        s = self.s
        s.floor[0], s.x[0], s.y[0] = f, x, y
        s.floor_visited[0, f] = True
        s.mode[0] = EXPLORE
        build_reach(s, 0)  # the known map's sets, of this floor
        s.ways_known[0] = find_ways(s, 0)  # travel's kept ways, of where it stands now

    def climb(self, down: bool) -> None:
        """Take the stair down (or up) of the party's floor through env.step, a real change of
        floor (`moving.arrive`): the party is stood on the stair first, and holds the floor's
        map when going down (MAP-5)."""
        s = self.s
        f = int(s.floor[0])
        if f > 0:
            x, y = s.stair_down[0, f] if down else s.stair_up[0, f]
            s.x[0], s.y[0] = int(x), int(y)
        if down:
            s.maps_held[0] |= 1 << f
        self.act(A_STAIRS)
        assert s.floor[0] == (f + 1 if down else f - 1)

    def tiles(self, f: int) -> np.ndarray:
        return self.s.tiles[0, f]

    def door_of(self, f: int, r: int, secret_ok: bool = True):
        """A door of room r: (door, inside, outside) tiles as (x, y); a secret door found
        there is turned into a plain door."""
        t = self.tiles(f)
        x0, y0, x1, y1 = (int(v) for v in self.s.room_rect[0, f, r])
        kinds = (DOOR, SECRET) if secret_ok else (DOOR,)
        for y in range(y0 - 1, y1 + 2):
            for x in range(x0 - 1, x1 + 2):
                if t[y, x] not in kinds:
                    continue
                for d in range(4):
                    ix, iy = x + DX[d], y + DY[d]
                    if t[iy, ix] == ROOM and self.s.room_of[0, f, iy, ix] == r:
                        t[y, x] = DOOR
                        return (x, y), (int(ix), int(iy)), (int(x - DX[d]), int(y - DY[d]))
        raise AssertionError(f"room {r} of floor {f} has no door")

    def enter_room(self, f: int, r: int):
        """Stand on a door of room r and step in through it (a legal move action)."""
        (dx, dy), (ix, iy), _ = self.door_of(f, r)
        self.put(f, dx, dy)
        d = direction(ix - dx, iy - dy)
        return self.act(d)

    def stand_in_room(self, f: int, r: int) -> tuple[int, int]:
        """Stand the party on room r's first tile, the room and its walls seen (as stepping
        in does: a pace within a room looks at nothing new)."""
        x0, y0 = (int(v) for v in self.s.room_rect[0, f, r, :2])
        self.put(f, x0, y0)
        reveal_room(self.s, 0, f, r)
        known_ways(self.s, 0)  # fresh, as at a step's end
        return x0, y0

    def clear_band(self, f: int, r: int) -> None:
        self.s.band_kind[0, f, r] = -1
        self.s.band_hp[0, f, r] = 0

    def hall_tile(self, f: int, junction: bool) -> tuple[int, int]:
        """A plain HALL tile of floor f that is (or is not) a junction."""
        t = self.tiles(f)
        for y, x in zip(*np.nonzero(t == HALL)):
            if bool(is_junction(t, x, y)) == junction:
                return int(x), int(y)
        raise AssertionError("no such hall tile")

    @staticmethod
    def direction(dx: int, dy: int) -> int:
        return direction(dx, dy)

    @staticmethod
    def rng(seed: int = 12345) -> np.ndarray:
        return make_rng(seed)

    # --- fights ----------------------------------------------------------------------------
    def fight(self, kinds, hps=None, room: int = -1) -> None:
        """Start a fight in place (no initiative roll): foes `kinds` with hearts `hps`
        (default: full), the first standing member to act."""
        s = self.s
        s.foe_kind[0] = -1
        s.foe_hp[0] = 0
        s.foe_max[0] = 0
        for k, kind in enumerate(kinds):
            s.foe_kind[0, k] = kind
            s.foe_max[0, k] = monster_hearts(self.p, kind)
            s.foe_hp[0, k] = s.foe_max[0, k] if hps is None else hps[k]
        s.mode[0] = FIGHT
        s.fight_room[0] = room
        s.fight_round[0] = 1
        s.actor[0] = first_standing_position(s, 0, 0)

    def tough(self, hp: int = 30000) -> None:
        """Every member gets a huge HP pool, so statistics runs never kill anyone."""
        s = self.s
        for m in range(5):
            if s.in_party[0, m]:
                s.hp[0, m] = s.ceiling[0, m] = hp


def direction(dx: int, dy: int) -> int:
    """The move index (0..3 = N, E, S, W) of a unit step."""
    for d in range(4):
        if DX[d] == dx and DY[d] == dy:
            return d
    raise ValueError((dx, dy))


def make_rng(seed: int = 12345) -> np.ndarray:
    """A one-slot RNG state array for calling compiled mechanics directly."""
    return np.array([(seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) % 2**64 or 1], np.uint64)


def no_vaults(env: DelveEnv) -> DelveEnv:
    """Unlock every room and take away the chests and Sixpence's starting ale (and the name
    he gave it, ITEM-2): these rule tests use plain rooms and the classes' own gear (vault
    locks, chests and the keeper, CHEST-1 and SIX-1, have their own tests)."""
    env.engine.state.vault_room[0] = -1
    env.engine.state.room_chest[0] = 0
    env.engine.state.item[0][env.engine.state.item[0] == MEDICINAL_ALE] = 0
    env.engine.state.known_kinds[0] &= ~(1 << MEDICINAL_ALE)
    env.engine.state.keeper_seen[0] = env.engine.state.keeper_given[0] = (
        1 << NUM_KEEPER_EVENTS
    ) - 1
    env.engine.refresh(ONE)
    return env


def random_policy_net(seed: int, scale: float, hidden: int = 8, memory: bool = False):
    """A `PolicyNet` of random weights (`hidden` wide, with a recurrent core if `memory`): a
    policy to play with, untrained."""
    from delve_env.policy import PolicyNet, inputs

    x, rng = inputs(), np.random.default_rng(seed)
    shapes = {"embed": (x.cat_rows, hidden), "num_w": (hidden, len(x.num_at)),
              "num_b": (hidden,), "body_w": (hidden, hidden), "body_b": (hidden,),
              "pi_w": (NUM_ACTIONS, hidden), "pi_b": (NUM_ACTIONS,), "v_w": (1, hidden),
              "v_b": (1,)}  # fmt: skip
    if memory:
        shapes.update({"gru_w_ih": (3 * hidden, hidden), "gru_w_hh": (3 * hidden, hidden),
                       "gru_b_ih": (3 * hidden,), "gru_b_hh": (3 * hidden,),
                       "recall_w": (hidden, hidden), "recall_b": (hidden,)})  # fmt: skip
    return PolicyNet({k: rng.normal(0, scale, shape) for k, shape in shapes.items()})


# Hand-set scenes take as many time-free actions in a row as they need (selections, chests,
# bids...), and as many steps; the limits have their own tests (test_travel.py).
NO_FREE_LIMIT = {"free_actions": 30000, "max_steps": 100_000}


def make_scene(depth: int = 2, seed: int = 0, **config) -> Scene:
    """A reset env of the given depth and config, as a Scene (no vault locks)."""
    env = DelveEnv(depth=depth, **{**NO_FREE_LIMIT, **config})
    env.reset(seed=seed)
    return Scene(no_vaults(env))


@pytest.fixture
def env2() -> DelveEnv:
    """A reset DelveEnv of depth 2 (seed 0), party in the courtyard."""
    env = DelveEnv(depth=2, **NO_FREE_LIMIT)
    env.reset(seed=0)
    return env


@pytest.fixture
def scene(env2) -> Scene:
    """The depth-2 env as a Scene (no vault locks)."""
    return Scene(no_vaults(env2))


@pytest.fixture
def scene_factory():
    return make_scene


@pytest.fixture
def rng() -> np.ndarray:
    return make_rng()


@pytest.fixture(autouse=True, scope="session")
def engine_compiled_for_the_state_view_only():
    """After the session: no engine function was compiled for the `State` namedtuple. Tests
    hand engine functions `env.engine.state` (struct.StateView); a namedtuple compiles the function's
    whole call tree a second time (minutes on a clean machine)."""
    yield
    if numba.config.DISABLE_JIT:
        return
    wrong = sorted(
        f"{name}.{attr}"
        for name, module in list(sys.modules.items())
        if name.startswith("delve_env.engine.") and name != "delve_env.engine.compiled.struct"
        for attr, fn in vars(module).items()
        if isinstance(fn, CPUDispatcher) and fn.__module__ == name
        for sig in fn.signatures
        if sig and isinstance(sig[0], types.BaseNamedTuple)
    )
    assert not wrong, f"compiled for the State namedtuple (pass env.engine.state): {wrong}"
