"""The PettingZoo views (delve_env/pettingzoo.py): PettingZoo's own api, parallel, seed and
max-cycles tests on every id; the same game as the single env; who acts, and with which
actions, in a fight and out of one; a fallen member's agent; the state; bad input."""

import gymnasium as gym
import numpy as np
import pytest

pettingzoo = pytest.importorskip("pettingzoo")

from pettingzoo.test import api_test, max_cycles_test, parallel_api_test, seed_test  # noqa: E402
from pettingzoo.utils.conversions import parallel_to_aec  # noqa: E402

from delve_env import IDS, DelveEnv  # noqa: E402
from delve_env import pettingzoo as dz  # noqa: E402
from delve_env.engine.core.actions import A_ATTACK, A_CAST, A_SELECT, NUM_ACTIONS  # noqa: E402
from delve_env.engine.core.tables import EXPLORE, FIGHT, NUM_ITEM_SLOTS  # noqa: E402
from tests.conftest import NO_FREE_LIMIT, Scene  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def config_of(env_id: str) -> dict:
    return dict(gym.spec(env_id).kwargs)


class Seeded(dz.DelveParallelEnv):
    """PettingZoo's tests reset without a seed and sample unseeded action spaces: here a reset
    without one plays seed 0 and the actions are drawn from a seeded space, so each test plays
    the same games every run (a combat can end inside max_cycles_test's 4 steps)."""

    def __init__(self, **config):
        super().__init__(**config)
        self._action_space.seed(0)

    def reset(self, seed=None, options=None):
        return super().reset(seed=0 if seed is None else seed, options=options)


class ForId:
    """The module's two constructors with one id's config, as PettingZoo's tests take them."""

    def __init__(self, env_id: str):
        self.config = config_of(env_id)

    def env(self, **more):
        return parallel_to_aec(self.parallel_env(**more))

    def parallel_env(self, **more):
        return Seeded(**self.config, **more)


@pytest.mark.parametrize("env_id", IDS)
def test_pettingzoo_s_own_tests_pass_on_every_id(env_id):
    mod = ForId(env_id)
    api_test(mod.env(), num_cycles=200)
    parallel_api_test(mod.parallel_env(), num_cycles=200)
    seed_test(mod.env, num_cycles=50)
    max_cycles_test(mod)


def test_agents_are_the_delvers_by_class_and_slot_not_the_king():
    par = dz.parallel_env(party=["cleric", "hero", "hero"])
    assert par.possible_agents == ["cleric_0", "hero_1", "hero_2"]
    assert dz.parallel_env().possible_agents == ["hero_0", "rogue_1", "wizard_2", "cleric_3"]


def test_the_acting_agents_actions_play_the_single_env_s_game():
    """Same seed: the leader's (and in fights the acting member's) legal actions, drawn from
    a fixed stream, play the very game of the single env with the same actions."""
    par = dz.parallel_env(difficulty="hard")
    single = DelveEnv(difficulty="hard")
    obs, _ = par.reset(seed=17)
    single_obs, _ = single.reset(seed=17)
    rng = np.random.default_rng(0)
    fights = 0
    for _ in range(600):
        agent = par.acting()
        mask = obs[agent]["action_mask"]
        assert all(obs[a]["action_mask"].sum() == 0 for a in par.agents if a != agent)
        action = int(rng.choice(np.flatnonzero(mask)))
        fights += par.game.engine.state.mode[0] == FIGHT
        obs, rewards, term, trunc, _ = par.step(
            {a: action if a == agent else 0 for a in par.agents}
        )
        single_obs, reward, done, cut, _ = single.step(action)
        for a in rewards:
            assert rewards[a] == reward
        for a in par.agents:
            view = obs[a]["observation"]
            assert all(np.array_equal(view[k], single_obs[k]) for k in single_obs)
        if done or cut or not par.agents:
            break
    assert fights > 0
    assert par.state().tobytes() == single.state().tobytes()


@pytest.fixture
def fight_scene():
    par = dz.parallel_env(depth=2, **NO_FREE_LIMIT)
    par.reset(seed=0)
    scene = Scene(par.game)
    scene.put(1, *scene.stand_in_room(1, 0))
    scene.fight([0, 0])
    scene.refresh()
    return par, scene


def test_in_a_fight_the_member_whose_turn_it_is_acts_with_its_own_items_and_powers(fight_scene):
    par, scene = fight_scene
    s = scene.s
    for pos in range(4):
        s.actor[0] = pos
        scene.refresh()
        m = int(s.order[0, pos])
        agent = par.possible_agents[m]
        assert par.acting() == agent
        mask = par.action_mask(agent)
        game = par.game.action_masks()
        assert mask[A_ATTACK] == game[A_ATTACK] == 1
        for other in range(4):
            own = slice(A_SELECT + other * NUM_ITEM_SLOTS, A_SELECT + (other + 1) * NUM_ITEM_SLOTS)
            if other == m:
                assert np.array_equal(mask[own], game[own]) and mask[A_CAST + m] == game[A_CAST + m]
            else:
                assert not mask[own].any() and not mask[A_CAST + other]
        assert all(not par.action_mask(a).any() for a in par.agents if a != agent)


def test_out_of_a_fight_the_leader_acts_for_the_party_with_the_game_s_mask(fight_scene):
    par, scene = fight_scene
    s = scene.s
    s.mode[0] = EXPLORE  # the fight over
    scene.refresh()
    leader = par.possible_agents[int(s.order[0, 0])]
    assert par.acting() == leader
    assert np.array_equal(par.action_mask(leader), par.game.action_masks().astype(np.int8))
    s.hp[0, int(s.order[0, 0])] = 0  # the leader falls: the next in the marching order leads
    par.agents.remove(leader)
    assert par.acting() == par.possible_agents[int(s.order[0, 1])]


def test_a_fallen_member_s_agent_terminates_and_the_others_play_on(fight_scene):
    par, scene = fight_scene
    s = scene.s
    agent = par.acting()
    victim = next(a for a in par.agents if a != agent)
    s.hp[0, par.slot[victim]] = 0
    _, _, term, trunc, _ = par.step({a: A_ATTACK if a == agent else 0 for a in par.agents})
    assert term[victim] and victim not in par.agents
    assert not any(term[a] or trunc[a] for a in par.agents) and len(par.agents) == 3


def test_max_cycles_truncates_every_agent_after_that_many_steps():
    par = dz.parallel_env(max_cycles=3)
    par.reset(seed=2)
    for k in range(3):
        _, _, term, trunc, _ = par.step({a: 0 for a in par.agents})
        assert all(trunc.values()) == (k == 2) and not any(term.values())
    assert par.agents == []


@pytest.mark.parametrize("bad, says", [
    ({"nobody": 0}, "no agent 'nobody' in play"),
    ({}, "has no action"),
    ("out of range", "is not in 0..256"),
])  # fmt: skip
def test_bad_actions_are_refused_and_change_nothing(bad, says):
    par = dz.parallel_env()
    par.reset(seed=3)
    before = par.game.save_state()
    agent = par.acting()
    actions = {agent: NUM_ACTIONS + 4} if bad == "out of range" else bad
    with pytest.raises(ValueError, match=says):
        par.step(actions)
    assert par.game.save_state() == before


def test_a_masked_action_is_a_no_op_or_refused_as_the_config_says():
    for mode in ("noop", "raise"):
        par = dz.parallel_env(invalid_action=mode)
        par.reset(seed=3)
        agent = par.acting()
        masked = int(np.flatnonzero(par.action_mask(agent) == 0)[0])
        before = par.game.save_state()
        if mode == "raise":
            with pytest.raises(ValueError, match=f"action {masked} .* is masked for '{agent}'"):
                par.step({a: masked for a in par.agents})
        else:
            _, rewards, *_ = par.step({a: masked for a in par.agents})
            assert set(rewards.values()) == {0.0}
        assert par.game.save_state() == before


def test_after_the_game_a_step_asks_for_a_reset_and_max_cycles_must_be_positive():
    par = dz.parallel_env(max_cycles=1)
    par.reset(seed=1)
    par.step({a: 0 for a in par.agents})
    with pytest.raises(ValueError, match="call reset"):
        par.step({})
    for bad in (0, -2, 1.5):
        with pytest.raises(ValueError, match="max_cycles must be a positive integer"):
            dz.parallel_env(max_cycles=bad)


def test_the_acting_agent_always_has_a_legal_action_through_whole_games():
    """Members fall, leaders change, games end: after every step the agent that acts next
    holds the game's legal actions (its own in a fight), the others none."""
    par = dz.parallel_env(difficulty="hard")
    rng = np.random.default_rng(1)
    fallen = 0
    for seed in range(3):
        obs, _ = par.reset(seed=seed)
        while par.agents:
            acting = par.acting()
            assert obs[acting]["action_mask"].any(), (seed, acting)
            assert all(not obs[a]["action_mask"].any() for a in par.agents if a != acting)
            action = int(rng.choice(np.flatnonzero(obs[acting]["action_mask"])))
            obs, _, term, trunc, _ = par.step({a: action for a in par.agents})
            fallen += sum(term[a] for a in term if a not in par.agents and not all(term.values()))
    assert fallen > 0  # a member fell mid-game somewhere
