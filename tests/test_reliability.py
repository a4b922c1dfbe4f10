"""Reliability: random-agent soaks with invariants after every step, the bad-input matrix, no
buffer aliasing, a hypothesis state machine over the env's API, and dungeon generation checks.

Every check has a negative control: a planted defect that the same check must report.
The machinery: the checks in `delve_env/checks/` (invariants, outputs, incremental outputs,
generation) and the soak runners in `delve_env/tools/soak.py`, which also runs all of this at
long sizes: `delve soak --long`.
"""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.error import ResetNeeded
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import (
    RuleBasedStateMachine,
    initialize,
    invariant,
    precondition,
    rule,
)

import delve_env
from delve_env import DelveEnv, DelveVectorEnv, snapshot
from delve_env.checks import determinism, generation, invariants, outputs
from delve_env.config import KEYS
from delve_env.engine.core.actions import NUM_ACTIONS
from delve_env.engine.core.tables import (
    CHEST_SHUT,
    DOOR,
    FEAT_BATH,
    FEAT_NONE,
    FIGHT,
    HALL,
    KING_SLOT,
    ROCK,
    SECRET,
)
from delve_env.engine.generation.floors import walk_distances
from delve_env.engine.rules.travel import WAYS_FRESH
from delve_env.tools import soak

ONE = np.ones(1, dtype=np.bool_)
GAME_IDS = ("Delve-v0", "Delve-Easy-v0", "Delve-Hard-v0")


def assert_clean(rep) -> None:
    assert not rep.exceptions, rep.exceptions[:5]
    assert rep.problem_count == 0, rep.problems[:10]


# ===========================================================================================
# 1. Random-agent soaks (CI sizes), invariants checked after every step
# ===========================================================================================


def test_soak_mask_respecting_100_slots_x_2k_steps():
    """2 x 10^5 legal random steps of Delve-v0 (100 seeds x 2,000 steps in the native vector env;
    `delve soak --long` runs 10^7 per id):
    no exception, every observation in its space with its exact dtype, finite rewards,
    non-empty masks, and every invariant of `invariants.InvariantChecker` after every step; on the
    way it enters stores and statues, opens chests, bathes, trades and practises."""
    rep = soak.soak_vector("Delve-v0", slots=100, calls=2_000, seed=0, agent="legal")
    assert_clean(rep)
    assert rep.steps >= 100 * 2_000 - 100 * rep.episodes
    assert rep.fights > 1000, "the soak should spend real time in fights"
    # issue 9: random play reaches every room feature and the economy, invariants and all
    for what in ("stores", "statues", "chests", "traps", "baths", "bought", "sold", "bouts"):
        assert rep.visits[what] > 0, (what, rep.visits)


@pytest.mark.parametrize("env_id", [i for i in delve_env.IDS if i != "Delve-v0"])
def test_soak_mask_respecting_other_ids(env_id):
    rep = soak.soak_vector(env_id, slots=25, calls=1_000, seed=1, agent="legal")
    assert_clean(rep)


def test_soak_short_games_with_deaths_and_autoresets():
    """A lone wizard on hard, shaped rewards, games capped at 300 steps: a hundred
    truncations and hundreds of losses and autoresets inside one soak."""
    config = {"party": ("wizard",), "max_steps": 300, "reward_mode": "shaped"}
    rep = soak.soak_vector("Delve-Hard-v0", slots=100, calls=1_000, seed=2, config=config)
    assert_clean(rep)
    assert rep.truncated > 50 and rep.terminated > 200
    assert rep.episodes == rep.terminated + rep.truncated


def test_soak_mask_ignoring_strict_vector():
    """Uniform actions over the whole space with invalid_action="raise": each call with a
    masked action of a live slot raises ValueError naming that slot, action and mode, and
    leaves state, observations and masks untouched."""
    rep = soak.soak_vector("Delve-v0", slots=50, calls=1_000, seed=3, agent="strict")
    assert_clean(rep)
    assert rep.refusals > 800


@pytest.mark.parametrize("agent", ["legal", "noop", "strict"])
def test_soak_single_env_through_gym_make(agent):
    """The user's path (gym.make, with Gymnasium's checker wrappers): Python float rewards,
    Python bool flags, a bool (A,) non-empty mask, observations in the space; masked actions
    are no-ops that keep the clock (noop) or raise and change nothing (strict)."""
    rep = soak.soak_single("Delve-v0", seeds=range(2), steps=600, agent=agent)
    assert_clean(rep)
    if agent == "noop":
        assert rep.noops > 800
    if agent == "strict":
        assert rep.refusals > 800


# --- negative controls: each soak check fires on a planted defect ----------------------------


def _plant(call_at: int, fn):
    def hook(venv, call):
        if call == call_at:
            fn(venv.engine.state)

    return hook


def _plant_two(call_at: int, first, then):
    def hook(venv, call):
        if call == call_at:
            first(venv.engine.state)
        elif call == call_at + 1:
            then(venv.engine.state)

    return hook


def _set(field, index, value):
    def fn(s):
        getattr(s, field)[index] = value

    return fn


def _select_empty(s, e):
    """An item selection (PARTY-4) pointing at an empty slot: member 0's last pack slot."""
    s.item[e, 0, -1] = 0
    s.sel_member[e], s.sel_slot[e] = 0, s.item.shape[2] - 1


# Planted on the soak's last call(s), so the compiled step never runs on a broken state (it
# trusts the state: an out-of-range floor or position would read outside its arrays).
PLANTED = {
    "hp above ceiling + 6": _plant(51, lambda s: s.hp.__setitem__((7, 0), s.ceiling[7, 0] + 7)),
    "hp negative": _plant(51, _set("hp", (7, 1), -1)),
    "ceiling below 1": _plant(51, _set("ceiling", (7, 2), 0)),
    "gold negative": _plant(51, _set("gold", 7, -1)),
    "rations negative": _plant(51, _set("rations", 7, -1)),
    "raised more than 3 times": _plant(51, _set("raised", (7, 0), 4)),
    "king raised": _plant(51, _set("raised", (7, KING_SLOT), 1)),
    "selected an empty item slot": _plant(51, lambda s: _select_empty(s, 7)),
    "pages lost": _plant_two(50, _set("pages_held", (7, 3), 2), _set("pages_held", (7, 3), 0)),
    "book lost": _plant_two(50, _set("has_book", 7, True), _set("has_book", 7, False)),
    "clock went back": _plant(51, lambda s: s.pace.__setitem__(7, s.pace[7] - 3)),
    "step counter off": _plant(51, lambda s: s.steps.__setitem__(7, s.steps[7] + 5)),
    "mode out of range": _plant(51, _set("mode", 7, 99)),
    "travel's kept ways not those of the known map": _plant(51, _set("ways_known", 7, 0)),
    "the known map's sets not those a walk finds": _plant(51, _set("reach", (7, 1, 1), -1)),
    "floor out of range": _plant(51, _set("floor", 7, 99)),
    # on floor 1 (random play may still be in the courtyard, which has no tiles to stand on)
    "party off the walkable floor": _plant(
        51, lambda s: (_set("floor", 7, 1)(s), _set("x", 7, -1)(s))
    ),
}


@pytest.mark.parametrize("rule", sorted(PLANTED))
def test_negative_control_soak_reports_planted_defect(rule):
    rep = soak.soak_vector("Delve-v0", slots=10, calls=52, seed=0, hook=PLANTED[rule])
    assert not rep.ok
    assert any(f"slot 7: {rule}" in p for p in rep.problems), rep.problems[:5]


def test_negative_control_soak_reports_an_explore_row_kept_without_a_selection():
    def hook(venv, call):
        if call == 51:
            s, eng = venv.engine.state, venv.engine
            s.sel_member[7] = s.caster[7] = -1
            eng.kept[7] = True

    rep = soak.soak_vector("Delve-v0", slots=10, calls=52, seed=0, hook=hook)
    assert any("slot 7: an explore row kept with no selection open" in p for p in rep.problems)


def test_negative_control_fight_step_that_moves_the_clock():
    """A planted rule change: every step taken in a fight also moves the clock."""

    def hook(venv, call):
        s = venv.engine.state
        s.pace[s.mode == FIGHT] += 1

    rep = soak.soak_vector("Delve-v0", slots=20, calls=1_500, seed=0, hook=hook)
    assert any("a fight step moved the clock" in p for p in rep.problems), rep.problems[:5]


def test_negative_control_crash_is_reported():
    def hook(venv, call):
        if call == 10:
            raise RuntimeError("planted crash")

    rep = soak.soak_vector("Delve-v0", slots=4, calls=20, hook=hook)
    assert not rep.ok and "planted crash" in rep.exceptions[0]


def test_negative_control_strict_refusal_disabled(monkeypatch):
    """If the vector env stopped refusing masked actions, the strict soak would say so."""
    monkeypatch.setattr(DelveVectorEnv, "_refuse_masked", lambda self, actions: None)
    rep = soak.soak_vector("Delve-v0", slots=10, calls=20, agent="strict")
    assert any("was not refused" in p for p in rep.problems), rep.problems[:5]


def test_negative_control_single_env_numpy_bools(monkeypatch):
    """If the single env returned numpy bools or a numpy reward, the soak would say so."""
    step = DelveEnv.step

    def numpy_step(self, action):
        obs, r, te, tr, info = step(self, action)
        return obs, np.float32(r), np.bool_(te), np.bool_(tr), info

    monkeypatch.setattr(DelveEnv, "step", numpy_step)
    rep = soak.soak_single("Delve-v0", seeds=[0], steps=5)
    assert any("not Python bools" in p for p in rep.problems)
    assert any("not a finite Python float" in p for p in rep.problems)


def test_negative_control_noop_that_changes_state(monkeypatch):
    """If a masked action in noop mode moved the clock, the noop soak would say so."""
    step = DelveEnv.step

    def leaky_step(self, action):
        legal = bool(self.engine.masks[0, action]) if 0 <= action < NUM_ACTIONS else True
        out = step(self, action)
        if not legal:
            self.engine.state.pace[0] += 1
        return out

    monkeypatch.setattr(DelveEnv, "step", leaky_step)
    rep = soak.soak_single("Delve-v0", seeds=[0], steps=50, agent="noop")
    assert any("a masked no-op changed ['pace']" in p for p in rep.problems), rep.problems[:3]


def test_negative_control_output_checks():
    """Planted output defects: each is reported by `check_vector_outputs`."""
    venv = delve_env.make_vec(3)
    obs, info = venv.reset(seed=0)
    obs, rew, term, trunc, info = venv.step(np.full(3, 6))  # down the courtyard stair
    done = np.zeros(3, bool)
    assert outputs.check_vector_outputs(obs, rew, term, trunc, info, done) == []

    def bad(**planted):
        args = {
            "obs": {k: v.copy() for k, v in obs.items()},
            "rew": rew.copy(),
            "term": term.copy(),
            "trunc": trunc.copy(),
            "info": {k: np.copy(v) for k, v in info.items()},
            "done": done.copy(),
        }
        for key, fn in planted.items():
            fn(args[key])
        return " | ".join(outputs.check_vector_outputs(**args))

    assert "map: outside" in bad(obs=lambda o: o["map"].__setitem__((1, 0, 0, 0), 200))
    assert "party: outside" in bad(obs=lambda o: o["party"].__setitem__((2, 0, 14), 200))
    assert "status: outside" in bad(obs=lambda o: o["status"].__setitem__((0, 0), 2))
    o64 = {k: v.astype(np.float64) for k, v in obs.items()}
    assert "float64" in " ".join(outputs.check_obs_batch(o64, 3))
    assert "rewards not finite" in bad(rew=lambda r: r.__setitem__(1, np.inf))
    assert "empty mask" in bad(info=lambda i: i["action_mask"].__setitem__(2, False))
    assert "terminated and truncated" in bad(
        term=lambda t: t.fill(True), trunc=lambda t: t.fill(True)
    )
    assert "not a fresh start" in bad(
        done=lambda d: d.__setitem__(0, True), rew=lambda r: r.fill(1)
    )
    assert "episode_stats" in bad(term=lambda t: t.__setitem__(1, True))


# --- the invariant checker on a real state, one planted defect per rule ----------------------


def _detach_a_tile(s):
    """A tile of the known map's sets (engine/rules/reach.py) made a root of its own: its set is
    split where the map joins it."""
    reach = s.reach[0].reshape(-1)
    reach[np.flatnonzero(reach > 0)[0]] = -1


def _fresh_checker():
    env = DelveEnv()
    env.reset(seed=11)
    for a in (6, 4, 4):  # the stairs, then wait: a state on floor 1
        env.step(a)
    checker = invariants.InvariantChecker()
    assert checker.check(env.engine.state, new_episode=True) == []
    return env, checker


STATIC_PLANTS = {
    "hp above ceiling + 6": lambda s: s.hp.__setitem__((0, 0), s.ceiling[0, 0] + 7),
    "ceiling below 1": lambda s: (s.hp.__setitem__((0, 1), 0), s.ceiling.__setitem__((0, 1), 0)),
    "gold negative": lambda s: s.gold.__setitem__(0, -5),
    "rations negative": lambda s: s.rations.__setitem__(0, -1),
    "raised more than 3 times": lambda s: s.raised.__setitem__((0, 2), 4),
    "king raised": lambda s: s.raised.__setitem__((0, KING_SLOT), 1),
    "selected an empty item slot": lambda s: _select_empty(s, 0),
    "party off the walkable floor": lambda s: s.y.__setitem__(0, 0),
    "the known map's sets not those a walk finds": lambda s: _detach_a_tile(s),
    # CHEST-1, BATH-1, COURT-2
    "chest state out of range": lambda s: s.room_chest.__setitem__((0, 1, _plain_room(s)), 7),
    "a chest in a feature's room or the vault": lambda s: _chest_in_a_feature_room(s),
    "bathed on a floor without a bath": lambda s: _bathed_without_a_bath(s),
    "a practice bout outside a courtyard fight": lambda s: s.practice.__setitem__(0, True),
    "down from a bout that is over": lambda s: s.bout_down.__setitem__((0, 2), True),
    # SPELL-1, NAME-1 (the default party: Hero, Rogue, Wizard, Cleric)
    "true names outside a Namer": lambda s: s.names_known.__setitem__((0, 0), 1),
    "known or spent spells outside a Wizard's mage spells": lambda s: s.spells_spent.__setitem__(
        (0, 2), 1 << 6
    ),
    "wand casts out of range": lambda s: s.wand_casts.__setitem__((0, 2), 2),
    "a floor's spent spells or wand casts out of range": lambda s: s.floor_wand.__setitem__(
        (0, 0, 2), 1
    ),
    "mana negative": lambda s: s.mana.__setitem__((0, 1), -1),
    "illusions or ally out of range": lambda s: s.decoys.__setitem__(0, 4),
    "ally hearts out of range": lambda s: s.ally_hp.__setitem__(0, 3),
    "unknown foe status bits": lambda s: s.foe_status.__setitem__((0, 0), 8),
}


def _plain_room(s) -> int:
    """A room of floor 1 without a feature, not the vault."""
    plain = (s.room_feature[0, 1] == FEAT_NONE) & (
        np.arange(s.room_feature.shape[2]) != s.vault_room[0, 1]
    )
    return int(np.flatnonzero(plain)[0])


def _chest_in_a_feature_room(s):
    f, r = (int(v[0]) for v in np.nonzero(s.room_feature[0] != FEAT_NONE))
    s.room_chest[0, f, r] = CHEST_SHUT


def _bathed_without_a_bath(s):
    s.room_feature[0, 1][s.room_feature[0, 1] == FEAT_BATH] = FEAT_NONE
    s.bathed[0, 1, 0] = True


@pytest.mark.parametrize("rule", sorted(STATIC_PLANTS))
def test_negative_control_checker_static_rules(rule):
    env, checker = _fresh_checker()
    STATIC_PLANTS[rule](env.engine.state)
    found = checker.check(env.engine.state, stepped=False)
    assert [v.rule for v in found] == [rule], found


def test_negative_control_checker_within_episode_rules():
    env, checker = _fresh_checker()
    s = env.engine.state
    s.pages_held[0, 0] = 1
    s.has_book[0] = True
    s.pace[0] += 1
    s.steps[0] += 1
    assert checker.check(s) == []
    s.pages_held[0, 0] = 0
    s.has_book[0] = False
    s.pace[0] -= 1
    s.steps[0] += 1
    rules = {v.rule for v in checker.check(s)}
    assert rules == {"pages lost", "book lost", "clock went back"}, rules
    s.mode[0] = FIGHT
    s.steps[0] += 1
    assert checker.check(s) == []
    s.pace[0] += 1
    s.steps[0] += 1
    assert [v.rule for v in checker.check(s)] == ["a fight step moved the clock"]
    s.pace[0] += 1  # no step taken, yet the clock moved
    assert "clock moved without a step" in {v.rule for v in checker.check(s, stepped=False)}
    s.pace[0] -= 100  # a new episode may start anywhere
    s.mode[0] = 0
    assert checker.check(s, new_episode=True) == []


def test_negative_control_checker_a_death_in_a_practice_bout():
    """COURT-2: a step taken in a practice bout never kills a member nor loses the run."""
    env, checker = _fresh_checker()
    s = env.engine.state
    s.floor[0], s.mode[0], s.practice[0] = 0, FIGHT, True
    s.ways_known[0] = WAYS_FRESH  # (as arriving there leaves it: no travel in the courtyard)
    s.reach[0] = 0  # (nor the known map's sets: the courtyard has no map)
    s.steps[0] += 1
    assert checker.check(s) == []
    s.stat_lost[0] += 1
    s.steps[0] += 1
    assert [v.rule for v in checker.check(s)] == ["a death or a lost run in a practice bout"]
    s.steps[0] += 1
    assert checker.check(s) == []
    s.outcome[0] = 2
    s.steps[0] += 1
    assert [v.rule for v in checker.check(s)] == ["a death or a lost run in a practice bout"]


# ===========================================================================================
# 2. Bad input matrix: one row per case, exact exception and message
# ===========================================================================================

A = NUM_ACTIONS
BAD_ACTIONS = [
    pytest.param(-1, f"action -1 is outside Discrete({A})", id="below-range"),
    pytest.param(A, f"action {A} is outside Discrete({A})", id="above-range"),
    pytest.param(10**12, f"outside Discrete({A})", id="huge"),
    pytest.param(np.int64(A), f"outside Discrete({A})", id="numpy-above-range"),
    pytest.param(1.0, f"action must be an integer in [0, {A})", id="float"),
    pytest.param(np.float32(2.0), "action must be an integer", id="numpy-float"),
    pytest.param(True, "action must be an integer", id="bool"),
    pytest.param(np.bool_(True), "action must be an integer", id="numpy-bool"),
    pytest.param("1", "action must be an integer", id="string"),
    pytest.param(None, "action must be an integer", id="none"),
    pytest.param(np.array([1]), "action must be an integer", id="shape-(1,)"),
    pytest.param(np.array([[1]]), "action must be an integer", id="shape-(1,1)"),
    pytest.param([1], "action must be an integer", id="list"),
]


@pytest.mark.parametrize("action, message", BAD_ACTIONS)
def test_bad_action_raises_value_error(action, message):
    env = DelveEnv()
    env.reset(seed=0)
    before = invariants.state_copy(env.engine.state)
    with pytest.raises(ValueError) as err:
        env.step(action)
    assert message in str(err.value)
    assert invariants.state_diff(env.engine.state, before) == []


@pytest.mark.parametrize("action", [np.int8(6), np.uint16(6), np.array(6)])
def test_numpy_integer_actions_are_accepted(action):
    env = DelveEnv()
    env.reset(seed=0)
    env.step(action)
    assert env.engine.state.floor[0] == 1


def _masked_action(env) -> int:
    return int(np.flatnonzero(~env.action_masks())[0])


def test_masked_action_noop_mode_changes_nothing():
    env = DelveEnv(invalid_action="noop")
    obs0, _ = env.reset(seed=0)
    a = _masked_action(env)
    before = invariants.state_copy(env.engine.state)
    obs, reward, terminated, truncated, info = env.step(a)
    assert info["invalid_action"] is True
    assert (reward, terminated, truncated) == (0.0, False, False)
    assert (
        invariants.state_diff(
            env.engine.state, before, ignore=("steps", "events", "reward", "keeper_new")
        )
        == []
    )
    assert all(np.array_equal(obs[k], obs0[k]) for k in obs)


def test_masked_action_raise_mode():
    env = DelveEnv(invalid_action="raise")
    env.reset(seed=0)
    a = _masked_action(env)
    before = invariants.state_copy(env.engine.state)
    with pytest.raises(ValueError, match=rf"action {a} \(.+\) is not legal in mode 'explore'"):
        env.step(a)
    assert invariants.state_diff(env.engine.state, before) == []


def test_masked_action_raise_mode_vector():
    venv = DelveVectorEnv(3, invalid_action="raise")
    venv.reset(seed=0)
    a = int(np.flatnonzero(~venv.action_masks()[1])[0])
    before = invariants.state_copy(venv.engine.state)
    with pytest.raises(ValueError, match=rf"env 1: action {a} \(.+\) is not legal in mode"):
        venv.step(np.array([6, a, 6]))
    assert invariants.state_diff(venv.engine.state, before) == []


def test_step_before_reset():
    with pytest.raises(ResetNeeded, match=r"call reset\(\) before step\(\)"):
        DelveEnv().step(0)
    with pytest.raises(ResetNeeded, match=r"call reset\(\) before step\(\)"):
        gym.make("Delve-v0").step(0)
    with pytest.raises(ResetNeeded, match=r"call reset\(\) before render\(\)"):
        gym.make("Delve-v0", render_mode="ansi").render()
    with pytest.raises(RuntimeError, match=r"call reset\(\) before step\(\)"):
        DelveVectorEnv(2).step(np.zeros(2, dtype=np.int64))


def test_step_after_the_end():
    env = DelveEnv(max_steps=3)
    env.reset(seed=0)
    for _ in range(3):
        *_, truncated, _ = env.step(4)
    assert truncated is True
    with pytest.raises(ResetNeeded, match="again after an episode ends"):
        env.step(4)
    env.reset()  # and a reset makes it playable again
    env.step(4)


def test_vector_env_autoresets_after_the_end():
    venv = DelveVectorEnv(2, max_steps=2)
    venv.reset(seed=0)
    venv.step(np.array([6, 6]))
    *_, trunc, _ = venv.step(np.array([4, 4]))
    assert trunc.all()
    obs, rew, term, trunc, info = venv.step(np.array([4, 4]))  # the autoreset step
    assert not (term | trunc).any() and (rew == 0).all() and (venv.engine.state.steps == 0).all()


BAD_CONFIG = {
    "difficulty": [("medium", "difficulty must be one of 'easy', 'normal', 'hard'")],
    "depth": [
        (1, "depth must be an integer in 2..12"),
        (13, "depth must be an integer"),
        (2.5, "depth must be an integer"),
        ("3", "depth must be an integer"),
        (True, "depth must be an integer"),
    ],
    "party": [
        ((), "party must be a tuple of 1..4 class names"),
        ("hero", "party must be a tuple"),
        (("hero",) * 5, "party must be a tuple"),
        (("hero", "king"), "party must be one of"),
        ((3,), "party must be one of"),
    ],
    "reward_mode": [("dense", "reward_mode must be one of 'sparse', 'shaped'")],
    "max_steps": [
        (0, "max_steps must be a positive integer"),
        (-5, "max_steps must be"),
        (1.5, "max_steps must be"),
        (True, "max_steps must be"),
    ],
    "render_mode": [("window", "render_mode must be one of")],
    "invalid_action": [("ignore", "invalid_action must be one of 'noop', 'raise'")],
    "task": [("boss", "task must be one of")],
    "lock": [("door", "lock must be one of")],
    "floor": [(0, "floor must be an integer in 1..12"), (13, "floor must be an integer")],
    "fight_log": [("yes", "fight_log must be True or False"), (1, "fight_log must be True")],
    # tunables (config.TUNABLES): chances in [0, 1], counts and dice integers in a range
    "guard_chance": [(1.5, "guard_chance must be a number in [0, 1]"), (True, "number")],
    "room_gold_chance": [(-0.1, "room_gold_chance must be a number in [0, 1]")],
    "room_gold_dice": [(11, "room_gold_dice must be an integer in 0..10"), (2.0, "integer")],
    "room_item_chance": [(float("nan"), "room_item_chance must be a number in [0, 1]")],
    "pages_per_floor": [(-1, "pages_per_floor must be an integer in 0..16")],
    "band_size": [(0, "band_size must be an integer in 1..6"), (7, "integer in 1..6")],
    "band_size_per_tier": [(-1, "band_size_per_tier must be an integer in 0..6")],
    "band_second_kind": [("0.3", "band_second_kind must be a number in [0, 1]")],
    "wander_gold_dice": [(0.5, "wander_gold_dice must be an integer in 0..10")],
    "vault_chance": [(2, "vault_chance must be a number in [0, 1]")],
    "vault_gold_factor": [(-3, "vault_gold_factor must be an integer in 0..10")],
    "vault_items": [(4, "vault_items must be an integer in 0..3")],
    "vault_wall_chance": [([0.5], "vault_wall_chance must be a number in [0, 1]")],
    "lantern_paces": [(0, "lantern_paces must be an integer in 1..10000"), (600.0, "integer")],
    "scroll_paces": [(10001, "scroll_paces must be an integer in 1..10000")],
    "statue_chance": [(1.01, "statue_chance must be a number in [0, 1]")],
    "statue_price": [(0, "statue_price must be an integer in 1..1000"), (1001, "integer")],
    "listen_chance": [(1.01, "listen_chance must be a number in [0, 1]")],
    "bribe_reveal_chance": [("half", "bribe_reveal_chance must be a number")],
    "bribe_stone_chance": [(-1, "bribe_stone_chance must be a number in [0, 1]")],
    "chest_chance": [(1.1, "chest_chance must be a number in [0, 1]")],
    "map_chest": [(-0.5, "map_chest must be a number in [0, 1]")],
    "chest_trap": [("high", "chest_trap must be a number in [0, 1]")],
    "chest_trap_per_floor": [(2, "chest_trap_per_floor must be a number in [0, 1]")],
    "bath_chance": [(float("nan"), "bath_chance must be a number in [0, 1]")],
    "bath_level": [(-1, "bath_level must be a number in [0, 100] (a weight")],
    "bath_ceiling_up": [(101, "bath_ceiling_up must be a number in [0, 100]")],
    "bath_ceiling_down": [(True, "bath_ceiling_down must be a number in [0, 100]")],
    "bath_xp_loss": [("2", "bath_xp_loss must be a number in [0, 100]")],
    "bath_heal": [(float("nan"), "bath_heal must be a number in [0, 100]")],
    "bath_nothing": [([3], "bath_nothing must be a number in [0, 100]")],
    "practice_xp": [(1.5, "practice_xp must be a number in [0, 1]")],
    "practice_max_level": [(2.5, "practice_max_level must be an integer in 0..100")],
    "travel_paces": [(0, "travel_paces must be an integer in 1..1000")],
    "free_actions": [(1.5, "free_actions must be an integer in 1..30000")],
}
CONFIG_ROWS = [
    pytest.param(key, value, msg, id=f"{key}={value!r}")
    for key, rows in BAD_CONFIG.items()
    for value, msg in rows
]


@pytest.mark.parametrize("key, value, message", CONFIG_ROWS)
def test_bad_config_value(key, value, message):
    for make in (DelveEnv, lambda **kw: DelveVectorEnv(2, **kw)):
        with pytest.raises(ValueError) as err:
            make(**{key: value})
        assert message in str(err.value) and key in str(err.value)


def test_bad_config_every_key_has_a_row():
    """Each config key has at least one bad-value row above (a new key needs one)."""
    assert set(KEYS) <= set(BAD_CONFIG), set(KEYS) - set(BAD_CONFIG)


def test_unknown_config_key():
    with pytest.raises(ValueError, match="unknown config key 'speed'; allowed keys: difficulty"):
        DelveEnv(speed=3)
    with pytest.raises(ValueError, match="unknown config key 'speed'"):
        gym.make("Delve-v0", speed=3)


@pytest.mark.parametrize("num_envs", [0, -1, 1.5, True, "4"])
def test_bad_num_envs(num_envs):
    with pytest.raises(ValueError, match="num_envs must be a positive integer"):
        DelveVectorEnv(num_envs)


BAD_VECTOR_ACTIONS = [
    pytest.param(np.zeros(2, dtype=np.int64), "actions must be 3 integers", id="too-few"),
    pytest.param(np.zeros((3, 1), dtype=np.int64), "actions must be 3 integers", id="shape-3x1"),
    pytest.param(np.zeros(3), "actions must be 3 integers", id="floats"),
    pytest.param(np.zeros(3, dtype=bool), "actions must be 3 integers", id="bools"),
    pytest.param("abc", "actions must be 3 integers", id="string"),
    pytest.param([0, A, 0], f"every action must lie in [0, {A})", id="above-range"),
    pytest.param([0, -1, 0], "every action must lie in", id="below-range"),
    pytest.param(np.array([0, -1, 0], dtype=np.int8), "every action must lie in", id="int8"),
    pytest.param(
        np.array([0, 2**63, 0], dtype=np.uint64),
        "every action must lie in",
        id="uint64-above-int64",
    ),
]


@pytest.mark.parametrize("actions, message", BAD_VECTOR_ACTIONS)
def test_bad_vector_actions(actions, message):
    venv = DelveVectorEnv(3)
    venv.reset(seed=0)
    before = invariants.state_copy(venv.engine.state)
    with pytest.raises(ValueError) as err:
        venv.step(actions)
    assert message in str(err.value)
    assert invariants.state_diff(venv.engine.state, before) == []


# Seeds: the env means to refuse them with its own ValueError (env.py checks for it), but
# Gymnasium's `Env.reset(seed=...)` runs first and raises `gymnasium.error.Error` instead.
BAD_SEEDS = [
    pytest.param(-1, id="negative"),
    pytest.param(1.5, id="float"),
    pytest.param("3", id="string"),
]


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_bad_seed_single(seed):
    env = DelveEnv()
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        env.reset(seed=seed)


@pytest.mark.parametrize("seed", BAD_SEEDS)
def test_bad_seed_vector(seed):
    venv = DelveVectorEnv(2)
    with pytest.raises(ValueError, match="seed must be a non-negative integer or None"):
        venv.reset(seed=seed)


def test_bool_seed_is_refused():
    with pytest.raises(ValueError, match="seed must be a non-negative integer"):
        DelveEnv().reset(seed=True)


def test_vector_reset_with_one_seed_per_slot():
    """`DelveVectorEnv.reset` documents a list of N seeds (vector.py); slot i then plays the
    game of seed[i]."""
    venv = DelveVectorEnv(2)
    obs, _ = venv.reset(seed=[7, 3])
    single = DelveEnv()
    for i, s in enumerate((7, 3)):
        o, _ = single.reset(seed=s)
        assert all(np.array_equal(obs[k][i], o[k]) for k in o)


# ===========================================================================================
# 3. No buffer aliasing
# ===========================================================================================


def _arrays(obs, info) -> list[np.ndarray]:
    out = list(obs.values())
    out += [v for v in info.values() if isinstance(v, np.ndarray) and v.dtype != object]
    return out


def _scribble(obs, info) -> None:
    """Overwrite every returned array (what a careless user or a replay buffer might do)."""
    for a in _arrays(obs, info):
        a.fill(1 if a.dtype == bool else 7)


def test_no_aliasing_single_env():
    env = DelveEnv()
    obs0, info0 = env.reset(seed=5)
    returned = [(obs0, info0)]
    for t in range(20):
        a = determinism.choose_legal_one(returned[-1][1]["action_mask"], t)
        obs, _, _, _, info = env.step(a)
        returned.append((obs, info))
    internal = list(env.engine.obs.values()) + [env.engine.masks] + list(env.engine.state)
    masks = env.action_masks()
    flat = [a for o, i in returned for a in _arrays(o, i)] + [masks]
    for i, a in enumerate(flat):
        assert not any(np.shares_memory(a, b) for b in internal), f"array {i} aliases the engine"
        assert not any(np.shares_memory(a, b) for b in flat[i + 1 :]), f"array {i} aliases another"


def test_mutating_returned_arrays_changes_nothing_single():
    clean, dirty = DelveEnv(), DelveEnv()
    o1, i1 = clean.reset(seed=9)
    o2, i2 = dirty.reset(seed=9)
    for t in range(300):
        a = determinism.choose_legal_one(i1["action_mask"], determinism.noise_int(9, t))
        _scribble(o2, i2)
        dirty.action_masks().fill(False)
        r1 = clean.step(a)
        r2 = dirty.step(a)
        o1, i1, o2, i2 = r1[0], r1[4], r2[0], r2[4]
        assert r1[1:4] == r2[1:4]
        assert all(np.array_equal(o1[k], o2[k]) for k in o1)
        assert np.array_equal(i1["action_mask"], i2["action_mask"])
        if r1[2] or r1[3]:
            break
    assert (
        invariants.state_diff(dirty.engine.state, invariants.state_copy(clean.engine.state)) == []
    )


def test_no_aliasing_vector_env():
    venv = DelveVectorEnv(4)
    obs, info = venv.reset(seed=0)
    returned = [_arrays(obs, info)]
    for t in range(10):
        obs, rew, term, trunc, info = venv.step(
            determinism.choose_legal(info["action_mask"], np.full(4, t))
        )
        returned.append(_arrays(obs, info) + [rew, term, trunc])
    internal = list(venv.engine.obs.values()) + [
        venv.engine.masks,
        venv.engine.rewards,
        venv.engine.terminated,
        venv.engine.truncated,
        venv.engine.invalid,
    ]
    flat = [a for r in returned for a in r] + [venv.action_masks()]
    for i, a in enumerate(flat):
        assert not any(np.shares_memory(a, b) for b in internal), f"array {i} aliases the engine"
        assert not any(np.shares_memory(a, b) for b in flat[i + 1 :]), f"array {i} aliases another"


def test_mutating_returned_arrays_changes_nothing_vector():
    clean, dirty = DelveVectorEnv(4), DelveVectorEnv(4)
    _, i1 = clean.reset(seed=2)
    o2, i2 = dirty.reset(seed=2)
    seeds = np.arange(2, 6, dtype=np.uint64)
    for t in range(300):
        actions = determinism.choose_legal(
            i1["action_mask"], determinism.noise(seeds, np.full(4, t))
        )
        _scribble(o2, i2)
        r1, r2 = clean.step(actions), dirty.step(actions)
        for a, b in zip(r1[1:4], r2[1:4]):
            assert np.array_equal(a, b)
        r2[1].fill(99)
        r2[2].fill(True)
        i1, o2, i2 = r1[4], r2[0], r2[4]
        assert all(np.array_equal(r1[0][k], o2[k]) for k in o2)
    assert (
        invariants.state_diff(dirty.engine.state, invariants.state_copy(clean.engine.state)) == []
    )


def test_no_aliasing_sb3_adapter():
    pytest.importorskip("stable_baselines3")
    from delve_env.sb3 import DelveSB3VecEnv

    venv = DelveSB3VecEnv(2, seed=0, max_steps=3)
    first = venv.reset()
    out = [first]
    for _ in range(4):
        venv.step_async(np.array([4, 4]))
        obs, rew, dones, infos = venv.step_wait()
        out += [obs, {"r": rew, "d": dones}] + [
            i["terminal_observation"] for i in infos if "terminal_observation" in i
        ]
    eng = venv.venv.engine
    internal = list(eng.obs.values()) + [eng.masks, eng.rewards, eng.terminated, eng.truncated]
    flat = [a for d in out for a in d.values()]
    for i, a in enumerate(flat):
        assert not any(np.shares_memory(a, b) for b in internal), f"array {i} aliases the engine"
        assert not any(np.shares_memory(a, b) for b in flat[i + 1 :]), f"array {i} aliases another"


def test_negative_control_aliasing_check():
    """A view of the engine's buffer is caught by the aliasing check used above."""
    env = DelveEnv()
    env.reset(seed=0)
    leaked = env.engine.obs["map"][0]
    assert np.shares_memory(leaked, env.engine.obs["map"])


# ===========================================================================================
# 4. A hypothesis state machine over the API, with the invariants after every rule
# ===========================================================================================


class DelveMachine(RuleBasedStateMachine):
    """reset(seed), step(legal), step(illegal), step after the end, save, load, close, on a
    strict env of small games; the invariant checker runs after every rule."""

    def __init__(self):
        super().__init__()
        self.env = DelveEnv(depth=2, max_steps=40, invalid_action="raise")
        self.checker = invariants.InvariantChecker()
        self.running = False
        self.started = False
        self.closed = False
        self.saves: list[tuple] = []
        self.obs = self.mask = None

    def _check(self, new_episode=False, stepped=True):
        found = self.checker.check(self.env.engine.state, new_episode=new_episode, stepped=stepped)
        assert found == [], found

    def _outputs(self, obs, info):
        assert outputs.check_obs_single(obs) == []
        mask = info["action_mask"]
        assert mask.dtype == np.bool_ and mask.shape == (A,) and mask.any()
        assert np.array_equal(mask, self.env.action_masks())
        self.obs, self.mask = {k: v.copy() for k, v in obs.items()}, mask.copy()

    @initialize(seed=st.integers(0, 2**32))
    def first_reset(self, seed):
        self.reset(seed)

    @rule(seed=st.integers(0, 2**63))
    def reset(self, seed):
        obs, info = self.env.reset(seed=seed)
        self.running, self.started, self.closed = True, True, False
        self._outputs(obs, info)
        self._check(new_episode=True)

    @precondition(lambda self: self.running and not self.closed)
    @rule(k=st.integers(0, 2**32))
    def step_legal(self, k):
        legal = np.flatnonzero(self.mask)
        obs, reward, terminated, truncated, info = self.env.step(int(legal[k % len(legal)]))
        assert type(reward) is float and np.isfinite(reward)
        assert type(terminated) is bool and type(truncated) is bool
        assert info["invalid_action"] is False
        self._outputs(obs, info)
        self._check()
        if terminated or truncated:
            assert "episode_stats" in info
            self.running = False

    @precondition(lambda self: self.running and not self.closed)
    @rule(k=st.integers(0, 2**32))
    def step_illegal(self, k):
        illegal = np.flatnonzero(~self.mask)
        a = int(illegal[k % len(illegal)])
        before = invariants.state_copy(self.env.engine.state)
        with pytest.raises(ValueError, match=f"action {a} .* is not legal in mode"):
            self.env.step(a)
        assert invariants.state_diff(self.env.engine.state, before) == []
        self._check(stepped=False)

    @precondition(lambda self: self.started and not self.running)
    @rule()
    def step_after_end(self):
        with pytest.raises(ResetNeeded):
            self.env.step(int(np.flatnonzero(self.mask)[0]))
        self._check(stepped=False)

    @precondition(lambda self: self.started and not self.closed)
    @rule()
    def save(self):
        data = self.env.save_state()
        self.saves.append((data, self.obs, self.mask, self.running))
        self._check(stepped=False)

    @precondition(lambda self: self.saves and not self.closed)
    @rule(i=st.integers(0, 1000))
    def load(self, i):
        data, obs, mask, running = self.saves[i % len(self.saves)]
        self.env.load_state(data)
        config = self.env.config.snapshot_dict()
        assert snapshot.read_header(data)["meta"] == {"running": running, "config": config}
        assert self.env.save_state() == data
        self.running = running
        assert np.array_equal(self.env.action_masks(), mask)
        for k, v in obs.items():
            assert np.array_equal(self.env.engine.obs[k][0], v)
        self.obs, self.mask = obs, mask
        self._check(new_episode=True, stepped=False)

    @invariant()
    def state_is_sound(self):
        """After every rule: the static invariants hold and the mask is not empty."""
        if self.started:
            assert invariants.InvariantChecker().check(self.env.engine.state) == []
            assert self.env.action_masks().any()

    @rule()
    def close(self):
        self.env.close()
        self.closed = True
        self._check(stepped=False)


def test_env_save_state_load_state_round_trip():
    """ENV.md: `load_state(save_state())` restores the game exactly (and the snapshot pickles)."""
    import pickle

    env = DelveEnv()
    env.reset(seed=4)
    for t in range(200):
        env.step(determinism.choose_legal_one(env.action_masks(), determinism.noise_int(4, t)))
    want = snapshot.to_bytes(env.engine.state, 0)
    saved = pickle.loads(pickle.dumps(env.save_state()))
    for t in range(50):
        env.step(determinism.choose_legal_one(env.action_masks(), t))
    env.load_state(saved)
    assert snapshot.to_bytes(env.engine.state, 0) == want


TestDelveMachine = DelveMachine.TestCase
TestDelveMachine.settings = settings(
    max_examples=30,
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)


# ===========================================================================================
# 5. Dungeon generation: connected, every room reachable, one map per floor
# ===========================================================================================


@pytest.mark.parametrize("env_id", GAME_IDS)
def test_generation(env_id):
    """300 dungeons per preset (10,000 in `quality/soak.py --long`): every floor connected
    from its stair up once secret doors are found, every room reachable, one stair each way,
    exactly one map per floor."""
    rep = generation.check_generation(env_id, range(300))
    assert rep.problem_count == 0, rep.problems[:10]
    depth = delve_env.DelveEnv(**determinism.PRESETS[env_id]).engine.state.tiles.shape[1] - 1
    assert rep.floors == 300 * depth and rep.secret_doors > 0


def test_generation_secret_doors_matter():
    """Without finding secret doors some floors are cut: the BFS above is not vacuous."""
    rep = generation.check_generation("Delve-v0", range(100))
    cut = 0
    env = DelveEnv()
    dist = np.empty(env.engine.state.tiles.shape[2:], dtype=np.int64)
    for seed in range(100):
        env.reset(seed=seed)
        s = env.engine.state
        for f in range(1, s.tiles.shape[1]):
            ux, uy = (int(v) for v in s.stair_up[0, f])
            walk_distances(s.tiles[0, f], ux, uy, dist)  # secret doors left as walls
            cut += bool((dist[s.room_of[0, f] >= 0] < 0).any())
    assert rep.problem_count == 0 and cut > 0


GEN_PLANTS = {
    "unreachable": lambda s, e, f: _wall_off_room(s, e, f),
    "maps on the floor": lambda s, e, f: s.room_map[e, f].__setitem__(slice(None), True),
    "stair down": lambda s, e, f: s.tiles[e, f].__setitem__(tuple(s.stair_down[e, f][::-1]), 1),
    "edge": lambda s, e, f: s.tiles[e, f].__setitem__((0, 5), HALL),
}


def _wall_off_room(s, e, f):
    """Turn every door (secret or not) of room 0 into rock."""
    x0, y0, x1, y1 = (int(v) for v in s.room_rect[e, f, 0])
    ring = s.tiles[e, f, y0 - 1 : y1 + 2, x0 - 1 : x1 + 2]
    ring[(ring == DOOR) | (ring == SECRET)] = ROCK


@pytest.mark.parametrize("what", sorted(GEN_PLANTS))
def test_negative_control_generation(what):
    def hook(eng):
        GEN_PLANTS[what](eng.state, 3, 2)  # floor 2 of 4: not the deepest

    rep = generation.check_generation("Delve-Easy-v0", range(10), hook=hook)
    assert rep.problem_count > 0
    assert all(p.startswith("seed 3 floor 2:") for p in rep.problems), rep.problems
    assert any(what in p for p in rep.problems), rep.problems
