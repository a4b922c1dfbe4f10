"""The flat action space: one table of action families, one Discrete index per action.

`FAMILIES` is the one place an action family is written: a row gives its key, how many
indices it takes, what its argument (the index less the family's first) stands for, the rule
ids it carries out, where it is offered, whether it passes time, one line of doc and its
actions' names. Everything else is derived from the rows, in their order: each family's first
index `A_<KEY>` (`A_MOVE`, `A_ATTACK`, ...) and id `F_<KEY>`, `NUM_ACTIONS`, per index its
family, argument and whether it passes time (`FAMILY`, `ARG`, `TIMED`: the arrays the compiled
`step.act` dispatches on and `mask.keep_timed` reads), `ACTION_NAMES` / `action_name`, the
`DelveEnv` docstring's table (`docstring_table`) and docs/ACTIONS.md (`markdown`; `python -m
delve_env.engine.core.actions > docs/ACTIONS.md` writes it, a test keeps it equal). A new family is
one row here, its rule (the mechanic `step.act` calls for `F_<KEY>`) and its legality (in
`mask`, with its reasons in `why`).

Powers (spells, class features, the Namer's name spells) reuse the same steps: `A_CAST + m`
chooses who, `A_POWER + i` what (tables.POWER_NAMES), and a power that needs a target takes
it as `A_USE + b` (a member) or `A_ATTACK + k` (a foe); `A_CANCEL` puts it back.

Travel actions come last (`A_EXPLORE` on): explore, travel to the stair down or up, rest. Each
takes many paces in one step, every pace the single move, wait or search it stands for
(travel.py). Autofight, the last, takes many turns of a fight in one step, each the single
attack it stands for (step.autofight).

Items are handled in two steps (PARTY-4, RAISE-1, ITEM-1): first select one item slot of one
member (`A_SELECT`), then choose what to do with it: give it to member b (`A_GIVE`), use it on
member b (`A_USE`), wear it or take it off (`A_WEAR`), or put it back (`A_CANCEL`). While an
item is selected only those follow-ups are offered; selecting costs no time.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from .tables import (
    MAX_FOES,
    MAX_MEMBERS,
    MAX_OPTIONS,
    MAX_PLATE,
    MAX_STOCK,
    MAX_SYMBOLS,
    NUM_EQUIP,
    NUM_ITEM_SLOTS,
    NUM_POWERS,
    POWER_NAMES,
)

DIRECTIONS = ("north", "east", "south", "west")
WORN_NAMES = ("ready hand", "off hand", "armor")
NUM_BIDS = 5  # STATUE-1: 0, 1/4, 1/2, 3/4 or all of the posted price
BIDS = ("nothing", "a quarter", "half", "three quarters", "all")


def slot_name(slot: int) -> str:
    """'ready hand', 'off hand', 'armor', or 'pack slot k' (k from 1)."""
    return WORN_NAMES[slot] if slot < NUM_EQUIP else f"pack slot {slot - NUM_EQUIP + 1}"


def selected_name(k: int) -> str:
    m, slot = divmod(k, NUM_ITEM_SLOTS)
    return f"select member {m + 1}'s {slot_name(slot)}"


@dataclass(frozen=True)
class Family:
    """One action family: `size` consecutive indices; an action's argument k is its index
    less the family's first."""

    key: str  # A_<key> is its first index, F_<key> its id
    size: int
    arg: str  # what k stands for ("" for a single action)
    rules: str  # the rule ids it carries out ("" for the interface's travel)
    where: str  # where it is offered: "offered only ..."
    timed: bool  # passes time or takes the stairs: still offered past the free-action limit
    doc: str  # one line: what it does
    name: str | Callable[[int], str]  # its action's name, or k -> the name


# fmt: off
FAMILIES = (
    Family("MOVE", 4, "direction: north, east, south, west", "MAP-3, TIME-1", "exploring",
           True, "move one tile (one pace)", lambda k: f"move {DIRECTIONS[k]}"),
    Family("WAIT", 1, "", "TIME-1", "exploring (or once the run is over)", True,
           "wait one pace", "wait"),
    Family("SEARCH", 1, "", "SECRET-2, TIME-1", "exploring", True,
           "search the walls around for secret doors (one pace)", "search"),
    Family("STAIRS", 1, "", "RUN-1, MAP-5", "exploring", True, "take the stairs",
           "take the stairs"),
    Family("LOOT", 1, "", "LOOT-1", "exploring", False, "loot the room", "loot room"),
    Family("SWAP", MAX_MEMBERS - 1, "marching position i (1st = 0), with i + 1", "PARTY-2",
           "exploring", False, "swap marching positions i and i + 1",
           lambda k: f"swap marching positions {k + 1} and {k + 2}"),
    Family("ATTACK", MAX_FOES, "foe row k", "ATTACK-1", "in a fight (or to aim a power)",
           False, "attack monster k", lambda k: f"attack monster {k + 1}"),
    Family("LUCK", MAX_FOES, "foe row k", "ATTACK-1, LUCK-2", "in a fight", False,
           "attack monster k with a luck die",
           lambda k: f"attack monster {k + 1} with a luck die"),
    Family("RUN", 1, "", "RUN-AWAY-1", "in a fight", False, "run away", "run away"),
    Family("SELECT", MAX_MEMBERS * NUM_ITEM_SLOTS,
           f"member m x {NUM_ITEM_SLOTS} + item slot i (0-2 worn: ready hand, off hand, armor;"
           " 3-10 the pack)", "PARTY-4, ITEM-1",
           "exploring, in a fight, in a store or before a statue", False,
           "select member m's item slot i (costs no time)", selected_name),
    Family("GIVE", MAX_MEMBERS, "member b", "PARTY-4", "with an item selected", False,
           "give the selected item to member b",
           lambda k: f"give the selected item to member {k + 1}"),
    Family("USE", MAX_MEMBERS, "member b", "ITEM-1, RAISE-1",
           "with an item selected (or to aim a power)", False,
           "use the selected item on member b",
           lambda k: f"use the selected item on member {k + 1}"),
    Family("WEAR", 1, "", "PARTY-4", "with an item selected", False,
           "wear the selected item, or take it off", "wear or take off the selected item"),
    Family("CANCEL", 1, "", "PARTY-4, SPELL-1", "with an item selected or a caster chosen",
           False, "put the selected item (or the power) back", "put the selected item back"),
    Family("WORK", MAX_MEMBERS, "member m", "VAULT-1", "exploring", False,
           "member m works the vault's lock",
           lambda k: f"member {k + 1} works the vault lock"),
    Family("RING", MAX_SYMBOLS, "symbol k", "WALL-1", "at a tumbler wall", False,
           "set the next ring of the tumbler wall to symbol k", lambda k: f"wall ring = {k}"),
    Family("PUSH", MAX_PLATE * MAX_PLATE, "plate cell i (row-major)", "PLATE-1",
           "at a lock plate", False, "push plate cell i", lambda k: f"push plate cell {k}"),
    Family("HINT", 1, "", "PLATE-1", "at a lock plate", False, "buy a plate hint",
           "buy a plate hint"),
    Family("LEAVE", 1, "", "VAULT-1, STORE-1, STATUE-1",
           "at a lock, in a store or before a statue", False,
           "leave (the lock, the store or the statue)",
           "leave (the lock, the store or the statue)"),
    Family("OPEN", MAX_MEMBERS, "member m", "CHEST-1", "exploring", False,
           "member m opens the room's chest", lambda k: f"member {k + 1} opens the chest"),
    Family("BATHE", MAX_MEMBERS, "member m", "BATH-1", "exploring", False,
           "member m bathes in the room's Bath of Fates",
           lambda k: f"member {k + 1} bathes in the Bath of Fates"),
    Family("TRAIN", 1, "", "COURT-2", "exploring", False,
           "a practice bout at the courtyard's training ground",
           "practice bout at the training ground"),
    Family("SHOP", 1, "", "STORE-1", "exploring", False, "enter the store here",
           "enter the store"),
    Family("BUY", MAX_STOCK, "store line k (0: ten rations)", "STORE-2", "in a store", False,
           "buy store line k",
           lambda k: "buy rations (ten)" if k == 0 else f"buy store line {k}"),
    Family("SELL", 1, "", "STORE-2", "with an item selected, in a store", False,
           "sell the selected item", "sell the selected item"),
    Family("REPAIR", 1, "", "STORE-2", "with an item selected, in a store", False,
           "repair the selected item", "repair the selected item"),
    Family("STATUE", 1, "", "STATUE-1", "exploring", False,
           "step up to the room's living statue", "step up to the living statue"),
    Family("BID", NUM_BIDS, "q quarters of the price", "STATUE-1",
           "with an item selected, before a statue", False,
           "bid q quarters of the statue's price to name the selected item",
           lambda k: f"bid {BIDS[k]} of the statue's price to name the selected item"),
    Family("MEND", MAX_MEMBERS, "member b", "STATUE-2", "before a statue", False,
           "the statue mends member b's wounds for gold",
           lambda k: f"the statue mends member {k + 1}'s wounds"),
    Family("BRIBE", 1, "", "BRIBE-1", "in a fight", False,
           "offer the band a bribe", "offer the band a bribe"),
    Family("LISTEN", 1, "", "LISTEN-1", "exploring", True, "listen at the door (one pace)",
           "listen at the door"),
    Family("SNEAK", MAX_MEMBERS, "member m", "SNEAK-1", "exploring", True,
           "member m sneaks in at the door",
           lambda k: f"member {k + 1} sneaks in at the door"),
    Family("CAST", MAX_MEMBERS, "member m", "SPELL-1, NAME-1, CLASS-1",
           "exploring or in a fight", False,
           "member m uses a power (a spell, a class feature, a name spell)",
           lambda k: f"member {k + 1} uses a power"),
    Family("POWER", NUM_POWERS, "power i (tables.POWER_NAMES)",
           "SPELL-1, PAGE-2, NAME-1, CLASS-1", "with a caster chosen", False,
           "use power i; then its target, if it takes one",
           lambda k: f"use {POWER_NAMES[k]}"),
    Family("CHOOSE", MAX_OPTIONS, "option o", "CHOICE-1, CLASS-1",
           "when a level choice is owed", False, "take option o of the level choice owed",
           lambda k: f"take level option {k + 1}"),
    Family("EXPLORE", 1, "", "", "exploring", True,
           "explore: walk toward the nearest unexplored place, else search for secret doors (many"
           " paces, one step)", "explore"),
    Family("TRAVEL_DOWN", 1, "", "MAP-5", "exploring", True,
           "travel to the stair down, once seen and open (many paces, one step)",
           "travel to the stair down"),
    Family("TRAVEL_UP", 1, "", "", "exploring", True,
           "travel to the stair up (many paces, one step)", "travel to the stair up"),
    Family("REST", 1, "", "HEAL-1", "exploring", True,
           "rest until no one can heal more (many paces, one step)", "rest"),
    Family("AUTOFIGHT", 1, "", "ATTACK-1", "in a fight", True,
           "autofight: attack the weakest foe, turn after turn, until there is cause to stop (many"
           " turns, one step)", "autofight"),
)
# fmt: on

FIRSTS = tuple(int(i) for i in np.cumsum([0] + [f.size for f in FAMILIES[:-1]]))  # by id
FAMILY_IDS = {f.key: i for i, f in enumerate(FAMILIES)}
NUM_ACTIONS = sum(f.size for f in FAMILIES)
HOLD = -1  # not an action: the engine leaves a slot holding it untouched (batch.Engine.step)
# A_<KEY>: the family's first index; F_<KEY>: its id (what the compiled code branches on)
globals().update({f"A_{f.key}": first for f, first in zip(FAMILIES, FIRSTS)})
globals().update({f"F_{key}": i for key, i in FAMILY_IDS.items()})
_SIZES = [f.size for f in FAMILIES]
FAMILY = np.repeat(np.arange(len(FAMILIES), dtype=np.int64), _SIZES)  # index -> family id
ARG = np.concatenate([np.arange(n, dtype=np.int64) for n in _SIZES])  # index -> argument k
TIMED = np.repeat(np.array([f.timed for f in FAMILIES]), _SIZES)  # index -> passes time


def family_name(f: Family, k: int) -> str:
    """The name of argument k's action of family f."""
    return f.name if isinstance(f.name, str) else f.name(k)


ACTION_NAMES = tuple(family_name(f, k) for f in FAMILIES for k in range(f.size))


def action_name(i: int) -> str:
    """A readable name for action index i, e.g. 'move north' or 'attack monster 2'."""
    if not 0 <= i < NUM_ACTIONS:
        raise ValueError(f"action {i} is outside Discrete({NUM_ACTIONS})")
    return ACTION_NAMES[i]


def select_action(m: int, slot: int) -> int:
    """The index of 'select member m's item slot `slot`' (0-2 worn, 3-10 the pack)."""
    return FIRSTS[FAMILY_IDS["SELECT"]] + m * NUM_ITEM_SLOTS + slot


def index_range(i: int) -> str:
    """Family i's indices as '12-17', or '6' for one."""
    first, size = FIRSTS[i], FAMILIES[i].size
    return str(first) if size == 1 else f"{first}-{first + size - 1}"


def docstring_table() -> str:
    """The `DelveEnv` docstring's action table: each family's indices, what it does, its
    rules."""
    lines = ["| index | action | rules |", "|---|---|---|"]
    lines += [f"| {index_range(i)} | {f.doc} | {f.rules} |" for i, f in enumerate(FAMILIES)]
    return "\n".join(lines)


def markdown() -> str:
    """docs/ACTIONS.md: every family's indices, key, argument, where it is offered, whether it
    passes time, rules and what it does."""
    lines = [
        "# The actions",
        "",
        "Generated from `delve_env/engine/core/actions.py` (`FAMILIES`) by `python -m",
        "delve_env.engine.core.actions > docs/ACTIONS.md`; a test keeps this page equal to it.",
        "",
        f"One flat `Discrete({NUM_ACTIONS})`, the same in every mode, in {len(FAMILIES)} families "
        "of consecutive",
        "indices. An action's argument is its index less its family's first, the constant",
        "`A_<family>` (`A_ATTACK + 2` attacks monster 3). `env.unwrapped.action_name(i)` names an",
        'index, `info["action_mask"]` says which are legal now, and `env.unwrapped.why(i)` says why',
        "a masked one is masked, naming the rule. Passes time: the action takes a pace (or ends a",
        "fight's turn) or takes the stairs; after `free_actions` time-free actions in a row,",
        "exploring offers only these.",
        "",
        "| index | family | argument | offered | passes time | rules | action |",
        "|---|---|---|---|---|---|---|",
    ]
    for i, f in enumerate(FAMILIES):
        timed = "yes" if f.timed else ""
        lines.append(f"| {index_range(i)} | `{f.key}` | {f.arg or '-'} | {f.where} | {timed} "
                     f"| {f.rules or '(interface)'} | {f.doc} |")  # fmt: skip
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
