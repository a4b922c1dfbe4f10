"""The observation's layout: one uint8 record per env, cut into the Dict's keys.

Every value of the observation is a small unsigned integer (a code, a count or a capped
amount) in one `OBS_BYTES`-long uint8 record per env, so the engine writes one contiguous row
per env and the vector env hands it out with one copy. The Gymnasium Dict (`map`, `party`,
`status`, `fight`, `puzzle`, `pack`, `shop`, `magic`, `bestiary`) is a set of views into that
record (`KEYS`).

Each field below is declared once with its range and meaning; compiled code indexes the
record with the returned offsets, `docs/OBSERVATION.md` and the `DelveEnv` docstring are
generated from the same declarations (`python -m delve_env.engine.outputs.layout` prints the table,
and a test keeps the docs equal to it). `FloatObservation` (delve_env/wrappers.py) divides
each value by its field's high to give float32 in [0, 1].
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.tables import (
    MAX_FOES,
    MAX_MEMBERS,
    MAX_OPTIONS,
    MAX_PLATE,
    MAX_STOCK,
    MAX_SYMBOLS,
    NUM_CLASSES,
    NUM_ITEM_SLOTS,
    NUM_ITEMS,
    NUM_KEEPER_EVENTS,
    NUM_LOOKS,
    NUM_MODES,
    NUM_MONSTERS,
    NUM_NAMES,
    NUM_POWERS,
    NUM_SPELLS,
    NUM_STORE_LEVELS,
    RATIONS_CODE,
    VIEW,
    WALL_HISTORY,
    WALL_RINGS,
)

CAP = 255  # amounts past this read as 255


@dataclass
class Key:
    """One key of the observation Dict: `rows` rows of the fields added to it."""

    name: str
    rows: tuple[int, ...] = ()  # leading shape (e.g. one row per member slot)
    what: str = ""
    fields: list[tuple[int, int, str, int, str]] = field(default_factory=list)
    size: int = 0  # values per row
    nested: dict[int, tuple[Key, int]] = field(default_factory=dict)  # offset -> rows of a key

    def add(self, name: str, high: int, meaning: str, count: int = 1) -> int:
        """Declare `count` values named `name` in [0, high]; returns their offset in a row."""
        at = self.size
        self.fields.append((at, count, name, high, meaning))
        self.size += count
        return at

    def add_rows(self, name: str, key: Key, count: int, meaning: str) -> int:
        """Declare `count` rows of another key's fields; returns their offset."""
        at = self.add(name, int(key.highs().max()), meaning, count * key.size)
        self.nested[at] = (key, count)
        return at

    @property
    def shape(self) -> tuple[int, ...]:
        return (*self.rows, self.size)

    @property
    def nbytes(self) -> int:
        return int(np.prod(self.shape))

    def table(self, heading: str) -> list[str]:
        """Markdown lines of the key's fields (index, name, range, meaning) under `heading`."""
        index = "last axis" if self.rows else "index"
        lines = ["", f"### {heading} {self.shape}", "", f"| {index} | field | range | meaning |",
                 "|---|---|---|---|"]  # fmt: skip
        for at, count, name, high, meaning in self.fields:
            where = str(at) if count == 1 else f"{at}-{at + count - 1}"
            lines.append(f"| {where} | {name} | 0-{high} | {meaning} |")
        return lines

    def highs(self) -> np.ndarray:
        """The high of every value of one row, in order."""
        out = np.zeros(self.size, dtype=np.uint8)
        for at, count, _, high, _ in self.fields:
            out[at : at + count] = high
        for at, (key, count) in self.nested.items():
            out[at : at + count * key.size] = np.tile(key.highs(), count)
        return out


# --- map: the egocentric crop and the coarse floor view ---------------------------------------
CROP = VIEW  # the crop is CROP x CROP tiles, the party in the middle
# crop codes: 0 fog, 1 + tile (tables.ROCK .. STAIR_UP; a secret door shows as rock until found,
# then as 1 + SECRET), then these
OFF_MAP, BAND_HERE, LOOT_HERE = 8, 9, 10
MAX_MAP_CODE = 10
# coarse codes: the most telling thing seen in each block (moving.COARSE_*), then the party
COARSE_PARTY = 5
MAP = Key("map", (2, CROP), "channel 0: the crop around the party; channel 1: the whole floor")
MAP_CELL = MAP.add(
    "tile", MAX_MAP_CODE, "channel 0, one tile each: 0 fog, 1 rock (or an unfound secret "
    "door), 2 hall, 3 room, 4 door, 5 a found secret door (SECRET-2), 6 stair down, 7 stair "
    "up, 8 off the map, 9 an entered (or heard) room's band, or on its tile a wandering band "
    "fled from (RUN-AWAY-1), 10 an entered room's loot. Channel 1, one block of the floor "
    "each: 0 unseen, 1 seen, 2 room, 3 stair down, 4 stair up, 5 the party",
    count=CROP,
)  # fmt: skip

# --- party: one row per member slot (slot 4 is the king) ---------------------------------------
PARTY = Key("party", (MAX_MEMBERS,), "one row per member slot; slot 5 is the king")
PARTY_MEMBER = PARTY.add("member", 1, "the slot holds a member")
PARTY_STANDING = PARTY.add("standing", 1, "alive (HP at least 1)")
PARTY_HP = PARTY.add("hp", CAP, "hit points")
PARTY_CEILING = PARTY.add("ceiling", CAP, "hit point ceiling (HP-1)")
PARTY_MANA = PARTY.add("mana", CAP, "mana")
PARTY_WELL = PARTY.add("well", CAP, "mana well")
PARTY_LEVEL = PARTY.add("level", CAP, "level")
PARTY_XP = PARTY.add("xp", 100, "percent of the XP the next level costs (XP-3)")
PARTY_CLASS = PARTY.add(
    "class", 1, "one-hot: hero, rogue, wizard, cleric, namer, king", count=NUM_CLASSES
)
PARTY_LUCK = PARTY.add("luck", 3, "luck dice left (LUCK-1)")
PARTY_RAISED = PARTY.add("raised", 3, "times raised (RAISE-1)")
PARTY_POSITION = PARTY.add("position", MAX_MEMBERS, "marching position 1..5 (PARTY-2)")
PARTY_ACTING = PARTY.add("acting", 1, "this member acts now (ROUND-1)")
PARTY_DAMAGE = PARTY.add("damage", CAP, "mean damage of the ready weapon, in half points")
PARTY_ARMOR = PARTY.add("armor", CAP, "shield + armor AV left (DMG-1)")
PARTY_ATTACK = PARTY.add("attack", CAP, "attack bonus")
PARTY_BATHED = PARTY.add("bathed", 1, "bathed in this room's Bath of Fates (BATH-1)")

# --- status: the run ---------------------------------------------------------------------------
STATUS = Key("status", (), "the run: mode, floor, purse, clock, quest, where the party stands")
STATUS_MODE = STATUS.add(
    "mode", 1, "one-hot: explore, fight, wall, plate, store, statue, bath, choice",
    count=NUM_MODES,
)  # fmt: skip
STATUS_FLOOR = STATUS.add("floor", 12, "floor, 0 the courtyard")
STATUS_DEPTH = STATUS.add("depth", 12, "the dungeon's depth D")
STATUS_GOLD = STATUS.add("gold", CAP, "party gold in fives (gold // 5)")
STATUS_RATIONS = STATUS.add("rations", CAP, "party rations")
STATUS_MEAL = STATUS.add("meal", CAP, "paces to the next meal")
STATUS_EFFECTS = STATUS.add("effects", CAP, "WARD, ESP, SATED, LIGHT paces left", count=4)
STATUS_MAP_HELD = STATUS.add("map held", 1, "the map of this floor is held")
STATUS_BOOK = STATUS.add("book", 1, "the spellbook is held")
STATUS_KING = STATUS.add("king", 1, "the king is in the party")
STATUS_HUNTING = STATUS.add("hunting", 1, "bands are hunting (RUN-6)")
STATUS_PAGES = STATUS.add("pages", CAP, "spell pages held or in the book")
STATUS_ON_DOWN = STATUS.add("on stair down", 1, "the party stands on the stair down")
STATUS_ON_UP = STATUS.add("on stair up", 1, "the party stands on the stair up")
STATUS_STAIR_OPEN = STATUS.add("stair open", 1, "the stair down here opens (MAP-5)")
STATUS_IN_ROOM = STATUS.add("in room", 1, "the party stands in a room")
STATUS_LOOT = STATUS.add("loot here", 1, "the room holds loot to take")
STATUS_DEEPEST_MAP = STATUS.add("deepest map", 12, "the deepest floor whose map is held")
STATUS_HOURS = STATUS.add("hours", CAP, "hours walked (pace // 60)")
STATUS_COURTYARD = STATUS.add("courtyard", 1, "the party is in the courtyard")
STATUS_SEL_MEMBER = STATUS.add(
    "selected member", MAX_MEMBERS, "member slot + 1 whose item is selected (PARTY-4), 0 none"
)
STATUS_SEL_SLOT = STATUS.add(
    "selected slot", NUM_ITEM_SLOTS, "the selected item slot + 1 (1-3 worn, 4-11 pack), 0 none"
)
STATUS_WARD_FOUL = STATUS.add("ward foul", 1, "WARD runs from the foul lantern (bad: 2x wandering)")
STATUS_FEATURE = STATUS.add(
    "room holds", 3, "the party's room holds 0 nothing, 1 a store, 2 a living statue, 3 a bath"
)
STATUS_CHEST = STATUS.add("chest", 2, "the party's room holds 1 a shut chest, 2 an open one")
STATUS_STATUE_PRICE = STATUS.add(
    "statue price", CAP, "the party's room's living statue's posted price in fives (STATUE-1)"
)
STATUS_PRACTICE = STATUS.add("practice", 1, "the fight is a practice bout (COURT-2)")
STATUS_HEARD = STATUS.add(
    "heard", NUM_MONSTERS, "kinds + 1 of the band heard behind the party's door (LISTEN-1), "
    "0 none heard", count=2,
)  # fmt: skip

STATUS_PAGES_HELD = STATUS.add(
    "pages held", CAP, "pages of each spell held before the book (PAGE-1)", count=NUM_SPELLS
)
STATUS_BOOK_PAGES = STATUS.add(
    "book pages", CAP, "pages of each spell in the book (PAGE-2)", count=NUM_SPELLS
)
STATUS_CASTER = STATUS.add("caster", MAX_MEMBERS, "member slot + 1 choosing a power, 0 none")
STATUS_POWER = STATUS.add(
    "power", NUM_POWERS, "the power + 1 chosen, waiting for a target (tables.POWER_NAMES), 0 none"
)
STATUS_CHOICE_MEMBER = STATUS.add(
    "choice member", MAX_MEMBERS, "member slot + 1 who owes a level option (CHOICE-1), 0 none"
)
STATUS_CHOICE_LEVEL = STATUS.add("choice level", 3, "the level whose option is owed, 0 none")
STATUS_CHOICE_OPTIONS = STATUS.add(
    "choice options", 1, "which options (tables.CLASS_OPTIONS) may be taken", count=MAX_OPTIONS
)
STATUS_KEEPER = STATUS.add(
    "keeper", NUM_KEEPER_EVENTS, "Sixpence's event + 1 (tables.KEEPER_EVENTS) the last step "
    "brought, the first if several; its gift came with it unless it waits (SIX-1); 0 none",
)  # fmt: skip
STATUS_GIFTS_OWED = STATUS.add(
    "gifts owed", NUM_KEEPER_EVENTS, "Sixpence's gifts waiting for pack room"
)

# --- magic: what each member can cast and what is on it ----------------------------------------
MAGIC = Key("magic", (MAX_MEMBERS,), "one row per member slot: powers, names, magic on it")
MAGIC_POWER = MAGIC.add(
    "power", 9, "per power (tables.POWER_NAMES): its mana cost + 1 if the member has it ready "
    "(learned, chosen, not spent this floor), 0 not", count=NUM_POWERS,
)  # fmt: skip
MAGIC_NAMES = MAGIC.add("names", 1, "true names known (tables.TRUE_NAMES, NAME-1)", count=NUM_NAMES)
MAGIC_HIDDEN = MAGIC.add("hidden", 1, "hidden: not aimed at until it attacks (MON-2)")
MAGIC_INVISIBLE = MAGIC.add("invisible", 1, "invisible until it attacks or casts (MON-2)")
MAGIC_BLESSED = MAGIC.add("blessed", 1, "+d6 to its d20 rolls this fight (bless)")
MAGIC_PRIMED = MAGIC.add(
    "primed", 1, "set for the next blow: ferocious, double, focus, dodge, smite, grow sword",
    count=6,
)  # fmt: skip
MAGIC_WAND = MAGIC.add("wand", 3, "wand casts left this floor (Wizard, wand magic)")
MAGIC_OPTIONS = MAGIC.add(
    "options", MAX_OPTIONS, "option + 1 taken at levels 2 and 3 (CLASS-1), 0 none", count=2
)

# --- fight: one row per foe, then the fight ----------------------------------------------------
FOE = Key("foe", (MAX_FOES,))
FOE_ALIVE = FOE.add("alive", 1, "a living foe in this row")
FOE_KIND = FOE.add("kind", NUM_MONSTERS, "monster kind + 1 (tables.MONSTER_NAMES)")
FOE_HP = FOE.add("hearts", CAP, "hearts left")
FOE_MAX = FOE.add("max hearts", CAP, "hearts at full")
FOE_ATTACK = FOE.add("attack", CAP, "attack bonus")
FOE_RANGED = FOE.add("ranged", 1, "attacks from range (never counters)")
FOE_UNDEAD = FOE.add("undead", 1, "undead or fiend")
FOE_EATER = FOE.add("eater", 1, "eats metal or armor")
FOE_MARKED = FOE.add("marked", 1, "marked: attacks on it have advantage (guiding bolt)")
FOE_BLIND = FOE.add("blind", 1, "blinded or cursed: it strikes with disadvantage")
FOE_BOUND = FOE.add("bound", 1, "bound: it loses its next blow")
FIGHT = Key("fight", (), "six foe rows of the `foe` fields, then the fight's own values")
FIGHT_FOES = FIGHT.add_rows("foes", FOE, MAX_FOES, f"{MAX_FOES} rows of the `foe` fields")
FIGHT_BRIBE_CHANCE = FIGHT.add("bribe chance", 100, "the band's bribe chance in percent (BRIBE-1)")
FIGHT_BRIBE_PRICE = FIGHT.add("bribe price", CAP, "the bribe's price in fives of gold")
FIGHT_ROUND = FIGHT.add("round", CAP, "the round, from 1")
FIGHT_SNEAK = FIGHT.add("sneak", 1, "one member sneaked in and acts alone (SNEAK-1)")
FIGHT_BRIBE_ASKED = FIGHT.add("bribe asked", 1, "the band was asked for a bribe (BRIBE-1)")
FIGHT_GOODWILL = FIGHT.add("goodwill", 1, "a goodwill scroll was read this fight (BRIBE-3)")
FIGHT_ALLY = FIGHT.add(
    "ally",
    NUM_MONSTERS + 1,
    "the summoned ally's monster kind + 1, NUM_MONSTERS + 1 a familiar, 0 none",
)
FIGHT_ALLY_HP = FIGHT.add("ally hearts", CAP, "the ally's hearts")
FIGHT_DECOYS = FIGHT.add("decoys", CAP, "illusions that take the band's next blows")
FIGHT_HOLY_SWORD = FIGHT.add(
    "holy sword", MAX_MEMBERS, "member + 1 whose holy sword fights, 0 none"
)
FIGHT_CHARGING = FIGHT.add("charging", 1, "charge!: the members' attacks have advantage this round")

# --- puzzle: the vault lock of the room the party stands in ---------------------------------
PUZZLE = Key("puzzle", (), "the vault lock of the room the party stands in, else zeros")
PUZZLE_RINGS = PUZZLE.add(
    "rings set", MAX_SYMBOLS, "symbol + 1 of each ring set so far", count=WALL_RINGS
)
PUZZLE_HISTORY = PUZZLE.add(
    "guesses", MAX_SYMBOLS, "the last guesses, latest first: three rings (symbol + 1) and the "
    "rings right + 1; zeros where no guess", count=WALL_HISTORY * (WALL_RINGS + 1),
)  # fmt: skip
PUZZLE_BEST = PUZZLE.add(
    "best guess", MAX_SYMBOLS, "the guess shown with the most rings right (the latest of "
    "equals): three rings (symbol + 1) and the rings right + 1; zeros before a guess",
    count=WALL_RINGS + 1,
)  # fmt: skip
PUZZLE_LIT = PUZZLE.add("lit", 1, "plate cells lit, row-major", count=MAX_PLATE * MAX_PLATE)
PUZZLE_PUSHED = PUZZLE.add(
    "pushed", 1, "plate cells pushed an odd number of times", count=MAX_PLATE * MAX_PLATE
)
PUZZLE_SYMBOLS = PUZZLE.add("symbols", MAX_SYMBOLS, "symbols a ring (wall), else 0")
PUZZLE_SIZE = PUZZLE.add("plate size", MAX_PLATE, "n of the n x n plate, else 0")
PUZZLE_HINT_PRICE = PUZZLE.add("hint price", CAP, "a hint's price in fives of gold")
PUZZLE_HINT = PUZZLE.add("hint", MAX_PLATE * MAX_PLATE, "the cell a hint shows + 1, 0 none")
PUZZLE_AGREEING = PUZZLE.add(
    "agreeing symbols", 1, "wall: per symbol, whether setting it on the next ring keeps the "
    "guess in agreement with every guess shown (it could still be the combination)",
    count=MAX_SYMBOLS,
)  # fmt: skip
PUZZLE_CANDIDATES = PUZZLE.add(
    "candidates", CAP, "wall: combinations that agree with every guess shown (capped at 255)"
)

# --- pack: every item slot of every member --------------------------------------------------
PACK = Key(
    "pack", (MAX_MEMBERS, NUM_ITEM_SLOTS), "slots 0-2 worn (ready, off hand, armor), 3-10 the pack"
)
PACK_KIND = PACK.add(
    "kind", NUM_ITEMS - 2 + NUM_LOOKS, f"item kind (tables.ITEM_NAMES), 0 empty; an unknown item "
    f"shows its look: {NUM_ITEMS} bottle, {NUM_ITEMS + 1} scroll, {NUM_ITEMS + 2} lantern (ITEM-2)",
)  # fmt: skip
PACK_KNOWN = PACK.add("known", 1, "the item's kind is known (ITEM-2)")
PACK_WEAR = PACK.add("wear", CAP, "damage or AV lost to eaters")
PACK_DV = PACK.add("durability", CAP, "durability left (DMG-1)")

# --- shop: the store the party is in (STORE-1..2), one row per line of its list, then its own
LINE = Key("line", (MAX_STOCK,))
LINE_ITEM = LINE.add(
    "item", RATIONS_CODE, f"0 no line, 1-{NUM_ITEMS - 1} the item kind (tables.ITEM_NAMES), "
    f"{RATIONS_CODE} ten rations (line 0)",
)  # fmt: skip
LINE_PRICE = LINE.add("price", CAP, "the line's price in fives of gold, rounded up")
LINE_BUYABLE = LINE.add("buyable", 1, "the gold covers it and it has somewhere to go")
SHOP = Key("shop", (), "the store the party is in: its list, then its own values; else zeros")
SHOP_LINES = SHOP.add_rows("lines", LINE, MAX_STOCK, f"{MAX_STOCK} rows of the `line` fields")
SHOP_LEVEL = SHOP.add(
    "level", NUM_STORE_LEVELS, "the store's level + 1: 1 the courtyard's, 2-5 floors 3, 6, 9, 12"
)
SHOP_FACTOR = SHOP.add("factor", 6, "the price factor in halves (2 = 1.0 ... 6 = 3.0)")
SHOP_SELL = SHOP.add(
    "sell price", CAP, "what the selected item sells for, in fives of gold rounded up; 0 none"
)
SHOP_REPAIR = SHOP.add(
    "repair price", CAP, "what repairing the selected item costs, in fives rounded up; 0 none"
)

# --- bestiary: one row per monster kind, what the party met and learned (VIEW-1, issue 10) ---
BESTIARY = Key("bestiary", (NUM_MONSTERS,), "one row per monster kind (tables.MONSTER_NAMES)")
BEST_MET = BESTIARY.add("met", CAP, "fights with the kind, and its bands heard at doors")
BEST_KILLED = BESTIARY.add("killed", CAP, "of the kind killed by the party or its ally")
BEST_LEARNED = BESTIARY.add(
    "learned", 1, "seen: eats metal, eats armor, drains the ceiling, drains XP, steals food, "
    "undead or fiend, ranged (the last two once met in a fight; the rest once done to the "
    "party)", count=7,
)  # fmt: skip

KEYS = (MAP, PARTY, STATUS, FIGHT, PUZZLE, PACK, SHOP, MAGIC, BESTIARY)  # the Dict's keys, in order
OFFSETS = {}
_at = 0
for _key in KEYS:
    OFFSETS[_key.name] = _at
    _at += _key.nbytes
OBS_BYTES = _at
# plain ints for compiled code: where each key starts, its bytes, the size of a row
MAP_AT, PARTY_AT, STATUS_AT, FIGHT_AT, PUZZLE_AT, PACK_AT, SHOP_AT, MAGIC_AT, BESTIARY_AT = (
    OFFSETS[k.name] for k in KEYS
)
(MAP_BYTES, PARTY_BYTES, STATUS_BYTES, FIGHT_BYTES, PUZZLE_BYTES, PACK_BYTES, SHOP_BYTES,
 MAGIC_BYTES, BESTIARY_BYTES) = (k.nbytes for k in KEYS)  # fmt: skip
PARTY_ROW, FOE_ROW, PACK_ROW, LINE_ROW, MAGIC_ROW, BEST_ROW = (
    PARTY.size, FOE.size, PACK.size, LINE.size, MAGIC.size, BESTIARY.size
)  # fmt: skip


# each key's columns of the record, and its shape where its columns are not that already
_CUTS = tuple((k.name, slice(OFFSETS[k.name], OFFSETS[k.name] + k.nbytes),
               k.shape if len(k.shape) > 1 else None) for k in KEYS)  # fmt: skip


def views(record: np.ndarray) -> dict[str, np.ndarray]:
    """The Dict of views into `record` (shape (..., OBS_BYTES)), one per key. (The vector env
    makes these every step: a flat key's columns go unreshaped, and a shape is one tuple.)"""
    lead = record.shape[:-1]
    return {name: record[..., cols] if shape is None else record[..., cols].reshape(lead + shape)
            for name, cols, shape in _CUTS}  # fmt: skip


def highs() -> dict[str, np.ndarray]:
    """Per key, the high of every value, shaped like the key (the Box's upper bounds)."""
    return {k.name: np.broadcast_to(k.highs(), k.shape).copy() for k in KEYS}


def markdown() -> str:
    """The layout as markdown tables: every field's index, name, range and meaning."""
    lines = [
        f"Every key is uint8; one env's observation is one {OBS_BYTES}-byte record "
        "(`delve_env.engine.outputs.layout`).",
        "",
        "| key | shape | what |",
        "|---|---|---|",
    ]
    lines += [f"| `{k.name}` | {k.shape} | {k.what} |" for k in KEYS]
    tables = []
    for k in KEYS:  # a key's nested rows (fight's foes, shop's lines) come just before it
        tables += [rows for rows, _ in k.nested.values()] + [k]
    for k in tables:
        lines += k.table(f"`{k.name}`")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
