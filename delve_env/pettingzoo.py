"""The party as agents: PettingZoo's Parallel and AEC views, one agent per delver.

Agents are the party's members by class and party slot (`hero_0`, `rogue_1`, ...), in
party order, for the whole run; the king is not an agent. Who acts follows the table: in
a fight, the member whose turn it is (ROUND-1); otherwise the party's leader (the first
member in the marching order whose agent is still in play) acts for the party. Each step
every agent in play hands in an action and the acting agent's is the one taken; the others
are ignored, and their `action_mask` is all zeros. The acting agent's mask is the game's
(the single env's `action_mask`), less, in a fight, the actions that name a member other than
the one whose turn it is (its items to select, its powers to cast): each handles its own.

Every agent receives the team's reward. A member who falls ends its agent (terminated);
raised later (RAISE-1), it acts through the leader. The game's end ends every agent: won or
lost, terminated; cut short at `max_steps`, or after `max_cycles` steps of this view where
given, truncated. `state()` is the privileged state (`DelveEnv.state()`: the true floor, the
rooms' bands and contents) for centralised critics; `state_space` bounds it.

`parallel_env(**config)` takes every Gymnasium id's config keys (and `max_cycles`); `env(...)`
is its AEC view (PettingZoo's `parallel_to_aec`: the agents of a step take their turns one
after another, the game steps after the last). Same seed and the acting agents' actions, the
same game as `DelveEnv` (tested). Needs `pip install -e ".[multiagent]"`.
"""

from __future__ import annotations

import functools

import numpy as np
from gymnasium import spaces
from pettingzoo import ParallelEnv
from pettingzoo.utils.conversions import parallel_to_aec

from .config import Config
from .engine.core.actions import A_CAST, A_SELECT, NUM_ACTIONS
from .engine.core.tables import CLASS_NAMES, FIGHT, MAX_MEMBERS, NUM_ITEM_SLOTS
from .env import DelveEnv
from .spaces import observation_space, state_space


def agent_names(classes) -> list[str]:
    """The agents' names for a party of these classes: class and party slot (`hero_0`)."""
    return [f"{CLASS_NAMES[int(c)]}_{m}" for m, c in enumerate(classes)]


def parallel_env(**config) -> DelveParallelEnv:
    return DelveParallelEnv(**config)


def env(**config):
    return parallel_to_aec(DelveParallelEnv(**config))


class DelveParallelEnv(ParallelEnv):
    """One Delve game with one agent per delver (the module's docstring)."""

    metadata = {"name": "delve_v0", "render_modes": ["ansi", "rgb_array"],
                "is_parallelizable": True}  # fmt: skip

    def __init__(self, max_cycles: int | None = None, **config):
        if max_cycles is not None and (not isinstance(max_cycles, int) or max_cycles < 1):
            raise ValueError(f"max_cycles must be a positive integer or None, got {max_cycles!r}")
        self.game = DelveEnv(**config)
        self.render_mode = self.game.render_mode
        self.max_cycles = max_cycles
        self.possible_agents = agent_names(Config.from_kwargs(**config).party_classes())
        self.slot = {a: m for m, a in enumerate(self.possible_agents)}
        self.agents: list[str] = []
        self.state_space = state_space()
        self._obs_space = spaces.Dict({
            "observation": spaces.Dict({**observation_space().spaces,
                                        "member": spaces.Box(0, 1, (MAX_MEMBERS,), np.uint8)}),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8)})  # fmt: skip
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self.cycles = 0

    @functools.cache  # noqa: B019 - one space per agent, as PettingZoo asks
    def observation_space(self, agent: str) -> spaces.Dict:
        return self._obs_space

    @functools.cache  # noqa: B019
    def action_space(self, agent: str) -> spaces.Discrete:
        return self._action_space

    def state(self) -> np.ndarray:
        return self.game.state()

    def render(self):
        return self.game.render()

    def close(self) -> None:
        self.game.close()

    def reset(self, seed: int | None = None, options: dict | None = None):
        self.game.reset(seed=seed, options=options)
        self.agents = list(self.possible_agents)
        self.cycles = 0
        return self._observations(self.agents)

    def acting(self) -> str:
        """The agent whose action the next step takes."""
        s = self.game.engine.state
        live = {self.slot[a]: a for a in self.agents}
        if s.mode[0] == FIGHT and 0 <= s.actor[0] < MAX_MEMBERS:
            m = int(s.order[0, s.actor[0]])
            if m in live:
                return live[m]
        for pos in range(MAX_MEMBERS):
            m = int(s.order[0, pos])
            if m in live:
                return live[m]
        return self.agents[0]

    def action_mask(self, agent: str) -> np.ndarray:
        """The agent's legal actions now (int8): the game's for the acting agent (its own in
        a fight), none for the others."""
        if agent not in self.agents or agent != self.acting():
            return np.zeros(NUM_ACTIONS, dtype=np.int8)
        return self._acting_mask()

    def _acting_mask(self) -> np.ndarray:
        """The acting agent's mask (`action_mask`)."""
        mask = self.game.action_masks().astype(np.int8)
        s = self.game.engine.state
        if s.mode[0] == FIGHT:
            m = int(s.order[0, s.actor[0]])  # whose turn it is (the leader may stand in)
            for other in range(MAX_MEMBERS):
                if other != m:
                    mask[
                        A_SELECT + other * NUM_ITEM_SLOTS : A_SELECT + (other + 1) * NUM_ITEM_SLOTS
                    ] = 0
                    mask[A_CAST + other] = 0
        return mask

    def step(self, actions: dict):
        if not self.agents:
            raise ValueError("the game is over: call reset()")
        unknown = [a for a in actions if a not in self.agents]
        if unknown:
            raise ValueError(f"no agent {unknown[0]!r} in play; agents in play: {self.agents}")
        agent = self.acting()
        if agent not in actions:
            raise ValueError(f"the acting agent {agent!r} has no action (agents in play act "
                             f"each step: {self.agents})")  # fmt: skip
        action = int(actions[agent])
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"action {action} of {agent!r} is not in 0..{NUM_ACTIONS - 1}")
        reward, terminated, truncated = 0.0, False, False
        if self._acting_mask()[action]:
            _, reward, terminated, truncated, _ = self.game.step(action)
        elif self.game.config.invalid_action == "raise":
            raise ValueError(f"action {action} ({self.game.action_name(action)}) is masked for "
                             f"{agent!r} now: {self.game.why(action) or 'it names another member'}")  # fmt: skip
        self.cycles += 1
        truncated = truncated or (self.max_cycles is not None and self.cycles >= self.max_cycles)
        s = self.game.engine.state
        ended = {a: bool(terminated or s.hp[0, self.slot[a]] <= 0) for a in self.agents}
        cut = {a: bool(truncated and not ended[a]) for a in self.agents}
        rewards = {a: float(reward) for a in self.agents}
        playing, self.agents = self.agents, [a for a in self.agents if not (ended[a] or cut[a])]
        observations, infos = self._observations(playing)
        return observations, rewards, ended, cut, infos

    def _observations(self, agents: list[str]) -> tuple[dict, dict]:
        """(observations, infos) of `agents`: the agent that acts next (among those still in
        play) holds the mask, and its info says so."""
        obs = self.game._observation()
        acting = self.acting() if self.agents else None
        out, infos = {}, {}
        for a in agents:
            member = np.zeros(MAX_MEMBERS, dtype=np.uint8)
            member[self.slot[a]] = 1
            mask = self._acting_mask() if a == acting else np.zeros(NUM_ACTIONS, dtype=np.int8)
            out[a] = {"observation": {**obs, "member": member}, "action_mask": mask}
            infos[a] = {"acting": a == acting}
        return out, infos
