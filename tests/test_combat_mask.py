"""Delve-Combat-v0: the mask offers exactly the acting member's legal choices (attack each
living foe, a luck die only with dice left, a bribe only with the gold and only once, the
items of the fallen and the actor's own consumables, run), checked by a property test over
random play; and random-legal play runs a thousand fights per tier without an error (the full
10,000 per tier: `python quality/combat_soak.py`)."""

from __future__ import annotations

import numpy as np
import pytest

from delve_env import DelveEnv, DelveVectorEnv
from delve_env.engine.core.actions import (
    A_ATTACK,
    A_AUTOFIGHT,
    A_BRIBE,
    A_CANCEL,
    A_CAST,
    A_GIVE,
    A_LUCK,
    A_RUN,
    A_SELECT,
    NUM_ACTIONS,
)
from delve_env.engine.core.tables import (
    FIGHT,
    M_BRIBE,
    M_PRICE,
    MAX_FOES,
    MAX_MEMBERS,
    MONSTERS,
    NUM_EQUIP,
    NUM_ITEM_SLOTS,
    USES,
)

TIER_FLOORS = (1, 4, 7, 10)


def fight_choices(s) -> np.ndarray:
    """What the acting member may do, from the rules (not from the engine's mask): attack
    or use luck on a living foe, bribe with the gold (again after a refusal), run; select a
    fallen member's item when the actor has pack room, or a consumable in the actor's own
    pack."""
    want = np.zeros(NUM_ACTIONS, dtype=bool)
    actor = int(s.order[0, s.actor[0]])
    alive = (s.foe_kind[0] >= 0) & (s.foe_hp[0] > 0)
    for k in range(MAX_FOES):
        want[A_ATTACK + k] = alive[k]
        want[A_LUCK + k] = alive[k] and s.luck[0, actor] > 0
    kinds = s.foe_kind[0][alive]
    price = 5 * int(s.floor[0]) * int(MONSTERS[kinds, M_PRICE].sum())
    want[A_BRIBE] = s.sneaker[0] < 0 and s.gold[0] >= price  # again after a refusal too
    want[A_RUN] = True
    want[A_AUTOFIGHT] = alive.any()  # the attacks, turn after turn (test_autofight.py)
    room = (s.item[0, actor, NUM_EQUIP:] == 0).any()
    for m in range(MAX_MEMBERS):
        for slot in range(NUM_ITEM_SLOTS):
            kind = int(s.item[0, m, slot])
            fallen = s.in_party[0, m] and s.hp[0, m] <= 0
            if kind and fallen and room:
                want[A_SELECT + m * NUM_ITEM_SLOTS + slot] = True
    return want


def may_use(s, m, slot) -> bool:
    """The actor's own pack item with a use (its targets are the engine's to judge)."""
    return slot >= NUM_EQUIP and USES[int(s.item[0, m, slot]), 0] != 0


def check_fight_mask(env, mask):
    s = env.engine.state
    if s.caster[0] >= 0 or s.mode[0] != FIGHT:  # a power being chosen, a level choice: their
        return  # own tests (tests/test_classes.py, test_spells.py)
    want = fight_choices(s)
    actor = int(s.order[0, s.actor[0]])
    for a in np.flatnonzero(mask != want):
        if a == A_CAST + actor:  # the actor's powers: tests/test_classes.py, test_spells.py
            continue
        m, slot = divmod(int(a) - A_SELECT, NUM_ITEM_SLOTS)
        own = A_SELECT <= a < A_GIVE and m == actor and may_use(s, m, slot)
        assert own and mask[a], f"action {a}: mask {mask[a]}, rules {want[a]}"
    # every item offered has a follow-up besides putting it back
    for a in np.flatnonzero(mask[A_SELECT:A_GIVE]) + A_SELECT:
        env.step(int(a))
        follow = env.action_masks()
        assert follow[A_CANCEL] and follow[A_GIVE:A_CANCEL].any(), a
        env.step(A_CANCEL)


@pytest.mark.parametrize("floor", TIER_FLOORS)
def test_combat_mask_offers_exactly_the_acting_members_choices(floor):
    env = DelveEnv(task="combat", floor=floor, free_actions=30000)  # the check tries every item
    rng = np.random.default_rng(floor)
    checked, asked = 0, 0
    for seed in range(150):
        env.reset(seed=seed)
        env.engine.state.gold[0] = int(rng.integers(0, 2000))  # some bribes affordable, some not
        env.engine.refresh(np.ones(1, dtype=bool))
        mask = env.action_masks()
        for _ in range(80):
            if env.engine.state.mode[0] == FIGHT and env.engine.state.sel_member[0] < 0:
                check_fight_mask(env, mask)
                checked += 1
            a = int(rng.choice(np.flatnonzero(mask)))
            if mask[A_BRIBE] and rng.random() < 0.3:  # (ask often enough to see refusals)
                a = A_BRIBE
            asked += a == A_BRIBE
            _, _, terminated, truncated, info = env.step(a)
            assert not info["invalid_action"]
            mask = info["action_mask"]
            if terminated or truncated:
                break
    assert checked > 200 and asked > 0


def test_combat_random_legal_play_runs_a_thousand_fights_per_tier():
    """1000 slots of Delve-Combat-v0 per tier, random legal actions, until a thousand fights
    have ended in each: no invalid action, no empty mask, every bribe chance at least 10."""
    for floor in TIER_FLOORS:
        venv = DelveVectorEnv(1000, task="combat", floor=floor)
        _, info = venv.reset(seed=floor)
        rng = np.random.default_rng(floor)
        masks, ended, steps = info["action_mask"], 0, 0
        while ended < 1000:
            assert masks.any(axis=1).all()
            pick = np.argmax(rng.random(masks.shape) * masks, axis=1)
            _, _, terminated, truncated, info = venv.step(pick)
            assert not info["invalid_action"].any()
            masks, steps = info["action_mask"], steps + 1
            ended += int((terminated | truncated).sum())
            assert steps < 400
        alive = venv.engine.state.foe_kind >= 0
        assert (MONSTERS[venv.engine.state.foe_kind[alive], M_BRIBE] >= 10).all()
