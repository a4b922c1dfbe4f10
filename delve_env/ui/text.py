"""The text view of one env slot: the remembered floor, the party, the fight, the lock, the
store (`ui.picture` draws the same as an image). Reads the state only, and draws nothing from
the game's RNG."""

import numpy as np

from ..engine.compiled.jit import interpreted
from ..engine.core.actions import slot_name
from ..engine.core.state import FOUND_CODE
from ..engine.core.tables import (
    CLASS_NAMES,
    EFFECT_NAMES,
    EVENT_NAMES,
    FIGHT,
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
    ROCK,
    SECRET,
    STATUE,
    STORE,
    WALL,
    WARD,
)
from ..engine.outputs.observe import armor_value
from ..engine.rules.party import is_known, level_cost
from ..engine.rules.stores import can_buy, line_kind, line_price, store_level
from ..engine.rules.vaults import hint_price, num_symbols, plate_size

GLYPHS = "#.,+=><"  # rock, hall, room, door, found secret door, stairs (an unfound one is rock)


def map_codes(s, e: int, f: int) -> np.ndarray:
    """Floor f as the party remembers it (MAP-4), one atlas code a tile: 0 unseen, else 1 +
    the tile, an unfound secret door as rock, a found one `state.FOUND_CODE` (SECRET-2)."""
    tiles, fog = s.tiles[e, f], s.fog[e, f]
    codes = np.where(fog > 0, np.where(tiles == SECRET, ROCK, tiles).astype(np.int64) + 1, 0)
    codes[fog == FOUND_CODE] = FOUND_CODE
    return codes


def render_floor(s, e: int) -> list[str]:
    """The floor as the party remembers it: '@' the party, 'M' a known band, '$' known loot."""
    f = int(s.floor[e])
    codes, room_of = map_codes(s, e, f), s.room_of[e, f]
    rows = []
    for y in range(codes.shape[0]):
        row = []
        for x in range(codes.shape[1]):
            r = room_of[y, x]
            if x == s.x[e] and y == s.y[e]:
                row.append("@")
            elif codes[y, x] == 0:
                row.append(" ")
            elif r >= 0 and s.room_entered[e, f, r] and s.band_kind[e, f, r, 0] >= 0:
                row.append("M")
            else:
                row.append(GLYPHS[codes[y, x] - 1])
        rows.append("".join(row))
    return rows


def item_name(s, e: int, kind: int) -> str:
    """What an item of `kind` shows as: its name, or its look while unknown (ITEM-2)."""
    return ITEM_NAMES[kind] if interpreted(is_known)(s, e, kind) else LOOK_NAMES[LOOK[kind]]


def render_effects(s, e: int) -> list[str]:
    """EFFECT-1: each running effect with its paces left, good or bad."""
    running = []
    for k, name in enumerate(EFFECT_NAMES):
        if s.effects[e, k] > 0:
            foul = k == WARD and s.ward_foul[e]
            what = "foul lantern, bad" if foul else "good"
            running.append(f"{name} {s.effects[e, k]} paces ({what})")
    return ["effects: " + ", ".join(running)] if running else []


def render_party(s, p, e: int) -> list[str]:
    lines = []
    for pos in range(MAX_MEMBERS):
        m = int(s.order[e, pos])
        if m < 0:
            continue
        state = "dead" if s.hp[e, m] <= 0 else f"HP {s.hp[e, m]}/{s.ceiling[e, m]}"
        acting = "*" if s.mode[e] == FIGHT and s.actor[e] == pos else " "
        weapon = ITEM_NAMES[s.item[e, m, READY]] or "bare hands"
        lines.append(
            f"{acting}{pos + 1}. {CLASS_NAMES[s.cls[e, m]]:<7} {state:<11} "
            f"mana {s.mana[e, m]}/{s.well[e, m]}  L{s.level[e, m]} "
            f"XP {s.xp[e, m]}/{level_cost(p, s.level[e, m])}  luck {s.luck[e, m]}  "
            f"{weapon}, AV {armor_value(s, e, m)}"
        )
    if s.sel_member[e] >= 0:  # PARTY-4: an item is held for the next action
        m, slot = int(s.sel_member[e]), int(s.sel_slot[e])
        lines.append(
            f"selected: {CLASS_NAMES[s.cls[e, m]]}'s {slot_name(slot)} "
            f"({item_name(s, e, s.item[e, m, slot])}): "
            + ("sell, repair or put back" if s.mode[e] == STORE else "give, use, wear or put back")
        )
    return lines


def render_fight(s, e: int) -> list[str]:
    foes = [
        f"{k + 1}. {MONSTER_NAMES[s.foe_kind[e, k]]} {s.foe_hp[e, k]}/{s.foe_max[e, k]}"
        for k in range(MAX_FOES)
        if s.foe_kind[e, k] >= 0 and s.foe_hp[e, k] > 0
    ]
    return [f"FIGHT, round {s.fight_round[e]}: " + "  ".join(foes)]


def render_lock(s, e: int) -> list[str]:
    """The vault lock being worked: the wall's guesses, or the plate ('*' lit, 'o' pushed)."""
    f = int(s.floor[e])
    worker = CLASS_NAMES[s.cls[e, s.worker[e]]]
    if s.mode[e] == WALL:
        rings = [str(s.wall_set[e, f, i]) for i in range(s.wall_num_set[e, f])]
        lines = [f"TUMBLER WALL ({num_symbols(f)} symbols a ring), worked by the {worker}: "
                 f"rings set [{' '.join(rings)}]"]  # fmt: skip
        for guess in s.wall_history[e, f]:
            if guess[0] >= 0:
                lines.append(f"  guess {guess[0]} {guess[1]} {guess[2]} -> {guess[3]} right")
        return lines
    n = plate_size(f)
    lines = [f"LOCK PLATE {n}x{n}, worked by the {worker}; hint costs {hint_price(s, e)} gold"]
    for r in range(n):
        cells = []
        for c in range(n):
            mark = "*" if s.plate_lit[e, f, r, c] else "."
            cells.append(mark + ("o" if s.plate_pushed[e, f, r, c] else " "))
        lines.append("  " + " ".join(cells))
    if s.plate_hint[e, f] >= 0:
        lines.append(f"  hint: push cell {s.plate_hint[e, f]}")
    return lines


def render_store(s, p, e: int) -> list[str]:
    """The store's list (STORE-1..2): each line's price, '*' where it can be bought now."""
    level = store_level(s, e)
    where = "the courtyard's store" if level == 0 else f"the store of floor {s.floor[e]}"
    lines = [f"STORE: {where}, prices x {(level + 2) / 2:.1f}; sells at half price, repairs"]
    for k in range(MAX_STOCK):
        kind = line_kind(level, k)
        if kind == 0:
            continue
        name = "ten rations" if kind == RATIONS_CODE else ITEM_NAMES[kind]
        mark = "*" if can_buy(s, p, e, k) else " "
        lines.append(f" {mark}{k:>2}. {name:<16} {line_price(level, k):>4} gold")
    return lines


def render_text(s, p, e: int = 0) -> str:
    """The whole screen of slot e as text."""
    f = int(s.floor[e])
    where = "the courtyard" if f == 0 else f"floor {f} of {s.floor_visited.shape[1] - 1}"
    quest = [n for n, held in (("book", s.has_book[e]), ("king", s.has_king[e])) if held]
    head = (
        f"Delve - {where} - {MODE_NAMES[s.mode[e]]} - pace {s.pace[e]} - gold {s.gold[e]} - "
        f"rations {s.rations[e]} - holding: {', '.join(quest) or 'nothing yet'}"
        + (" - HUNTED" if s.hunting[e] else "")
    )
    lines = [head]
    if f > 0:
        lines += render_floor(s, e)
    if s.mode[e] == FIGHT:
        lines += render_fight(s, e)
    if s.mode[e] in (WALL, PLATE):
        lines += render_lock(s, e)
    if s.mode[e] == STATUE:
        lines.append(f"LIVING STATUE: posted price {s.statue_price[e, f]} gold; mending "
                     f"{10 * f} gold a hit point")  # fmt: skip
    if s.mode[e] == STORE:
        lines += render_store(s, p, e)
    lines += render_effects(s, e)
    lines += render_party(s, p, e)
    events = [name for i, name in enumerate(EVENT_NAMES) if (s.events[e] >> i) & 1]
    if events:
        lines.append("events: " + ", ".join(events))
    return "\n".join(lines)
