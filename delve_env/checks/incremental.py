"""The outputs a step keeps incrementally, checked against a full recompute from the state.

A step rewrites only the parts of each env's observation record its mechanics marked dirty
(`state.DIRTY_*`, observe.observe) and, exploring, only the mask's rows those bits touch
(mask.legal_mask); the rest is what earlier steps wrote. Every mechanic that changes something
shown must mark it, so a missing mark leaves a stale byte that no invariant of the state sees.
`check_incremental` recomputes every flagged slot's record and mask from scratch
(`Engine.refresh`) and compares them, byte for byte, with the kept ones; the engine's state and
outputs are then put back as they were, so a run goes on along its own incremental path.
`check_kept`: the explore row kept for an open selection is kept only while one is open.
"""

from __future__ import annotations

import numpy as np

from delve_env.checks.invariants import Violation
from delve_env.engine.core.actions import ACTION_NAMES
from delve_env.engine.core.tables import EXPLORE
from delve_env.engine.outputs.layout import KEYS, OFFSETS, Key

MAX_RUNS = 4  # differing byte ranges (and mask actions) named in one violation


def field_name(key: Key, at: int) -> str:
    """The value at offset `at` of `key`'s bytes as '[row].field[i]', nested rows followed
    (e.g. '[2].attack' for party member slot 2's attack bonus)."""
    row, col = divmod(at, key.size)
    where = "".join(f"[{i}]" for i in np.unravel_index(row, key.rows)) if key.rows else ""
    return where + column_name(key, col)


def column_name(key: Key, col: int) -> str:
    """Column `col` of one row of `key`: '.field', '.field[i]' or '.rows[r].field'."""
    for start, count, name, _, _ in key.fields:
        if start <= col < start + count:
            if start in key.nested:
                sub = key.nested[start][0]
                r, c = divmod(col - start, sub.size)
                return f".{name}[{r}]{column_name(sub, c)}"
            return f".{name}" + (f"[{col - start}]" if count > 1 else "")
    return f".?{col}"


def byte_name(at: int) -> str:
    """Where byte `at` of an observation record lies, e.g. 'party[2].attack'."""
    for key in KEYS:
        start = OFFSETS[key.name]
        if start <= at < start + key.nbytes:
            return key.name + field_name(key, at - start)
    return f"byte {at} past the record"


def runs(diff: np.ndarray) -> list[tuple[int, int]]:
    """The (first, last) indices of each run of True in a bool row."""
    edges = np.diff(np.concatenate([[0], diff.astype(np.int8), [0]]))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1) - 1))


def describe_record(kept: np.ndarray, full: np.ndarray) -> str:
    """The byte ranges where a kept record differs from its recompute, each named."""
    found = runs(kept != full)
    parts = []
    for a, b in found[:MAX_RUNS]:
        span = byte_name(a) if a == b else f"{byte_name(a)} .. {byte_name(b)}"
        parts.append(
            f"{span} (bytes {a}..{b}): kept {kept[a : b + 1][:8].tolist()}, "
            f"recomputed {full[a : b + 1][:8].tolist()}"
        )
    more = f"; {len(found) - MAX_RUNS} more ranges" if len(found) > MAX_RUNS else ""
    return "; ".join(parts) + more


def describe_mask(kept: np.ndarray, full: np.ndarray) -> str:
    """The actions a kept mask row gets wrong against its recompute, each named."""
    wrong = np.flatnonzero(kept != full)
    parts = [
        f"{a} '{ACTION_NAMES[a]}' kept {bool(kept[a])}, recomputed {bool(full[a])}"
        for a in wrong[:MAX_RUNS]
    ]
    more = f"; {len(wrong) - MAX_RUNS} more actions" if len(wrong) > MAX_RUNS else ""
    return "; ".join(parts) + more


def check_incremental(engine, which: np.ndarray | None = None) -> list[Violation]:
    """The observation record and mask an `Engine` kept for each slot flagged in `which` (all
    of them by default) against a full recompute from its state, byte for byte, and whether
    it keeps an explore row for an open selection. (The kept row itself is the row before the
    selection, not one made now: the mask after the selection ends is where it shows.) Leaves
    the engine as it found it (a recompute refreshes caches in the state too: rooms' codes,
    travel's ways)."""
    n = engine.num_envs
    which = np.ones(n, dtype=np.bool_) if which is None else np.asarray(which, dtype=np.bool_)
    outputs = (engine.obs_record, engine.masks, engine.kept_rows, engine.kept)
    saved_state = [np.array(a, copy=True) for a in engine.state]
    saved = [a.copy() for a in outputs]
    engine.refresh(which)
    full = [a.copy() for a in outputs]
    for a, b in zip(engine.state, saved_state):
        a[...] = b
    for a, b in zip(outputs, saved):
        a[...] = b
    record, mask, _, kept = saved
    full_record, full_mask, _, full_kept = full
    out = []
    for e in np.flatnonzero(which):
        if not np.array_equal(record[e], full_record[e]):
            detail = describe_record(record[e], full_record[e])
            out.append(Violation(int(e), "observation not its full recompute", detail))
        if not np.array_equal(mask[e], full_mask[e]):
            detail = describe_mask(mask[e], full_mask[e])
            out.append(Violation(int(e), "mask not its full recompute", detail))
        if kept[e] != full_kept[e]:
            detail = f"kept {bool(kept[e])}, recomputed {bool(full_kept[e])}"
            out.append(Violation(int(e), "explore row kept or not, unlike a recompute", detail))
    return out


def check_kept(engine) -> list[str]:
    """The explore row kept for an open selection (`mask.legal_mask`): kept only while an item
    or a caster is selected, on an exploring screen of a run under way."""
    s = engine.state
    holding = ((s.sel_member >= 0) | (s.caster >= 0)) & (s.mode == EXPLORE) & (s.outcome == 0)
    return [f"slot {e}: an explore row kept with no selection open"
            for e in np.flatnonzero(engine.kept & ~holding)]  # fmt: skip
