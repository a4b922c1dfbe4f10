"""Text rendering of one env slot: the remembered floor, the party, the fight. Reads state only."""

from .engine.observe import armor_value
from .engine.party import level_cost
from .engine.tables import (
    CLASS_NAMES,
    EVENT_NAMES,
    ITEM_NAMES,
    MAX_FOES,
    MAX_MEMBERS,
    MODE_NAMES,
    MONSTER_NAMES,
    READY,
    ROCK,
    SECRET,
)

GLYPHS = "#.,++><"  # rock, hall, room, door, secret door (once found it is a door), stairs


def render_floor(s, e: int) -> list[str]:
    """The floor as the party remembers it: '@' the party, 'M' a known band, '$' known loot."""
    f = int(s.floor[e])
    tiles, seen, room_of = s.tiles[e, f], s.seen[e, f], s.room_of[e, f]
    rows = []
    for y in range(tiles.shape[0]):
        row = []
        for x in range(tiles.shape[1]):
            tile = tiles[y, x]
            r = room_of[y, x]
            if x == s.x[e] and y == s.y[e]:
                row.append("@")
            elif not seen[y, x]:
                row.append(" ")
            elif r >= 0 and s.room_entered[e, f, r] and s.band_kind[e, f, r, 0] >= 0:
                row.append("M")
            else:
                row.append(GLYPHS[ROCK if tile == SECRET else tile])
        rows.append("".join(row))
    return rows


def render_party(s, p, e: int) -> list[str]:
    lines = []
    for pos in range(MAX_MEMBERS):
        m = int(s.order[e, pos])
        if m < 0:
            continue
        state = "dead" if s.hp[e, m] <= 0 else f"HP {s.hp[e, m]}/{s.ceiling[e, m]}"
        acting = "*" if s.mode[e] == 1 and s.actor[e] == pos else " "
        weapon = ITEM_NAMES[s.item[e, m, READY]] or "bare hands"
        lines.append(
            f"{acting}{pos + 1}. {CLASS_NAMES[s.cls[e, m]]:<7} {state:<11} "
            f"mana {s.mana[e, m]}/{s.well[e, m]}  L{s.level[e, m]} "
            f"XP {s.xp[e, m]}/{level_cost(p, s.level[e, m])}  luck {s.luck[e, m]}  "
            f"{weapon}, AV {armor_value(s, e, m)}"
        )
    return lines


def render_fight(s, e: int) -> list[str]:
    foes = [
        f"{k + 1}. {MONSTER_NAMES[s.foe_kind[e, k]]} {s.foe_hp[e, k]}/{s.foe_max[e, k]}"
        for k in range(MAX_FOES)
        if s.foe_kind[e, k] >= 0 and s.foe_hp[e, k] > 0
    ]
    return [f"FIGHT, round {s.fight_round[e]}: " + "  ".join(foes)]


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
    if s.mode[e] == 1:
        lines += render_fight(s, e)
    lines += render_party(s, p, e)
    events = [name for i, name in enumerate(EVENT_NAMES) if (s.events[e] >> i) & 1]
    if events:
        lines.append("events: " + ", ".join(events))
    return "\n".join(lines)
