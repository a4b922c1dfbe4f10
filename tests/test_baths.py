"""The Bath of Fates (BATH-1): who may bathe, once per member per bath, and each outcome."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import ONE, make_rng, make_scene

from delve_env import DelveEnv
from delve_env.engine.core.actions import A_BATHE
from delve_env.engine.core.params import P_BATH_LEVEL, P_BATH_NOTHING, make_params
from delve_env.engine.core.tables import FEAT_BATH, FEAT_NONE
from delve_env.engine.outputs.layout import PARTY_BATHED, STATUS_FEATURE
from delve_env.engine.rules.baths import (
    BATH_CEILING_DOWN,
    BATH_CEILING_UP,
    BATH_HEAL,
    BATH_LEVEL,
    BATH_NOTHING,
    BATH_XP_LOSS,
    bathe,
    draw_outcome,
)

F = 1
NUM_OUTCOMES = P_BATH_NOTHING - P_BATH_LEVEL + 1


def bath_scene(outcome: int | None = None, **config):
    """The party in a bath room of floor 1 (its own; no band); `outcome` forces that outcome
    (every other weight 0). Returns (scene, room)."""
    scene = make_scene(**config)
    s = scene.s
    r = next(r for r in range(int(s.num_rooms[0, F])) if s.room_feature[0, F, r] == FEAT_NONE)
    s.room_feature[0, F] = FEAT_NONE
    s.room_feature[0, F, r] = FEAT_BATH
    scene.clear_band(F, r)
    scene.stand_in_room(F, r)
    if outcome is not None:
        for i in range(NUM_OUTCOMES):
            scene.p[P_BATH_LEVEL + i] = 1.0 if i == outcome else 0.0
    scene.refresh()
    return scene, r


def test_bath_1_each_standing_member_may_bathe_once_per_bath():
    scene, r = bath_scene(BATH_NOTHING)
    s = scene.s
    assert scene.obs()["status"][STATUS_FEATURE] == FEAT_BATH
    assert all(scene.legal(A_BATHE + m) for m in range(4)) and not scene.legal(A_BATHE + 4)
    pace = int(s.pace[0])
    scene.act(A_BATHE + 1)
    assert s.bathed[0, F, 1] and s.stat_baths[0] == 1 and s.pace[0] == pace  # no time
    assert not scene.legal(A_BATHE + 1) and scene.legal(A_BATHE + 0)
    party = scene.obs()["party"]
    assert party[1, PARTY_BATHED] == 1 and party[0, PARTY_BATHED] == 0
    s.hp[0, 2] = 0  # the fallen do not bathe
    assert not scene.legal(A_BATHE + 2)
    s.bathed[0, 2, 1] = False  # another floor's bath is another bath
    s.room_feature[0, 2, 0] = FEAT_BATH
    scene.clear_band(2, 0)
    scene.stand_in_room(2, 0)
    assert scene.legal(A_BATHE + 1) and scene.obs()["party"][1, PARTY_BATHED] == 0


def test_bath_1_no_bathing_outside_the_bath():
    scene, r = bath_scene()
    s = scene.s
    (dx, dy), _, _ = scene.door_of(F, r)
    scene.put(F, dx, dy)
    assert not any(scene.legal(A_BATHE + m) for m in range(5))
    s.room_feature[0, F, r] = FEAT_NONE
    scene.stand_in_room(F, r)
    assert not any(scene.legal(A_BATHE + m) for m in range(5))


def test_bath_1_the_bathed_mark_follows_the_party_in_and_out_of_the_bath_incrementally():
    """PARTY_BATHED shows in the bath's room only; walking out and in rewrites it (the
    incremental record equals a full recompute)."""
    scene, r = bath_scene(BATH_NOTHING)
    scene.calm()
    scene.act(A_BATHE + 0)
    (dx, dy), (ix, iy), _ = scene.door_of(F, r)
    eng = scene.env.engine
    for (x, y), (tx, ty) in (((ix, iy), (dx, dy)), ((dx, dy), (ix, iy))):
        scene.put(F, x, y)
        scene.refresh()
        scene.env.step(scene.direction(tx - x, ty - y))
        record = eng.obs_record.copy()
        eng.refresh(ONE)
        assert (record == eng.obs_record).all()
    assert scene.obs()["party"][0, PARTY_BATHED] == 1


def test_bath_1_a_levels_worth_of_xp():
    """The XP the next level still costs: exactly one level (XP-3, XP-4's HP gain follows)."""
    scene, _ = bath_scene(BATH_LEVEL)
    s = scene.s
    s.xp[0, 0] = 40
    level, ceiling = int(s.level[0, 0]), int(s.ceiling[0, 0])
    scene.act(A_BATHE + 0)
    assert s.level[0, 0] == level + 1 and s.xp[0, 0] == 0
    assert ceiling + 1 <= s.ceiling[0, 0] <= ceiling + 6


def test_bath_1_ceiling_up_1d6_with_as_much_hp():
    gains = set()
    for seed in range(6):
        scene, _ = bath_scene(BATH_CEILING_UP, seed=seed)
        s = scene.s
        for m in range(4):
            s.hp[0, m] = 3
            ceiling = int(s.ceiling[0, m])
            scene.act(A_BATHE + m)
            gain = int(s.ceiling[0, m]) - ceiling
            assert 1 <= gain <= 6 and s.hp[0, m] == 3 + gain
            gains.add(gain)
    assert len(gains) >= 4


def test_bath_1_ceiling_down_1d3_never_below_one_hp_capped():
    losses = set()
    for seed in range(6):
        scene, _ = bath_scene(BATH_CEILING_DOWN, seed=seed)
        s = scene.s
        s.ceiling[0, 0] = s.hp[0, 0] = 1  # already at the floor
        scene.act(A_BATHE + 0)
        assert s.ceiling[0, 0] == 1 and s.hp[0, 0] == 1
        for m in range(1, 4):
            s.ceiling[0, m], s.hp[0, m] = 10, 10
            scene.act(A_BATHE + m)
            loss = 10 - int(s.ceiling[0, m])
            assert 1 <= loss <= 3 and s.hp[0, m] == s.ceiling[0, m]
            losses.add(loss)
    assert losses == {1, 2, 3}


def test_bath_1_xp_loss_1d6_x_10_never_below_zero_never_a_level():
    scene, _ = bath_scene(BATH_XP_LOSS)
    s = scene.s
    s.level[0, :4] = 2
    s.options[0, :4, 0] = 0  # their level 2 options are taken (CHOICE-1 would wait)
    s.xp[0, 0], s.xp[0, 1] = 100, 5
    scene.act(A_BATHE + 0)
    scene.act(A_BATHE + 1)
    lost = 100 - int(s.xp[0, 0])
    assert lost % 10 == 0 and 10 <= lost <= 60
    assert s.xp[0, 1] == 0 and (s.level[0, :2] == 2).all()


def test_bath_1_each_draw_covers_both_ends_of_its_range_over_300_baths():
    """BATH-1's three draws, each forced and bathed 300 times (the mark reset between): the
    ceiling goes up by exactly 1..6, down by exactly 1..3, and the XP loss is exactly 10..60
    in steps of 10, each end included (a range one short or starting at 0 shows)."""
    for outcome, want in ((BATH_CEILING_UP, set(range(1, 7))), (BATH_CEILING_DOWN, {1, 2, 3}),
                          (BATH_XP_LOSS, {10, 20, 30, 40, 50, 60})):  # fmt: skip
        scene, _ = bath_scene(outcome)
        s, p = scene.s, scene.p
        g = make_rng(outcome)
        s.level[0, 0] = 2
        s.options[0, 0, 0] = 0
        seen = set()
        for _ in range(300):
            s.bathed[0, F, 0] = False
            s.ceiling[0, 0] = s.hp[0, 0] = 20
            s.xp[0, 0] = 100
            bathe(s, p, 0, 0, g)
            if outcome == BATH_XP_LOSS:
                seen.add(100 - int(s.xp[0, 0]))
            else:
                seen.add(abs(int(s.ceiling[0, 0]) - 20))
                assert s.hp[0, 0] == s.ceiling[0, 0]
        assert seen == want, (outcome, seen)


def test_bath_1_full_heal_and_nothing():
    scene, _ = bath_scene(BATH_HEAL)
    s = scene.s
    s.hp[0, 0] = 2
    scene.act(A_BATHE + 0)
    assert s.hp[0, 0] == s.ceiling[0, 0]
    scene, _ = bath_scene(BATH_NOTHING)
    s = scene.s
    s.hp[0, 0], s.xp[0, 0] = 2, 30
    before = scene.save()
    scene.act(A_BATHE + 0)
    after = scene.save()
    changed = {k for k in before if not np.array_equal(before[k], after[k])}
    assert changed <= {"bathed", "stat_baths", "steps", "rng", "dirty", "events", "reward",
                       "keeper_new", "free_streak"}  # fmt: skip


def test_bath_1_all_weights_zero_draw_nothing():
    p = make_params()
    p[P_BATH_LEVEL : P_BATH_NOTHING + 1] = 0
    rng = make_rng(3)
    assert {draw_outcome(p, 0, rng) for _ in range(50)} == {BATH_NOTHING}


@pytest.mark.parametrize(
    "weights",
    [None, (0, 0, 0, 0, 0, 1), (4, 0, 1, 0, 0, 0), (1, 1, 1, 1, 1, 1), (0, 2, 0, 0, 6, 0)],
)
def test_bath_1_outcomes_follow_the_weights(weights):
    """The default weights 1, 2, 2, 2, 2, 3 (of 12) and others: each outcome's share."""
    p = make_params()
    if weights is not None:
        p[P_BATH_LEVEL : P_BATH_NOTHING + 1] = weights
    w = p[P_BATH_LEVEL : P_BATH_NOTHING + 1]
    rng = make_rng(7)
    n = 12000
    counts = np.bincount([draw_outcome(p, 0, rng) for _ in range(n)], minlength=NUM_OUTCOMES)
    assert np.abs(counts / n - w / w.sum()).max() < 0.015
    assert (counts[w == 0] == 0).all()


def test_bath_1_the_bath_chance_places_a_bath_on_every_floor_or_none():
    for chance, want in ((1.0, True), (0.0, False)):
        env = DelveEnv(depth=12, bath_chance=chance)
        for seed in range(4):
            env.reset(seed=seed)
            has = (env.engine.state.room_feature[0, 1:] == FEAT_BATH).any(axis=1)
            assert has.all() if want else not has.any()


def test_bath_1_the_weight_keys_reach_the_bath():
    """Config keys set the weights: only `bath_heal` left, every bath heals."""
    zero = {k: 0 for k in ("bath_level", "bath_ceiling_up", "bath_ceiling_down",
                           "bath_xp_loss", "bath_nothing")}  # fmt: skip
    scene, _ = bath_scene(None, bath_heal=2.5, **zero)
    assert scene.p[P_BATH_LEVEL + BATH_HEAL] == 2.5
    s = scene.s
    for m in range(4):
        s.hp[0, m] = 1
        scene.act(A_BATHE + m)
        assert s.hp[0, m] == s.ceiling[0, m]
