"""A shipped policy adapted to a variant: the default trainer goes on from the policy shipped
for the variant's difficulty, on the variant's own config (`delve playtest --adapt`).

A policy trained on a preset's rules plays a variant as a visitor: its rate there mixes the
variant's difficulty with how far the policy is from the game it learned. The adapted policy
has learned the variant, and it is the instrument a designer reads. The recipe is the shipped
one with a smaller step size: the shipped policies are the ends of runs whose step size fell
to 0, and a new run at the full step size starts by unlearning (docs/LEARNING.md, "The fall
comes at once"); at `ADAPT_LEARNING_RATE` a run on the unchanged preset keeps its level.

An adapted run lives in a folder of its own under the playtest's output, named by the
variant and a digest of everything it was trained from (the config as played, the steps, the
seed, the recipe, the starting policy's bytes), so the same question asked again reuses it and
any other question trains anew. It is trained into `<folder>.partial` and renamed when whole:
an interrupted run is never taken for a finished one.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shutil
from dataclasses import asdict, replace
from pathlib import Path

from delve_env.config import Config
from delve_env.policy import shipped_path
from training.tasks import task_defaults

ADAPT_STEPS = 1_000_000  # the default budget: a few minutes a variant on 2 cores
ADAPT_LEARNING_RATE = 3e-5  # a tenth of the shipped recipe's (falling to 0 over the run)
GAMMA = {"hard": 0.999}  # the shipped policies' discounts (the others: the task default)
RECORD = "adapt.json"  # written last: a folder holding it is a finished adaptation


def recipe(difficulty: str, steps: int):
    """The trainer's settings for adapting the shipped policy of `difficulty` for `steps`."""
    hp = task_defaults("Delve-v0")
    return replace(hp, timesteps=steps, curriculum=False, learning_rate=ADAPT_LEARNING_RATE,
                   gamma=GAMMA.get(difficulty, hp.gamma), eval_every=max(steps // 4, 1),
                   eval_episodes=40)  # fmt: skip


def record(config: dict, steps: int, seed: int, init: Path | None = None) -> dict:
    """What an adapted run is trained from: its key (`init`: the policy it starts from, by
    default the one shipped for the config's difficulty)."""
    played = Config.from_kwargs(**{**config, "reward_mode": "shaped"})
    name = f"shipped {played.difficulty}" if init is None else str(init)
    init = shipped_path(played.difficulty) if init is None else Path(init)
    return {"config": played.snapshot_dict(), "steps": steps, "seed": seed,
            "init": {"policy": name, "sha256": hashlib.sha256(init.read_bytes()).hexdigest()},
            "recipe": asdict(recipe(played.difficulty, steps))}  # fmt: skip


def folder(root: Path, name: str, key: dict) -> Path:
    digest = hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:10]
    return Path(root) / f"{name}-{digest}"


def finished(path: Path, key: dict) -> bool:
    try:
        return json.loads((path / RECORD).read_text())["key"] == key
    except (OSError, ValueError, KeyError):
        return False


def adapted(name: str, config: dict, steps: int, root: Path, seed: int = 0,
            on_update=None, init: Path | None = None) -> Path:  # fmt: skip
    """The folder of the shipped policy adapted to `config` for `steps` steps (model.zip,
    ladder/, curve.csv/.png, run.json, progress.csv, train.log and adapt.json): the one under
    `root` trained from the same key if there is one, else a new run. `on_update(timesteps)`
    follows a new run's progress. `init`: a policy file to start from instead of the shipped
    one (a warm start from a neighbouring variant's adapted policy: `delve tune`)."""
    from delve_env.policy import PolicyNet, shipped
    from training.train_ppo import train

    key = record(config, steps, seed, init)
    path = folder(root, name, key)
    if finished(path, key):
        return path
    partial = path.with_name(path.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.mkdir(parents=True)
    difficulty = key["config"]["difficulty"]
    train_config = {**config, "reward_mode": "shaped"}
    with (partial / "train.log").open("w") as log, contextlib.redirect_stdout(log):
        train("Delve-v0", train_config, recipe(difficulty, steps), partial, seed,
              progress=False, device="cpu", on_update=on_update,
              init=shipped(difficulty) if init is None else PolicyNet.load(init))  # fmt: skip
    (partial / RECORD).write_text(json.dumps({"variant": name, "key": key}, indent=1) + "\n")
    shutil.rmtree(path, ignore_errors=True)
    partial.rename(path)
    return path
