"""Helpers for the spell and name-spell tests (test_spells.py, test_names.py): a party of
Wizard, Hero, Cleric and Namer (slots 0-3, marching in that order) on floor 1, casting through
env.step, each cast checked against a full recompute of the observation and the mask."""

from __future__ import annotations

import numpy as np
from conftest import make_scene

from delve_env.engine.core.actions import A_ATTACK, A_CAST, A_POWER, A_USE
from delve_env.engine.core.tables import FIRST_NAME_SPELL, NAME_SPELLS, POWER_NAMES

WIZ, HERO, CLER, NAMER = 0, 1, 2, 3
GOBLIN, ORC, SKELETON = 1, 4, 5  # bestiary rows: plain, armored (AV 1), undead
BIG = 30000


def magic_scene(seed: int = 0):
    """Depth 2, no wandering, everyone tough with mana to spare, no spells or names yet,
    standing at floor 1's stair up, exploring."""
    sc = make_scene(depth=2, seed=seed, party=("wizard", "hero", "cleric", "namer"))
    sc.calm()
    s = sc.s
    sc.tough(200)
    for m in range(4):
        s.mana[0, m] = s.well[0, m] = 50
    s.spells_known[0, :] = 0
    s.names_known[0, :] = 0
    sc.put(1, int(s.stair_up[0, 1, 0]), int(s.stair_up[0, 1, 1]))
    return sc


def power(name: str) -> int:
    return POWER_NAMES.index(name)


def teach(sc, *spells: str) -> None:
    """The Namer (slot 3) knows exactly the names of the given name spells."""
    bits = 0
    for name in spells:
        j = power("name: " + name) - FIRST_NAME_SPELL
        bits |= (1 << int(NAME_SPELLS[j, 0])) | (1 << int(NAME_SPELLS[j, 1]))
    sc.s.names_known[0, NAMER] = bits


def act_to(sc, m: int) -> None:
    """Make member m the acting member of the fight under way."""
    s = sc.s
    s.actor[0] = int(np.flatnonzero(s.order[0] == m)[0])


def offered(sc, m: int, i: int, target: int | None = None, foe: int | None = None) -> bool:
    """Whether the mask offers member m power i (and the target); nothing is cast."""
    s = sc.s
    if s.mode[0] == 1:  # FIGHT: only the acting member casts
        act_to(sc, m)
    if not sc.legal(A_CAST + m):
        return False
    s.caster[0], s.sel_power[0] = m, -1
    ok = sc.legal(A_POWER + i)
    if ok and (target is not None or foe is not None):
        s.sel_power[0] = i
        ok = sc.legal(A_USE + target if target is not None else A_ATTACK + foe)
    s.caster[0] = s.sel_power[0] = -1
    sc.refresh()
    return ok


def cast(sc, m: int, i: int, target: int | None = None, foe: int | None = None):
    """Member m uses power i (on member `target` or foe `foe`) through env.step; the step's
    incremental observation and mask must equal a full recompute."""
    if sc.s.mode[0] == 1:  # FIGHT: only the acting member casts
        act_to(sc, m)
    sc.act(A_CAST + m)
    out = sc.act(A_POWER + i)
    if target is not None:
        out = sc.act(A_USE + target)
    elif foe is not None:
        out = sc.act(A_ATTACK + foe)
    obs, info = out[0], out[4]
    step_obs = {k: np.array(v, copy=True) for k, v in obs.items()}
    step_mask = np.array(info["action_mask"], copy=True)
    full = sc.obs()
    for k in full:
        assert (step_obs[k] == full[k]).all(), f"observation key {k} not rewritten"
    assert (step_mask == sc.refresh()).all(), "the incremental mask differs"
    return out
