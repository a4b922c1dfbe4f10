"""The flat action space: one Discrete index per action in every mode, each with a name.

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

A_MOVE = 0  # 4: north, east, south, west
A_WAIT = A_MOVE + 4
A_SEARCH = A_WAIT + 1
A_STAIRS = A_SEARCH + 1
A_LOOT = A_STAIRS + 1
A_SWAP = A_LOOT + 1  # 4: swap marching positions i and i + 1
A_ATTACK = A_SWAP + MAX_MEMBERS - 1  # 6: attack foe k
A_LUCK = A_ATTACK + MAX_FOES  # 6: attack foe k with a luck die
A_RUN = A_LUCK + MAX_FOES
A_SELECT = A_RUN + 1  # 5 x 11: select member m's item slot i (0-2 worn, 3-10 pack)
A_GIVE = A_SELECT + MAX_MEMBERS * NUM_ITEM_SLOTS  # 5: give the selected item to member b
A_USE = A_GIVE + MAX_MEMBERS  # 5: use the selected item on member b
A_WEAR = A_USE + MAX_MEMBERS  # wear the selected item, or take it off
A_CANCEL = A_WEAR + 1  # put the selected item back
A_WORK = A_CANCEL + 1  # 5: member m works the vault's lock
A_RING = A_WORK + MAX_MEMBERS  # 16: set the next wall ring to symbol k
A_PUSH = A_RING + MAX_SYMBOLS  # 36: push plate cell i (row-major)
A_HINT = A_PUSH + MAX_PLATE * MAX_PLATE
A_LEAVE = A_HINT + 1  # stop working the lock, leave the store or the statue
A_OPEN = A_LEAVE + 1  # 5: member m opens the room's chest (CHEST-1)
A_BATHE = A_OPEN + MAX_MEMBERS  # 5: member m bathes in the room's Bath of Fates (BATH-1)
A_TRAIN = A_BATHE + MAX_MEMBERS  # a practice bout at the courtyard's training ground (COURT-2)
A_SHOP = A_TRAIN + 1  # enter the store here (STORE-1)
A_BUY = A_SHOP + 1  # 16: buy store line k (line 0: ten rations, STORE-2)
A_SELL = A_BUY + MAX_STOCK  # sell the selected item to the store (STORE-2)
A_REPAIR = A_SELL + 1  # have the store repair the selected item (STORE-2)
A_STATUE = A_REPAIR + 1  # step up to the room's living statue (STATUE-1)
NUM_BIDS = 5  # STATUE-1: 0, 1/4, 1/2, 3/4 or all of the posted price
A_BID = A_STATUE + 1  # 5: bid q quarters of the price to have the selected item named
A_MEND = A_BID + NUM_BIDS  # 5: the statue mends member b's wounds for gold (STATUE-2)
A_BRIBE = A_MEND + MAX_MEMBERS  # ask the band to take a bribe (BRIBE-1)
A_LISTEN = A_BRIBE + 1  # listen at the door (LISTEN-1)
A_SNEAK = A_LISTEN + 1  # 5: member m sneaks in at the door (SNEAK-1)
A_CAST = A_SNEAK + MAX_MEMBERS  # 5: member m uses a power (a spell, a feature, a name spell)
A_POWER = A_CAST + MAX_MEMBERS  # 42: the power to use (tables.POWER_NAMES); then its target
A_CHOOSE = A_POWER + NUM_POWERS  # 6: take option o of the pending level choice (CHOICE-1)
# Travel (travel.py): many paces in one step, each the single move or wait it stands for.
A_EXPLORE = A_CHOOSE + MAX_OPTIONS  # walk toward the nearest unexplored place, else search
A_TRAVEL_DOWN = A_EXPLORE + 1  # walk to the stair down, once seen and open (MAP-5)
A_TRAVEL_UP = A_TRAVEL_DOWN + 1  # walk to the stair up
A_REST = A_TRAVEL_UP + 1  # wait until no one can heal more
A_AUTOFIGHT = A_REST + 1  # attack the weakest foe, turn after turn, until there is cause to stop
NUM_ACTIONS = A_AUTOFIGHT + 1


def select_action(m: int, slot: int) -> int:
    """The index of 'select member m's item slot `slot`' (0-2 worn, 3-10 the pack)."""
    return A_SELECT + m * NUM_ITEM_SLOTS + slot


def slot_name(slot: int) -> str:
    """'ready hand', 'off hand', 'armor', or 'pack slot k' (k from 1)."""
    return WORN_NAMES[slot] if slot < NUM_EQUIP else f"pack slot {slot - NUM_EQUIP + 1}"


def action_name(i: int) -> str:
    """A readable name for action index i, e.g. 'move north' or 'attack monster 2'."""
    if not 0 <= i < NUM_ACTIONS:
        raise ValueError(f"action {i} is outside Discrete({NUM_ACTIONS})")
    if i < A_WAIT:
        return f"move {DIRECTIONS[i - A_MOVE]}"
    fixed = {A_WAIT: "wait", A_SEARCH: "search", A_STAIRS: "take the stairs", A_LOOT: "loot room",
             A_RUN: "run away", A_HINT: "buy a plate hint",
             A_LEAVE: "leave (the lock, the store or the statue)",
             A_TRAIN: "practice bout at the training ground", A_SHOP: "enter the store",
             A_SELL: "sell the selected item", A_REPAIR: "repair the selected item",
             A_STATUE: "step up to the living statue",
             A_BRIBE: "offer the band a bribe", A_LISTEN: "listen at the door",
             A_WEAR: "wear or take off the selected item",
             A_CANCEL: "put the selected item back", A_EXPLORE: "explore",
             A_TRAVEL_DOWN: "travel to the stair down", A_TRAVEL_UP: "travel to the stair up",
             A_REST: "rest", A_AUTOFIGHT: "autofight"}  # fmt: skip
    if i in fixed:
        return fixed[i]
    if i < A_ATTACK:
        pos = i - A_SWAP
        return f"swap marching positions {pos + 1} and {pos + 2}"
    if i < A_LUCK:
        return f"attack monster {i - A_ATTACK + 1}"
    if i < A_RUN:
        return f"attack monster {i - A_LUCK + 1} with a luck die"
    if i < A_GIVE:
        m, slot = divmod(i - A_SELECT, NUM_ITEM_SLOTS)
        return f"select member {m + 1}'s {slot_name(slot)}"
    if i < A_USE:
        return f"give the selected item to member {i - A_GIVE + 1}"
    if i < A_WEAR:
        return f"use the selected item on member {i - A_USE + 1}"
    if i < A_RING:
        return f"member {i - A_WORK + 1} works the vault lock"
    if i < A_PUSH:
        return f"wall ring = {i - A_RING}"
    if i < A_HINT:
        return f"push plate cell {i - A_PUSH}"
    if i < A_BATHE:
        return f"member {i - A_OPEN + 1} opens the chest"
    if i < A_TRAIN:
        return f"member {i - A_BATHE + 1} bathes in the Bath of Fates"
    if i < A_SELL:
        return "buy rations (ten)" if i == A_BUY else f"buy store line {i - A_BUY}"
    if i < A_MEND:
        q = i - A_BID
        bid = ("nothing", "a quarter", "half", "three quarters", "all")[q]
        return f"bid {bid} of the statue's price to name the selected item"
    if i < A_BRIBE:
        return f"the statue mends member {i - A_MEND + 1}'s wounds"
    if i < A_CAST:
        return f"member {i - A_SNEAK + 1} sneaks in at the door"
    if i < A_POWER:
        return f"member {i - A_CAST + 1} uses a power"
    if i < A_CHOOSE:
        return f"use {POWER_NAMES[i - A_POWER]}"
    return f"take level option {i - A_CHOOSE + 1}"


ACTION_NAMES = tuple(action_name(i) for i in range(NUM_ACTIONS))
