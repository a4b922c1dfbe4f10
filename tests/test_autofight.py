"""Autofight (docs/RULES.md, Travel): one step, many turns of a fight, each turn the very
attack on the weakest foe a single step would make; it stops where a player would decide."""

import numpy as np
import pytest

from delve_env import DelveEnv
from delve_env.engine.core.actions import (
    A_ATTACK,
    A_AUTOFIGHT,
    A_CANCEL,
    A_SELECT,
    A_STAIRS,
    NUM_ACTIONS,
    action_name,
)
from delve_env.engine.core.tables import FIGHT, MEDICINAL_ALE, NUM_ITEM_SLOTS
from delve_env.engine.rules.autofight import stops_fighting
from delve_env.engine.rules.fights import weakest_foe

GOBLIN = 1
UNCOUNTED = ("steps", "events", "log", "log_n")  # a step's own counter and its record


def fields(s) -> dict:
    return {k: getattr(s, k).copy() for k in s._fields if k not in UNCOUNTED}


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_an_autofight_step_is_exactly_its_single_attacks(difficulty):
    """On many seeds and fights: the state (every field but the step count and the step's
    record), the summed rewards and the mask after one autofight step are those the same
    attacks taken one at a time give; fights end, stop at a wound and go on for many turns."""
    a_env = DelveEnv(difficulty=difficulty, reward_mode="shaped")
    b_env = DelveEnv(difficulty=difficulty, reward_mode="shaped")
    rng = np.random.default_rng(1)
    ends = {"fight over": 0, "stopped in the fight": 0, "several turns": 0}
    for seed in range(16):
        a_env.reset(seed=seed)
        for _ in range(1500):
            mask = a_env.action_masks()
            if not mask[A_AUTOFIGHT] or rng.random() < 0.2:
                explore = [a for a in range(A_AUTOFIGHT - 4, A_AUTOFIGHT) if mask[a]]
                a = int(rng.choice(explore or np.flatnonzero(mask)))
                _, _, term, trunc, _ = a_env.step(a)
                if term or trunc:
                    break
                continue
            b_env.load_state(a_env.save_state())
            _, reward, term, trunc, _ = a_env.step(A_AUTOFIGHT)
            s, turns, b_reward = b_env.engine.state, 0, 0.0
            while True:
                a = A_ATTACK + weakest_foe(s, 0)
                assert b_env.action_masks()[a]
                b_reward += b_env.step(a)[1]
                turns += 1
                if stops_fighting(s, 0) or turns == 100:
                    break
            want, got = fields(b_env.engine.state), fields(a_env.engine.state)
            assert [k for k in want if not np.array_equal(want[k], got[k])] == []
            assert np.array_equal(a_env.action_masks(), b_env.action_masks())
            assert reward == pytest.approx(b_reward, abs=1e-5)
            in_fight = int(a_env.engine.state.mode[0]) == FIGHT and not term
            ends["fight over"] += not in_fight
            ends["stopped in the fight"] += in_fight
            ends["several turns"] += turns > 1
            if term or trunc:
                break
    assert min(ends.values()) > 0, ends


def fight_scene(scene_factory, **config):
    """Floor 1, a fight with two goblins: a tough one and a weak one; the party tough (no
    one near half its hit points)."""
    scene = scene_factory(**config)
    scene.act(A_STAIRS)
    scene.tough()
    scene.fight([GOBLIN, GOBLIN], hps=[30000, 30])
    scene.refresh()
    return scene


@pytest.mark.parametrize("cap", [3, 7])
def test_autofight_takes_turns_up_to_the_cap_on_the_weakest_foe(scene_factory, cap):
    """With no cause to stop, autofight takes `travel_paces` turns (each member in marching
    order, then the band), every blow on the foe with the fewest hearts."""
    scene = fight_scene(scene_factory, travel_paces=cap)
    s = scene.s
    assert weakest_foe(s, 0) == 1 and scene.legal(A_AUTOFIGHT)
    assert not scene.env.step(A_AUTOFIGHT)[4]["invalid_action"]
    standing = int((s.in_party[0] & (s.hp[0] > 0)).sum())
    assert (int(s.actor[0]), int(s.fight_round[0])) == (cap % standing, 1 + cap // standing)
    assert s.foe_hp[0, 0] == 30000 and s.foe_hp[0, 1] < 30


def test_autofight_stops_when_someone_is_at_half_their_hit_points(scene_factory):
    """A standing member at half its ceiling or below: one turn, then autofight stops."""
    scene = fight_scene(scene_factory, travel_paces=7)
    s = scene.s
    m = int(s.order[0, 2])
    s.hp[0, m] = s.ceiling[0, m] // 2
    assert not scene.env.step(A_AUTOFIGHT)[4]["invalid_action"]
    assert (int(s.actor[0]), int(s.fight_round[0])) == (1, 1)


def test_autofight_is_offered_only_where_an_attack_is(scene_factory):
    """In a fight with nothing selected; not while an item is selected, not exploring."""
    scene = fight_scene(scene_factory)
    s = scene.s
    assert scene.legal(A_AUTOFIGHT)
    m = int(s.order[0, s.actor[0]])
    s.item[0, m, 3] = MEDICINAL_ALE
    s.hp[0, m] -= 5
    assert scene.legal(A_SELECT + m * NUM_ITEM_SLOTS + 3)
    scene.env.step(A_SELECT + m * NUM_ITEM_SLOTS + 3)
    assert s.sel_member[0] == m and not scene.legal(A_AUTOFIGHT)
    scene.env.step(A_CANCEL)
    assert scene.legal(A_AUTOFIGHT)
    s.foe_hp[0] = 0
    s.mode[0] = 0  # exploring
    assert not scene.legal(A_AUTOFIGHT)


def test_autofight_is_named_and_last():
    assert A_AUTOFIGHT == NUM_ACTIONS - 1 and action_name(A_AUTOFIGHT) == "autofight"
