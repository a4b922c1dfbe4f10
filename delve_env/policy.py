"""A trained policy's network as plain numpy, and games played by a policy in one batch.

The network reads the engine's observation record (`engine/outputs/layout.py`, one uint8 row an env)
as it is. Its first layer sees each categorical byte (the map's tile codes, a class, an item
kind, the vault's symbols) as a one-hot of its value and every other byte as a number scaled
into [0, 1]. A one-hot times a weight matrix is one row of it, so that layer is a sum of
looked-up rows (an embedding bag) plus one small matrix product: cheap to train, and a few
lines of numpy to run. Then one hidden layer, the action logits and the value.

`training/` trains it with torch and saves it with `save`; playing it (`PolicyNet.load`)
needs numpy (and numba for the first layer's loop). That layer's sums are taken in integers,
exact, so a game reads the same numbers in any batch as alone, and `play` follows each game's
sums by the few bytes a step changes. `play` runs every game of an evaluation in its own slot
of one engine with one forward pass a step for all of them, a finished game's slot held;
sampled actions come from a stream per game, so a game's moves never depend on the batch it
was played in.
"""

from __future__ import annotations

import json
import os
import zipfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numba import config as numba_config

from .engine.compiled.jit import njit  # cached by its place in the project: a wheel carries it
from .engine.core.actions import HOLD
from .engine.outputs.layout import KEYS, OBS_BYTES, OFFSETS, highs

FORMAT = "delve-policy-1"  # what `save` writes into the archive's meta.json

# the fields the first layer reads as categories (a one-hot of the value), by key and name;
# every map byte is one
CATEGORICAL = {
    "status": ("mode",),
    "party": ("class",),
    "puzzle": ("rings set", "guesses", "best guess", "hint"),
    "pack": ("kind",),
    "foe": ("kind",),
    "line": ("item",),
    "fight": ("ally",),
}


def _positions(key, base: int, rows: int, names: tuple[str, ...]) -> list[tuple[int, int]]:
    """(record position, high) of every value of `key`'s fields in `names`, over `rows` rows
    from `base`, nested rows (a fight's foes, a shop's lines) included by their own key."""
    out = []
    for r in range(rows):
        at_row = base + r * key.size
        for at, count, name, high, _ in key.fields:
            if at in key.nested:
                inner, n = key.nested[at]
                out += _positions(inner, at_row + at, n, CATEGORICAL.get(inner.name, ()))
            elif name in names:
                out += [(at_row + at + i, high) for i in range(count)]
    return out


@dataclass(frozen=True)
class Inputs:
    """How the first layer reads a record: `cat_at` are the categorical bytes, and the one-hot
    of byte `cat_at[j]` with value v is row `cat_base[j] + v` of the embedding table
    (`cat_rows` rows); `num_at` are the numeric bytes, each multiplied by `num_scale`."""

    cat_at: np.ndarray
    cat_base: np.ndarray
    cat_rows: int
    num_at: np.ndarray
    num_scale: np.ndarray


def inputs() -> Inputs:
    """The categorical and numeric bytes of the record (see CATEGORICAL)."""
    cats = [(OFFSETS["map"] + i, int(h)) for i, h in enumerate(highs()["map"].ravel())]
    for key in KEYS[1:]:
        rows = int(np.prod(key.rows)) if key.rows else 1
        cats += _positions(key, OFFSETS[key.name], rows, CATEGORICAL.get(key.name, ()))
    cat_at = np.array([p for p, _ in cats], dtype=np.int64)
    sizes = np.array([h + 1 for _, h in cats], dtype=np.int64)
    cat_base = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    flat_highs = np.concatenate([highs()[k.name].ravel() for k in KEYS]).astype(np.float32)
    num_at = np.setdiff1d(np.arange(OBS_BYTES, dtype=np.int64), cat_at)
    num_scale = 1.0 / np.maximum(flat_highs[num_at], 1.0)
    return Inputs(cat_at, cat_base, int(sizes.sum()), num_at, num_scale.astype(np.float32))


# the weights, in the order the torch network (training/net.py) names them
WEIGHTS = ("embed", "num_w", "num_b", "body_w", "body_b", "pi_w", "pi_b", "v_w", "v_b")
# a recurrent policy's (`delve train --memory gru`): torch's GRUCell, and the projection of
# its output added to the first layer's
MEMORY = ("gru_w_ih", "gru_w_hh", "gru_b_ih", "gru_b_hh", "recall_w", "recall_b")
# the critic that reads the privileged state (`--critic state`); training only, kept in the
# file so that a run can go on from it
CRITIC_WEIGHTS = ("critic_state_w", "critic_state_b", "critic_h_w", "critic_out_w",
                  "critic_out_b")  # fmt: skip
CRITIC = 64  # the critic's hidden width


def critic_inputs() -> tuple[np.ndarray, np.ndarray]:
    """The bytes of the privileged state the critic reads (its rooms' and run's parts: the
    observation's bytes it reads through the policy's own layers) and each one's scale."""
    from .engine.outputs.privileged import ROOMS_AT, STATE_BYTES, highs

    at = np.arange(ROOMS_AT, STATE_BYTES, dtype=np.int64)
    return at, (1.0 / np.maximum(highs()[at], 1)).astype(np.float32)


class PolicyNet:
    """The trained network's forward pass in numpy.

    Args:
        weights: The arrays named in WEIGHTS (float32; linear weights as (out, in), torch's
            layout).
        meta: What was trained: task, config, trainer, steps, seed, evaluation (free-form).
    """

    def __init__(self, weights: dict[str, np.ndarray], meta: dict | None = None):
        missing = [k for k in WEIGHTS if k not in weights]
        for part in (MEMORY, CRITIC_WEIGHTS):
            if any(k in weights for k in part):
                missing += [k for k in part if k not in weights]
        if missing:
            raise ValueError(f"policy weights miss {missing}")
        names = [k for k in WEIGHTS + MEMORY + CRITIC_WEIGHTS if k in weights]
        self.w = {k: np.ascontiguousarray(weights[k], dtype=np.float32) for k in names}
        # the recurrent core's width (0: memoryless; every game starts from zeros)
        self.memory = self.w["gru_w_hh"].shape[1] if "gru_w_hh" in self.w else 0
        self.meta = dict(meta or {})
        self.inputs = inputs()
        x = self.inputs
        if self.w["embed"].shape[0] != x.cat_rows or self.w["num_w"].shape[1] != len(x.num_at):
            raise ValueError("the policy was trained on another observation layout")
        # the first layer in integers of 2^-FIXED_BITS (see `first`)
        self._num_q = fixed(self.w["num_w"].T.astype(np.float64) * x.num_scale[:, None])
        self._embed_q = fixed(self.w["embed"])
        # `follow`'s map of each record byte to its input: numeric j, categorical j, or -1
        self._slot = np.full((2, OBS_BYTES), -1, dtype=np.int64)
        self._slot[0, x.num_at] = np.arange(len(x.num_at))
        self._slot[1, x.cat_at] = np.arange(len(x.cat_at))
        self._body_wt = self.w["body_w"].T.copy()
        self._pi_wt = self.w["pi_w"].T.copy()
        if self.memory:
            self._ih_t = self.w["gru_w_ih"].T.copy()
            self._hh_t = self.w["gru_w_hh"].T.copy()
            self._recall_t = self.w["recall_w"].T.copy()

    @staticmethod
    def load(path: str | Path) -> PolicyNet:
        """A policy saved by `save` (a zip of .npy arrays and meta.json)."""
        with zipfile.ZipFile(path) as z:
            names = z.namelist()
            if "meta.json" not in names:
                raise ValueError(f"{path} is not a Delve policy (no meta.json)")
            meta = json.loads(z.read("meta.json"))
        if meta.get("format") != FORMAT:
            raise ValueError(f"{path}: unknown policy format {meta.get('format')!r}")
        with np.load(path) as arrays:
            names = [k for k in WEIGHTS + MEMORY + CRITIC_WEIGHTS if k in arrays or k == "embed"]
            return PolicyNet({k: stored(arrays, k) for k in names}, meta)

    def save(self, path: str | Path, compact: bool = False) -> None:
        """Write the weights and meta as one zip (numpy's .npz with a meta.json beside);
        `compact` stores them as `compact` says (the shipped policies)."""
        save(path, self.w, self.meta, compact)

    def logits(self, records: np.ndarray, masks: np.ndarray | None = None) -> np.ndarray:
        """(B, NUM_ACTIONS) float32 logits of the records; illegal actions -inf under `masks`.
        A memoryless policy's only: a recurrent one reads a game step by step (`forward` with
        its memory, as `play` and `Agent` do)."""
        if self.memory:
            raise ValueError("a recurrent policy's logits depend on its memory of the game: "
                             "play it with delve_env.policy.play, play_out or Agent")  # fmt: skip
        return self.forward(records, masks)[0]

    def initial(self, n: int) -> np.ndarray:
        """The memory of n games at their start: zeros (n, memory); (n, 0) when memoryless."""
        return np.zeros((n, self.memory), dtype=np.float32)

    def forward(self, records: np.ndarray | None, masks: np.ndarray | None = None,
                hidden: np.ndarray | None = None, sums: np.ndarray | None = None):  # fmt: skip
        """(logits, value, hidden) of one step of a batch of records (B, OBS_BYTES) uint8, each
        game's memory as it stood before the step (`initial` at its start; None: zeros). The
        value is the observation's (the critic of `--critic state` reads the privileged state,
        which play never has). `sums`: the records' first-layer sums where known (`follow`),
        in place of the records."""
        h = self.first(records, sums)
        if self.memory:
            if hidden is None:
                hidden = self.initial(len(h))
            hidden = self.gru(h, hidden)
            h = h + hidden @ self._recall_t + self.w["recall_b"]
        elif hidden is None:
            hidden = self.initial(len(h))
        h = np.maximum(h @ self._body_wt + self.w["body_b"], 0.0)
        logits = h @ self._pi_wt + self.w["pi_b"]
        if masks is not None:
            logits = np.where(masks, logits, -np.inf)
        return logits.astype(np.float32), h @ self.w["v_w"][0] + self.w["v_b"][0], hidden

    def gru(self, x: np.ndarray, h: np.ndarray) -> np.ndarray:
        """torch's GRUCell: the memory after reading x."""
        n = self.memory
        gi = x @ self._ih_t + self.w["gru_b_ih"]
        gh = h @ self._hh_t + self.w["gru_b_hh"]
        r = 1.0 / (1.0 + np.exp(-(gi[:, :n] + gh[:, :n])))
        z = 1.0 / (1.0 + np.exp(-(gi[:, n : 2 * n] + gh[:, n : 2 * n])))
        c = np.tanh(gi[:, 2 * n :] + r * gh[:, 2 * n :])
        return ((1.0 - z) * c + z * h).astype(np.float32)

    def first(self, records: np.ndarray, sums: np.ndarray | None = None) -> np.ndarray:
        """The first hidden layer of a batch of records (or of their `sums`)."""
        sums = self.sums(records) if sums is None else sums
        return np.maximum(sums * 2.0**-FIXED_BITS + self.w["num_b"], 0.0).astype(np.float32)

    def sums(self, records: np.ndarray) -> np.ndarray:
        """The first layer's weighted sums of a batch of records, (B, width) int64. They are
        taken in integers (each weight rounded to a multiple of 2^-FIXED_BITS, far below
        float32's step at the sums' size), so they are exact: a record's sums are the same
        bits in any batch, summed in any order, compiled or not, or followed step by step
        (`follow`)."""
        x = self.inputs
        out = np.empty((len(records), self._num_q.shape[1]), dtype=np.int64)
        if numba_config.DISABLE_JIT:  # numpy's integer products: the same sums
            out[:] = records[:, x.num_at].astype(np.int64) @ self._num_q
            out += self._embed_q[records[:, x.cat_at].astype(np.int64) + x.cat_base].sum(axis=1)
        else:
            first_sums(records, x.num_at, self._num_q, x.cat_at, x.cat_base, self._embed_q, out)
        return out

    def follow(self, records: np.ndarray, seen: np.ndarray, rows: np.ndarray,
               sums: np.ndarray) -> None:  # fmt: skip
        """Bring `sums[rows]`, the sums of `seen[rows]`, to those of `records[rows]` by what
        changed between them (a step changes few bytes of a record), and `seen[rows]` with
        them."""
        if numba_config.DISABLE_JIT:
            sums[rows] = self.sums(records[rows])
            seen[rows] = records[rows]
            return
        follow_sums(records, seen, rows, self._slot, self._num_q, self.inputs.cat_base,
                    self._embed_q, sums)  # fmt: skip


FIXED_BITS = 32  # the first layer's integer step: 2^-32 (a sum of 1,782 terms stays < 2^63)


def fixed(weights: np.ndarray) -> np.ndarray:
    """Weights as int64 multiples of 2^-FIXED_BITS."""
    q = np.round(np.asarray(weights, dtype=np.float64) * 2.0**FIXED_BITS)
    if np.abs(q).max(initial=0) * 255 * OBS_BYTES >= 2.0**63:
        raise ValueError("a first-layer weight too large for its integer sums")
    return np.ascontiguousarray(q.astype(np.int64))


@njit(cache=True, nogil=True)
def follow_sums(records, seen, rows, slot, num_q, cat_base, embed_q, sums):
    """PolicyNet.follow: each changed byte's old term out of the sums, its new one in."""
    for b in rows:
        acc, now, was = sums[b], records[b], seen[b]
        for at in range(now.size):
            if now[at] == was[at]:
                continue
            new, old = np.int64(now[at]), np.int64(was[at])
            j = slot[0, at]
            if j >= 0:
                row = num_q[j]
                for k in range(acc.size):
                    acc[k] += (new - old) * row[k]
            else:
                j = slot[1, at]
                up, down = embed_q[cat_base[j] + new], embed_q[cat_base[j] + old]
                for k in range(acc.size):
                    acc[k] += up[k] - down[k]
            was[at] = now[at]


@njit(cache=True, nogil=True)
def first_sums(records, num_at, num_q, cat_at, cat_base, embed_q, out):
    """out[b] = the numeric bytes of record b times their rows of num_q, plus the rows of
    embed_q its categorical bytes pick (PolicyNet.first)."""
    for b in range(records.shape[0]):
        acc = out[b]
        acc[:] = 0
        for j in range(num_at.size):
            v = np.int64(records[b, num_at[j]])
            if v != 0:
                row = num_q[j]
                for k in range(acc.size):
                    acc[k] += v * row[k]
        for j in range(cat_at.size):
            row = embed_q[cat_base[j] + np.int64(records[b, cat_at[j]])]
            for k in range(acc.size):
                acc[k] += row[k]


def compact(weights: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """The weights in about a third of their bytes, for the policies shipped in the package:
    the one-hot layer's table (most of them) as int8 with one float32 scale a row, the rest as
    float16. The forward pass sums a row a categorical byte, so a row's rounding (at most half
    a 255th of its largest weight) stays far below the hidden units' scale; the shipped
    policies win the same games (docs/LEARNING.md)."""
    embed = np.asarray(weights["embed"], dtype=np.float32)
    scale = np.abs(embed).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    out = {k: np.asarray(v, dtype=np.float16) for k, v in weights.items() if k != "embed"}
    out["embed_int8"] = np.round(embed / scale[:, None]).astype(np.int8)
    out["embed_scale"] = scale.astype(np.float32)
    return out


def stored(arrays, name: str) -> np.ndarray:
    """Weight `name` of a saved policy as float32, whichever way it was stored."""
    if name == "embed" and "embed_int8" in arrays:
        return arrays["embed_int8"].astype(np.float32) * arrays["embed_scale"][:, None]
    return arrays[name].astype(np.float32)


def save(path: str | Path, weights: dict[str, np.ndarray], meta: dict,
         compact_weights: bool = False) -> None:  # fmt: skip
    """One zip holding each weight as a .npy (so `np.load` reads it) and meta.json: float32
    as trained, or `compact`."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    if compact_weights:
        np.savez_compressed(path, **compact(weights))
    else:
        np.savez_compressed(
            path, **{k: np.asarray(v, dtype=np.float32) for k, v in weights.items()}
        )
    if path.suffix != ".npz" and path.with_suffix(path.suffix + ".npz").exists():
        path.with_suffix(path.suffix + ".npz").replace(path)  # savez adds .npz to other names
    with zipfile.ZipFile(path, "a", compression=zipfile.ZIP_DEFLATED) as z:
        z.writestr("meta.json", json.dumps({**meta, "format": FORMAT}, indent=1))


def is_policy_file(path: str | Path) -> bool:
    """Whether `path` is a policy `save` wrote (else perhaps an SB3 model.zip)."""
    try:
        with zipfile.ZipFile(path) as z:
            return "meta.json" in z.namelist()
    except (OSError, zipfile.BadZipFile):
        return False


# --- choosing actions ---------------------------------------------------------------------


def uniforms(seeds: np.ndarray, steps: np.ndarray) -> np.ndarray:
    """One uniform in [0, 1) per game from its seed and step (splitmix64 of the pair): a game's
    draws depend on nothing but its own seed and how far it has played."""
    with np.errstate(over="ignore"):
        z = seeds.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15) + steps.astype(np.uint64)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
    return (z >> np.uint64(11)).astype(np.float64) * 2.0**-53


def choose(logits: np.ndarray, u: np.ndarray | None) -> np.ndarray:
    """Actions from masked logits (illegal ones -inf): the likeliest where `u` is None, else
    sampled by inverse CDF with one uniform per row (never an illegal one: its mass is 0)."""
    if u is None:
        return logits.argmax(axis=1)
    p = np.exp(logits.astype(np.float64) - logits.max(axis=1, keepdims=True))
    cdf = np.cumsum(p, axis=1)
    return (cdf <= (u * cdf[:, -1])[:, None]).sum(axis=1)


def play(policy, config: dict, seeds, sampled: bool = True, on_end=None, streams=None) -> list:
    """Play one game per seed, every game in its own slot of one engine, with one forward pass
    a step over the games still playing.

    Args:
        policy: A `PolicyNet` (a recurrent one's memory kept a game, in its slot), or
            `(records, masks) -> masked logits`.
        config: The games' config (`Config` keys: a game here is the one the single env of
            that config plays after `reset(seed=s)`).
        seeds: The games' seeds.
        sampled: Sample each action (a stream per game, `uniforms`); else the likeliest.
        on_end: `(state, slot, steps, truncated) -> record` called as each game ends; by
            default the record is `spaces.episode_stats` with `return` and `length` added.
        streams: Each game's sampling stream (default: its seed).

    Returns:
        One record per seed, in the seeds' order.
    """
    from .vector import DelveVectorEnv

    seeds = np.asarray(list(seeds), dtype=np.uint64)
    venv = DelveVectorEnv(len(seeds), min(len(seeds), os.cpu_count() or 1), **config)
    venv.reset(seed=[int(s) for s in seeds])
    streams = seeds if streams is None else np.asarray(streams, dtype=np.uint64)
    return play_out(policy, venv.engine, streams, sampled, on_end)


def play_out(policy, eng, streams: np.ndarray, sampled: bool = True, on_end=None,
             watch=None) -> list:  # fmt: skip
    """Play the game in every slot of engine `eng` to its end, from wherever it stands (`play`
    after a reset; quality/deep_floors.py from loaded states): slot e samples from stream
    `streams[e]`; `watch(live slots)`, where given, is called before each step. `policy`,
    `sampled` and `on_end` as in `play`; returns one record per slot."""
    from .spaces import episode_stats

    n = eng.num_envs
    net = policy if isinstance(policy, PolicyNet) else None
    hidden = net.initial(n) if net is not None else None
    returns = np.zeros(n)
    steps = np.zeros(n, dtype=np.int64)
    playing = np.ones(n, dtype=np.bool_)
    records: list = [None] * n
    actions = np.zeros(n, dtype=np.int64)
    no_reset = np.zeros(n, dtype=np.bool_)
    if net is not None:  # each game's first-layer sums, followed step by step
        sums, seen = net.sums(eng.obs_record), eng.obs_record.copy()
    while playing.any():
        live = np.flatnonzero(playing)
        if watch is not None:
            watch(live)
        if net is None:
            logits = policy(eng.obs_record[live], eng.masks[live])
        else:
            net.follow(eng.obs_record, seen, live, sums)
            logits, _, hidden[live] = net.forward(None, eng.masks[live], hidden[live],
                                                  sums[live])  # fmt: skip
        actions[live] = choose(logits, uniforms(streams[live], steps[live]) if sampled else None)
        eng.step(actions, no_reset)
        returns[live] += eng.rewards[live]
        steps[live] += 1
        for e in live[(eng.terminated | eng.truncated)[live]]:
            cut = bool(eng.truncated[e] and not eng.terminated[e])
            if on_end is None:
                records[e] = {**episode_stats(eng.state, e), "return": float(returns[e]),
                              "length": int(steps[e]), "truncated": cut}  # fmt: skip
            else:
                records[e] = on_end(eng.state, e, int(steps[e]), cut)
            playing[e], actions[e] = False, HOLD  # a finished game's slot is stepped no more
    return records


# --- the policies shipped with the package ---------------------------------------------------

SHIPPED = Path(__file__).parent / "policies"  # <difficulty>.zip, trained by `delve train`
# The ladder of skill: `delve train` keeps its policy as it stood at these fractions of the
# run's steps (ladder/05.zip, ...), beside the whole run's model.zip; a novice, an
# apprentice and an intermediate player of the same recipe as the trained one
RUNGS = (0.05, 0.15, 0.4)
# hard's policy is trained on from normal's, so the rungs below it are the normal run's
RUNGS_OF = {"hard": "normal"}


def rung_path(fraction: float) -> str:
    """Where a run keeps its rung at `fraction` of its steps: ladder/05.zip for 5%."""
    return f"ladder/{round(100 * fraction):02d}.zip"


def shipped_path(difficulty: str, rung: float = 1.0) -> Path:
    """The file of the policy shipped for `difficulty`, or of its rung (ladder/easy-05.zip)."""
    if rung == 1.0:
        return SHIPPED / f"{difficulty}.zip"
    if rung not in RUNGS:
        raise ValueError(f"no rung at {rung}: the ladder's rungs are {RUNGS} (and 1.0)")
    run = RUNGS_OF.get(difficulty, difficulty)
    return SHIPPED / rung_path(rung).replace("/", f"/{run}-")


def shipped(difficulty: str, rung: float = 1.0) -> PolicyNet:
    """The trained policy shipped for a preset ("easy", "normal", "hard"), or its rung at
    `rung` of its training (one of RUNGS)."""
    path = shipped_path(difficulty, rung)
    if not path.is_file():
        have = sorted(p.stem for p in SHIPPED.glob("*.zip"))
        raise ValueError(f"no trained policy ships for difficulty {difficulty!r}; shipped: "
                         f"{', '.join(have) or 'none'}")  # fmt: skip
    return PolicyNet.load(path)


class Agent:
    """A policy playing the single env (`DelveEnv`) step by step, as `play` plays a batch:
    `agent(env, info)` is its action, sampled from the seed's stream at this step's count (so
    the single env plays the very game `play` plays in a slot) or the likeliest one. A
    recurrent policy's memory reads every observation of the game: `agent(...)` reads the
    one it acts on, and `remember(env)` one another player acts on (`p` in `delve play`).

    Args:
        policy: A `PolicyNet`.
        seed: The game's seed (the stream sampled actions are drawn from).
        sampled: Sample the actions (else the likeliest).
    """

    def __init__(self, policy: PolicyNet, seed: int | None, sampled: bool = True):
        self.policy, self.sampled = policy, sampled
        self.seed = np.array([seed or 0], dtype=np.uint64)
        self.steps = 0
        self.hidden = policy.initial(1)

    def _read(self, env) -> tuple[np.ndarray, np.ndarray]:
        """(masked logits, the memory after this observation)."""
        eng = env.unwrapped.engine
        logits, _, hidden = self.policy.forward(eng.obs_record[:1], eng.masks[:1], self.hidden)
        return logits, hidden

    def probabilities(self, env) -> np.ndarray:
        """The policy's probability of every action in the env's state (0 where illegal)."""
        logits = self._read(env)[0][0].astype(np.float64)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def remember(self, env) -> None:
        """Read the env's observation into the memory, as if acting on it (another player
        acts)."""
        self.hidden = self._read(env)[1]
        self.steps += 1

    def __call__(self, env, info=None) -> int:
        logits, self.hidden = self._read(env)
        u = uniforms(self.seed, np.array([self.steps])) if self.sampled else None
        self.steps += 1
        return int(choose(logits, u)[0])
