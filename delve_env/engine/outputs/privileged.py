"""The privileged state: what the game knows and the party may not, one uint8 record a slot.

A critic that reads the true state (an asymmetric actor-critic; MAPPO's and SMAC's global
state) needs it in a fixed shape, like the observation. The record is the observation's
record, then the party's floor as it is (every tile, seen or not), then one row a room of
that floor (its band, what it holds, how far it is by the true walk) and a few values of the
run (where the book and the king are, how far the stairs are). It is computed only when asked
(`DelveEnv.state()`, `DelveVectorEnv.state()`), never on the step's path: asking for it
changes no game. `docs/OBSERVATION.md` carries its table (`markdown`).
"""

from __future__ import annotations

import numpy as np

from ..compiled.jit import njit
from ..core.tables import MAX_FOES, MAX_ROOMS, STAIR_UP
from ..generation.floors import is_walkable
from ..rules.travel import spread
from .layout import CAP, OBS_BYTES, Key

HEIGHT, WIDTH = 24, 48  # the floor grid (params' P_HEIGHT, P_WIDTH; MAP-1)
UNSEEN = 8  # added to a tile the party has never seen
FAR = CAP  # paces: this many or more, or no walk at all

FLOOR = Key("floor", (HEIGHT,), "the party's floor as it is, one row of tiles a grid row")
FLOOR_TILE = FLOOR.add(
    "tile", STAIR_UP + 1 + UNSEEN, "1 rock, 2 hall, 3 room, 4 door (a found secret door too), "
    "5 an unfound secret door, 6 stair down, 7 stair up; + 8 where the party has never seen it "
    "(MAP-4)", count=WIDTH,
)  # fmt: skip
ROOMS = Key("rooms", (MAX_ROOMS,), "one row a room of the party's floor; zeros past its rooms")
ROOM_EXISTS = ROOMS.add("exists", 1, "the floor has this room")
ROOM_RECT = ROOMS.add("rect", WIDTH, "its interior: x0, y0, x1, y1", count=4)
ROOM_KNOWN = ROOMS.add("known", 1, "on the party's map (MAP-4)")
ROOM_ENTERED = ROOMS.add("entered", 1, "the party has walked into it (XP-2)")
ROOM_HEARD = ROOMS.add("heard", 1, "its band was heard at a door (LISTEN-1)")
ROOM_FOES = ROOMS.add("foes", MAX_FOES, "monsters in its band still standing (MON-1)")
ROOM_BAND_HP = ROOMS.add("band hp", CAP, "their hit points together")
ROOM_BAND = ROOMS.add("band", 255, "each foe's kind + 1 (tables.MONSTER_NAMES), 0 none",
                      count=MAX_FOES)  # fmt: skip
ROOM_MAP = ROOMS.add("map", 1, "the floor's map lies here (MAP-5)")
ROOM_BOOK = ROOMS.add("book", 1, "the spellbook lies here (RUN-2)")
ROOM_KING = ROOMS.add("king", 1, "the king is held here (RUN-2)")
ROOM_FEATURE = ROOMS.add("feature", 3, "0 none, 1 store, 2 statue, 3 bath")
ROOM_CHEST = ROOMS.add("chest", 3, "0 none, 1 shut, 2 trapped, 3 open (CHEST-1)")
ROOM_VAULT = ROOMS.add("vault", 1, "the floor's vault (VAULT-1)")
ROOM_GOLD = ROOMS.add("gold", CAP, "gold lying in it")
ROOM_ITEMS = ROOMS.add("items", CAP, "items and spell pages lying in it")
ROOM_PACES = ROOMS.add("paces", FAR, "paces from the party to its nearest tile by the true walk")
RUN = Key("run", (), "the run as a whole")
RUN_FLOOR = RUN.add("floor", CAP, "the party's floor, 0 the courtyard")
RUN_DEPTH = RUN.add("depth", CAP, "the floors below the courtyard (RUN-1)")
RUN_BOOK_FLOOR = RUN.add("book floor", CAP, "the book's floor (RUN-2)")
RUN_BOOK_ROOM = RUN.add("book room", MAX_ROOMS, "its room + 1")
RUN_KING_ROOM = RUN.add("king room", MAX_ROOMS, "the king's room + 1, on the last floor")
RUN_DOWN = RUN.add("down", FAR, "paces to the stair down by the true walk (255: none, or none "
                   "walkable)")  # fmt: skip
RUN_UP = RUN.add("up", FAR, "paces to the stair up by the true walk")
RUN_SEEN = RUN.add("seen", CAP, "the share of the floor's walkable tiles seen, in 255ths")

PARTS = (FLOOR, ROOMS, RUN)  # after the observation's record, in order
OFFSETS = {"observation": 0}
_at = OBS_BYTES
for _key in PARTS:
    OFFSETS[_key.name] = _at
    _at += _key.nbytes
STATE_BYTES = _at
FLOOR_AT, ROOMS_AT, RUN_AT = (OFFSETS[k.name] for k in PARTS)
ROOM_ROW = ROOMS.size


def highs() -> np.ndarray:
    """The high of every byte of the record (its Box's upper bounds)."""
    from .layout import highs as observation_highs

    obs = np.concatenate([h.ravel() for h in observation_highs().values()])
    return np.concatenate([obs] + [np.broadcast_to(k.highs(), k.shape).ravel() for k in PARTS])


@njit(cache=True)
def walk_paces(tiles, x, y, dist, queue):
    """Paces from (x, y) to every tile over the walkable tiles as they are (`dist`, flat, -1
    where none reaches): travel's breadth-first `spread` over the tiles' own marks."""
    W = tiles.shape[1]
    for c in range(dist.size):
        dist[c] = -1 - np.int64(is_walkable(tiles[c // W, c % W]))  # UNREACHED where walkable
    start = y * W + x
    dist[start] = 0
    queue[0] = start
    spread(dist, queue, 1, W)


@njit(cache=True, inline="always")
def capped(paces):
    return FAR if paces < 0 or paces > FAR else paces


@njit(cache=True)
def write_states(s, records, out):
    """out[e] = slot e's privileged record (`records` its observation records)."""
    for e in range(out.shape[0]):
        write_state(s, e, records[e], out[e])


@njit(cache=True)
def write_state(s, e, record, row):
    row[:] = 0
    row[:OBS_BYTES] = record
    f = s.floor[e]
    depth = s.tiles.shape[1] - 1
    tiles, fog, room_of = s.tiles[e, f], s.fog[e, f], s.room_of[e, f]
    H, W = tiles.shape[0], tiles.shape[1]
    walkable, seen = 0, 0
    for y in range(H):
        for x in range(W):
            t = tiles[y, x]
            row[FLOOR_AT + y * WIDTH + x] = 1 + t + (UNSEEN if fog[y, x] == 0 else 0)
            if is_walkable(t):
                walkable += 1
                seen += fog[y, x] != 0
    dist = np.empty(H * W, dtype=np.int32)
    queue = np.empty(H * W, dtype=np.int32)
    walk_paces(tiles, s.x[e], s.y[e], dist, queue)
    paces = np.full(MAX_ROOMS, -1, dtype=np.int32)
    for y in range(H):
        for x in range(W):
            r = room_of[y, x]
            d = dist[y * W + x]
            if r >= 0 and d >= 0 and (paces[r] < 0 or d < paces[r]):
                paces[r] = d
    for r in range(s.num_rooms[e, f]):
        at = ROOMS_AT + r * ROOM_ROW
        row[at + ROOM_EXISTS] = 1
        for k in range(4):
            row[at + ROOM_RECT + k] = s.room_rect[e, f, r, k]
        row[at + ROOM_KNOWN] = s.room_known[e, f, r]
        row[at + ROOM_ENTERED] = s.room_entered[e, f, r]
        row[at + ROOM_HEARD] = s.room_heard[e, f, r]
        foes, hp = 0, 0
        for k in range(MAX_FOES):
            kind = s.band_kind[e, f, r, k]
            if kind >= 0 and s.band_hp[e, f, r, k] > 0:
                foes += 1
                hp += s.band_hp[e, f, r, k]
                row[at + ROOM_BAND + k] = kind + 1
        row[at + ROOM_FOES] = foes
        row[at + ROOM_BAND_HP] = min(hp, CAP)
        row[at + ROOM_MAP] = s.room_map[e, f, r]
        row[at + ROOM_BOOK] = (f == s.book_floor[e]) & (r == s.book_room[e]) & (not s.has_book[e])
        row[at + ROOM_KING] = (f == depth) & (r == s.king_room[e]) & (not s.has_king[e])
        row[at + ROOM_FEATURE] = s.room_feature[e, f, r]
        row[at + ROOM_CHEST] = s.room_chest[e, f, r]
        row[at + ROOM_VAULT] = s.vault_room[e, f] == r
        row[at + ROOM_GOLD] = min(max(s.room_gold[e, f, r], 0), CAP)
        items = 0
        for k in range(s.room_items.shape[3]):
            items += s.room_items[e, f, r, k] >= 0
        for k in range(s.room_pages.shape[3]):
            items += s.room_pages[e, f, r, k] >= 0
        row[at + ROOM_ITEMS] = items
        row[at + ROOM_PACES] = capped(paces[r])
    row[RUN_AT + RUN_FLOOR] = f
    row[RUN_AT + RUN_DEPTH] = depth
    row[RUN_AT + RUN_BOOK_FLOOR] = s.book_floor[e]
    row[RUN_AT + RUN_BOOK_ROOM] = s.book_room[e] + 1
    row[RUN_AT + RUN_KING_ROOM] = s.king_room[e] + 1
    down, up = s.stair_down[e, f], s.stair_up[e, f]
    row[RUN_AT + RUN_DOWN] = capped(dist[down[1] * W + down[0]]) if f < depth else FAR
    row[RUN_AT + RUN_UP] = capped(dist[up[1] * W + up[0]]) if f > 0 else FAR
    row[RUN_AT + RUN_SEEN] = (CAP * seen) // max(walkable, 1)


def markdown() -> str:
    """The record's parts after the observation, as OBSERVATION.md shows them."""
    lines = [f"`state()` is one {STATE_BYTES}-byte uint8 record a slot "
             "(`delve_env.engine.outputs.privileged`): the observation's record "
             f"(bytes 0-{OBS_BYTES - 1}), then these parts.", "",
             "| part | shape | at | what |", "|---|---|---|---|"]  # fmt: skip
    lines += [f"| `{k.name}` | {k.shape} | {OFFSETS[k.name]} | {k.what} |" for k in PARTS]
    for k in PARTS:
        lines += k.table(f"state: `{k.name}`")
    return "\n".join(lines) + "\n"
