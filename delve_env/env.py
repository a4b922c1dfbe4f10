"""`DelveEnv`: the Gymnasium view of a batch of one. No rule lives here."""

import gymnasium as gym
import numpy as np
from gymnasium.error import ResetNeeded

from . import fightlog, snapshot
from .config import Config
from .engine.batch import Engine
from .engine.core.actions import NUM_ACTIONS, action_name, docstring_table
from .engine.core.tables import MODE_NAMES
from .engine.outputs.why import why_masked
from .keeper import said
from .spaces import action_space, episode_stats, observation_space, state_space
from .ui import reports
from .ui.picture import render_rgb
from .ui.text import render_text


def check_action(action) -> int:
    """An action as a Python int; anything but an integer in range raises ValueError."""
    if type(action) is int and 0 <= action < NUM_ACTIONS:  # the usual case, first
        return action
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
        raise ValueError(f"action must be an integer in [0, {NUM_ACTIONS}), got {action!r}")
    if not 0 <= action < NUM_ACTIONS:
        raise ValueError(f"action {action} is outside Discrete({NUM_ACTIONS})")
    return int(action)


def check_why(action) -> int:
    """An action asked about (`why`) as a Python int; anything but an integer in range raises
    ValueError naming it and the range."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    integer = isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_))
    if not integer or not 0 <= action < NUM_ACTIONS:
        raise ValueError(
            f"action {action!r} is outside the action space: an integer in [0, {NUM_ACTIONS})"
        )
    return int(action)


def masked_reason(engine: Engine, e: int, a: int) -> str:
    """The reason slot e's mask refuses action a (engine/outputs/why.py). The mask is the law: should
    the reasons ever find a masked action legal, the answer says so rather than None."""
    return why_masked(engine.state, engine.params, e, a) or (
        f"masked, with no reason found for {action_name(a)!r} (a bug: please report it)"
    )


def check_seed(seed) -> int:
    """A seed as a Python int; anything but a non-negative integer raises ValueError."""
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer or None, got {seed!r}")
    return int(seed)


class DelveEnv(gym.Env):
    """Delve, the whole game: a party goes down for the spellbook and the king, and back up.

    ## Action space
    `Discrete(257)`, the same in every mode, in families of consecutive indices; `action_name(i)`
    names each index. The table below is filled in at import from `engine/actions.FAMILIES`,
    as docs/ACTIONS.md is (with each family's argument and where it is offered):

    {actions}

    The legal ones are in `info["action_mask"]` and `action_masks()`; `why(i)` says why a
    masked one is masked, naming the rule (`engine/outputs/why.py`), and is None for a legal one.

    Items take two steps (PARTY-4, RAISE-1, ITEM-1). Selecting an item (25-79) costs no time
    and is offered only when something can be done with it; while it is selected only 80-91
    are offered (the selection is in `status`: selected member, selected slot). Outside fights
    any member's item, worn or packed, the fallen's too, goes to any standing member with pack
    room; a standing member wears a pack item (what was worn goes to that pack slot), takes
    worn gear off into the pack, or uses a consumable from the pack (medicinal ale, light of
    life, gem of strength, mind sharpener, honing stone: `engine/tables.USES`). Lanterns and
    scrolls start party effects (EFFECT-1) and are used on oneself: any standing member lights
    a lantern, only a reader (hero, wizard, king) reads a scroll. In a fight only a fallen
    member's items change hands, to the acting member, and only the acting member uses an item
    from their own pack; giving or using is that member's turn. Before a store or a statue
    nothing is given, worn or used. Bottles, scrolls and lanterns are unknown until used or
    named by a statue (ITEM-2): the pack shows only their look, and what may be done with an
    unknown item is the same for every kind of its look.

    Stores (STORE-1..2): in the courtyard and the store room of floors 3, 6, 9, 12, 162 enters
    the store (no time passes there); 163-178 buy a line of its list (163: ten rations), and a
    selected item (any member's) is sold (179) at half price or repaired (180); 150 leaves.

    Powers (SPELL-1, PAGE-2, NAME-1, the class features) take the same steps: 199-203 choose
    who (in a fight only the acting member), 204-245 what, and a power that needs a target
    takes it as a member (85-89) or a foe (12-17); 91 puts it back. When a member reaches
    level 2 or 3 the game waits in mode `choice` until 246-251 takes one of the class's
    options (only the legal ones are offered).

    Travel (252-255, docs/RULES.md): one step of many paces, each the very single move (or
    wait) it stands for, through every per-pace rule; it stops where a player would (a fight,
    any event, Sixpence, a wound, a door of a room not yet entered, a room with loot, the goal,
    `travel_paces`). `info["paces"]` says how many paces a step took. No free stall: after
    `free_actions` time-free actions in a row, exploring offers only what passes time or takes
    the stairs, and a store or a statue only leaving, until a pace passes.

    ## Observation space
    A Dict of uint8 arrays: `map` (2 x 15 x 15: the crop around the party and the coarse floor
    view), `party` (5 x 22), `status` (75), `fight` (77), `puzzle` (132), `pack` (5 x 11 x 4),
    `shop` (52: in a store, each line's item, price and whether it can be bought now),
    `magic` (5 x 90: each member's powers ready and their costs, true names, what is on it),
    `bestiary` (24 x 9: per monster kind, times met, kills and the specials learned).
    Every field with its range and meaning: `docs/OBSERVATION.md` (generated from
    `engine/outputs/layout.py`). `delve_env.wrappers.FloatObservation` gives float32 in [0, 1].

    ## Rewards
    Sparse: +1 for a win with the king, +0.5 more with the book, -1 for a loss. Shaped adds
    the small event terms and the game's progress potential of `engine/outputs/rewards.py`.

    With `fight_log=True`, `info["log"]` lists what the step's fights did as dicts (attacks
    with both rolls, damage, bites, drains, bribes asked and paid, kills, death saves, deaths,
    raises: `delve_env/fightlog.py`); off by default, at no cost.

    ## Episode end
    Terminated on a win (the king alive in the courtyard) or a loss (everyone dead, or the
    king dead); truncated after `max_steps` steps.

    ## Rendering
    `render_mode="ansi"` returns the screen as text, `"human"` prints it after every step, and
    `"rgb_array"` returns a picture (`delve_env/ui/picture.py`): the remembered floor in 16 x 16
    tiles (walls, halls, room floors, doors, stairs; the party '@', known bands as their
    monster's letter, loot, chests and features; the courtyard as a scene) beside a panel for
    the party (HP bars, mana, levels, the member whose turn it is), the purse, the clock, the
    effects and the screen of the mode (fight, tumbler wall, lock plate, store, statue, level
    choice). Its shape is fixed for the env: (max(16 H, 384), 16 W + 336, 3) uint8 for floors
    of H x W tiles, (384, 1104, 3) for the usual 24 x 48. A frame takes about 5 ms to draw.
    `delve watch --gif out.gif` records an episode's pictures.

    ## Example
    >>> import gymnasium as gym, delve_env
    >>> env = gym.make("Delve-v0")
    >>> obs, info = env.reset(seed=0)
    >>> obs, reward, terminated, truncated, info = env.step(6)  # down the courtyard stair
    """

    if __doc__:  # (python -OO drops docstrings)
        __doc__ = __doc__.replace("{actions}", docstring_table().replace("\n", "\n    "))

    metadata = {"render_modes": ["ansi", "rgb_array", "human"], "render_fps": 8}

    def __init__(self, **config):
        self.config = Config.from_kwargs(**config)
        self.render_mode = self.config.render_mode
        self.engine = Engine(1, self.config.params(), self.config.party_classes())
        # the config is frozen: what step asks of it, asked once
        self._refuse_masked = self.config.invalid_action == "raise"
        self._fight_log = self.config.fight_log
        self.observation_space = observation_space()
        self.action_space = action_space()
        self.state_space = state_space()
        self._running = False
        self._seeded = False

    def state(self) -> np.ndarray:
        """The privileged state for training (a critic that reads the truth): the observation's
        record, the party's floor as it is, its rooms' bands and contents, the true walk to
        each (docs/OBSERVATION.md, "The privileged state"). A uint8 record in `state_space`,
        computed now; asking for it changes nothing. The policy that plays should not read it.
        (The engine's own arrays, for scripted agents and tests: `engine.state`.)"""
        return self.engine.privileged()[0]

    def reset(self, *, seed: int | None = None, options: dict | None = None):
        if seed is not None:
            seed = check_seed(seed)
        super().reset(seed=seed)
        if seed is not None:
            seeds = np.array([seed % 2**64], dtype=np.uint64)
        elif self._seeded:
            seeds = np.empty(0, dtype=np.uint64)  # the next run from the game's RNG, as autoreset
        else:
            seeds = np.array([self.np_random.integers(2**63)], dtype=np.uint64)
        self._seeded = True
        self.engine.reset(seeds, np.ones(1, dtype=np.bool_))
        self._running = True
        return self._observation(), self._info()

    def step(self, action):
        if not self._running:
            raise ResetNeeded("call reset() before step(), and again after an episode ends")
        a = check_action(action)
        eng = self.engine
        if self._refuse_masked and not eng.first_mask[a]:
            mode = MODE_NAMES[eng.state.mode[0]]
            raise ValueError(f"action {a} ({action_name(a)}) is not legal in mode {mode!r}")
        eng.actions[0] = a  # the engine's own inputs: nothing to copy in
        eng.step(eng.actions, eng.needs_reset)
        terminated, truncated = eng.terminated.item(0), eng.truncated.item(0)
        info = self._info()
        info["invalid_action"] = eng.invalid.item(0)
        info["paces"] = eng.paces.item(0)
        if self._fight_log:
            info["log"] = fightlog.decode(eng.state, 0)
        if terminated or truncated:
            self._running = False
            info["episode_stats"] = episode_stats(eng.state, 0)
        if self.render_mode == "human":
            print(self.render_text())
        return self._observation(), eng.rewards.item(0), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now (what sb3-contrib's MaskablePPO asks for)."""
        return self.engine.masks[0].copy()

    def action_name(self, i: int) -> str:
        return action_name(i)

    def why(self, a: int) -> str | None:
        """Why action a is masked now, as one line naming the rule ("MAP-3: no way north:
        wall or rock", "the free-action limit: only actions that pass time ..."), or None when
        it is legal. Computed only when asked; an index outside the action space raises
        ValueError."""
        a = check_why(a)
        if not self._seeded:
            raise ResetNeeded("call reset() before why()")
        if self.engine.first_mask[a]:
            return None
        return masked_reason(self.engine, 0, a)

    def render(self):
        if not self._seeded:
            raise ResetNeeded("call reset() before render()")
        if self.render_mode == "ansi":
            return self.render_text()
        if self.render_mode == "rgb_array":
            return render_rgb(self.engine.state, self.engine.params, 0)
        if self.render_mode == "human":
            print(self.render_text())
        return None

    def report(self, name: str, page: int = 0) -> str:
        """A report as text (VIEW-1: "member", "quest", "bestiary", "effects"; `page` walks the
        effects pages). It costs no time; reading one restarts Sixpence's count of 300 paces
        without a report (SIX-1)."""
        text = reports.report(self.engine.state, self.engine.params, name, page)
        self.engine.state.report_pace[0] = self.engine.state.pace[0]
        return text

    def render_text(self) -> str:
        return render_text(self.engine.state, self.engine.params, 0)

    def save_state(self) -> bytes:
        """The whole game as compact bytes (versioned, checksummed, not pickle), for search
        agents and bug reports. The config it is played under goes with it."""
        meta = {"running": self._running, "config": self.config.snapshot_dict()}
        return snapshot.to_bytes(self.engine.state, 0, meta)

    def load_state(self, data: bytes) -> None:
        """Restore a `save_state` snapshot exactly; anything else, including a snapshot of
        another config (or one that does not record its config), raises `SnapshotError` (a
        ValueError) and leaves the game as it was."""
        config = self.config.snapshot_dict()
        meta = snapshot.from_bytes(data, self.engine.state, 0, config=config)
        self.engine.refresh(np.ones(1, dtype=np.bool_))
        self._running = bool(meta.get("running", True))
        self._seeded = True

    def _observation(self) -> dict:
        # a dict display, in layout.KEYS' order: a comprehension over the keys would cost the
        # single env a noticeable share of its step
        ma, pa, st, fi, pu, pk, sh, mg, be = self.engine.first_obs_copies
        return {"map": ma(), "party": pa(), "status": st(), "fight": fi(), "puzzle": pu(),
                "pack": pk(), "shop": sh(), "magic": mg(), "bestiary": be()}  # fmt: skip

    def _info(self) -> dict:
        eng = self.engine
        state = eng.state
        info = {"action_mask": eng.first_mask.copy(), "events": state.events.item(0)}
        if state.keeper_new.item(0):  # SIX-1..2: Sixpence spoke this step
            info["keeper"] = said(state.keeper_new.item(0))
        return info
