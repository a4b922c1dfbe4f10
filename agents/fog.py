"""The scripted expert on the party's knowledge: `agents.scripted.ScriptedAgent`'s play, blind
to what the observation hides.

The scripted expert reads the whole engine state: every tile of a floor, which room holds the
floor's map and the king, where every band stands, where the secret doors are. `FogExpert`
plays the same game on what the party knows (docs/LEARNING.md measures what each part of that
sight is worth):

- tiles: it walks only over remembered tiles (`fog`); a stair, a secret door or a room it has
  not seen must be found: by walking to seen ground beside unseen ground, then by the env's
  explore action, then by searching beside rock with unseen ground behind it;
- bands: a room is guarded only where the observation shows a band (heard at its door,
  LISTEN-1, or met inside), and it rests only in rooms it has entered and found free;
- rooms: it does not know which room holds the floor's map, the king or the book, and enters
  the rooms it knows of until it finds them (remembering where the book lay).

It reads the engine's state arrays only where the observation shows the same thing (the map
codes of `fog`, the rooms entered, the party's own numbers), so it is a player of the
observation's game with a scripted strategy: `delve playtest --policy fog`.
"""

from __future__ import annotations

import numpy as np

from agents.paths import frontier, search_spots
from agents.scripted import ScriptedAgent, in_rooms
from delve_env.engine.core.actions import A_EXPLORE, A_LISTEN, A_SEARCH
from delve_env.engine.core.state import ROOM_MARK
from delve_env.engine.core.tables import MAX_ROOMS
from delve_env.engine.outputs.layout import BAND_HERE

HIDDEN = ("tiles", "bands", "rooms")
SEARCHES = 8  # searches made at one spot before it is given up


class FogExpert(ScriptedAgent):
    """The expert, blind to what `hidden` names of what the party does not know: "tiles",
    "bands" and "rooms" (all three by default: the party's knowledge); `listens` is how many
    times it listens at a fresh door before going in (1/3 to hear a band each time)."""

    def __init__(self, hidden=HIDDEN, listens: int = 1):
        unknown = set(hidden) - set(HIDDEN)
        if unknown:
            raise ValueError(f"FogExpert hides {', '.join(HIDDEN)}; not {', '.join(unknown)}")
        self.hidden = frozenset(hidden)
        self.listens = listens
        super().__init__()

    def new_game(self) -> None:
        super().new_game()
        self.searched = {}  # (floor, x, y) -> searches made there
        self.listen_count = {}  # (floor, room) -> listens at its door

    def act(self, env) -> int:
        self.mask = env.unwrapped.action_masks()
        return super().act(env)

    def listen_action(self, s, mask):
        """As the expert's, but listening up to `listens` times while nothing is heard."""
        r = self.fresh_door(s, mask)
        if r is None:
            return None
        f = int(s.floor[0])
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

    def guarded(self, s, f) -> np.ndarray:
        """Per room of floor f: whether a band is known to be there."""
        n = int(s.num_rooms[0, f])
        if "bands" in self.hidden:
            return s.room_code[0, f, :n] == BAND_HERE  # as the observation shows it
        return s.band_kind[0, f, :n, 0] >= 0

    def known_rooms(self, s, f) -> list:
        if "tiles" not in self.hidden:
            return list(range(s.num_rooms[0, f]))
        counts = np.bincount(s.fog[0, f].ravel(), minlength=256)  # (np.unique sorts: slower)
        return [int(c) for c in np.flatnonzero(counts[ROOM_MARK:])]

    def walk(self, s, goal, allow=()):
        shut = np.zeros(MAX_ROOMS + 1, dtype=bool)
        guarded = self.guarded(s, int(s.floor[0]))
        shut[: len(guarded)] = guarded
        return self.step_to(s, goal, shut, allow, blind="tiles" in self.hidden)

    def rest_spots(self, s):
        f = int(s.floor[0])
        guarded = self.guarded(s, f)
        entered = s.room_entered[0, f, : len(guarded)]
        free = np.flatnonzero(~guarded & (entered | ("bands" not in self.hidden)))
        return in_rooms(s.room_of[0, f], free)

    def stair_goal(self, s):
        stair = super().stair_goal(s)
        unseen = stair is not None and s.fog[0, int(s.floor[0]), stair[1], stair[0]] == 0
        return None if unseen and "tiles" in self.hidden else stair

    def wanted_rooms(self, s) -> list:
        if "rooms" not in self.hidden:
            return super().wanted_rooms(s)
        f, depth = int(s.floor[0]), s.floor_visited.shape[1] - 1
        entered = s.room_entered[0, f]
        guarded = self.guarded(s, f)
        fresh = [r for r in self.known_rooms(s, f) if not entered[r] and not guarded[r]]
        if s.has_king[0]:
            if f == s.book_floor[0] and not s.has_book[0] and self.book:
                book = int(s.book_room[0])
                return [book] if entered[book] else fresh  # remembered where it lay
            return []
        if f == depth:
            king = int(s.king_room[0])
            return [king] if entered[king] else fresh  # remembered where he is held
        if (int(s.maps_held[0]) >> f) == 0 or f <= self.explore_to:
            fled = [r for r in range(len(guarded)) if entered[r] and guarded[r]]
            return fresh + (fled if f <= self.explore_to else [])
        return []

    def unstick(self, s):
        f, x, y = int(s.floor[0]), int(s.x[0]), int(s.y[0])
        if "tiles" not in self.hidden:
            a = super().unstick(s)
            if a is not None:
                return a
        fog, tiles = s.fog[0, f], s.tiles[0, f]
        if "tiles" in self.hidden and (int(s.maps_held[0]) >> f) & 1 == 0:
            a = self.walk(s, frontier(tiles, fog, x, y))  # seen ground beside unseen
            if a is not None:
                return a
        guarded = self.guarded(s, f)
        wanted = [r for r in np.flatnonzero(guarded)
                  if not s.room_entered[0, f, r] or "rooms" not in self.hidden]  # fmt: skip
        a = self.walk(s, in_rooms(s.room_of[0, f], wanted), allow=wanted) if wanted else None
        if a is not None:
            return a
        if self.mask[A_EXPLORE]:
            return A_EXPLORE
        # explore has given up its searches: search on, beside rock with unseen ground behind
        spots = search_spots(tiles, fog)
        for (fx, sx, sy), n in self.searched.items():
            if fx == f and n >= SEARCHES:
                spots[sy, sx] = False
        if spots[y, x]:
            self.searched[(f, x, y)] = self.searched.get((f, x, y), 0) + 1
            return A_SEARCH
        a = self.walk(s, spots)
        return a if a is not None else A_SEARCH
