"""The compiled views of the state and of the engine's buffers must carry every field of
`State` and `IO` (engine/compiled/struct.py)."""

import gc

import numpy as np
import pytest

from delve_env.config import Config
from delve_env.engine.batch import Engine
from delve_env.engine.compiled import struct
from delve_env.engine.compiled.jit import njit
from delve_env.engine.core.actions import A_STAIRS, A_WAIT
from delve_env.engine.core.state import FIELDS, allocate


@njit
def _clear_compiled(s, e):
    struct.clear_slot(s, e)


@pytest.mark.parametrize("clear", [struct.clear_slot, _clear_compiled], ids=["python", "compiled"])
def test_clear_slot_zeroes_every_field_of_one_env_only(clear):
    """clear_slot, as Python runs it and as compiled code has it written out from FIELDS."""
    state = allocate(2, depth=2, height=24, width=48)
    for a in state:
        a[...] = 1
    clear(struct.compiled_view(state), 1)
    for name, a in zip(FIELDS, state):
        assert not np.any(a[1]), name
        assert np.all(a[0] == 1), name


def test_the_structs_hold_every_field_in_order():
    """The compiled views' structs are built from the field lists themselves."""
    state = allocate(1, depth=2, height=24, width=48)
    assert struct.STRUCT_TYPE.field_dict.keys() == FIELDS.keys()
    assert list(struct.IO_TYPE.field_dict) == list(struct.IO_FIELDS)
    assert struct.compiled_view(state)._fields == tuple(FIELDS)


def test_the_entry_points_write_through_the_buffers_view():
    """The engine's buffers, handed to compiled code as one pointer, are the very arrays
    Python reads: a step writes its rewards, flags, paces and outputs into them."""
    cfg = Config.from_kwargs(max_steps=1)
    eng = Engine(3, cfg.params(), cfg.party_classes())
    eng.reset(np.arange(3, dtype=np.uint64), np.ones(3, dtype=np.bool_))
    record, masks = eng.obs_record.copy(), eng.masks.copy()
    eng.actions[:] = [A_STAIRS, A_WAIT, A_STAIRS]  # wait is refused in the courtyard
    eng.step(eng.actions, eng.needs_reset)
    assert list(eng.truncated) == [True, True, True] and list(eng.invalid) == [0, 1, 0]
    assert list(eng.paces) == [0, 0, 0] and eng.state.floor.tolist() == [1, 0, 1]
    assert (eng.obs_record[[0, 2]] != record[[0, 2]]).any(1).all()
    assert (eng.masks[[0, 2]] != masks[[0, 2]]).any()


def test_compiled_view_shares_the_arrays():
    state = allocate(2, depth=2, height=24, width=48)
    view = struct.compiled_view(state)
    struct.clear_slot(view, 0)  # compiled code writes through the view...
    state.hp[1, 0] = 7
    struct.clear_slot(view, 0)
    assert state.hp[1, 0] == 7  # ...into the very arrays Python reads


def test_the_view_reads_like_the_state():
    """Python reads the compiled view's fields as the State's very arrays, in order."""
    state = allocate(2, depth=2, height=24, width=48)
    view = struct.compiled_view(state)
    assert view.hp is state.hp and view._fields == state._fields
    assert all(a is b for a, b in zip(view, state)) and len(view) == len(state)
    assert view[3] is state[3] and list(view._asdict()) == list(FIELDS)
    with pytest.raises(AttributeError):  # as the namedtuple refuses it
        view.hp = np.zeros_like(state.hp)


def test_the_view_keeps_the_arrays_alive():
    """Compiled code holds the arrays unowned (no reference counts): the view alone must keep
    them alive once the State that made them is gone."""
    view = struct.compiled_view(allocate(2, depth=2, height=24, width=48))
    gc.collect()
    view.hp[...] = 5
    struct.clear_slot(view, 0)
    assert np.all(view.hp[0] == 0) and np.all(view.hp[1] == 5)
