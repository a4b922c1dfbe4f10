"""Generation checks: every floor of a generated dungeon connected, its stairs and rooms reachable,
its edge rock, one map (`check_generation` over many seeds, `check_floor` for one floor)."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

import delve_env
from delve_env.checks.invariants import WALKABLE
from delve_env.config import Config
from delve_env.engine.batch import Engine
from delve_env.engine.core.tables import DOOR, ROCK, SECRET, STAIR_DOWN, STAIR_UP
from delve_env.engine.generation.floors import walk_distances


@dataclass
class GenerationReport:
    env_id: str
    seeds: int = 0
    floors: int = 0
    rooms: int = 0
    secret_doors: int = 0
    problems: list[str] = field(default_factory=list)
    problem_count: int = 0
    seconds: float = 0.0

    def add(self, msg: str) -> None:
        self.problem_count += 1
        if len(self.problems) < 50:
            self.problems.append(msg)

    def row(self) -> dict:
        return {
            "check": "generation",
            "id": self.env_id,
            "seeds": self.seeds,
            "floors": self.floors,
            "rooms": self.rooms,
            "secret doors": self.secret_doors,
            "problems": self.problem_count,
            "seconds": round(self.seconds, 1),
        }


def check_floor(s, e: int, f: int, dist: np.ndarray) -> list[str]:
    """One generated floor: its edge rock (travel's searches trust it), connected once secret
    doors are found, every room reachable from the stair up, one stair up, one stair down
    (none on the deepest floor, RUN-1), exactly one map."""
    out = []
    deepest = f == s.tiles.shape[1] - 1
    tiles = s.tiles[e, f].copy()
    edge = np.concatenate([tiles[0], tiles[-1], tiles[:, 0], tiles[:, -1]])
    if (edge != ROCK).any():
        out.append("a tile on the floor's edge is not rock")
    tiles[tiles == SECRET] = DOOR
    ux, uy = (int(v) for v in s.stair_up[e, f])
    dx, dy = (int(v) for v in s.stair_down[e, f])
    if (tiles == STAIR_UP).sum() != 1 or tiles[uy, ux] != STAIR_UP:
        out.append(f"stair up at ({ux}, {uy}) is not the one STAIR_UP tile")
        return out
    if deepest:
        if (tiles == STAIR_DOWN).any():
            out.append("a stair down on the deepest floor")
    elif (tiles == STAIR_DOWN).sum() != 1 or tiles[dy, dx] != STAIR_DOWN:
        out.append(f"stair down at ({dx}, {dy}) is not the one STAIR_DOWN tile")
    walk_distances(tiles, ux, uy, dist)
    walkable = np.isin(tiles, WALKABLE)
    cut = walkable & (dist < 0)
    if cut.any():
        ys, xs = np.nonzero(cut)
        out.append(
            f"{len(xs)} walkable tiles unreachable from the stair up, e.g. ({xs[0]}, {ys[0]})"
        )
    if not deepest and dist[dy, dx] < 0:
        out.append("stair down unreachable")
    n = int(s.num_rooms[e, f])
    room_of = s.room_of[e, f]
    for r in range(n):
        inside = room_of == r
        if not inside.any():
            out.append(f"room {r} has no tiles")
        elif (dist[inside] < 0).any():
            out.append(f"room {r} unreachable")
    maps = s.room_map[e, f]
    if int(maps[:n].sum()) != 1 or maps[n:].any():
        out.append(f"{int(maps.sum())} maps on the floor (rooms {np.flatnonzero(maps).tolist()})")
    return out


def check_generation(
    env_id: str = "Delve-v0",
    seeds: range = range(300),
    batch: int = 250,
    config: dict | None = None,
    hook: Callable | None = None,
) -> GenerationReport:
    """Generate every seed's dungeon (a reset) and check each floor with `check_floor`."""
    rep = GenerationReport(env_id)
    t0 = time.perf_counter()
    cfg = Config.from_kwargs(**{**delve_env.IDS[env_id], **(config or {})})
    seeds = list(seeds)
    batch = min(batch, len(seeds))
    eng = Engine(batch, cfg.params(), cfg.party_classes())
    s = eng.state
    depth = s.tiles.shape[1] - 1
    dist = np.empty(s.tiles.shape[2:], dtype=np.int64)
    for i in range(0, len(seeds), batch):
        chunk = seeds[i : i + batch]
        which = np.zeros(batch, bool)
        which[: len(chunk)] = True
        arr = np.zeros(batch, dtype=np.uint64)
        arr[: len(chunk)] = chunk
        eng.reset(arr, which)
        if hook is not None:
            hook(eng)
        for e, seed in enumerate(chunk):
            rep.seeds += 1
            for f in range(1, depth + 1):
                rep.floors += 1
                rep.rooms += int(s.num_rooms[e, f])
                rep.secret_doors += int((s.tiles[e, f] == SECRET).sum())
                for msg in check_floor(s, e, f, dist):
                    rep.add(f"seed {seed} floor {f}: {msg}")
    rep.seconds = time.perf_counter() - t0
    return rep
