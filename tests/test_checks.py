"""The incremental outputs against a full recompute (delve_env/checks/incremental.py), in the
soak and alone, each check with its negative control; and `delve soak` as a command.

A step rewrites only the observation parts and mask rows its mechanics marked dirty
(`state.DIRTY_*`); a mechanic that forgets its mark leaves a stale byte no invariant of the
state can see. The check recomputes every slot from scratch and names the differing bytes.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

import delve_env
from delve_env import DelveVectorEnv
from delve_env.checks import incremental, invariants
from delve_env.engine.core.actions import A_WAIT, ACTION_NAMES
from delve_env.engine.outputs.layout import KEYS, OBS_BYTES, OFFSETS, PARTY, PARTY_HP, STATUS_GOLD
from delve_env.tools import cli, soak


def stepped(slots: int = 4, calls: int = 40, seed: int = 0) -> DelveVectorEnv:
    """A vector env after `calls` random-legal steps (some slots away from the start)."""
    venv = DelveVectorEnv(slots)
    _, info = venv.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(calls):
        mask = info["action_mask"]
        actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
        _, _, _, _, info = venv.step(actions)
    return venv


@pytest.mark.parametrize("env_id", sorted(delve_env.IDS))
def test_kept_outputs_equal_a_full_recompute_in_every_id(env_id):
    """Random-legal play of 8 seeds (slots) of each registered id, the kept record and mask of
    every slot checked against a full recompute after every call: none differs."""
    rep = soak.soak_vector(env_id, slots=8, calls=300, seed=1, incremental_every=1)
    assert not rep.exceptions and rep.problem_count == 0, (rep.exceptions, rep.problems[:5])
    assert rep.recomputes == 8 * 300


def test_the_check_leaves_the_engine_as_it_found_it():
    """A recompute refreshes caches in the state (rooms' codes, travel's ways) and the kept
    selection row; all of it is put back, so a checked run goes on along its own path."""
    venv = stepped()
    eng = venv.engine
    state = invariants.state_copy(eng.state)
    outputs = [a.copy() for a in (eng.obs_record, eng.masks, eng.kept_rows, eng.kept)]
    assert incremental.check_incremental(eng) == []
    assert invariants.state_diff(eng.state, state) == []
    for a, b in zip((eng.obs_record, eng.masks, eng.kept_rows, eng.kept), outputs):
        assert np.array_equal(a, b)


def test_negative_control_a_stale_observation_byte_is_named():
    """A byte of slot 2's kept record poked (member slot 1's HP): the check reports slot 2
    alone, naming the key, the row, the field and the byte range, and leaves the poke."""
    venv = stepped()
    eng = venv.engine
    at = OFFSETS["party"] + PARTY.size + PARTY_HP
    eng.obs_record[2, at] ^= 1
    found = incremental.check_incremental(eng)
    assert [(v.slot, v.rule) for v in found] == [(2, "observation not its full recompute")]
    assert f"party[1].hp (bytes {at}..{at})" in found[0].detail
    assert incremental.check_incremental(eng, which=np.array([1, 1, 0, 1], bool)) == []
    eng.obs_record[2, at] ^= 1
    assert incremental.check_incremental(eng) == []


def test_negative_control_a_stale_mask_bit_is_named():
    venv = stepped()
    eng = venv.engine
    eng.masks[1, A_WAIT] = not eng.masks[1, A_WAIT]
    found = incremental.check_incremental(eng)
    assert [(v.slot, v.rule) for v in found] == [(1, "mask not its full recompute")]
    assert f"{A_WAIT} '{ACTION_NAMES[A_WAIT]}'" in found[0].detail


def test_negative_control_the_soak_reports_a_change_no_dirty_bit_announced():
    """Five gold written into slot 3's state after call 30, behind the step's back (no dirty
    bit): no invariant of the state is broken, but the kept status row is stale, and the
    soak's recompute says so at that call, naming the purse."""

    def hook(venv, call):
        if call == 30:
            venv.engine.state.gold[3] += 5

    rep = soak.soak_vector("Delve-v0", slots=4, calls=31, seed=0, hook=hook, incremental_every=1)
    assert not rep.exceptions and rep.problem_count >= 1, rep.problems
    assert all(p.startswith("call 30: slot 3: ") for p in rep.problems), rep.problems
    assert "observation not its full recompute" in rep.problems[0]
    assert f"status.gold (bytes {OFFSETS['status'] + STATUS_GOLD}" in rep.problems[0]
    unchecked = soak.soak_vector("Delve-v0", slots=4, calls=31, seed=0, hook=hook,
                                 incremental_every=0)  # fmt: skip
    assert unchecked.problem_count == 0  # no invariant of the state sees it


def test_byte_names_cover_the_record():
    """Every byte of the record has a name in its key; the first and last of each key."""
    names = [incremental.byte_name(i) for i in range(OBS_BYTES)]
    assert not any("?" in n or "past" in n for n in names)
    for key in KEYS:
        assert names[OFFSETS[key.name]].startswith(key.name)
    assert names[0] == "map[0][0].tile[0]"
    assert incremental.byte_name(OBS_BYTES) == f"byte {OBS_BYTES} past the record"


def test_delve_soak_is_a_command(capsys):
    """`delve soak` runs the soak's own command line: its digests as JSON, a usage error for a
    part it does not have (memory is benchmarks/memory.py, not the installed package's)."""
    assert cli.main(["soak", "digest", "--seeds", "0:2", "--steps", "30"]) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert sorted(out["digests"]) == ["0", "1"]
    assert cli.main(["soak", "--only", "memory"]) == 2
    assert "unknown parts ['memory']" in capsys.readouterr().err
