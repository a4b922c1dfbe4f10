"""`why`: the reason a masked action is masked (engine/outputs/why.py) agrees with the mask everywhere
and names the rule; `DelveEnv.why` and `DelveVectorEnv.why` answer it, and only when asked."""

from __future__ import annotations

import numpy as np
import pytest

from delve_env import IDS, DelveEnv, DelveVectorEnv
from delve_env.engine.core.actions import (
    A_CAST,
    A_MOVE,
    A_POWER,
    A_REST,
    A_STAIRS,
    A_SWAP,
    A_WAIT,
    FAMILY,
    NUM_ACTIONS,
    action_name,
)
from delve_env.engine.core.params import P_FREE_ACTIONS
from delve_env.engine.core.tables import MODE_NAMES, SPELL_NAMES
from delve_env.engine.outputs.why import LEGAL, REASONS, why_code

WIZARD_SLOT = 2  # the default party: hero, rogue, wizard, cleric
LIGHT = SPELL_NAMES.index("light")

# every registered id, the vault's other lock, and the whole game with a free-action limit
# of 2 (its reasons too)
CASES = {
    **IDS,
    "Delve-Vault-v0 plate": {**IDS["Delve-Vault-v0"], "lock": "plate"},
    "free_actions=2": {"free_actions": 2},
}


def random_legal(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A legal action per slot: a family drawn evenly from the legal ones, then an action of
    it (even draws over the indices would mostly select items)."""
    actions = np.empty(len(masks), dtype=np.int64)
    for e, mask in enumerate(masks):
        legal = np.flatnonzero(mask)
        family = rng.choice(np.unique(FAMILY[legal]))
        actions[e] = rng.choice(legal[FAMILY[legal] == family])
    return actions


@pytest.mark.parametrize("case", list(CASES))
def test_why_agrees_with_the_mask_at_every_state_of_random_play(case):
    """Four slots (seeds 11-14) play 300 random legal steps; at every state, for every
    action index, the reason is LEGAL exactly where the mask says legal, and `why` says None
    exactly there and otherwise a filled-in line."""
    venv = DelveVectorEnv(num_envs=4, **CASES[case])
    venv.reset(seed=11)
    rng = np.random.default_rng(0)
    s, p = venv.engine.state, venv.engine.params
    modes = set()
    for t in range(300):
        masks = venv.engine.masks
        for e in range(venv.num_envs):
            modes.add(MODE_NAMES[s.mode[e]])
            for a in range(NUM_ACTIONS):
                legal = bool(masks[e, a])
                code = why_code(s, p, e, a)
                assert (code == LEGAL) == legal, (t, e, action_name(a), legal, REASONS[code])
        lines = [venv.why(0, a) for a in range(NUM_ACTIONS)]
        assert [line is None for line in lines] == list(masks[0])
        assert all("{" not in line and len(line) > 10 for line in lines if line is not None)
        venv.step(random_legal(masks, rng))
    assert "explore" in modes or "fight" in modes


def test_why_reaches_every_screen():
    """The random play above meets fights, both locks, a store, a level choice, selected
    items and chosen casters (so the agreement covers them)."""
    seen = set()
    for case in ("Delve-v0", "Delve-Vault-v0", "Delve-Vault-v0 plate", "Delve-Combat-v0"):
        venv = DelveVectorEnv(num_envs=4, **CASES[case])
        venv.reset(seed=11)
        rng = np.random.default_rng(0)
        s = venv.engine.state
        for _ in range(300):
            for e in range(4):
                seen.add(MODE_NAMES[s.mode[e]])
                seen.add(
                    "selected" if s.sel_member[e] >= 0 else "caster" if s.caster[e] >= 0 else ""
                )
            venv.step(random_legal(venv.engine.masks, rng))
    assert {"explore", "fight", "wall", "plate", "store", "choice", "selected", "caster"} <= seen


def test_why_is_none_for_a_legal_action_and_names_the_rule_of_a_masked_one():
    env = DelveEnv(depth=2)
    env.reset(seed=0)
    assert env.action_masks()[A_STAIRS] and env.why(A_STAIRS) is None
    assert env.why(A_MOVE).startswith("COURT-1: ")  # the courtyard: no walking about
    env.step(A_STAIRS)
    assert not env.action_masks()[A_POWER]
    assert env.why(A_POWER) == (  # no caster chosen
        "SPELL-1, PAGE-2, NAME-1, CLASS-1: use light is offered only with a caster chosen; the"
        " party is exploring"
    )


def test_food_2_no_rest_without_rations(scene):
    scene.act(A_STAIRS)
    scene.s.hp[0, 0] = 1  # someone could heal
    scene.s.rations[0] = 0
    assert not scene.legal(A_REST)
    assert scene.env.why(A_REST) == "FOOD-2: no rations left"


def test_class_1_a_spent_charge_says_so(scene):
    """The Wizard's once-a-floor charge of light spent, with no wand cast: the reason is the
    charge."""
    s = scene.s
    scene.act(A_STAIRS)
    s.spells_known[0, WIZARD_SLOT] |= 1 << LIGHT
    s.spells_spent[0, WIZARD_SLOT] = s.spells_known[0, WIZARD_SLOT]
    s.wand_casts[0, WIZARD_SLOT] = 0
    s.caster[0], s.sel_power[0] = WIZARD_SLOT, -1
    assert not scene.legal(A_POWER + LIGHT)
    assert scene.env.why(A_POWER + LIGHT) == (
        "CLASS-1: member 3 (Wizard) has cast light on this floor, with no wand cast left"
    )


def test_the_free_action_limit_is_the_reason_past_it(scene):
    scene.act(A_STAIRS)
    scene.p[P_FREE_ACTIONS] = 2
    scene.s.free_streak[0] = 0
    scene.act(A_SWAP)
    scene.act(A_SWAP)  # two time-free actions: only what passes time now
    assert not scene.legal(A_SWAP) and scene.env.why(A_WAIT) is None
    assert scene.env.why(A_SWAP).startswith("the free-action limit: only actions that pass time")


def test_why_refuses_an_action_outside_the_space_and_a_slot_outside_the_batch():
    env = DelveEnv(depth=2)
    env.reset(seed=0)
    for bad in (-1, NUM_ACTIONS, 10**12, 1.0, True, "6"):
        with pytest.raises(ValueError, match=rf"action .* \[0, {NUM_ACTIONS}\)"):
            env.why(bad)
    assert env.why(np.int64(A_STAIRS)) is None
    venv = DelveVectorEnv(num_envs=2, depth=2)
    venv.reset(seed=0)
    assert venv.why(1, A_STAIRS) is None and venv.why(1, A_MOVE).startswith("COURT-1")
    with pytest.raises(ValueError, match=r"slot 2 is outside \[0, 2\)"):
        venv.why(2, A_MOVE)
    with pytest.raises(ValueError, match=rf"action {NUM_ACTIONS} is outside"):
        venv.why(0, NUM_ACTIONS)


def test_why_changes_nothing(scene):
    """Asking is free: no state field, observation or mask changes."""
    scene.act(A_STAIRS)
    before = scene.save()
    mask = scene.env.action_masks()
    for a in range(NUM_ACTIONS):
        scene.env.why(a)
    after = scene.save()
    assert all(np.array_equal(before[k], after[k]) for k in before)
    assert np.array_equal(mask, scene.env.action_masks())
    assert scene.env.why(A_CAST + 4).startswith("PARTY-1: there is no member 5")
