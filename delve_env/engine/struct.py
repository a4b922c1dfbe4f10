"""The compiled view of the state: a numba StructRef holding the very arrays of `State`.

Numba passes a namedtuple of arrays to a function as every array separately, with a reference
count bump for each: about 7 ns per array per call, some 0.5 us per call for ~75 arrays. A
StructRef is passed as one pointer, so mechanics can stay small functions of `(s, e)`.
Under NUMBA_DISABLE_JIT=1 the namedtuple itself is used. The field lists below must match
`state.FIELDS` (a test checks it).
"""

import numpy as np
from numba import config, from_dtype, types
from numba.experimental import structref

from .jit import njit
from .state import FIELDS, State


@structref.register
class StateStruct(types.StructRef):
    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


class StateRef(structref.StructRefProxy):
    """The Python handle of a StateStruct. Python reads it like the `State` it views: each
    field is the State's very array, and it iterates, indexes and lists `_fields` as the
    namedtuple does. Hand this, never the State, to an engine function called from Python:
    the namedtuple is another type, and numba would compile the function's whole call tree
    again for it (minutes for a fight or a spell)."""

    def __iter__(self):
        return iter(self.__dict__["_state"])

    def __len__(self):
        return len(self.__dict__["_state"])

    def __getitem__(self, i):
        return self.__dict__["_state"][i]

    def _asdict(self):
        return self.__dict__["_state"]._asdict()

    def __setattr__(self, name, value):
        if name in FIELDS:  # as the namedtuple: rebinding would part Python from the struct
            raise AttributeError(f"can't set {name}: write into its array ({name}[...] = v)")
        super().__setattr__(name, value)


structref.define_boxing(StateStruct, StateRef)

STRUCT_TYPE = StateStruct(
    [
        (name, types.Array(from_dtype(np.dtype(dtype)), len(shape) + 1, "C"))
        for name, (shape, dtype) in FIELDS.items()
    ]
)


@njit(cache=True)
def _struct_of(nt):
    s = structref.new(STRUCT_TYPE)
    s.rng = nt.rng
    s.mode = nt.mode
    s.outcome = nt.outcome
    s.steps = nt.steps
    s.floor = nt.floor
    s.x = nt.x
    s.y = nt.y
    s.pace = nt.pace
    s.meal_clock = nt.meal_clock
    s.heal_clock = nt.heal_clock
    s.rations = nt.rations
    s.gold = nt.gold
    s.maps_held = nt.maps_held
    s.has_book = nt.has_book
    s.has_king = nt.has_king
    s.hunting = nt.hunting
    s.pages_held = nt.pages_held
    s.book_pages = nt.book_pages
    s.floor_visited = nt.floor_visited
    s.effects = nt.effects
    s.ward_foul = nt.ward_foul
    s.known_kinds = nt.known_kinds
    s.practice = nt.practice
    s.caster = nt.caster
    s.sel_power = nt.sel_power
    s.choice_from = nt.choice_from
    s.keeper_seen = nt.keeper_seen
    s.keeper_given = nt.keeper_given
    s.keeper_new = nt.keeper_new
    s.free_streak = nt.free_streak
    s.report_pace = nt.report_pace
    s.book_floor = nt.book_floor
    s.book_room = nt.book_room
    s.king_room = nt.king_room
    s.cls = nt.cls
    s.in_party = nt.in_party
    s.order = nt.order
    s.hp = nt.hp
    s.ceiling = nt.ceiling
    s.mana = nt.mana
    s.well = nt.well
    s.level = nt.level
    s.xp = nt.xp
    s.atk = nt.atk
    s.luck = nt.luck
    s.raised = nt.raised
    s.bout_down = nt.bout_down
    s.options = nt.options
    s.spells_known = nt.spells_known
    s.spells_spent = nt.spells_spent
    s.wand_casts = nt.wand_casts
    s.floor_spent = nt.floor_spent
    s.floor_wand = nt.floor_wand
    s.names_known = nt.names_known
    s.primed = nt.primed
    s.hidden = nt.hidden
    s.invisible = nt.invisible
    s.blessed = nt.blessed
    s.blood_used = nt.blood_used
    s.item = nt.item
    s.item_wear = nt.item_wear
    s.item_dv = nt.item_dv
    s.sel_member = nt.sel_member
    s.sel_slot = nt.sel_slot
    s.tiles = nt.tiles
    s.fog = nt.fog
    s.searched = nt.searched
    s.ways_known = nt.ways_known
    s.coarse = nt.coarse
    s.room_of = nt.room_of
    s.num_rooms = nt.num_rooms
    s.room_rect = nt.room_rect
    s.room_code = nt.room_code
    s.room_known = nt.room_known
    s.room_entered = nt.room_entered
    s.room_gold = nt.room_gold
    s.room_items = nt.room_items
    s.room_pages = nt.room_pages
    s.room_map = nt.room_map
    s.room_chest = nt.room_chest
    s.room_feature = nt.room_feature
    s.room_heard = nt.room_heard
    s.statue_price = nt.statue_price
    s.statue_threshold = nt.statue_threshold
    s.bathed = nt.bathed
    s.band_kind = nt.band_kind
    s.band_hp = nt.band_hp
    s.vault_room = nt.vault_room
    s.vault_lock = nt.vault_lock
    s.vault_open = nt.vault_open
    s.wall_combo = nt.wall_combo
    s.wall_set = nt.wall_set
    s.wall_num_set = nt.wall_num_set
    s.wall_history = nt.wall_history
    s.wall_guesses = nt.wall_guesses
    s.plate_lit = nt.plate_lit
    s.plate_pushed = nt.plate_pushed
    s.plate_key = nt.plate_key
    s.plate_hints = nt.plate_hints
    s.plate_hint = nt.plate_hint
    s.stair_down = nt.stair_down
    s.stair_up = nt.stair_up
    s.foe_kind = nt.foe_kind
    s.foe_hp = nt.foe_hp
    s.foe_max = nt.foe_max
    s.fight_room = nt.fight_room
    s.actor = nt.actor
    s.fight_round = nt.fight_round
    s.worker = nt.worker
    s.goodwill = nt.goodwill
    s.bribe_asked = nt.bribe_asked
    s.sneaker = nt.sneaker
    s.ally_kind = nt.ally_kind
    s.ally_hp = nt.ally_hp
    s.foe_status = nt.foe_status
    s.decoys = nt.decoys
    s.holy_sword = nt.holy_sword
    s.charging = nt.charging
    s.dirty = nt.dirty
    s.events = nt.events
    s.achieved = nt.achieved
    s.reward = nt.reward
    s.stat_rooms = nt.stat_rooms
    s.stat_kills = nt.stat_kills
    s.stat_fights = nt.stat_fights
    s.stat_lost = nt.stat_lost
    s.stat_deepest = nt.stat_deepest
    s.stat_flights = nt.stat_flights
    s.stat_gold = nt.stat_gold
    s.stat_vaults = nt.stat_vaults
    s.stat_vault_wounds = nt.stat_vault_wounds
    s.stat_hint_gold = nt.stat_hint_gold
    s.stat_tiles = nt.stat_tiles
    s.stat_chests = nt.stat_chests
    s.stat_traps = nt.stat_traps
    s.stat_bought = nt.stat_bought
    s.stat_sold = nt.stat_sold
    s.stat_bids = nt.stat_bids
    s.stat_baths = nt.stat_baths
    s.stat_eaten = nt.stat_eaten
    s.stat_bouts = nt.stat_bouts
    s.stat_bribes = nt.stat_bribes
    s.stat_listens = nt.stat_listens
    s.stat_sneaks = nt.stat_sneaks
    s.stat_casts = nt.stat_casts
    s.stat_choices = nt.stat_choices
    s.kind_met = nt.kind_met
    s.kind_killed = nt.kind_killed
    s.kind_learned = nt.kind_learned
    s.linger_kind = nt.linger_kind
    s.linger_hp = nt.linger_hp
    s.linger_xy = nt.linger_xy
    s.log = nt.log
    s.log_n = nt.log_n
    return s


def compiled_view(state: State):
    """What compiled code is handed and Python reads: a StructRef sharing `state`'s arrays,
    its fields set as attributes (as fast to read as the namedtuple's), or `state` itself when
    the JIT is off."""
    if config.DISABLE_JIT:
        return state
    view = _struct_of(state)
    view.__dict__.update(state._asdict(), _fields=state._fields, _state=state)
    return view


@njit(cache=True)
def clear_slot(s, e):
    """Zero every field of env e."""
    s.rng[e] = 0
    s.mode[e] = 0
    s.outcome[e] = 0
    s.steps[e] = 0
    s.floor[e] = 0
    s.x[e] = 0
    s.y[e] = 0
    s.pace[e] = 0
    s.meal_clock[e] = 0
    s.heal_clock[e] = 0
    s.rations[e] = 0
    s.gold[e] = 0
    s.maps_held[e] = 0
    s.has_book[e] = 0
    s.has_king[e] = 0
    s.hunting[e] = 0
    s.pages_held[e] = 0
    s.book_pages[e] = 0
    s.floor_visited[e] = 0
    s.effects[e] = 0
    s.ward_foul[e] = 0
    s.known_kinds[e] = 0
    s.practice[e] = 0
    s.caster[e] = 0
    s.sel_power[e] = 0
    s.choice_from[e] = 0
    s.keeper_seen[e] = 0
    s.keeper_given[e] = 0
    s.keeper_new[e] = 0
    s.free_streak[e] = 0
    s.report_pace[e] = 0
    s.book_floor[e] = 0
    s.book_room[e] = 0
    s.king_room[e] = 0
    s.cls[e] = 0
    s.in_party[e] = 0
    s.order[e] = 0
    s.hp[e] = 0
    s.ceiling[e] = 0
    s.mana[e] = 0
    s.well[e] = 0
    s.level[e] = 0
    s.xp[e] = 0
    s.atk[e] = 0
    s.luck[e] = 0
    s.raised[e] = 0
    s.bout_down[e] = 0
    s.options[e] = 0
    s.spells_known[e] = 0
    s.spells_spent[e] = 0
    s.wand_casts[e] = 0
    s.floor_spent[e] = 0
    s.floor_wand[e] = 0
    s.names_known[e] = 0
    s.primed[e] = 0
    s.hidden[e] = 0
    s.invisible[e] = 0
    s.blessed[e] = 0
    s.blood_used[e] = 0
    s.item[e] = 0
    s.item_wear[e] = 0
    s.item_dv[e] = 0
    s.sel_member[e] = 0
    s.sel_slot[e] = 0
    s.tiles[e] = 0
    s.fog[e] = 0
    s.searched[e] = 0
    s.ways_known[e] = 0
    s.coarse[e] = 0
    s.room_of[e] = 0
    s.num_rooms[e] = 0
    s.room_rect[e] = 0
    s.room_code[e] = 0
    s.room_known[e] = 0
    s.room_entered[e] = 0
    s.room_gold[e] = 0
    s.room_items[e] = 0
    s.room_pages[e] = 0
    s.room_map[e] = 0
    s.room_chest[e] = 0
    s.room_feature[e] = 0
    s.room_heard[e] = 0
    s.statue_price[e] = 0
    s.statue_threshold[e] = 0
    s.bathed[e] = 0
    s.band_kind[e] = 0
    s.band_hp[e] = 0
    s.vault_room[e] = 0
    s.vault_lock[e] = 0
    s.vault_open[e] = 0
    s.wall_combo[e] = 0
    s.wall_set[e] = 0
    s.wall_num_set[e] = 0
    s.wall_history[e] = 0
    s.wall_guesses[e] = 0
    s.plate_lit[e] = 0
    s.plate_pushed[e] = 0
    s.plate_key[e] = 0
    s.plate_hints[e] = 0
    s.plate_hint[e] = 0
    s.stair_down[e] = 0
    s.stair_up[e] = 0
    s.foe_kind[e] = 0
    s.foe_hp[e] = 0
    s.foe_max[e] = 0
    s.fight_room[e] = 0
    s.actor[e] = 0
    s.fight_round[e] = 0
    s.worker[e] = 0
    s.goodwill[e] = 0
    s.bribe_asked[e] = 0
    s.sneaker[e] = 0
    s.ally_kind[e] = 0
    s.ally_hp[e] = 0
    s.foe_status[e] = 0
    s.decoys[e] = 0
    s.holy_sword[e] = 0
    s.charging[e] = 0
    s.dirty[e] = 0
    s.events[e] = 0
    s.achieved[e] = 0
    s.reward[e] = 0
    s.stat_rooms[e] = 0
    s.stat_kills[e] = 0
    s.stat_fights[e] = 0
    s.stat_lost[e] = 0
    s.stat_deepest[e] = 0
    s.stat_flights[e] = 0
    s.stat_gold[e] = 0
    s.stat_vaults[e] = 0
    s.stat_vault_wounds[e] = 0
    s.stat_hint_gold[e] = 0
    s.stat_tiles[e] = 0
    s.stat_chests[e] = 0
    s.stat_traps[e] = 0
    s.stat_bought[e] = 0
    s.stat_sold[e] = 0
    s.stat_bids[e] = 0
    s.stat_baths[e] = 0
    s.stat_eaten[e] = 0
    s.stat_bouts[e] = 0
    s.stat_bribes[e] = 0
    s.stat_listens[e] = 0
    s.stat_sneaks[e] = 0
    s.stat_casts[e] = 0
    s.stat_choices[e] = 0
    s.kind_met[e] = 0
    s.kind_killed[e] = 0
    s.kind_learned[e] = 0
    s.linger_kind[e] = 0
    s.linger_hp[e] = 0
    s.linger_xy[e] = 0
    s.log[e] = 0
    s.log_n[e] = 0
