"""The compiled view of the state: a bare pointer to a numba StructRef holding `State`'s arrays.

Numba passes a namedtuple of arrays to a function as every array separately, with a reference
count bump for each: about 7 ns per array per call, some 0.5 us per call for ~75 arrays. A
StructRef is one pointer, so mechanics can stay small functions of `(s, e)`; but a StructRef is
itself reference counted at every function entered, and an array in it at every view taken
(`s.fog[e, f]`), each an atomic add and subtract: a tenth of an env step. So compiled code
gets `StatePointer`, the bare address of the StructRef's fields, and the fields are the arrays
with no meminfo: nothing is counted. `StateView`, what Python holds, keeps the StructRef and
the arrays alive. The entry points' buffers (`IO`: batch.Engine's actions, outputs and
parameters) are handed over the same way, as an `IOView`. Under NUMBA_DISABLE_JIT=1 the
namedtuples themselves are used. The field lists below must match `state.FIELDS` and
`IO_FIELDS` (tests check them).
"""

from collections import namedtuple

import numpy as np
from numba import config, from_dtype, types
from numba.core import cgutils, imputils
from numba.core.datamodel import models
from numba.core.typing.templates import AttributeTemplate
from numba.experimental import structref
from numba.extending import (
    NativeValue,
    infer_getattr,
    intrinsic,
    lower_getattr_generic,
    overload,
    register_model,
    unbox,
)

from .jit import njit
from .state import FIELDS, State


@structref.register
class ArraysStruct(types.StructRef):
    """A StructRef of C-contiguous arrays: the state's, and the entry points' buffers'."""

    def preprocess_fields(self, fields):
        return tuple((name, types.unliteral(typ)) for name, typ in fields)


structref.define_boxing(ArraysStruct, structref.StructRefProxy)


def arrays_struct(fields: dict) -> ArraysStruct:
    """The StructRef type of `fields` ({name: (dimensions, dtype)})."""
    return ArraysStruct(
        [
            (name, types.Array(from_dtype(np.dtype(dtype)), ndim, "C"))
            for name, (ndim, dtype) in fields.items()
        ]
    )


STRUCT_TYPE = arrays_struct(
    {name: (len(shape) + 1, dtype) for name, (shape, dtype) in FIELDS.items()}
)


class FieldsPointer(types.Type):
    """A StructRef in compiled code as the bare address of its fields, never reference counted:
    the state (STATE_POINTER) and the entry points' buffers (IO_POINTER)."""

    def __init__(self, struct_type, name):
        self.struct_type = struct_type
        self.dtype = struct_type.get_data_type()  # what models.PointerModel points to
        super().__init__(name=name)


STATE_POINTER = FieldsPointer(STRUCT_TYPE, "StatePointer")
register_model(FieldsPointer)(models.PointerModel)


@infer_getattr
class _Fields(AttributeTemplate):
    key = FieldsPointer

    def generic_resolve(self, typ, attr):
        return typ.struct_type.field_dict.get(attr)


@lower_getattr_generic(FieldsPointer)
def _read_field(context, builder, typ, pointer, attr):
    fields = cgutils.create_struct_proxy(typ.dtype)(context, builder, ref=pointer)
    field_type = typ.struct_type.field_dict[attr]
    return imputils.impl_ret_borrowed(context, builder, field_type, getattr(fields, attr))


@unbox(FieldsPointer)
def _unbox_fields(typ, view, c):
    # the view's `__index__`, or the address itself: a bound entry point (batch.bound_entry)
    # is handed the int, unboxed with no attribute looked up
    address = c.pyapi.number_as_ssize_t(view)
    failed = cgutils.is_not_null(c.builder, c.pyapi.err_occurred())
    pointer = c.builder.inttoptr(address, c.context.get_value_type(typ))
    return NativeValue(pointer, is_error=failed)


class StateView:
    """What Python holds and hands to engine functions: it reads like the `State` it views
    (each field is the State's very array; it iterates, indexes and lists `_fields` as the
    namedtuple does) and compiled code sees it as a StatePointer. Hand this, never the State,
    to an engine function called from Python: the namedtuple is another type, and numba would
    compile the function's whole call tree again for it (minutes for a fight or a spell)."""

    _numba_type_ = STATE_POINTER

    def __init__(self, state: State):
        struct = _struct_of(state)
        self.__dict__.update(state._asdict(), _fields=state._fields, _state=state,
                             _struct=struct, _address=_fields_address(struct))  # fmt: skip

    def __iter__(self):
        return iter(self._state)

    def __len__(self):
        return len(self._state)

    def __getitem__(self, i):
        return self._state[i]

    def _asdict(self):
        return self._state._asdict()

    def __index__(self):  # the address of the struct's fields: what compiled code unboxes
        return self._address

    def __setattr__(self, name, value):
        if name in FIELDS:  # as the namedtuple: rebinding would part Python from the struct
            raise AttributeError(f"can't set {name}: write into its array ({name}[...] = v)")
        super().__setattr__(name, value)


def unowned(array):
    """`array`, and in compiled code the same array with no meminfo: neither it nor any view of
    it is reference counted. For an entry point's arrays, which its caller keeps alive: shared
    between threads, the counts' cache lines would pass from core to core."""
    return array


@overload(unowned)
def _unowned_compiled(array):
    return lambda array: _without_meminfo(array)


@intrinsic
def _without_meminfo(typingctx, array):
    def codegen(context, builder, signature, args):
        view = context.make_array(array)(context, builder, value=args[0])
        view.meminfo = cgutils.get_null_value(view.meminfo.type)
        return view._getvalue()

    return array(array), codegen


@intrinsic
def _address_of_fields(typingctx, struct):
    def codegen(context, builder, signature, args):
        fields = structref._Utils(context, builder, struct).get_data_pointer(args[0])
        return builder.ptrtoint(fields, context.get_value_type(types.intp))

    return types.intp(struct), codegen


@njit(cache=True)
def _fields_address(struct):
    return _address_of_fields(struct)


@njit(cache=True)
def _struct_of(nt):
    s = structref.new(STRUCT_TYPE)
    s.rng = unowned(nt.rng)
    s.mode = unowned(nt.mode)
    s.outcome = unowned(nt.outcome)
    s.steps = unowned(nt.steps)
    s.floor = unowned(nt.floor)
    s.x = unowned(nt.x)
    s.y = unowned(nt.y)
    s.pace = unowned(nt.pace)
    s.meal_clock = unowned(nt.meal_clock)
    s.heal_clock = unowned(nt.heal_clock)
    s.rations = unowned(nt.rations)
    s.gold = unowned(nt.gold)
    s.maps_held = unowned(nt.maps_held)
    s.has_book = unowned(nt.has_book)
    s.has_king = unowned(nt.has_king)
    s.hunting = unowned(nt.hunting)
    s.pages_held = unowned(nt.pages_held)
    s.book_pages = unowned(nt.book_pages)
    s.floor_visited = unowned(nt.floor_visited)
    s.effects = unowned(nt.effects)
    s.ward_foul = unowned(nt.ward_foul)
    s.known_kinds = unowned(nt.known_kinds)
    s.practice = unowned(nt.practice)
    s.caster = unowned(nt.caster)
    s.sel_power = unowned(nt.sel_power)
    s.choice_from = unowned(nt.choice_from)
    s.keeper_seen = unowned(nt.keeper_seen)
    s.keeper_given = unowned(nt.keeper_given)
    s.keeper_new = unowned(nt.keeper_new)
    s.free_streak = unowned(nt.free_streak)
    s.report_pace = unowned(nt.report_pace)
    s.book_floor = unowned(nt.book_floor)
    s.book_room = unowned(nt.book_room)
    s.king_room = unowned(nt.king_room)
    s.cls = unowned(nt.cls)
    s.in_party = unowned(nt.in_party)
    s.order = unowned(nt.order)
    s.hp = unowned(nt.hp)
    s.ceiling = unowned(nt.ceiling)
    s.mana = unowned(nt.mana)
    s.well = unowned(nt.well)
    s.level = unowned(nt.level)
    s.xp = unowned(nt.xp)
    s.atk = unowned(nt.atk)
    s.luck = unowned(nt.luck)
    s.raised = unowned(nt.raised)
    s.bout_down = unowned(nt.bout_down)
    s.options = unowned(nt.options)
    s.spells_known = unowned(nt.spells_known)
    s.spells_spent = unowned(nt.spells_spent)
    s.wand_casts = unowned(nt.wand_casts)
    s.floor_spent = unowned(nt.floor_spent)
    s.floor_wand = unowned(nt.floor_wand)
    s.names_known = unowned(nt.names_known)
    s.primed = unowned(nt.primed)
    s.hidden = unowned(nt.hidden)
    s.invisible = unowned(nt.invisible)
    s.blessed = unowned(nt.blessed)
    s.blood_used = unowned(nt.blood_used)
    s.item = unowned(nt.item)
    s.item_wear = unowned(nt.item_wear)
    s.item_dv = unowned(nt.item_dv)
    s.sel_member = unowned(nt.sel_member)
    s.sel_slot = unowned(nt.sel_slot)
    s.tiles = unowned(nt.tiles)
    s.fog = unowned(nt.fog)
    s.searched = unowned(nt.searched)
    s.ways_known = unowned(nt.ways_known)
    s.reach = unowned(nt.reach)
    s.coarse = unowned(nt.coarse)
    s.room_of = unowned(nt.room_of)
    s.num_rooms = unowned(nt.num_rooms)
    s.room_rect = unowned(nt.room_rect)
    s.room_code = unowned(nt.room_code)
    s.room_known = unowned(nt.room_known)
    s.room_entered = unowned(nt.room_entered)
    s.room_gold = unowned(nt.room_gold)
    s.room_items = unowned(nt.room_items)
    s.room_pages = unowned(nt.room_pages)
    s.room_map = unowned(nt.room_map)
    s.room_chest = unowned(nt.room_chest)
    s.room_feature = unowned(nt.room_feature)
    s.room_heard = unowned(nt.room_heard)
    s.statue_price = unowned(nt.statue_price)
    s.statue_threshold = unowned(nt.statue_threshold)
    s.bathed = unowned(nt.bathed)
    s.band_kind = unowned(nt.band_kind)
    s.band_hp = unowned(nt.band_hp)
    s.vault_room = unowned(nt.vault_room)
    s.vault_lock = unowned(nt.vault_lock)
    s.vault_open = unowned(nt.vault_open)
    s.wall_combo = unowned(nt.wall_combo)
    s.wall_set = unowned(nt.wall_set)
    s.wall_num_set = unowned(nt.wall_num_set)
    s.wall_history = unowned(nt.wall_history)
    s.wall_guesses = unowned(nt.wall_guesses)
    s.plate_lit = unowned(nt.plate_lit)
    s.plate_pushed = unowned(nt.plate_pushed)
    s.plate_key = unowned(nt.plate_key)
    s.plate_hints = unowned(nt.plate_hints)
    s.plate_hint = unowned(nt.plate_hint)
    s.stair_down = unowned(nt.stair_down)
    s.stair_up = unowned(nt.stair_up)
    s.foe_kind = unowned(nt.foe_kind)
    s.foe_hp = unowned(nt.foe_hp)
    s.foe_max = unowned(nt.foe_max)
    s.fight_room = unowned(nt.fight_room)
    s.actor = unowned(nt.actor)
    s.fight_round = unowned(nt.fight_round)
    s.worker = unowned(nt.worker)
    s.goodwill = unowned(nt.goodwill)
    s.bribe_asked = unowned(nt.bribe_asked)
    s.sneaker = unowned(nt.sneaker)
    s.ally_kind = unowned(nt.ally_kind)
    s.ally_hp = unowned(nt.ally_hp)
    s.foe_status = unowned(nt.foe_status)
    s.decoys = unowned(nt.decoys)
    s.holy_sword = unowned(nt.holy_sword)
    s.charging = unowned(nt.charging)
    s.dirty = unowned(nt.dirty)
    s.events = unowned(nt.events)
    s.achieved = unowned(nt.achieved)
    s.reward = unowned(nt.reward)
    s.stat_rooms = unowned(nt.stat_rooms)
    s.stat_kills = unowned(nt.stat_kills)
    s.stat_fights = unowned(nt.stat_fights)
    s.stat_lost = unowned(nt.stat_lost)
    s.stat_deepest = unowned(nt.stat_deepest)
    s.stat_flights = unowned(nt.stat_flights)
    s.stat_gold = unowned(nt.stat_gold)
    s.stat_vaults = unowned(nt.stat_vaults)
    s.stat_vault_wounds = unowned(nt.stat_vault_wounds)
    s.stat_hint_gold = unowned(nt.stat_hint_gold)
    s.stat_tiles = unowned(nt.stat_tiles)
    s.stat_chests = unowned(nt.stat_chests)
    s.stat_traps = unowned(nt.stat_traps)
    s.stat_bought = unowned(nt.stat_bought)
    s.stat_sold = unowned(nt.stat_sold)
    s.stat_bids = unowned(nt.stat_bids)
    s.stat_baths = unowned(nt.stat_baths)
    s.stat_eaten = unowned(nt.stat_eaten)
    s.stat_bouts = unowned(nt.stat_bouts)
    s.stat_bribes = unowned(nt.stat_bribes)
    s.stat_listens = unowned(nt.stat_listens)
    s.stat_sneaks = unowned(nt.stat_sneaks)
    s.stat_casts = unowned(nt.stat_casts)
    s.stat_choices = unowned(nt.stat_choices)
    s.kind_met = unowned(nt.kind_met)
    s.kind_killed = unowned(nt.kind_killed)
    s.kind_learned = unowned(nt.kind_learned)
    s.linger_kind = unowned(nt.linger_kind)
    s.linger_hp = unowned(nt.linger_hp)
    s.linger_xy = unowned(nt.linger_xy)
    s.log = unowned(nt.log)
    s.log_n = unowned(nt.log_n)
    return s


def compiled_view(state: State):
    """What compiled code is handed and Python reads: a StateView of `state`'s arrays, or
    `state` itself when the JIT is off."""
    return state if config.DISABLE_JIT else StateView(state)


# --- the entry points' buffers ---------------------------------------------------------------
# Numba unboxes each array argument of a call from Python into a new meminfo, some 90 ns an
# array: 1.4 us for the batch step's fifteen, a tenth of the single env's whole step. So the
# entry points take batch.Engine's buffers as one more bare pointer, as they take the state.
IO_FIELDS = {  # name: (dimensions, dtype); one row per env but `params` and `party`
    "params": (1, np.float64),  # params.py's vector
    "party": (1, np.int8),  # the classes the party starts with
    "actions": (1, np.int64),
    "needs_reset": (1, np.bool_),
    "obs": (2, np.uint8),  # the observation records (layout.py)
    "masks": (2, np.bool_),
    "kept_rows": (2, np.bool_),  # the explore rows an open selection replaced (legal_mask)
    "kept": (1, np.bool_),
    "rewards": (1, np.float32),
    "terminated": (1, np.bool_),
    "truncated": (1, np.bool_),
    "invalid": (1, np.bool_),
    "paces": (1, np.int32),  # the paces of each env's last step
}
IO = namedtuple("IO", list(IO_FIELDS))


IO_TYPE = arrays_struct(IO_FIELDS)
IO_POINTER = FieldsPointer(IO_TYPE, "IOPointer")


class IOView:
    """The buffers of `io` (an IO of arrays) as compiled code takes them: an IOPointer."""

    _numba_type_ = IO_POINTER

    def __init__(self, io: IO):
        self._io = io  # keeps the arrays alive: compiled code holds them unowned
        self._struct = _io_struct_of(io)
        self._address = _fields_address(self._struct)

    def __index__(self):  # as StateView's
        return self._address


@njit(cache=True)
def _io_struct_of(nt):
    s = structref.new(IO_TYPE)
    s.params = unowned(nt.params)
    s.party = unowned(nt.party)
    s.actions = unowned(nt.actions)
    s.needs_reset = unowned(nt.needs_reset)
    s.obs = unowned(nt.obs)
    s.masks = unowned(nt.masks)
    s.kept_rows = unowned(nt.kept_rows)
    s.kept = unowned(nt.kept)
    s.rewards = unowned(nt.rewards)
    s.terminated = unowned(nt.terminated)
    s.truncated = unowned(nt.truncated)
    s.invalid = unowned(nt.invalid)
    s.paces = unowned(nt.paces)
    return s


def compiled_io(io: IO):
    """What the entry points are handed: an IOView of `io`'s arrays, or `io` itself when the
    JIT is off."""
    return io if config.DISABLE_JIT else IOView(io)


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
    s.reach[e] = 0
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
