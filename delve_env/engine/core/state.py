"""The whole game state of N envs: one namedtuple of numpy arrays, env on axis 0.

Compiled mechanics take the state (as `struct.StateView`, the compiled view of these arrays
that `Engine.state` is) and an env index `e` and mutate rows in place. Shapes use
N envs, F = depth + 1 floors (floor 0 is the courtyard), H x W tiles, R rooms per floor,
M = 5 member slots, I = 11 item slots per member, K = 6 foes.
"""

from collections import namedtuple

import numpy as np

from ..outputs.fightlog import LOG_COLS, LOG_SIZE
from .tables import (
    MAX_FOES,
    MAX_MEMBERS,
    MAX_PLATE,
    MAX_ROOMS,
    NUM_EFFECTS,
    NUM_ITEM_SLOTS,
    NUM_MONSTERS,
    NUM_SPELLS,
    ROOM_ITEMS,
    ROOM_PAGES,
    SECRET,
    VIEW,
    WALL_HISTORY,
    WALL_RINGS,
)

FIELDS = {
    # --- run ---
    "rng": ((), np.uint64),  # play RNG state per slot (RUN-7)
    "mode": ((), np.int8),  # EXPLORE, FIGHT, ... (tables.MODE_NAMES)
    "outcome": ((), np.int8),  # 0 running, 1 won, 2 lost
    "steps": ((), np.int32),  # actions taken this episode (truncation)
    "floor": ((), np.int8),  # 0 = courtyard
    "x": ((), np.int16),  # party tile
    "y": ((), np.int16),
    "pace": ((), np.int32),  # the clock in paces (TIME-1)
    "meal_clock": ((), np.int16),  # paces since the last meal (FOOD-1)
    "heal_clock": ((), np.int16),  # paces since the last heal (HEAL-1)
    "rations": ((), np.int16),  # party rations (FOOD-1)
    "gold": ((), np.int32),  # party purse
    "maps_held": ((), np.int32),  # bit f set = map of floor f held (MAP-5)
    "has_book": ((), np.bool_),
    "has_king": ((), np.bool_),  # the king has joined the party
    "hunting": ((), np.bool_),  # RUN-6
    "pages_held": ((NUM_SPELLS,), np.int8),  # pages found before the book (PAGE-1)
    "book_pages": ((NUM_SPELLS,), np.int8),  # pages in the book
    "floor_visited": (("F",), np.bool_),  # floors reached so far (LUCK-1 sessions)
    "effects": ((NUM_EFFECTS,), np.int16),  # paces left of WARD, ESP, SATED, LIGHT (EFFECT-1)
    "ward_foul": ((), np.bool_),  # the WARD slot holds the foul lantern (2x, WANDER-2)
    "known_kinds": ((), np.int32),  # bit k set = kind k is known (ITEM-2, party.is_known)
    "practice": ((), np.bool_),  # the fight is a practice bout (COURT-2)
    "caster": ((), np.int8),  # member choosing a power to use, -1 none (actions.A_CAST)
    "sel_power": ((), np.int8),  # the power chosen, waiting for its target, -1 none
    "choice_from": ((), np.int8),  # the mode to go back to after a level choice (CHOICE-1)
    "keeper_seen": ((), np.int32),  # bit k: Sixpence's event k happened this run (SIX-1)
    "keeper_given": ((), np.int32),  # bit k: its gift was handed over (it waits for pack room)
    "keeper_new": ((), np.int32),  # bit k: event k happened in the last step
    "free_streak": ((), np.int16),  # time-free actions in a row (step.count_free)
    "report_pace": ((), np.int32),  # the pace a report was last read at (SIX-1, VIEW-1)
    "book_floor": ((), np.int8),  # RUN-2
    "book_room": ((), np.int8),
    "king_room": ((), np.int8),  # on floor depth
    # --- members (slot 4 is the king) ---
    "cls": ((MAX_MEMBERS,), np.int8),  # class, -1 empty slot
    "in_party": ((MAX_MEMBERS,), np.bool_),
    "order": ((MAX_MEMBERS,), np.int8),  # member slot at marching position, -1 none (PARTY-2)
    "hp": ((MAX_MEMBERS,), np.int16),  # 0 = dead (HP-2)
    "ceiling": ((MAX_MEMBERS,), np.int16),  # HP-1
    "mana": ((MAX_MEMBERS,), np.int16),
    "well": ((MAX_MEMBERS,), np.int16),
    "level": ((MAX_MEMBERS,), np.int8),
    "xp": ((MAX_MEMBERS,), np.int32),  # toward the next level (XP-3)
    "atk": ((MAX_MEMBERS,), np.int8),  # attack bonus
    "luck": ((MAX_MEMBERS,), np.int8),  # luck dice left (LUCK-1)
    "raised": ((MAX_MEMBERS,), np.int8),  # times raised (RAISE-1)
    "bout_down": ((MAX_MEMBERS,), np.bool_),  # fell in the practice bout under way (COURT-2)
    "options": ((MAX_MEMBERS, 2), np.int8),  # option chosen at levels 2 and 3, -1 not yet (CLASS-1)
    "spells_known": (
        (MAX_MEMBERS,),
        np.int16,
    ),  # bit i: casts spell i without a page (Wizard, Cleric)
    "spells_spent": ((MAX_MEMBERS,), np.int16),  # bit i: spent its once-a-floor spell i
    "wand_casts": ((MAX_MEMBERS,), np.int8),  # the Wizard's wand: casts left this floor
    "floor_spent": (("F", MAX_MEMBERS), np.int16),  # spells_spent as left on floor f (CLASS-1)
    "floor_wand": (("F", MAX_MEMBERS), np.int8),  # wand casts used on floor f (CLASS-1)
    "names_known": ((MAX_MEMBERS,), np.int64),  # bit i: knows true name i (NAME-1)
    "primed": ((MAX_MEMBERS,), np.uint8),  # tables.PRIME_* features set for the next blow
    "hidden": ((MAX_MEMBERS,), np.bool_),  # hid (Rogue): not aimed at until it attacks (MON-2)
    "invisible": ((MAX_MEMBERS,), np.bool_),  # invisible until it attacks or casts (MON-2)
    "blessed": ((MAX_MEMBERS,), np.bool_),  # +d6 to its d20 rolls for the fight (Bless)
    "blood_used": ((MAX_MEMBERS,), np.bool_),  # used blood magic: no healing until a new floor
    "item": ((MAX_MEMBERS, NUM_ITEM_SLOTS), np.int8),  # item kind; slots 0-2 worn, 3-10 pack
    "item_wear": ((MAX_MEMBERS, NUM_ITEM_SLOTS), np.int8),  # damage or AV lost to eaters
    "item_dv": ((MAX_MEMBERS, NUM_ITEM_SLOTS), np.int16),  # durability left (DMG-1)
    "sel_member": ((), np.int8),  # member whose item is selected, -1 none (actions.A_SELECT)
    "sel_slot": ((), np.int8),  # the selected item slot, -1 none
    # --- floors ---
    "tiles": (("F", "H", "W"), np.int8),  # tables.ROCK ... STAIR_UP
    "fog": (("F", "H", "W"), np.uint8),  # fog of war (MAP-4): 0 unseen, else the map code
    #   the observation shows there (layout.MAP), ROOM_MARK + r for a tile of room r
    "searched": (("H", "W"), np.uint8),  # SECRET-2 searches beside each tile, this floor visit
    "ways_known": ((), np.uint8),  # travel.known_ways: a cache, spent as the known map changes
    "reach": (("H", "W"), np.int16),  # the party's floor's known map as a union-find (reach.py)
    "coarse": (("F", VIEW, VIEW), np.uint8),  # the remembered floor in VIEW x VIEW blocks
    "room_of": (("F", "H", "W"), np.int8),  # room index of interior tiles, else -1
    "num_rooms": (("F",), np.int8),
    "room_rect": (("F", MAX_ROOMS, 4), np.int16),  # interior x0, y0, x1, y1
    "room_code": (("F", MAX_ROOMS), np.uint8),  # the map code a seen tile of the room shows
    "room_known": (("F", MAX_ROOMS), np.bool_),  # entered or revealed (MAP-4)
    "room_entered": (("F", MAX_ROOMS), np.bool_),  # walked into at least once (XP-2)
    "room_gold": (("F", MAX_ROOMS), np.int16),
    "room_items": (("F", MAX_ROOMS, ROOM_ITEMS), np.int8),
    "room_pages": (("F", MAX_ROOMS, ROOM_PAGES), np.int8),  # spell id, -1 none
    "room_map": (("F", MAX_ROOMS), np.bool_),  # the floor map lies here (MAP-5)
    "room_chest": (("F", MAX_ROOMS), np.int8),  # tables.CHEST_NONE .. CHEST_OPEN (CHEST-1)
    "room_feature": (("F", MAX_ROOMS), np.int8),  # tables.FEAT_*: store, statue, bath
    "room_heard": (("F", MAX_ROOMS), np.bool_),  # its band was heard at a door (LISTEN-1)
    "statue_price": (("F",), np.int16),  # the floor's statue's posted price P (STATUE-1)
    "statue_threshold": (("F",), np.int16),  # its secret threshold T in [P/4, P]
    "bathed": (("F", MAX_MEMBERS), np.bool_),  # member bathed in the floor's bath (BATH-1)
    "band_kind": (("F", MAX_ROOMS, MAX_FOES), np.int8),  # guarding band, -1 none
    "band_hp": (("F", MAX_ROOMS, MAX_FOES), np.int16),
    "vault_room": (("F",), np.int8),  # the floor's vault room, -1 none (VAULT-1)
    "vault_lock": (("F",), np.int8),  # NO_LOCK, WALL_LOCK or PLATE_LOCK
    "vault_open": (("F",), np.bool_),
    "wall_combo": (("F", WALL_RINGS), np.int8),  # the combination (WALL-1)
    "wall_set": (("F", WALL_RINGS), np.int8),  # rings of the guess being entered
    "wall_num_set": (("F",), np.int8),  # how many rings of it are set
    "wall_history": (("F", WALL_HISTORY, WALL_RINGS + 1), np.int8),  # latest first: rings, answer
    "wall_guesses": (("F",), np.int16),
    "plate_lit": (("F", MAX_PLATE, MAX_PLATE), np.bool_),  # PLATE-1
    "plate_pushed": (("F", MAX_PLATE, MAX_PLATE), np.bool_),  # pushed an odd number of times
    "plate_key": (("F", MAX_PLATE, MAX_PLATE), np.bool_),  # the pushes that made the plate
    "plate_hints": (("F",), np.int8),  # hints bought
    "plate_hint": (("F",), np.int8),  # the cell a hint shows, -1 none
    "stair_down": (("F", 2), np.int16),  # x, y
    "stair_up": (("F", 2), np.int16),
    # --- the fight in progress ---
    "foe_kind": ((MAX_FOES,), np.int8),  # -1 none
    "foe_hp": ((MAX_FOES,), np.int16),
    "foe_max": ((MAX_FOES,), np.int16),
    "fight_room": ((), np.int8),  # room the band guards, -1 for a wandering band
    "actor": ((), np.int8),  # marching position whose turn it is (ROUND-1)
    "fight_round": ((), np.int16),
    "worker": ((), np.int8),  # the member working a vault lock
    "goodwill": ((), np.bool_),  # a goodwill scroll was read in this fight (BRIBE-3)
    "bribe_asked": ((), np.bool_),  # the band was asked for a bribe this fight (BRIBE-1)
    "sneaker": ((), np.int8),  # the member sneaking in alone, -1 none (SNEAK-1)
    "ally_kind": ((), np.int8),  # the summoned ally's monster kind, -1 none (ITEM-1)
    "ally_hp": ((), np.int16),  # its hearts
    "foe_status": ((MAX_FOES,), np.uint8),  # tables.FS_* left on the foe by spells
    "decoys": ((), np.int8),  # illusions that take the band's next blows (minor illusion)
    "holy_sword": ((), np.int8),  # the member whose conjured sword fights, -1 none
    "charging": ((), np.bool_),  # charge!: the members' attacks this round have advantage
    # --- per-step output and episode statistics ---
    "dirty": ((), np.uint8),  # DIRTY_* bits: parts of the observation to rewrite
    "events": ((), np.int32),  # EV_* bits raised by the last step
    "achieved": ((), np.int32),  # EV_* bits raised at least once this episode
    "reward": ((), np.float32),  # reward of the last step
    "stat_rooms": ((), np.int16),
    "stat_kills": ((), np.int16),
    "stat_fights": ((), np.int16),
    "stat_lost": ((), np.int16),  # members who died
    "stat_deepest": ((), np.int8),
    "stat_flights": ((), np.int16),
    "stat_gold": ((), np.int32),  # gold picked up
    "stat_vaults": ((), np.int16),  # vaults opened
    "stat_vault_wounds": ((), np.int16),  # HP lost working locks
    "stat_hint_gold": ((), np.int32),  # gold paid for plate hints
    "stat_tiles": ((), np.int32),  # tiles seen (MAP-4), all floors
    "stat_chests": ((), np.int16),  # chests opened (CHEST-1)
    "stat_traps": ((), np.int16),  # chest traps sprung
    "stat_bought": ((), np.int16),  # store purchases (STORE-1..2)
    "stat_sold": ((), np.int16),  # items sold
    "stat_bids": ((), np.int16),  # statue bids (STATUE-1)
    "stat_baths": ((), np.int16),  # baths taken (BATH-1)
    "stat_eaten": ((), np.int32),  # rations eaten at meals (FOOD-1)
    "stat_bouts": ((), np.int16),  # practice bouts (COURT-2)
    "stat_bribes": ((), np.int16),  # bribes paid (BRIBE-1)
    "stat_listens": ((), np.int16),  # listens at doors (LISTEN-1)
    "stat_sneaks": ((), np.int16),  # sneaks into rooms (SNEAK-1)
    "stat_casts": ((), np.int16),  # powers used (spells, features, names)
    "stat_choices": ((), np.int16),  # level options chosen (CHOICE-1)
    # --- fights in full (issue 10): the bestiary, bands left in halls, the fight log ---
    "kind_met": ((NUM_MONSTERS,), np.int16),  # fights and bands heard with the kind (VIEW-1)
    "kind_killed": ((NUM_MONSTERS,), np.int16),  # kinds killed by the party or its ally
    "kind_learned": ((NUM_MONSTERS,), np.uint8),  # tables.MF_* bits the party has seen it use
    "linger_kind": (("F", MAX_FOES), np.int8),  # a wandering band fled from, -1 none (RUN-AWAY-1)
    "linger_hp": (("F", MAX_FOES), np.int16),  # its hearts left
    "linger_xy": (("F", 2), np.int16),  # the tile where it stays: x, y
    "log": ((LOG_SIZE, LOG_COLS), np.int32),  # this step's fight log rows (fightlog.py)
    "log_n": ((), np.int16),  # rows written this step, -1 when the log is off
}

State = namedtuple("State", list(FIELDS))

# Bits of `dirty`: the parts of an env's observation its last step may have changed. The rest
# of its record is left as it was (observe.observe); the selection's fields of `status` are
# written every step.
DIRTY_MAP, DIRTY_PARTY, DIRTY_PACK, DIRTY_PUZZLE = 1, 2, 4, 8
DIRTY_SELECT = 16  # an item was selected or let go: the mask changes wholly
DIRTY_MAGIC = 32  # what members can cast or have chosen changed (the `magic` key)
DIRTY_ORDER = 64  # only the marching order changed: the party's rows, not what members can do
DIRTY_STATUS = 128  # the rest of `status`: every action but holding, letting go or a swap
DIRTY_ALL = 0xFF
ROOM_MARK = 16  # `fog` holds ROOM_MARK + r on a seen tile of room r (below: map codes)
FOUND_CODE = 1 + SECRET  # `fog`'s code for a found secret door (its tile is then a DOOR)
# `ways_known`'s bit (travel.find_ways) for "explore has no goal the party can walk to, only
# search spots": it stays true while the party only walks or searches, so a search keeps it
# (`&= KEPT_BY_SEARCH`) and the next search for explore's way looks for search spots alone,
# stopping at the nearest
ONLY_SPOTS = 0b1000
# and, with it, "none of those spots is in a hall": a search only spends spots, so it is kept
# as ONLY_SPOTS is, and the next search stops at the nearest spot in a room
NO_HALL_SPOT = 0b10000
# and, with both, "there is no search spot in reach at all": explore has no way, unsearched
NO_SPOT = 0b100000
KEPT_BY_SEARCH = ONLY_SPOTS | NO_HALL_SPOT | NO_SPOT


def allocate(num_envs: int, depth: int, height: int, width: int) -> State:
    """Zeroed state for `num_envs` dungeons of `depth` floors of `height` x `width` tiles."""
    sizes = {"F": depth + 1, "H": height, "W": width}
    arrays = {}
    for name, (shape, dtype) in FIELDS.items():
        full = (num_envs,) + tuple(sizes.get(d, d) for d in shape)
        arrays[name] = np.zeros(full, dtype=dtype)
    return State(**arrays)
