"""The scripted expert on what the party knows: how much of its hard win rate is its sight.

`agents.scripted.ScriptedAgent` reads the whole engine state: every tile of a floor, which
room holds the floor's map and the king, where every band stands, where the secret doors are.
`FogExpert` is the same player on what the observation shows: it walks only over remembered
tiles (`fog`), treats a room as guarded only where a band was heard or seen (the map code the
observation shows), visits the rooms it has seen but not entered to find the map and the king,
and where it knows of no such room takes the environment's own explore action (the frontier,
searches for secret doors).

    python quality/probes/fog_expert.py --preset hard --games 500 --first-seed 1000
"""

import argparse
import multiprocessing as mp
import time
from collections import Counter

import numpy as np

from agents.scripted import ScriptedAgent, path_step
from delve_env.engine.core.actions import A_EXPLORE, A_LISTEN, A_SEARCH
from delve_env.engine.core.state import ROOM_MARK
from delve_env.engine.core.tables import ROCK
from delve_env.engine.generation.floors import DX, DY, is_walkable
from delve_env.engine.outputs.layout import BAND_HERE
from delve_env.env import DelveEnv
from delve_env.tools.playtest import run_record, wilson


class FogExpert(ScriptedAgent):
    """The expert, blind to what `hidden` names of what the party does not know:
    "tiles" (it walks over remembered tiles; stairs, secret doors and the frontier must be
    found), "bands" (a room is guarded only where a band was heard or seen), "rooms" (which
    room holds the floor's map, the king, the book: rooms are visited until found)."""

    def __init__(self, hidden=("tiles", "bands", "rooms"), listens=1):
        self.hidden = frozenset(hidden)
        self.listens = listens  # listens at a fresh door before going in (1/3 to hear each)
        super().__init__()

    def listen_action(self, s, mask):
        """As the expert's, but listening up to `listens` times while nothing is heard."""
        if not mask[A_LISTEN] or s.rations[0] <= 0:
            return None
        f, x, y = int(s.floor[0]), int(s.x[0]), int(s.y[0])
        rooms = [int(s.room_of[0, f, y + DY[d], x + DX[d]]) for d in range(4)]
        rooms = [r for r in rooms if r >= 0 and not s.room_entered[0, f, r]]
        if not rooms:
            return None
        r = rooms[0]
        heard = s.room_heard[0, f, r] and s.band_kind[0, f, r, 0] >= 0
        n = self.listen_count.get((f, r), 0)
        if not heard and n < self.listens:
            self.listen_count[(f, r)] = n + 1
            return A_LISTEN
        low = any(s.hp[0, m] < self.fit_for_band * s.ceiling[0, m] for m in self.standing(s))
        if heard and low:
            self.rest_to = self.fit_for_band
            return self.walk(s, self.rest_spots(s))
        return None

    def new_game(self) -> None:
        super().new_game()
        self.searched = {}  # (floor, x, y) -> searches made there
        self.listen_count = {}  # (floor, room) -> listens at its door

    def act(self, env) -> int:
        self.mask = env.unwrapped.action_masks()
        return super().act(env)

    def band_in(self, s, f, r) -> bool:
        if "bands" in self.hidden:
            return int(s.room_code[0, f, r]) == BAND_HERE  # as the observation shows it
        return s.band_kind[0, f, r, 0] >= 0

    def known_rooms(self, s, f) -> list:
        if "tiles" not in self.hidden:
            return list(range(s.num_rooms[0, f]))
        fog = s.fog[0, f]
        return [int(c) - ROOM_MARK for c in np.unique(fog[fog >= ROOM_MARK])]

    def walk(self, s, goal, allow=()):
        f, x, y = int(s.floor[0]), int(s.x[0]), int(s.y[0])
        tiles = s.tiles[0, f]
        if "tiles" in self.hidden:
            tiles = np.where(s.fog[0, f] != 0, tiles, ROCK)
        guarded = [r for r in range(s.num_rooms[0, f]) if self.band_in(s, f, r)]
        blocked = np.isin(s.room_of[0, f], [r for r in guarded if r not in allow])
        blocked[y, x] = False
        detour = tiles.copy()
        detour[blocked] = ROCK
        a = path_step(detour, x, y, goal)
        return a if a is not None else path_step(tiles, x, y, goal)

    def rest_spots(self, s):
        f = int(s.floor[0])
        free = [r for r in range(s.num_rooms[0, f]) if not self.band_in(s, f, r)
                and (s.room_entered[0, f, r] or "bands" not in self.hidden)]  # fmt: skip
        return np.isin(s.room_of[0, f], free)

    def stair_goal(self, s):
        stair = super().stair_goal(s)
        unseen = stair is not None and s.fog[0, int(s.floor[0]), stair[1], stair[0]] == 0
        return None if unseen and "tiles" in self.hidden else stair

    def wanted_rooms(self, s) -> list:
        if "rooms" not in self.hidden:
            return super().wanted_rooms(s)
        f, depth = int(s.floor[0]), s.floor_visited.shape[1] - 1
        entered = s.room_entered[0, f]
        fresh = [r for r in self.known_rooms(s, f) if not entered[r] and not self.band_in(s, f, r)]
        if s.has_king[0]:
            if f == s.book_floor[0] and not s.has_book[0] and self.book:
                book = int(s.book_room[0])
                return [book] if entered[book] else fresh  # remembered where it lay
            return []
        if f == depth:
            king = int(s.king_room[0])
            return [king] if entered[king] else fresh  # remembered where he is held
        if (int(s.maps_held[0]) >> f) == 0 or f <= self.explore_to:
            fled = [r for r in range(s.num_rooms[0, f]) if entered[r] and self.band_in(s, f, r)]
            return fresh + (fled if f <= self.explore_to else [])
        return []

    def unstick(self, s):
        f, x, y = int(s.floor[0]), int(s.x[0]), int(s.y[0])
        if "tiles" not in self.hidden:
            a = super().unstick(s)
            if a is not None:
                return a
        fog = s.fog[0, f]
        if "tiles" in self.hidden and (int(s.maps_held[0]) >> f) & 1 == 0:
            walkable = np.vectorize(is_walkable)(s.tiles[0, f]) & (fog != 0)
            unseen = fog == 0  # the frontier: seen ground beside unseen
            beside = np.zeros_like(unseen)
            beside[1:] |= unseen[:-1]
            beside[:-1] |= unseen[1:]
            beside[:, 1:] |= unseen[:, :-1]
            beside[:, :-1] |= unseen[:, 1:]
            goal = walkable & beside
            goal[y, x] = False
            a = self.walk(s, goal)
            if a is not None:
                return a
        heard = [r for r in range(s.num_rooms[0, f]) if self.band_in(s, f, r)]
        wanted = [r for r in heard if not s.room_entered[0, f, r] or "rooms" not in self.hidden]
        a = self.walk(s, np.isin(s.room_of[0, f], wanted), allow=wanted) if wanted else None
        if a is not None:
            return a
        if self.mask[A_EXPLORE]:
            return A_EXPLORE
        # explore has given up its searches: search on, beside rock with unseen ground behind
        H, W = fog.shape
        spots = np.zeros(fog.shape, dtype=bool)
        for sy, sx in zip(*np.nonzero(fog != 0)):
            if not is_walkable(s.tiles[0, f, sy, sx]) or self.searched.get((f, sx, sy), 0) >= 8:
                continue
            for d in range(4):
                wx, wy, bx, by = sx + DX[d], sy + DY[d], sx + 2 * DX[d], sy + 2 * DY[d]
                if (
                    0 <= bx < W
                    and 0 <= by < H
                    and not is_walkable(s.tiles[0, f, wy, wx])
                    and fog[by, bx] == 0
                ):
                    spots[sy, sx] = True
        if spots[y, x]:
            self.searched[(f, x, y)] = self.searched.get((f, x, y), 0) + 1
            return A_SEARCH
        a = self.walk(s, spots)
        return a if a is not None else A_SEARCH


def play(job) -> dict:
    """One game: (kind, preset, seed) -> its playtest record. kind: "full" (the scripted
    expert), "fog" (all three hidden) or the hidden parts joined by "+", and ":N" listens."""
    kind, preset, seed = job
    if not hasattr(play, "env"):
        play.env = DelveEnv(difficulty=preset)
    env = play.env
    hidden, _, listens = kind.partition(":")
    hidden = ("tiles", "bands", "rooms") if hidden == "fog" else hidden.split("+")
    agent = ScriptedAgent() if kind == "full" else FogExpert(hidden, int(listens or 1))
    env.reset(seed=seed)
    done, steps = False, 0
    while not done:
        _, _, terminated, truncated, _ = env.step(agent.act(env))
        steps += 1
        done = terminated or truncated
    return run_record(env.engine.state, 0, preset, kind, seed, steps, truncated)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--preset", default="hard")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--first-seed", type=int, default=1000)
    p.add_argument("--kind", default="fog", help="full, fog, or hidden parts: tiles+bands:3")
    p.add_argument("--workers", type=int, default=2)
    a = p.parse_args()
    t = time.time()
    jobs = [(a.kind, a.preset, seed) for seed in range(a.first_seed, a.first_seed + a.games)]
    with mp.Pool(a.workers) as pool:
        runs = pool.map(play, jobs, chunksize=4)
    won = sum(r["won"] for r in runs)
    lo, hi = wilson(won, len(runs))
    print(f"{a.kind} expert, {a.preset}: {won}/{len(runs)} = {100 * won / len(runs):.1f}% "
          f"({100 * lo:.1f}-{100 * hi:.1f}); steps a game {np.mean([r['steps'] for r in runs]):.0f}; "
          f"paces {np.mean([r['paces'] for r in runs]):.0f}; members lost "
          f"{np.mean([r['members_lost'] for r in runs]):.1f}; {time.time() - t:.0f} s")  # fmt: skip
    print("losses by floor:", np.bincount([r["floor"] for r in runs if not r["won"]], minlength=9))
    print("losses by cause:", Counter(r["cause"] for r in runs if not r["won"]))


if __name__ == "__main__":
    main()
