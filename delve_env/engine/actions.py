"""The flat action space: one Discrete index per action in every mode, each with a name."""

from .tables import MAX_FOES, MAX_MEMBERS, MAX_PLATE, MAX_SYMBOLS, PACK_SLOTS

DIRECTIONS = ("north", "east", "south", "west")

A_MOVE = 0  # 4: north, east, south, west
A_WAIT = A_MOVE + 4
A_SEARCH = A_WAIT + 1
A_STAIRS = A_SEARCH + 1
A_LOOT = A_STAIRS + 1
A_SWAP = A_LOOT + 1  # 4: swap marching positions i and i + 1
A_ATTACK = A_SWAP + MAX_MEMBERS - 1  # 6: attack foe k
A_LUCK = A_ATTACK + MAX_FOES  # 6: attack foe k with a luck die
A_RUN = A_LUCK + MAX_FOES
A_GIVE = A_RUN + 1  # 5 x 8 x 5: member a gives pack slot s to member b
A_EQUIP = A_GIVE + MAX_MEMBERS * PACK_SLOTS * MAX_MEMBERS  # 5 x 8: member a wears pack slot s
A_WORK = A_EQUIP + MAX_MEMBERS * PACK_SLOTS  # 5: member m works the vault's lock
A_RING = A_WORK + MAX_MEMBERS  # 16: set the next wall ring to symbol k
A_PUSH = A_RING + MAX_SYMBOLS  # 36: push plate cell i (row-major)
A_HINT = A_PUSH + MAX_PLATE * MAX_PLATE
A_LEAVE = A_HINT + 1  # stop working the lock
NUM_ACTIONS = A_LEAVE + 1


def give_action(a: int, slot: int, b: int) -> int:
    """The index of 'member a gives pack slot `slot` (0..7) to member b'."""
    return A_GIVE + (a * PACK_SLOTS + slot) * MAX_MEMBERS + b


def equip_action(m: int, slot: int) -> int:
    """The index of 'member m wears pack slot `slot` (0..7)'."""
    return A_EQUIP + m * PACK_SLOTS + slot


def action_name(i: int) -> str:
    """A readable name for action index i, e.g. 'move north' or 'attack monster 2'."""
    if not 0 <= i < NUM_ACTIONS:
        raise ValueError(f"action {i} is outside Discrete({NUM_ACTIONS})")
    if i < A_WAIT:
        return f"move {DIRECTIONS[i - A_MOVE]}"
    fixed = {A_WAIT: "wait", A_SEARCH: "search", A_STAIRS: "take the stairs", A_LOOT: "loot room",
             A_RUN: "run away", A_HINT: "buy a plate hint", A_LEAVE: "leave the lock"}  # fmt: skip
    if i in fixed:
        return fixed[i]
    if i < A_ATTACK:
        pos = i - A_SWAP
        return f"swap marching positions {pos + 1} and {pos + 2}"
    if i < A_LUCK:
        return f"attack monster {i - A_ATTACK + 1}"
    if i < A_RUN:
        return f"attack monster {i - A_LUCK + 1} with a luck die"
    if i < A_EQUIP:
        a, rest = divmod(i - A_GIVE, PACK_SLOTS * MAX_MEMBERS)
        slot, b = divmod(rest, MAX_MEMBERS)
        return f"member {a + 1} gives pack slot {slot + 1} to member {b + 1}"
    if i < A_WORK:
        m, slot = divmod(i - A_EQUIP, PACK_SLOTS)
        return f"member {m + 1} wears pack slot {slot + 1}"
    if i < A_RING:
        return f"member {i - A_WORK + 1} works the vault lock"
    if i < A_PUSH:
        return f"wall ring = {i - A_RING}"
    return f"push plate cell {i - A_PUSH}"


ACTION_NAMES = tuple(action_name(i) for i in range(NUM_ACTIONS))
