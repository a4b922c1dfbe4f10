"""`DelveVectorEnv`: N games stepped by one engine call, with next-step autoreset."""

import numpy as np
from gymnasium.spaces import MultiDiscrete
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from . import fightlog
from .config import Config
from .engine.batch import Engine
from .engine.core.actions import NUM_ACTIONS, action_name
from .engine.core.tables import MODE_NAMES
from .engine.outputs.layout import views
from .env import check_seed, check_why, masked_reason
from .spaces import action_space, episode_stats, observation_space, state_space
from .ui.text import render_text


class DelveVectorEnv(VectorEnv):
    """The native vector env: slot i of `reset(seed=s)` plays exactly the game `reset(seed=s+i)`
    plays alone. A finished slot returns its last step, and starts anew on the next `step`
    (its action ignored), with a seed drawn from its own RNG.

    `num_threads` > 1 steps the slots on that many threads (the same bytes for any count).
    """

    metadata = {"render_modes": ["ansi"], "autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, num_envs: int = 1, num_threads: int = 1, **config):
        if not isinstance(num_envs, int) or isinstance(num_envs, bool) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if not isinstance(num_threads, int) or isinstance(num_threads, bool) or num_threads < 1:
            raise ValueError(f"num_threads must be a positive integer, got {num_threads!r}")
        self.config = Config.from_kwargs(**config)
        self.render_mode = self.config.render_mode
        self.num_envs = num_envs
        self.engine = Engine(
            num_envs, self.config.params(), self.config.party_classes(), num_threads
        )
        self.single_observation_space = observation_space()
        self.single_action_space = action_space()
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = MultiDiscrete(np.full(num_envs, NUM_ACTIONS))
        self.single_state_space = state_space()
        self._done = np.zeros(num_envs, dtype=np.bool_)
        self._started = False

    def state(self) -> np.ndarray:
        """Every slot's privileged state (`DelveEnv.state`): (num_envs, STATE_BYTES) uint8, for
        training only, computed now."""
        return self.engine.privileged()

    def reset(self, *, seed=None, options=None):
        n = self.num_envs
        if isinstance(seed, (list, tuple, np.ndarray)):
            if len(seed) != n:
                raise ValueError(
                    f"seed must be None, a non-negative int or {n} of them, got {seed!r}"
                )
            slot_seeds = [check_seed(x) for x in seed]
            super().reset(seed=slot_seeds[0])
            seeds = np.array([x % 2**64 for x in slot_seeds], dtype=np.uint64)
        elif seed is not None:
            seed = check_seed(seed)
            super().reset(seed=seed)
            seeds = np.array([(seed + i) % 2**64 for i in range(n)], dtype=np.uint64)
        else:
            super().reset(seed=None)
            seeds = self.np_random.integers(2**63, size=n, dtype=np.uint64)
        self.engine.reset(seeds, np.ones(n, dtype=np.bool_))
        self._done[:] = False
        self._started = True
        return self._observation(), {"action_mask": self.engine.masks.copy()}

    def step(self, actions):
        if not self._started:
            raise RuntimeError("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or actions.dtype.kind not in "iu":
            raise ValueError(f"actions must be {self.num_envs} integers, got {actions!r}")
        actions = actions.astype(np.int64)
        # (one compare: a negative action reads as a huge unsigned one)
        if np.count_nonzero(actions.view(np.uint64) >= NUM_ACTIONS):
            raise ValueError(f"every action must lie in [0, {NUM_ACTIONS})")
        if self.config.invalid_action == "raise":
            self._refuse_masked(actions)
        eng = self.engine
        record, masks = eng.step(actions, self._done, copy=True)
        self._done = eng.terminated | eng.truncated
        info = {"action_mask": masks, "invalid_action": eng.invalid.copy(),
                "paces": eng.paces.copy()}  # fmt: skip
        if np.count_nonzero(eng.state.keeper_new):  # SIX-1: bit k = Sixpence's event k this step
            info["keeper"] = eng.state.keeper_new.copy()
        if self.config.fight_log:  # per slot, what its step's fights did (fightlog.py)
            logs = np.empty(self.num_envs, dtype=object)
            for e in range(self.num_envs):
                logs[e] = fightlog.decode(eng.state, e)
            info["log"], info["_log"] = logs, np.ones(self.num_envs, dtype=np.bool_)
        if np.count_nonzero(self._done):
            stats = np.empty(self.num_envs, dtype=object)
            for e in np.flatnonzero(self._done):
                stats[e] = episode_stats(eng.state, e)
            info["episode_stats"], info["_episode_stats"] = stats, self._done.copy()
        return (views(record), eng.rewards.copy(), eng.terminated.copy(), eng.truncated.copy(),
                info)  # fmt: skip

    def _refuse_masked(self, actions: np.ndarray) -> None:
        live = ~self._done
        legal = self.engine.masks[np.arange(self.num_envs), actions]
        bad = np.flatnonzero(live & ~legal)
        if len(bad):
            e, a = int(bad[0]), int(actions[bad[0]])
            mode = MODE_NAMES[self.engine.state.mode[e]]
            raise ValueError(
                f"env {e}: action {a} ({action_name(a)}) is not legal in mode {mode!r}"
            )

    def action_masks(self) -> np.ndarray:
        """The legal actions of every slot, shape (N, A)."""
        return self.engine.masks.copy()

    def why(self, i: int, a: int) -> str | None:
        """Why slot i's mask refuses action a now, as one line naming the rule, or None when
        it is legal (`DelveEnv.why`). A slot out of range or an action outside the action
        space raises ValueError."""
        if isinstance(i, (bool, np.bool_)) or not isinstance(i, (int, np.integer)):
            raise ValueError(f"slot must be an integer in [0, {self.num_envs}), got {i!r}")
        if not 0 <= i < self.num_envs:
            raise ValueError(f"slot {i} is outside [0, {self.num_envs})")
        a = check_why(a)
        if not self._started:
            raise RuntimeError("call reset() before why()")
        if self.engine.masks[i, a]:
            return None
        return masked_reason(self.engine, int(i), a)

    def render(self):
        return render_text(self.engine.state, self.engine.params, 0)

    def _observation(self) -> dict:
        return views(self.engine.obs_record.copy())


def make_vec(num_envs: int = 1, **config) -> DelveVectorEnv:
    """The native vector env, as `gymnasium.make_vec("Delve-v0", num_envs=N)` builds it."""
    return DelveVectorEnv(num_envs, **config)
