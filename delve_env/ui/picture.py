"""The `rgb_array` picture of one env slot: the remembered floor drawn in 16 x 16 tiles, with a
panel for the party and the screen of the mode (fight, lock, store, statue, level choice).

The frame is `frame_shape(H, W)` for a floor of H x W tiles, the same for every state of an
env: (max(16 H, 384), 16 W + 336, 3) uint8, (384, 1104, 3) for the usual 24 x 48 floor.
Glyphs and text come from the bitmap font in `font.py`. Like `render.py` this reads the state
only and draws nothing from the game's RNG; the tile set and the courtyard scene are built
once per size and then copied.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from ..engine.compiled.jit import interpreted
from ..engine.core.tables import (
    BATH,
    CHEST_SHUT,
    CHEST_TRAPPED,
    CHOICE,
    CLASS_NAMES,
    CLASS_OPTIONS,
    EFFECT_NAMES,
    EVENT_NAMES,
    FEAT_BATH,
    FEAT_STATUE,
    FEAT_STORE,
    FEATURE_NAMES,
    FIGHT,
    FS_BLIND,
    FS_BOUND,
    FS_MARKED,
    ITEM_NAMES,
    LOOK,
    LOOK_NAMES,
    MAX_FOES,
    MAX_MEMBERS,
    MAX_STOCK,
    MODE_NAMES,
    MONSTER_NAMES,
    PLATE,
    RATIONS_CODE,
    READY,
    STATUE,
    STORE,
    WALL,
    WARD,
)
from ..engine.outputs.observe import armor_value
from ..engine.rules.party import is_known, level_cost
from ..engine.rules.stores import line_kind, line_price, store_level
from ..engine.rules.vaults import hint_price, num_symbols, plate_size
from ..keeper import HINTS
from .font import CELL_H, CELL_W, CELLS, glyph_indices
from .text import map_codes

TILE = 16  # pixels a tile
PANEL_W = 336  # the side panel: 55 columns of 6-pixel text
MIN_H = 384  # the frame is at least this tall, for the panel's 38 lines
LINE = 10  # pixels a line of panel text
MARGIN = 6
# tile codes of the atlas: 0 fog, then 1 + tables.ROCK .. STAIR_UP (an unfound secret door as
# rock, a found one as its own tile: state.FOUND_CODE)
MONSTER_GLYPHS = "rgkmosSjOWAGTwMFZbhSRCVH"  # one letter per tables.MONSTER_NAMES entry
FEATURE_GLYPHS = {FEAT_STORE: "S", FEAT_STATUE: "Y", FEAT_BATH: "~"}

BLACK = (0, 0, 0)
WHITE = (235, 235, 235)
GREY = (130, 130, 130)
DIM = (85, 85, 85)
YELLOW = (250, 215, 70)
GOLD = (255, 200, 40)
RED = (225, 60, 55)
GREEN = (90, 200, 90)
CYAN = (90, 210, 230)
ORANGE = (245, 150, 50)
BLUE = (80, 130, 240)
PANEL_BG = (22, 20, 28)

assert len(MONSTER_GLYPHS) == len(MONSTER_NAMES)


def frame_shape(height: int, width: int) -> tuple[int, int, int]:
    """The picture's shape for a floor of height x width tiles (fixed for an env)."""
    return max(TILE * height, MIN_H), TILE * width + PANEL_W, 3


# --- drawing primitives ------------------------------------------------------------------------


def text_mask(s: str, scale: int = 1) -> np.ndarray:
    """The pixels of a line of text, (8 scale, 6 scale len) bools."""
    mask = CELLS[glyph_indices(s)].transpose(1, 0, 2).reshape(CELL_H, -1)
    if scale > 1:
        mask = mask.repeat(scale, axis=0).repeat(scale, axis=1)
    return mask


def text(img: np.ndarray, x: int, y: int, s: str, colour, scale: int = 1, right: int = 0) -> int:
    """Draw `s` with its top left at (x, y), clipped at column `right` (default: the image's
    edge); returns the x just after it."""
    if not s:
        return x
    mask = text_mask(s, scale)
    right = right or img.shape[1]
    h, w = min(mask.shape[0], img.shape[0] - y), min(mask.shape[1], right - x)
    if h > 0 and w > 0:
        img[y : y + h, x : x + w][mask[:h, :w]] = colour
    return x + mask.shape[1]


def box(img: np.ndarray, x: int, y: int, w: int, h: int, colour, border=None) -> None:
    """A filled rectangle, with a one-pixel border of another colour if given."""
    img[y : y + h, x : x + w] = colour
    if border is not None:
        img[y : y + h, x : x + 1] = border
        img[y : y + h, x + w - 1 : x + w] = border
        img[y : y + 1, x : x + w] = border
        img[y + h - 1 : y + h, x : x + w] = border


def bar(img: np.ndarray, x: int, y: int, w: int, h: int, have: int, full: int, colour) -> None:
    """A gauge: `have` of `full` filled, on a dark trough."""
    box(img, x, y, w, h, (50, 50, 56))
    if full > 0 and have > 0:
        img[y : y + h, x : x + max(1, min(w, w * have // full))] = colour


def glyph_on_tile(img, tx: int, ty: int, ch: str, colour, back=None) -> None:
    """A double-size glyph (10 x 14) in the middle of map tile (tx, ty), on a backing."""
    x, y = tx * TILE, ty * TILE
    if back is not None:
        img[y + 1 : y + TILE - 1, x + 1 : x + TILE - 1] = back
    text(img, x + 3, y + 1, ch, colour, scale=2, right=x + TILE)


# --- the tile set and the courtyard (built once per size) -------------------------------------


@lru_cache(maxsize=1)
def tile_atlas() -> np.ndarray:
    """(8, 16, 16, 3) uint8: fog, rock, hall, room floor, door, found secret door, stairs."""
    t = np.zeros((8, TILE, TILE, 3), dtype=np.uint8)
    yy, xx = np.mgrid[0:TILE, 0:TILE]
    # rock: brick courses with mortar
    t[1] = (64, 56, 52)
    seam = (yy % 8 == 7) | (((xx + 4 * ((yy // 8) % 2)) % 8) == 7)
    t[1][seam] = (40, 34, 32)
    # hall: dark worn stone with a few specks
    t[2] = (98, 94, 88)
    t[2][((xx * 7 + yy * 13) % 23) == 0] = (76, 72, 68)
    # room floor: flagstones
    t[3] = (178, 162, 128)
    t[3][(yy % 8 == 7) | (xx % 8 == 7)] = (150, 134, 104)
    # door: planks in a dark frame with a brass knob
    t[4] = (142, 88, 38)
    t[4][(xx == 5) | (xx == 10)] = (112, 68, 28)
    t[4][(xx < 2) | (xx > 13) | (yy < 2) | (yy > 13)] = (74, 44, 18)
    t[4][10:12, 11:13] = GOLD
    # found secret door: the door's planks set flush in the brick, no frame, an iron ring
    t[5] = t[1]
    t[5][2:14, 3:13] = t[4][2:14, 3:13]
    t[5][7:10, 10:12] = GREY
    for code, back, ch in ((6, (36, 64, 130), ">"), (7, (36, 116, 60), "<")):
        t[code] = back
        for k in range(4):  # steps, darker going down
            shade = np.array(back) * (1.0 - 0.12 * k)
            t[code][2 + 3 * k : 4 + 3 * k, 2:14] = shade.astype(np.uint8)
        mask = text_mask(ch, 2)
        t[code][1:15, 3:15][mask[:14, :12]] = WHITE
    return t


@lru_cache(maxsize=4)
def courtyard(h: int, w: int) -> np.ndarray:
    """The courtyard (floor 0, a menu, COURT-1..2) as a scene of h x w pixels: the stair down,
    the store and the training ground, labelled."""
    img = np.zeros((h, w, 3), dtype=np.uint8)
    yy, xx = np.mgrid[0:h, 0:w]
    img[:] = (52, 104, 48)
    img[((xx * 31 + yy * 17) % 29) == 0] = (70, 130, 60)  # grass
    mid = h // 2
    img[mid - 12 : mid + 12, :] = (150, 136, 108)  # the path
    path = img[mid - 12 : mid + 12]
    path[((xx[:24] * 5 + yy[:24] * 3) % 11) == 0] = (130, 118, 92)
    text(img, w // 2 - 13 * 12 // 2 * 1, 12, "THE COURTYARD", WHITE, scale=2)
    # the store: a house with a roof
    sx, sy = w // 10, mid - 150
    box(img, sx, sy + 40, 180, 90, (170, 140, 100), (80, 60, 40))
    for k in range(40):
        img[sy + k, sx + 90 - 2 * k - 10 : sx + 90 + 2 * k + 10] = (140, 50, 40)
    box(img, sx + 75, sy + 80, 30, 50, (100, 60, 30))
    text(img, sx + 60, sy + 56, "STORE", BLACK, scale=2)
    # the training ground: a sand yard with a fence and two posts
    tx, ty = w // 10, mid + 28
    box(img, tx, ty, 260, 110, (196, 176, 120), (110, 80, 40))
    for px in (tx + 60, tx + 200):
        box(img, px, ty + 30, 8, 50, (110, 80, 40))
        box(img, px - 8, ty + 40, 24, 6, (110, 80, 40))
    text(img, tx + 10, ty + 8, "TRAINING GROUND", BLACK, scale=2)
    # the stair down: a stone arch over dark steps
    ax, ay = w - w // 4, mid - 110
    box(img, ax, ay, 150, 220, (110, 106, 100), (60, 56, 52))
    box(img, ax + 30, ay + 60, 90, 150, (20, 24, 40))
    for k in range(6):
        shade = 90 - 12 * k
        box(img, ax + 34, ay + 70 + 22 * k, 82, 8, (shade, shade, shade + 20))
    text(img, ax + 15, ay + 14, "STAIR DOWN", WHITE, scale=2)
    text(img, ax + 55, ay + 34, ">", YELLOW, scale=2)
    return img


# --- the map ---------------------------------------------------------------------------------


def draw_map(img: np.ndarray, s, e: int) -> None:
    """The remembered floor (MAP-4): seen tiles from the tile set, then what the party knows
    is in its rooms, then the party."""
    f = int(s.floor[e])
    h, w = s.tiles.shape[2:]
    if f == 0:
        scene = courtyard(h * TILE, w * TILE)
        img[: h * TILE, : w * TILE] = scene
        cx, cy = w // 2, (h // 2) - 1
        glyph_on_tile(img, cx, cy, "@", YELLOW, back=(30, 30, 30))
        return
    pix = tile_atlas()[map_codes(s, e, f)]  # (h, w, 16, 16, 3)
    img[: h * TILE, : w * TILE] = pix.transpose(0, 2, 1, 3, 4).reshape(h * TILE, w * TILE, 3)
    for r in range(int(s.num_rooms[e, f])):
        draw_room(img, s, e, f, r)
    glyph_on_tile(img, int(s.x[e]), int(s.y[e]), "@", YELLOW, back=(30, 30, 30))


def draw_room(img: np.ndarray, s, e: int, f: int, r: int) -> None:
    """Room r's known contents: its band (entered, or heard at a door: LISTEN-1) in the middle,
    its feature there too (features stand in rooms without bands), and the loot, chest and map
    still lying in an entered room along its top row."""
    x0, y0, x1, y1 = (int(v) for v in s.room_rect[e, f, r])
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    entered = bool(s.room_entered[e, f, r])
    kind = int(s.band_kind[e, f, r, 0])
    if kind >= 0 and (entered or s.room_heard[e, f, r]):
        back = (110, 10, 30) if entered else (110, 60, 0)
        glyph_on_tile(img, cx, cy, MONSTER_GLYPHS[kind], (255, 210, 200), back=back)
    if not entered:
        return
    feature = int(s.room_feature[e, f, r])
    if feature:
        glyph_on_tile(img, cx, cy, FEATURE_GLYPHS[feature], WHITE, back=(0, 90, 110))
    icons = []
    if s.room_gold[e, f, r] > 0:
        icons.append(("$", GOLD))
    if (s.room_items[e, f, r] > 0).any():
        icons.append(("!", CYAN))
    if (s.room_pages[e, f, r] >= 0).any():
        icons.append(("?", WHITE))
    if s.room_map[e, f, r]:
        icons.append(("%", GREEN))
    if s.room_chest[e, f, r] in (CHEST_SHUT, CHEST_TRAPPED):
        icons.append(("=", ORANGE))
    for k, (ch, colour) in enumerate(icons[: x1 - x0 + 1]):
        glyph_on_tile(img, x0 + k, y0, ch, colour, back=(70, 60, 46))


# --- the panel -------------------------------------------------------------------------------


class Panel:
    """Lines of text down the side panel, from the top."""

    def __init__(self, img: np.ndarray, x: int):
        self.img, self.x, self.y = img, x + MARGIN, MARGIN
        self.right = img.shape[1] - MARGIN

    def line(self, s: str, colour=WHITE, x: int = 0) -> int:
        """One line of text (clipped at the panel's edge); returns the y it was drawn at."""
        y = self.y
        if y + CELL_H <= self.img.shape[0]:
            text(self.img, self.x + x, y, s, colour, right=self.right)
        self.y += LINE
        return y

    def gap(self, px: int = 4) -> None:
        self.y += px

    def wrap(self, s: str, colour=WHITE, lines: int = 4) -> None:
        """`s` broken at spaces into lines of the panel's width."""
        width = (self.right - self.x) // CELL_W
        words, row = s.split(), ""
        for word in words:
            if row and len(row) + 1 + len(word) > width:
                if lines == 1:
                    self.line(row[: width - 3] + "...", colour)
                    return
                self.line(row, colour)
                lines -= 1
                row = word
            else:
                row = f"{row} {word}" if row else word
        if row:
            self.line(row, colour)


def item_label(s, e: int, kind: int) -> str:
    """An item's name, or its look while unknown (ITEM-2)."""
    return ITEM_NAMES[kind] if interpreted(is_known)(s, e, kind) else LOOK_NAMES[LOOK[kind]]


def draw_head(pan: Panel, s, e: int) -> None:
    """Where, when, the purse and the quest."""
    f = int(s.floor[e])
    depth = s.tiles.shape[1] - 1
    where = "THE COURTYARD" if f == 0 else f"FLOOR {f} OF {depth}"
    y = pan.line(where, YELLOW)
    text(pan.img, pan.right - 6 * len(MODE_NAMES[s.mode[e]]), y, MODE_NAMES[s.mode[e]], CYAN)
    pan.line(f"pace {s.pace[e]}   gold {s.gold[e]}   rations {s.rations[e]}")
    quest = [n for n, held in (("book", s.has_book[e]), ("king", s.has_king[e])) if held]
    pan.line("holding: " + (", ".join(quest) or "nothing yet")
             + ("   HUNTED" if s.hunting[e] else ""), RED if s.hunting[e] else GREY)  # fmt: skip
    running = []
    for k, name in enumerate(EFFECT_NAMES):
        if s.effects[e, k] > 0:
            foul = k == WARD and s.ward_foul[e]
            running.append(f"{name}{'(foul)' if foul else ''} {s.effects[e, k]}")
    pan.line("effects: " + (", ".join(running) or "none"), GREEN if running else DIM)


def draw_party(pan: Panel, s, p, e: int) -> None:
    """Each member in marching order: class, level, HP as a bar and x/y, mana under it, XP,
    luck, weapon and AV; the member whose turn it is in a fight marked '>'."""
    img = pan.img
    for pos in range(MAX_MEMBERS):
        m = int(s.order[e, pos])
        if m < 0:
            continue
        hp, ceiling = int(s.hp[e, m]), int(s.ceiling[e, m])
        acting = s.mode[e] == FIGHT and s.actor[e] == pos
        colour = YELLOW if acting else (WHITE if hp > 0 else DIM)
        y = pan.line(f"{'>' if acting else ' '}{pos + 1} {CLASS_NAMES[s.cls[e, m]]:<7}"
                     f"L{s.level[e, m]}", colour)  # fmt: skip
        bx = pan.x + 84
        if hp > 0:
            fill = GREEN if 2 * hp > ceiling else (YELLOW if 4 * hp > ceiling else RED)
            bar(img, bx, y, 90, 5, hp, ceiling, fill)
            bar(img, bx, y + 6, 90, 2, int(s.mana[e, m]), int(s.well[e, m]), BLUE)
            text(img, bx + 96, y, f"HP {hp}/{ceiling}", colour)
            text(img, bx + 174, y, f"mana {s.mana[e, m]}/{s.well[e, m]}", (150, 170, 250),
                 right=pan.right)  # fmt: skip
        else:
            text(img, bx, y, "dead", RED)
        weapon = ITEM_NAMES[s.item[e, m, READY]] or "bare hands"
        pan.line(f"    XP {s.xp[e, m]}/{interpreted(level_cost)(p, s.level[e, m])} "
                 f"luck {s.luck[e, m]} AV {interpreted(armor_value)(s, e, m)} {weapon}", GREY)  # fmt: skip
    if s.sel_member[e] >= 0:  # PARTY-4: an item is held for the next action
        m, slot = int(s.sel_member[e]), int(s.sel_slot[e])
        pan.line(f"selected: {CLASS_NAMES[s.cls[e, m]]}'s "
                 f"{item_label(s, e, s.item[e, m, slot])}", ORANGE)  # fmt: skip


def draw_fight(pan: Panel, s, e: int) -> None:
    """The band: each foe's name and hearts (one pip a heart, up to 20), marks left on it."""
    pan.line(f"FIGHT   round {s.fight_round[e]}", RED)
    for k in range(MAX_FOES):
        kind = int(s.foe_kind[e, k])
        if kind < 0:
            continue
        hp, full = int(s.foe_hp[e, k]), int(s.foe_max[e, k])
        marks = [n for bit, n in ((FS_MARKED, "marked"), (FS_BLIND, "blind"), (FS_BOUND, "bound"))
                 if s.foe_status[e, k] & bit]  # fmt: skip
        y = pan.line(f"{k + 1} {MONSTER_GLYPHS[kind]} {MONSTER_NAMES[kind]}",
                     WHITE if hp > 0 else DIM)  # fmt: skip
        x = pan.x + 120
        if hp <= 0:
            text(pan.img, x, y, "down", DIM)
            continue
        pips = min(full, 20)
        for i in range(pips):
            lit = i < (hp if full <= 20 else -(-hp * 20 // full))
            box(pan.img, x + 6 * i, y + 1, 5, 5, RED if lit else (70, 40, 40))
        text(pan.img, x + 6 * pips + 4, y, f"{hp}/{full} {' '.join(marks)}", GREY,
             right=pan.right)  # fmt: skip
    if s.ally_kind[e] >= 0:
        kind = int(s.ally_kind[e])  # NUM_MONSTERS: find familiar's varmint
        name = MONSTER_NAMES[kind] if kind < len(MONSTER_NAMES) else "familiar"
        pan.line(f"ally: {name} {s.ally_hp[e]} hearts", GREEN)
    extra = []
    if s.decoys[e] > 0:
        extra.append(f"decoys {s.decoys[e]}")
    if s.holy_sword[e] >= 0:
        extra.append("holy sword")
    if s.charging[e]:
        extra.append("charge!")
    if s.bribe_asked[e]:
        extra.append("bribe asked")
    if extra:
        pan.line(", ".join(extra), CYAN)


def draw_wall(pan: Panel, s, e: int) -> None:
    """The tumbler wall (WALL-1): the rings set so far as boxes, then the guesses, latest
    first, with how many rings each had right."""
    f = int(s.floor[e])
    pan.line(f"TUMBLER WALL  {interpreted(num_symbols)(f)} symbols a ring", ORANGE)
    pan.line(f"worked by the {CLASS_NAMES[s.cls[e, s.worker[e]]]}, guesses {s.wall_guesses[e, f]}",
             GREY)  # fmt: skip
    y = pan.y
    for i in range(s.wall_set.shape[2]):
        x = pan.x + 8 + 30 * i
        is_set = i < s.wall_num_set[e, f]
        box(pan.img, x, y, 24, 20, (60, 50, 40) if is_set else (30, 30, 34), ORANGE)
        if is_set:
            v = str(int(s.wall_set[e, f, i]))
            text(pan.img, x + 12 - 6 * len(v), y + 3, v, WHITE, scale=2)
    pan.y += 24
    for guess in s.wall_history[e, f]:
        if guess[0] >= 0:
            pan.line(f"  {guess[0]:>2} {guess[1]:>2} {guess[2]:>2}  ->  {guess[3]} right", WHITE)


def draw_plate(pan: Panel, s, e: int) -> None:
    """The lock plate (PLATE-1): n x n cells, lit ones bright, pushed ones ringed, the hint's
    cell outlined in cyan; each cell shows its number (the push action's index)."""
    f = int(s.floor[e])
    n = interpreted(plate_size)(f)
    pan.line(f"LOCK PLATE {n}x{n}  hint costs {interpreted(hint_price)(s, e)} gold", ORANGE)
    pan.line(f"worked by the {CLASS_NAMES[s.cls[e, s.worker[e]]]}; light every cell", GREY)
    size = 26
    y0 = pan.y + 2
    for r in range(n):
        for c in range(n):
            x, y = pan.x + 8 + (size + 2) * c, y0 + (size + 2) * r
            lit, pushed = s.plate_lit[e, f, r, c], s.plate_pushed[e, f, r, c]
            box(pan.img, x, y, size, size, (250, 220, 90) if lit else (48, 48, 60),
                WHITE if pushed else (20, 20, 20))  # fmt: skip
            if pushed:
                box(pan.img, x + 2, y + 2, size - 4, size - 4, (250, 220, 90) if lit else (48, 48, 60),
                    WHITE)  # fmt: skip
            if s.plate_hint[e, f] == r * n + c:
                box(pan.img, x - 1, y - 1, size + 2, 2, CYAN)
                box(pan.img, x - 1, y + size - 1, size + 2, 2, CYAN)
            num = str(r * n + c)
            text(pan.img, x + 4, y + 4, num, BLACK if lit else GREY)
    pan.y = y0 + (size + 2) * n + 2
    if s.plate_hint[e, f] >= 0:
        pan.line(f"hint: push cell {s.plate_hint[e, f]}", CYAN)


def draw_store(pan: Panel, s, p, e: int) -> None:
    """The store's list (STORE-1..2): each line and its price, bright where the gold covers it."""
    level = interpreted(store_level)(s, e)
    where = "the courtyard's store" if level == 0 else f"the store of floor {s.floor[e]}"
    pan.line(f"STORE: {where}", CYAN)
    if level < 0:
        return
    pan.line(f"prices x {(level + 2) / 2:.1f}; buys at half price, repairs", GREY)
    for k in range(MAX_STOCK):
        kind = interpreted(line_kind)(level, k)
        if kind == 0:
            continue
        name = "ten rations" if kind == RATIONS_CODE else ITEM_NAMES[kind]
        price = interpreted(line_price)(level, k)
        pan.line(f"{k:>3}. {name:<18} {price:>5} gold", WHITE if s.gold[e] >= price else DIM)


def draw_statue(pan: Panel, s, e: int) -> None:
    """The living statue (STATUE-1..2): its price to name an item, its mending price."""
    f = int(s.floor[e])
    pan.line("LIVING STATUE", CYAN)
    pan.line(f"posted price {s.statue_price[e, f]} gold to name an item", WHITE)
    pan.line("bid 1-4 quarters of it on an unknown item;", GREY)
    pan.line("too little and it breaks the item", GREY)
    pan.line(f"mends wounds for {10 * f} gold a hit point", WHITE)


def draw_choice(pan: Panel, s, e: int) -> None:
    """The level choice owed (CHOICE-1): who owes it and the class's options at that level."""
    for m in range(MAX_MEMBERS):
        cls = int(s.cls[e, m])
        if not s.in_party[e, m] or cls < 0 or cls >= len(CLASS_OPTIONS):
            continue
        for level in (2, 3):
            options = CLASS_OPTIONS[cls][level - 2]
            if s.level[e, m] >= level and s.options[e, m, level - 2] < 0 and options:
                pan.line(f"LEVEL {level}: the {CLASS_NAMES[cls]} chooses", YELLOW)
                for o, name in enumerate(options):
                    pan.line(f"  {o + 1}. {name}", WHITE)
                return


def draw_here(pan: Panel, s, e: int) -> None:
    """Exploring: what the room here holds, and the map's legend."""
    f = int(s.floor[e])
    if f == 0:
        pan.line("COURTYARD: the stair down, the store,", GREY)
        pan.line("the training ground (practice bouts)", GREY)
        return
    r = int(s.room_of[e, f, s.y[e], s.x[e]])
    if r >= 0:
        held = []
        if s.room_gold[e, f, r] > 0:
            held.append(f"{s.room_gold[e, f, r]} gold")
        held += [item_label(s, e, k) for k in s.room_items[e, f, r] if k > 0]
        if (s.room_pages[e, f, r] >= 0).any():
            held.append("spell pages")
        if s.room_map[e, f, r]:
            held.append("the floor's map")
        if s.room_chest[e, f, r] in (CHEST_SHUT, CHEST_TRAPPED):
            held.append("a chest")
        feature = int(s.room_feature[e, f, r])
        if feature:
            held.append(FEATURE_NAMES[feature])
        pan.wrap(f"room {r + 1}: " + (", ".join(held) or "nothing left"), WHITE, lines=2)
    pan.gap()
    legend = (("@", YELLOW, "party"), ("g", (255, 210, 200), "band"), ("$", GOLD, "gold"),
              ("!", CYAN, "item"), ("?", WHITE, "page"), ("%", GREEN, "map"),
              ("=", ORANGE, "chest"), ("S", WHITE, "store"), ("Y", WHITE, "statue"),
              ("~", WHITE, "bath"), (">", WHITE, "down"), ("<", WHITE, "up"))  # fmt: skip
    for row in range(0, len(legend), 6):
        x = pan.x
        y = pan.y
        for ch, colour, name in legend[row : row + 6]:
            x = text(pan.img, x, y, ch, colour)
            x = text(pan.img, x + 2, y, name, GREY) + 8
        pan.y += LINE


def draw_news(pan: Panel, s, e: int) -> None:
    """The last step's events, and the keeper's words when he spoke (SIX-2), at the bottom."""
    events = [name for i, name in enumerate(EVENT_NAMES) if (s.events[e] >> i) & 1]
    said = [HINTS[k] for k in range(len(HINTS)) if (int(s.keeper_new[e]) >> k) & 1]
    bottom = pan.img.shape[0] - MARGIN
    need = (LINE if events else 0) + (4 * LINE if said else 0)
    pan.y = max(pan.y + 4, bottom - need)
    if events:
        pan.wrap("events: " + ", ".join(events), ORANGE, lines=1)
    if said:
        pan.wrap("Sixpence: " + said[0], CYAN, lines=4)


def render_rgb(s, p, e: int = 0) -> np.ndarray:
    """The picture of slot e: the map at the left, the panel at the right (frame_shape)."""
    h, w = s.tiles.shape[2], s.tiles.shape[3]
    img = np.zeros(frame_shape(h, w), dtype=np.uint8)
    draw_map(img, s, e)
    img[:, w * TILE :] = PANEL_BG
    img[:, w * TILE : w * TILE + 2] = (70, 64, 80)
    pan = Panel(img, w * TILE + 2)
    draw_head(pan, s, e)
    pan.gap()
    draw_party(pan, s, p, e)
    pan.gap(6)
    mode = int(s.mode[e])
    if mode == FIGHT:
        draw_fight(pan, s, e)
    elif mode == WALL:
        draw_wall(pan, s, e)
    elif mode == PLATE:
        draw_plate(pan, s, e)
    elif mode == STORE:
        draw_store(pan, s, p, e)
    elif mode == STATUE:
        draw_statue(pan, s, e)
    elif mode == CHOICE:
        draw_choice(pan, s, e)
    elif mode == BATH:
        pan.line("BATH OF FATES", CYAN)
    else:
        draw_here(pan, s, e)
    draw_news(pan, s, e)
    return img
