"""Who plays a playtest, and playing them: each (preset, player, seed) run and what it came to.

The players, from full sight to none:
- `scripted`: the scripted expert (agents/scripted.py), which reads every floor's layout;
- `fog`: the same play on the party's knowledge (agents/fog.py);
- `random`: uniformly random legal actions;
- `trained`: the policy shipped for the preset's difficulty, its actions sampled;
- `ladder`: the shipped policy's rungs (delve_env/policies/ladder/), the same recipe stopped
  at 5%, 15% and 40% of its steps (a novice, an apprentice, an intermediate player), and
  `trained` at the top;
- `model:PATH.zip` (likeliest actions) or `sampled:PATH.zip`: a trained model;
- `adapted` (with `--adapt`): the shipped policy trained on each preset's own config
  (delve_env/tools/playtest/adapt.py), and with `ladder` that run's rungs.

The scripted and fog players play each run alone in a worker process; the others play every
seed of a preset in one batched engine, each game sampling from its own stream
(`policy.uniforms`), so a run is the same game whatever else was played beside it.
With `attempts` K, a learned player plays each seed K times on independent streams (attempt
0's stream is the seed's own: the same game as with K = 1).
"""

from __future__ import annotations

import json
import multiprocessing as mp
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ...config import Config
from ...engine.core.tables import EV_HUNGER, KING_SLOT
from ...policy import RUNGS
from .variants import Preset

SOLO = ("scripted", "fog")  # played a run at a time (the rest batched)
LEARNED = ("trained", "ladder")
POLICIES = (
    "scripted, fog (the scripted expert on the party's knowledge), random, trained (the "
    "policy shipped for each preset's difficulty, sampled), ladder (its rungs at 5%, 15% and "
    "40% of its training, and trained), model:PATH.zip (likeliest actions) or sampled:PATH.zip"
)
LOSS_CAUSES = ("hunger", "the king", "all fallen", "out of steps")


@dataclass(frozen=True)
class Player:
    """One player of the report.

    Attributes:
        name: As reported: "scripted", "ladder 15%", "adapted", "sampled:run/model.zip"...
        spec: What plays: "scripted", "fog" or "random"; "shipped" (the preset's shipped
            policy or a rung of it), "adapted" (the adapted run's), or a model spec.
        rung: The share of training behind a shipped or adapted policy (1.0: all of it).
    """

    name: str
    spec: str
    rung: float = 1.0

    @property
    def solo(self) -> bool:
        return self.spec in SOLO

    @property
    def learned(self) -> bool:
        return self.spec not in (*SOLO, "random")

    @property
    def adapted(self) -> bool:
        return self.spec == "adapted"

    @property
    def sampled(self) -> bool:
        return not self.spec.startswith("model:")


def rung_label(prefix: str, fraction: float) -> str:
    return prefix if fraction == 1.0 else f"{prefix} {round(100 * fraction)}%"


def lineup(specs: list[str], adapt: bool = False) -> list[Player]:
    """The players `--policy` names (in order, none twice), and with `adapt` the adapted
    counterparts of `trained` and `ladder`. ValueError for an unknown one, or for `adapt`
    with no player that learns."""
    out: list[Player] = []
    for spec in specs:
        if spec in (*SOLO, "random"):
            out.append(Player(spec, spec))
        elif spec == "trained":
            out.append(Player("trained", "shipped"))
        elif spec == "ladder":
            out += [Player(rung_label("ladder", f), "shipped", f) for f in RUNGS]
            out.append(Player("trained", "shipped"))
        elif spec.startswith(("model:", "sampled:")) and spec.split(":", 1)[1]:
            path = Path(spec.split(":", 1)[1])
            if not path.is_file():
                raise ValueError(f"policy {spec!r}: no such file {path}")
            loadable(spec, path)
            out.append(Player(spec, spec))
        else:
            raise ValueError(f"unknown policy {spec!r}: {POLICIES}")
    if adapt:
        if not any(s in LEARNED for s in specs):
            raise ValueError("--adapt trains the shipped policy on each preset: add --policy "
                             "trained or --policy ladder (scripted, fog, random and a model "
                             "file do not adapt)")  # fmt: skip
        rungs = (*RUNGS, 1.0) if "ladder" in specs else (1.0,)
        out += [Player(rung_label("adapted", f), "adapted", f) for f in rungs]
    return list(dict.fromkeys(out))


def loadable(spec: str, path: Path) -> None:
    """ValueError naming the policy where its file is neither a Delve policy nor an SB3 model
    (loaded here, before any game, rather than found out after the other players')."""
    from ...policy import is_policy_file

    if is_policy_file(path):
        return
    try:
        from training.evaluate import load_model
    except ImportError:
        raise ValueError(
            f"policy {spec!r}: not a Delve policy file, and an SB3 model needs "
            "the train extra: pip install -e '.[train]'"
        ) from None
    try:
        load_model(path)
    except ValueError as err:
        raise ValueError(f"policy {spec!r}: {err}") from None


# --- one run's record -----------------------------------------------------------------------


def run_record(s, e: int, name: str, spec: str, seed: int, steps: int, truncated: bool,
               attempt: int = 0) -> dict:  # fmt: skip
    """What the run that just ended in slot e came to, and why it was lost."""
    from ...spaces import episode_stats

    stats = episode_stats(s, e)
    cause = None
    if not stats["won"]:
        if truncated:
            cause = "out of steps"
        elif s.has_king[e] and s.hp[e, KING_SLOT] <= 0:
            cause = "the king"
        elif s.events[e] & EV_HUNGER:
            cause = "hunger"
        else:
            cause = "all fallen"
    return {
        "preset": name, "policy": spec, "seed": seed, "attempt": attempt, "won": stats["won"],
        "book_home": stats["book_home"], "deepest": stats["deepest_floor"],
        "members_lost": stats["members_lost"], "raises": stats["raises_used"],
        "gold": stats["gold"], "rations": int(s.rations[e]), "paces": stats["paces"],
        "steps": int(steps), "cause": cause, "floor": int(s.floor[e]),
        "achievements": stats["achievements"],
        "depth": int(s.floor_visited.shape[1] - 1),
    }  # fmt: skip


# --- the scripted players, a run at a time in worker processes --------------------------------

_ENVS: dict = {}
_AGENTS: dict = {}


def _agent(spec: str):
    """The scripted or fog player (`act(env) -> action`), one a worker."""
    if spec not in _AGENTS:
        if spec == "scripted":
            from agents.scripted import ScriptedAgent

            _AGENTS[spec] = ScriptedAgent()
        else:
            from agents.fog import FogExpert

            _AGENTS[spec] = FogExpert()
    return _AGENTS[spec]


def play_run(job: tuple) -> dict:
    """One run: (preset name, config, player name, seed) -> what it came to."""
    from ...env import DelveEnv

    name, config, spec, seed = job
    key = json.dumps(config, sort_keys=True, default=list)
    if key not in _ENVS:
        _ENVS[key] = DelveEnv(**config)
    env = _ENVS[key]
    agent = _agent(spec)  # (it forgets the last game when a new one starts)
    env.reset(seed=seed)
    eng = env.engine  # stepped as env.step steps it, less the observation and info it hands
    done, truncated, steps = False, False, 0  # out, which these players never read
    while not done:
        eng.actions[0] = agent.act(env)  # always a legal action
        eng.step(eng.actions, eng.needs_reset)
        terminated, truncated = eng.terminated.item(0), eng.truncated.item(0)
        steps += 1
        done = terminated or truncated
    return run_record(eng.state, 0, name, spec, seed, steps, truncated)


def play_solo(jobs: list[tuple], workers: int, done=None) -> list[dict]:
    """Every job's run (`play_run`) in `workers` processes, in the jobs' order; `done(run)`
    is called as each arrives."""

    def track(runs):
        out = []
        for run in runs:
            out.append(run)
            if done is not None:
                done(run)
        return out

    if workers <= 1 or len(jobs) <= 1:
        return track(map(play_run, jobs))
    with mp.get_context("fork").Pool(workers) as pool:
        return track(pool.imap(play_run, jobs, chunksize=2))


# --- the batched players, every seed of a preset in one engine --------------------------------


def stream(seed: int, attempt: int) -> int:
    """Attempt `attempt`'s sampling stream for a seed: the seed itself for the first."""
    return seed + (attempt << 32)


def uniform(records: np.ndarray, masks: np.ndarray) -> np.ndarray:
    """The random player's logits: every legal action alike."""
    return np.where(masks, 0.0, -np.inf)


def play_policy(preset: Preset, player: Player, policy, seeds: range, attempts: int = 1,
                done=None) -> list[dict]:  # fmt: skip
    """Every seed's runs (attempts of each, for a learned player) of a policy (a `PolicyNet`,
    its memory kept a game where it has one, or `uniform`) in one batched engine, one forward pass a step for all;
    slot (attempt, seed) is the game the single env plays on that seed, sampling from
    `stream(seed, attempt)`. `done()` is called as each game ends."""
    from ...policy import play

    tries = attempts if player.learned and player.sampled else 1
    game_seeds = [s for _ in range(tries) for s in seeds]
    streams = np.array([stream(s, a) for a in range(tries) for s in seeds], dtype=np.uint64)

    def on_end(s, e, steps, truncated):
        attempt = int(e) // len(seeds)
        if done is not None:
            done()
        return run_record(s, e, preset.name, player.name, game_seeds[e], steps, truncated,
                          attempt)  # fmt: skip

    runs = play(policy, preset.config, game_seeds, player.sampled, on_end, streams)
    return sorted(runs, key=lambda r: (r["seed"], r["attempt"]))


def play_sb3(preset: Preset, player: Player, path: str, seeds: range) -> list[dict]:
    """An SB3 MaskablePPO model (float observations) over every seed in one batch: its
    likeliest actions, or sampled with torch seeded with the first seed."""
    import torch
    from sb3_contrib import MaskablePPO

    from ...vector import DelveVectorEnv
    from ...wrappers import float_scales, to_float

    model = MaskablePPO.load(path, device="cpu")
    if player.sampled:
        torch.manual_seed(seeds.start)
    venv = DelveVectorEnv(len(seeds), **preset.config)
    obs, _ = venv.reset(seed=list(seeds))
    scales, eng = float_scales(), venv.engine
    runs: list = [None] * len(seeds)
    steps = np.zeros(len(seeds), dtype=np.int64)
    playing = np.ones(len(seeds), dtype=np.bool_)
    while playing.any():
        actions, _ = model.predict(to_float(obs, scales), action_masks=eng.masks.copy(),
                                   deterministic=not player.sampled)  # fmt: skip
        obs, _, terminated, truncated, _ = venv.step(actions)
        steps[playing] += 1
        for e in np.flatnonzero(playing & (terminated | truncated)):  # next-step autoreset:
            runs[e] = run_record(eng.state, e, preset.name, player.name, seeds[e], steps[e],
                                 bool(truncated[e] and not terminated[e]))  # fmt: skip
            playing[e] = False
    return runs


def difficulty_of(preset: Preset) -> str:
    return Config.from_kwargs(**preset.config).difficulty


# --- a person's games, from `delve serve` -------------------------------------------------------


def human_runs(folder: str | Path, presets: list[Preset]) -> tuple[list[dict], list[str]]:
    """The finished games of the replays in `folder` (`delve serve` keeps one a game) as the
    player "human" of the preset whose game each plays, each re-simulated and checked step
    by step; (runs, what was left out and why)."""
    from ...env import DelveEnv
    from ..replay import load, state_hash

    by_config = {json.dumps(p.canonical(), sort_keys=True, default=list): p for p in presets}
    runs, left = [], []
    for path in sorted(Path(folder).glob("*.json")):
        try:
            data = load(path)
        except (OSError, ValueError) as err:
            left.append(f"{path.name}: {err}")
            continue
        config = {**data["config"], "party": tuple(data["config"]["party"])}
        preset = by_config.get(json.dumps(Config.from_kwargs(**config).snapshot_dict(),
                                          sort_keys=True, default=list))  # fmt: skip
        if preset is None:
            left.append(f"{path.name}: a game of no preset of this playtest")
            continue
        env = DelveEnv(**config)
        env.reset(seed=data["seed"])
        done = truncated = False
        for k, action in enumerate(data["actions"], start=1):
            _, _, terminated, truncated, _ = env.step(action)
            done = terminated or truncated
            if state_hash(env) != data["hashes"][k]:
                left.append(f"{path.name}: differs from this Delve at step {k}")
                break
        else:
            if not done:
                left.append(f"{path.name}: not finished ({len(data['actions'])} steps)")
                continue
            record = run_record(env.engine.state, 0, preset.name, "human", data["seed"],
                                len(data["actions"]), truncated and not terminated)  # fmt: skip
            runs.append({**record, "replay": str(path)})
    return runs, left
