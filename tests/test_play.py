"""Whole runs: the scripted expert wins (RUN-3), losses (RUN-4), truncation (RUN-5), and the
random-legal policy over many seeds staying inside the spaces with an exact mask."""

from __future__ import annotations

import numpy as np
import pytest

from agents.random_legal import RandomLegalAgent
from agents.scripted import ScriptedAgent
from delve_env import DelveEnv
from delve_env.engine.core.actions import A_RUN, A_STAIRS, A_WAIT
from delve_env.engine.core.params import P_MEAL_PACES
from delve_env.engine.core.tables import EXPLORE, KING_SLOT

DEPTH2 = {"difficulty": "easy", "depth": 2}


def play_scripted(env: DelveEnv, seed: int, until=None, max_steps: int = 5000, agent=None,
                  actions: list | None = None):  # fmt: skip
    """The scripted agent (`agent`, else a new one) plays from reset(seed) until the episode
    ends or `until(state)`, appending each action to `actions` if given; returns the last
    step's (reward, terminated, truncated, info), or None if `until` hit."""
    agent = agent or ScriptedAgent()
    env.reset(seed=seed)
    for _ in range(max_steps):
        if until is not None and until(env.engine.state):
            return None
        a = agent.act(env)
        if actions is not None:
            actions.append(a)
        assert env.action_masks()[a], f"the scripted agent chose masked action {a}"
        _, r, te, tr, info = env.step(a)
        assert not info["invalid_action"]
        if te or tr:
            return r, te, tr, info
    raise AssertionError("the run did not end")


@pytest.fixture(scope="module")
def won_seed() -> int:
    """The first seed in 0..9 the scripted agent wins at depth 2 (easy)."""
    env = DelveEnv(**DEPTH2)
    for seed in range(10):
        r, te, tr, info = play_scripted(env, seed)
        if info["episode_stats"]["won"]:
            return seed
    pytest.fail("the scripted agent won none of 10 depth-2 easy games")


def test_scripted_agent_wins_depth2(won_seed):
    """RUN-3: the run is won the moment the party stands in the courtyard with the king."""
    env = DelveEnv(**DEPTH2)
    r, te, tr, info = play_scripted(env, won_seed)
    s, stats = env.engine.state, info["episode_stats"]
    assert te and not tr
    assert r >= 1.0
    assert stats["won"] and stats["king_alive"]
    assert stats["deepest_floor"] == 2
    assert "won" in stats["events"] and "king" in stats["events"]
    assert "the king home" in stats["achievements"] and "free the king" in stats["achievements"]
    assert s.floor[0] == 0 and s.has_king[0] and s.hp[0, KING_SLOT] > 0
    assert r == pytest.approx(1.5 if s.has_book[0] else 1.0)
    assert stats["book_home"] == bool(s.has_book[0])


def starve(env: DelveEnv, members) -> tuple:
    """Leave the party with no rations, a meal due, and `members` at 1 HP with no luck die;
    then wait (or run from any fight) until the run ends."""
    s = env.engine.state
    for m in members:
        s.hp[0, m], s.luck[0, m] = 1, 0
    s.rations[0] = 0
    s.meal_clock[0] = int(env.engine.params[P_MEAL_PACES]) - 1
    env.engine.refresh(np.ones(1, dtype=np.bool_))
    for _ in range(20000):
        mask = env.action_masks()
        a = next((a for a in (A_WAIT, A_RUN) if mask[a]), int(np.flatnonzero(mask)[0]))
        _, r, te, tr, info = env.step(a)
        if te or tr:
            return r, te, tr, info
    raise AssertionError("nobody starved")


def test_loss_when_everyone_dies():
    """RUN-4 (with FOOD-2): hunger at 1 HP kills every member; the run is lost."""
    env = DelveEnv(depth=2, max_steps=20000)  # (starving takes about 2,800 steps)
    env.reset(seed=3)
    env.step(A_STAIRS)
    members = [m for m in range(5) if env.engine.state.in_party[0, m]]
    r, te, tr, info = starve(env, members)
    stats, s = info["episode_stats"], env.engine.state
    assert te and not tr
    assert r == -1.0
    assert not stats["won"] and "lost" in stats["events"]
    assert stats["members_lost"] == len(members)
    assert (s.hp[0, members] <= 0).all()


def test_loss_when_the_king_dies(won_seed):
    """RUN-4: the king dying loses the run even while the others stand."""
    env = DelveEnv(**DEPTH2)
    found = lambda s: s.has_king[0] and s.mode[0] == EXPLORE  # noqa: E731  (any level choice made)
    assert play_scripted(env, won_seed, until=found) is None
    s = env.engine.state
    assert s.mode[0] == EXPLORE and s.room_of[0, s.floor[0], s.y[0], s.x[0]] >= 0  # no wanderers
    others = [m for m in range(KING_SLOT) if s.in_party[0, m] and s.hp[0, m] > 0]
    assert others
    s.hp[0, others] = s.ceiling[0, others] = 500
    r, te, tr, info = starve(env, [KING_SLOT])
    stats = info["episode_stats"]
    assert te and not tr
    assert r == -1.0
    assert not stats["won"] and not stats["king_alive"] and "lost" in stats["events"]
    assert s.hp[0, KING_SLOT] <= 0
    assert all(s.hp[0, m] > 0 for m in others)


def test_truncation_at_max_steps():
    """RUN-5: the env truncates at its step cap; the game itself has no time limit."""
    env = DelveEnv(max_steps=25)
    agent = RandomLegalAgent(1)
    _, info = env.reset(seed=5)
    for step in range(1, 26):
        _, r, te, tr, info = env.step(agent.act(info["action_mask"]))
        assert not te
        assert tr == (step == 25)
    assert r == 0.0
    assert "episode_stats" in info and not info["episode_stats"]["won"]


def test_random_legal_policy_over_100_seeds():
    """100 episodes of the random-legal policy: every observation inside the space with the
    exact dtypes, every unmasked action legal, every reward finite."""
    env = DelveEnv(max_steps=500)
    space = env.observation_space
    dtypes = {k: box.dtype for k, box in space.spaces.items()}
    ends = 0
    for seed in range(100):
        agent = RandomLegalAgent(seed)
        obs, info = env.reset(seed=seed)
        assert space.contains(obs)
        while True:
            mask = info["action_mask"]
            assert mask.dtype == np.bool_ and mask.any()
            assert np.array_equal(mask, env.action_masks())
            obs, r, te, tr, info = env.step(agent.act(mask))
            assert not info["invalid_action"]
            assert np.isfinite(r)
            assert {k: v.dtype for k, v in obs.items()} == dtypes
            assert space.contains(obs), f"seed {seed}: observation outside the space"
            if te or tr:
                ends += 1
                assert "episode_stats" in info
                break
    assert ends == 100


def test_scripted_agent_forgets_the_last_game_when_a_new_one_starts():
    """A playtest worker hands one agent many games: what it listened at, was refused, had
    selected or was casting in one game must not steer the next (a refusal remembered at
    step 10 would still block the same plan at step 30 of the next game)."""
    env = DelveEnv(**DEPTH2)
    agent = ScriptedAgent()
    env.reset(seed=0)
    agent.listened.add((1, 0))
    agent.refused[("power", 2, 0, None)] = 10
    agent.refused[(0, 0, 0)] = 10
    agent.follow, agent.cast_plan, agent.rest_to, agent.last_step = (0, 0, 0), (2, 0, None), 0.9, 0
    agent.act(env)
    assert not agent.listened and not agent.refused
    assert agent.follow is None and agent.cast_plan is None and agent.rest_to == 0.0


def test_scripted_agent_plays_a_seed_the_same_after_another_game():
    """The same agent object plays seed 1 alike fresh and after a whole game of seed 0."""

    def actions(agent, seed):
        out = []
        play_scripted(DelveEnv(**DEPTH2), seed, agent=agent, actions=out)
        return out

    fresh = actions(ScriptedAgent(), 1)
    agent = ScriptedAgent()
    actions(agent, 0)
    assert actions(agent, 1) == fresh
