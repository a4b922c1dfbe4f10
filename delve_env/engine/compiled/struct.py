"""The compiled view of the state: a bare pointer to a numba StructRef holding `State`'s arrays.

Numba passes a namedtuple of arrays to a function as every array separately, with a reference
count bump for each, at every call: with ~75 arrays, more than the work of most mechanics. A
StructRef is one pointer, so mechanics can stay small functions of `(s, e)`; but a StructRef is
itself reference counted at every function entered, and an array in it at every view taken
(`s.fog[e, f]`), each an atomic add and subtract. So compiled code
gets `StatePointer`, the bare address of the StructRef's fields, and the fields are the arrays
with no meminfo: nothing is counted. `StateView`, what Python holds, keeps the StructRef and
the arrays alive. The entry points' buffers (`IO`: batch.Engine's actions, outputs and
parameters) are handed over the same way, as an `IOView`. Under NUMBA_DISABLE_JIT=1 the
namedtuples themselves are used. What compiled code does field by field (fill a struct, zero
an env's slot) is written out from `state.FIELDS` and `IO_FIELDS` when it is compiled.
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

from ..core.state import FIELDS, State
from .jit import njit


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


def _fill(s, nt):
    """Put every field of the namedtuple `nt` into the StructRef `s`, unowned (compiled only:
    the body is written per namedtuple type, one line a field)."""
    raise NotImplementedError("compiled code only")


@overload(_fill)
def _fill_compiled(s, nt):
    return _per_field("s, nt", "s.{f} = unowned(nt.{f})", nt.fields)


def _per_field(arguments: str, line: str, fields) -> callable:
    """A function of `arguments` whose body is `line` once for each field (`{f}` its name):
    compiled code cannot loop over a struct's fields by name, so the loop is unrolled here,
    from the field lists themselves."""
    source = f"def per_field({arguments}):\n" + "".join(
        "    " + line.format(f=f) + "\n" for f in fields
    )
    namespace = {"unowned": unowned}
    exec(source, namespace)
    return namespace["per_field"]


@njit(cache=True)
def _struct_of(nt):
    s = structref.new(STRUCT_TYPE)
    _fill(s, nt)
    return s


def compiled_view(state: State):
    """What compiled code is handed and Python reads: a StateView of `state`'s arrays, or
    `state` itself when the JIT is off."""
    return state if config.DISABLE_JIT else StateView(state)


# --- the entry points' buffers ---------------------------------------------------------------
# Numba unboxes each array argument of a call from Python into a new meminfo, at every call:
# for a single env's step, its buffers would cost as much as the step. So the entry points take
# batch.Engine's buffers as one more bare pointer, as they take the state.
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
    _fill(s, nt)
    return s


def compiled_io(io: IO):
    """What the entry points are handed: an IOView of `io`'s arrays, or `io` itself when the
    JIT is off."""
    return io if config.DISABLE_JIT else IOView(io)


def clear_slot(s, e):
    """Zero every field of env e."""
    for name in FIELDS:
        getattr(s, name)[e] = 0


@overload(clear_slot)
def _clear_slot_compiled(s, e):
    return _per_field("s, e", "s.{f}[e] = 0", FIELDS)
