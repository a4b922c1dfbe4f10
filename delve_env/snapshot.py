"""A versioned, checksummed, pickle-free byte format for one env slot's whole state.

    data = to_bytes(state, e)           # slot e of an engine `State` -> bytes
    from_bytes(data, state, e)          # bytes -> slot e (then `engine.refresh` that slot)

Layout (all integers little-endian):

    offset  size  what
    0       5     magic b"DELVE"
    5       2     format version (uint16), `VERSION`
    7       4     header length L (uint32)
    11      L     header: UTF-8 JSON {"fields": [[name, dtype, shape], ...], "payload": nbytes,
                  "meta": {...}}; dtypes are little-endian numpy dtype strings ("<i2", "|b1")
    11+L    P     payload: each field's slot-e array, C order, in header order
    end-32  32    sha256 of every byte before it

`from_bytes` checks everything (type, length, magic, version, checksum, header, field list,
dtypes, shapes, payload size, bool bytes, and the range of every field the compiled engine
uses as an index, see `index_ranges`) before it writes anything, and raises
`SnapshotError` (a `ValueError`) for anything wrong: corrupted, truncated, wrong-version or
wrong-shape data never reaches the state and never raises anything else. The format holds
numbers only: loading never runs code (no pickle).

`DelveEnv.save_state` records the env's config in the meta (`Config.snapshot_dict`) and
`load_state` passes its own as `from_bytes(..., config=...)`: a snapshot of another config,
or one that does not record its config, is refused the same way, before any shape check.
"""

from __future__ import annotations

import functools
import hashlib
import json
import math
import struct

import numpy as np

MAGIC = b"DELVE"
VERSION = 1
_PREFIX = struct.Struct("<5sHI")  # magic, version, header length
_DIGEST = 32  # sha256
_MIN_SIZE = _PREFIX.size + 2 + _DIGEST  # the smallest header is "{}"
MAX_HEADER = 1 << 20  # a header is a few KB; anything bigger is not ours


def index_ranges(state) -> dict[str, tuple[int, int, slice | None]]:
    """name -> (low, high, column) for the fields compiled code indexes arrays with: a value out
    of its range in a crafted snapshot (a valid checksum over bad numbers) would make the
    engine read outside its arrays, so `from_bytes` refuses it. Bounds come from the state's
    own shapes and the rules tables; fields absent from `state` are skipped."""
    from .engine.core.state import ROOM_MARK
    from .engine.core.tables import (
        NUM_CLASSES,
        NUM_ITEMS,
        NUM_MODES,
        NUM_MONSTERS,
        NUM_SPELLS,
        TILE_NAMES,
    )

    F, H, W = state.tiles.shape[1:]
    R, M = state.room_rect.shape[2], state.hp.shape[1]
    x_col, y_col = slice(0, 1), slice(1, 2)
    return {
        "mode": (0, NUM_MODES - 1, None),
        "outcome": (0, 2, None),
        "floor": (0, F - 1, None),
        "x": (0, W - 1, None),
        "y": (0, H - 1, None),
        "book_floor": (0, F - 1, None),
        "book_room": (0, R - 1, None),
        "king_room": (0, R - 1, None),
        "cls": (-1, NUM_CLASSES - 1, None),
        "order": (-1, M - 1, None),
        "actor": (-1, M - 1, None),
        "worker": (-1, M - 1, None),
        "item": (0, NUM_ITEMS - 1, None),
        "sel_member": (-1, M - 1, None),
        "sel_slot": (-1, state.item.shape[2] - 1, None),
        "room_items": (0, NUM_ITEMS - 1, None),
        "tiles": (0, len(TILE_NAMES) - 1, None),
        "room_of": (-1, R - 1, None),
        "fog": (0, ROOM_MARK + R - 1, None),  # the crop reads a room's code through it
        "num_rooms": (0, R, None),
        "room_pages": (-1, NUM_SPELLS - 1, None),
        "band_kind": (-1, NUM_MONSTERS - 1, None),
        "foe_kind": (-1, NUM_MONSTERS - 1, None),
        "fight_room": (-1, R - 1, None),
        "vault_room": (-1, R - 1, None),
        "stair_up": (0, W - 1, x_col),
        "stair_up_y": (0, H - 1, y_col),
        "stair_down": (0, W - 1, x_col),
        "stair_down_y": (0, H - 1, y_col),
        "linger_kind": (-1, NUM_MONSTERS - 1, None),  # RUN-AWAY-1: a band left in a hall
        "linger_xy": (0, W - 1, x_col),
        "linger_xy_y": (0, H - 1, y_col),
    }


class SnapshotError(ValueError):
    """Snapshot bytes that cannot be loaded: corrupted, truncated, another version, another
    config, or not a Delve snapshot at all. The state was left untouched."""


def _layout(state) -> list[tuple[str, np.dtype, tuple[int, ...]]]:
    """(name, little-endian dtype, per-slot shape) of every field of `state`, in order."""
    return [
        (name, np.dtype(a.dtype).newbyteorder("<"), tuple(a.shape[1:]))
        for name, a in zip(state._fields, state)
    ]


def _check_slot(state, e) -> int:
    n = len(state[0])
    if isinstance(e, (bool, np.bool_)) or not isinstance(e, (int, np.integer)) or not 0 <= e < n:
        raise IndexError(f"slot {e!r} is not in 0..{n - 1}")
    return int(e)


def to_bytes(state, e: int, meta: dict | None = None) -> bytes:
    """Slot e of `state` as snapshot bytes. `meta` is an optional JSON-able dict stored beside
    the arrays (the env layer keeps its own flags there); `from_bytes` returns it."""
    e = _check_slot(state, e)
    layout = _layout(state)
    chunks = [
        np.ascontiguousarray(a[e], dtype=dt).tobytes() for (_, dt, _), a in zip(layout, state)
    ]
    header = {
        "fields": [[name, dt.str, list(shape)] for name, dt, shape in layout],
        "payload": sum(len(c) for c in chunks),
        "meta": dict(meta or {}),
    }
    head = json.dumps(header, separators=(",", ":"), sort_keys=True, allow_nan=False).encode()
    body = b"".join([_PREFIX.pack(MAGIC, VERSION, len(head)), head, *chunks])
    return body + hashlib.sha256(body).digest()


def read_header(data) -> dict:
    """Validate the framing of snapshot bytes (magic, version, checksum, header) and return
    the header dict (fields, payload size, meta); raises SnapshotError. Reads no state."""
    return _frame(data)[0]


def _frame(data) -> tuple[dict, bytes, int]:
    """(header, body without the checksum, payload offset) of checked snapshot bytes."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise SnapshotError(f"a snapshot is bytes, got {type(data).__name__}")
    data = bytes(data)
    if len(data) < _MIN_SIZE:
        raise SnapshotError(f"truncated snapshot: {len(data)} bytes")
    magic, version, head_len = _PREFIX.unpack_from(data)
    if magic != MAGIC:
        raise SnapshotError("not a Delve snapshot (bad magic)")
    if version != VERSION:
        raise SnapshotError(
            f"snapshot format version {version} is not supported (this build "
            f"reads version {VERSION})"
        )
    body, digest = data[:-_DIGEST], data[-_DIGEST:]
    if hashlib.sha256(body).digest() != digest:
        raise SnapshotError("snapshot checksum mismatch: the data is corrupted or truncated")
    if head_len > MAX_HEADER or _PREFIX.size + head_len > len(body):
        raise SnapshotError(f"snapshot header length {head_len} does not fit the data")
    try:
        header = json.loads(body[_PREFIX.size : _PREFIX.size + head_len].decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError) as ex:
        raise SnapshotError(f"snapshot header is not valid JSON: {ex}") from None
    if not isinstance(header, dict):
        raise SnapshotError("snapshot header is not a JSON object")
    fields, payload, meta = header.get("fields"), header.get("payload"), header.get("meta", {})
    if not isinstance(fields, list) or not isinstance(meta, dict):
        raise SnapshotError("snapshot header lacks its field list")
    if type(payload) is not int or payload != len(body) - _PREFIX.size - head_len:
        raise SnapshotError(
            f"snapshot payload is {len(body) - _PREFIX.size - head_len} bytes, "
            f"the header says {payload!r}"
        )
    return header, body, _PREFIX.size + head_len


def from_bytes(data, state, e: int, *, config: dict | None = None) -> dict:
    """Load snapshot bytes into slot e of `state` and return the stored `meta` dict.

    Raises SnapshotError, with the state untouched, unless the data is an intact snapshot of
    this format version with exactly this state's fields, dtypes and shapes, and, when
    `config` is given, with this config in its meta (see `check_config`). The caller
    recomputes observations and masks afterwards (`engine.refresh`)."""
    e = _check_slot(state, e)
    try:
        arrays, meta = _parse(data, state, config)
    except SnapshotError:
        raise
    except Exception as ex:  # belt and braces: nothing but SnapshotError leaves the parser
        raise SnapshotError(f"unreadable snapshot: {type(ex).__name__}: {ex}") from None
    for a, saved in zip(state, arrays):  # everything is checked: nothing below can fail
        a[e] = saved
    return meta


@functools.lru_cache(maxsize=64)
def _plan(key: tuple) -> tuple[list, list, np.ndarray]:
    """For a state layout (names, native dtypes, per-slot shapes): the header field list a
    snapshot of it has, each field's (dtype, shape, payload offset, count), and the payload
    byte positions of its bool fields."""
    fields, plan, bools, offset = [], [], [], 0
    for name, dtype, shape in key:
        dt = np.dtype(dtype).newbyteorder("<")
        count = math.prod(shape)
        fields.append([name, dt.str, list(shape)])
        plan.append((dt, shape, offset, count))
        if dt.kind == "b":
            bools.append(np.arange(offset, offset + count * dt.itemsize))
        offset += count * dt.itemsize
    return fields, plan, np.concatenate(bools) if bools else np.zeros(0, np.int64)


_CHECKS: dict[tuple, list] = {}


def _checks(key: tuple, state) -> list[tuple[str, int, int, slice | None]]:
    """`index_ranges` of this layout as (field, low, high, column), cached per layout."""
    if key not in _CHECKS:
        names = {k[0] for k in key}
        out = []
        for k, (low, high, column) in index_ranges(state).items():
            name = k[:-2] if k.endswith("_y") and k[:-2] in names else k
            if name in names:
                out.append((name, low, high, column))
        _CHECKS[key] = out
    return _CHECKS[key]


def _diagnose(fields, expected: list) -> str:
    """Why a snapshot's field list differs from this engine's (the slow path, for the error)."""
    names = [f[0] if isinstance(f, list) and f else None for f in fields]
    want = [f[0] for f in expected]
    if names != want:
        missing = [n for n in want if n not in names]
        extra = [n for n in names if n not in want]
        return (
            f"snapshot fields do not match this engine's (missing {missing}, unknown "
            f"{extra}, or another order)"
        )
    for f, (name, dt, shape) in zip(fields, expected):
        if not isinstance(f, list) or len(f) != 3:
            return f"snapshot field {name!r} is malformed"
        if f[1] != dt:
            return f"snapshot field {name!r} has dtype {f[1]!r}, this engine's is {dt!r}"
        if f[2] != shape:
            return (
                f"snapshot field {name!r} has shape {f[2]}, this env's is {shape} (a "
                f"snapshot of another config?)"
            )
    return "snapshot field list is malformed"


def check_config(meta: dict, config: dict) -> None:
    """Raise SnapshotError unless `meta` records exactly `config` (a JSON-able dict, as
    `Config.snapshot_dict` gives): the message names every key that differs, with both
    values. A snapshot that records no config (made before snapshots carried one) is refused:
    nothing says which game its numbers belong to."""
    saved = meta.get("config")
    if not isinstance(saved, dict):
        raise SnapshotError(
            "snapshot does not record the config it was made under (an older snapshot, or "
            "one made without DelveEnv.save_state); it cannot be checked against this env's "
            "config, so it is refused"
        )
    absent = "(absent)"
    diffs = [
        f"{k}: snapshot {saved.get(k, absent)!r}, this env {config.get(k, absent)!r}"
        for k in sorted(set(saved) | set(config), key=str)
        if k not in saved or k not in config or saved[k] != config[k]
    ]
    if diffs:
        raise SnapshotError(f"snapshot was made under another config: {'; '.join(diffs)}")


def _parse(data, state, config: dict | None = None) -> tuple[list[np.ndarray], dict]:
    header, body, offset = _frame(data)
    if config is not None:
        check_config(header.get("meta", {}), config)
    key = tuple((name, a.dtype.str, a.shape[1:]) for name, a in zip(state._fields, state))
    expected, plan, bools = _plan(key)
    if header["fields"] != expected:
        raise SnapshotError(_diagnose(header["fields"], expected))
    payload = memoryview(body)[offset:]
    size = plan[-1][2] + plan[-1][3] * plan[-1][0].itemsize if plan else 0
    if len(payload) != size:
        raise SnapshotError(f"snapshot payload is {len(payload)} bytes, this engine's is {size}")
    if len(bools) and np.frombuffer(payload, np.uint8)[bools].max() > 1:
        bad = [
            n
            for (n, _, _), (dt, _, o, c) in zip(key, plan)
            if dt.kind == "b" and np.frombuffer(payload, np.uint8, c, o).max() > 1
        ]
        raise SnapshotError(f"snapshot field {bad[0]!r} holds bytes that are not booleans")
    arrays = [
        np.frombuffer(payload, dt, count, off).reshape(shape) for dt, shape, off, count in plan
    ]
    by_name = dict(zip(state._fields, arrays))
    for name, low, high, column in _checks(key, state):
        a = by_name[name] if column is None else by_name[name][..., column]
        if a.size and (a.min() < low or a.max() > high):
            raise SnapshotError(
                f"snapshot field {name!r} holds {a.min()}..{a.max()}, outside {low}..{high}"
            )
    return arrays, dict(header.get("meta", {}))
