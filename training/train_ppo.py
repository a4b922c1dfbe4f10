"""Train a masked PPO policy on any Delve id.

delve train Delve-Vault-v0 --lock plate --floor 1
delve train Delve-Combat-v0 --floor 2 --timesteps 100000 --out runs/combat2
delve train Delve-Vault-v0 --quick        (a smoke run: ~2,000 steps, tiny network)
delve train Delve-Easy-v0 --depth 2 --timesteps 100000 --n-steps 128 --batch-size 512 --n-epochs 10
                                          (the short check: more updates a sample)
delve train Delve-Hard-v0 --init normal --no-curriculum --timesteps 3000000
                                          (hard from the shipped normal policy)
python -m training.starts Delve-Hard-v0 --floors 7 --out runs/hard-starts.npz
delve train Delve-Hard-v0 --init hard --no-curriculum --starts runs/hard-starts.npz
                                          (half the games begin where the expert reaches floor 7)

Three trainers: `--trainer ppo` (training/ppo.py: PPO over the engine's own buffers, its
network playable with numpy alone; the default), `--trainer sb3` (sb3-contrib's MaskablePPO
through the SB3 adapter; the default for Delve-Vault-v0, whose locks it learns far better) and
`--trainer rllib` (training/rllib_ppo.py: the default trainer's recipe on RLlib, its env
runners on `--num-env-runners` cores or a Ray cluster's; the `rllib` extra).
Defaults per task come from training/tasks.py (shaped reward). OUT receives model.zip,
checkpoints/, progress.csv (the training log), curve.csv and curve.png (periodic evaluation
on held-out seeds, the random-legal baseline as a line: the whole game samples the policy's
actions, sub-tasks take the likeliest) and run.json (config, settings, the curriculum's
schedule, baseline, final evaluation). The whole game trains on a curriculum: depth 2 first,
one floor deeper each time a curve point wins 30%, up to the config's depth.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

from delve_env.config import Config
from delve_env.engine.core.params import DIFFICULTIES, P_DEPTH
from delve_env.tools.files import save_whole, writable_folder
from training.tasks import (
    EVAL_SEED,
    EVAL_SEEDS,
    QUICK_MAX_STEPS,
    SUBTASKS,
    default_out,
    resolve_config,
    task_defaults,
    task_parser,
)

NETS = {  # extractor and policy sizes; "tiny" is for --quick
    "small": {"cnn": dict(channels=(16, 32), map_dim=128, vec_dim=128), "net_arch": [64, 64]},
    "tiny": {"cnn": dict(channels=(4, 8), map_dim=16, vec_dim=16), "net_arch": [16]},
}


def policy_kwargs(extractor: str, net: str) -> dict:
    """SB3 policy_kwargs for `--extractor cnn|flat` at a network size of `NETS`."""
    kwargs = {"net_arch": NETS[net]["net_arch"]}
    if extractor == "cnn":
        from training.extractor import DelveExtractor

        kwargs.update(features_extractor_class=DelveExtractor,
                      features_extractor_kwargs=NETS[net]["cnn"])  # fmt: skip
    return kwargs  # flat: SB3's CombinedExtractor (every key flattened)


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    parser = task_parser(__doc__, prog)
    run = parser.add_argument_group("training (default: the task's row of training/tasks.py)")
    run.add_argument("--timesteps", type=int)
    run.add_argument("--num-envs", type=int)
    run.add_argument("--n-steps", type=int, help="steps per env per rollout")
    run.add_argument("--batch-size", type=int, help="minibatch size of the PPO update")
    run.add_argument("--n-epochs", type=int, help="passes over each rollout")
    run.add_argument("--eval-every", type=int, help="timesteps between curve points")
    run.add_argument("--eval-episodes", type=int, help="episodes per curve point")
    run.add_argument("--seed", type=int, default=0, help="training seed (default 0)")
    run.add_argument("--extractor", choices=("cnn", "flat"), default="cnn",
                     help="cnn: one-hot map CNN (training/extractor.py); flat: SB3's default")  # fmt: skip
    run.add_argument("--out", type=Path, help="output folder (default runs/<task>...)")
    run.add_argument("--quick", action="store_true",
                     help="tiny run: ~2,000 steps, 4 envs, tiny network, 2-episode evals")  # fmt: skip
    run.add_argument("--trainer", choices=("ppo", "sb3", "rllib"),
                     help="ppo: training/ppo.py; sb3: sb3-contrib's MaskablePPO; rllib: the "
                          "ppo recipe on RLlib (default: the task's row, sb3 for "
                          "Delve-Vault-v0, else ppo)")  # fmt: skip
    run.add_argument("--num-env-runners", type=int, default=1,
                     help="rllib: processes stepping the games (0: in the learner's)")  # fmt: skip
    run.add_argument("--num-learners", type=int, default=0,
                     help="rllib: learner processes (0: one, in the driver)")  # fmt: skip
    run.add_argument("--ray-address", metavar="ADDRESS",
                     help="rllib: the Ray cluster to run on ('auto': the one `ray start` joined "
                          "this machine to; default: a Ray of this machine's own)")  # fmt: skip
    run.add_argument("--threads", type=int,
                     help="torch threads (default: every core for ppo and rllib, 1 for sb3)")  # fmt: skip
    run.add_argument("--device", default="auto",
                     help="torch device: auto (CUDA when torch sees it, else the CPU), cpu, "
                          "cuda, cuda:1, ...")  # fmt: skip
    run.add_argument("--init", metavar="POLICY",
                     help="start from a trained policy: a preset's shipped one (easy, normal, "
                          "hard) or a model.zip of --trainer ppo")  # fmt: skip
    run.add_argument("--starts", type=Path, metavar="FILE",
                     help="begin a share of the training games in these states (python -m "
                          "training.starts), at the config's full depth")  # fmt: skip
    run.add_argument("--start-share", type=float, default=0.5,
                     help="the share of training games begun in a start (default 0.5)")  # fmt: skip
    run.add_argument("--learning-rate", type=float, help="Adam's step size")
    run.add_argument("--ent-coef", type=float, help="the entropy bonus")
    run.add_argument("--gamma", type=float, help="the discount factor, in (0, 1]")
    run.add_argument("--win-weight", type=float,
                     help="a won game's end pays this many times the env's win (ppo; 1)")  # fmt: skip
    run.add_argument("--loss-weight", type=float,
                     help="a lost game's end pays this many times the env's loss (ppo; 1)")  # fmt: skip
    run.add_argument("--gae-lambda", type=float,
                     help="the advantage estimate's lambda, in [0, 1] (0.95)")  # fmt: skip
    run.add_argument("--memory", choices=("none", "gru"), default="none",
                     help="gru: a recurrent core between the first layer and the heads, its "
                          "memory reset at each game's start (ppo; a policy with one keeps it)")  # fmt: skip
    run.add_argument("--critic", choices=("observation", "state"), default="observation",
                     help="state: the value also reads the privileged state (env.state()), "
                          "in training only (ppo)")  # fmt: skip
    run.add_argument("--no-progress", action="store_true", help="no progress bar")
    run.add_argument("--curriculum", action=argparse.BooleanOptionalAction,
                     help="whole game: start at depth 2, one floor deeper at each curve point "
                          "that wins --promote-at (default on)")  # fmt: skip
    run.add_argument("--promote-at", type=float, help="the curriculum's win rate (0.3)")
    run.add_argument("--sampled", action=argparse.BooleanOptionalAction,
                     help="the curve samples the policy's actions (default: on for the whole "
                          "game; --no-sampled takes the likeliest)")  # fmt: skip
    return parser


def main(argv: list[str] | None = None, prog: str | None = None) -> int:
    """`delve train`: returns the exit status (2 for bad input)."""
    parser = build_parser(prog)
    args = parser.parse_args(argv)
    try:
        config = resolve_config(args)
    except ValueError as err:
        parser.error(str(err))
    if args.quick and args.max_steps is None:
        config["max_steps"] = min(config.get("max_steps", QUICK_MAX_STEPS), QUICK_MAX_STEPS)
    hp = task_defaults(args.task, args.quick, args.trainer)
    keys = ("timesteps", "num_envs", "n_steps", "batch_size", "n_epochs", "eval_every",
            "eval_episodes", "learning_rate", "ent_coef", "win_weight", "loss_weight")  # fmt: skip
    at_least_0 = ("ent_coef", "win_weight", "loss_weight")
    overrides = {k: getattr(args, k) for k in keys if getattr(args, k) is not None}
    threads = args.threads or (os.cpu_count() or 1 if hp.trainer != "sb3" else 1)
    if threads < 1:
        parser.error("--threads must be positive")
    for key, value in overrides.items():
        if value < (0 if key in at_least_0 else 1e-12 if key == "learning_rate" else 1):
            least = "at least 0" if key in at_least_0 else "positive"
            parser.error(f"--{key.replace('_', '-')} must be {least}")
    games = overrides.get("num_envs", hp.num_envs)
    if args.seed < 0:
        parser.error(f"--seed must be at least 0, got {args.seed}")
    if args.seed < EVAL_SEED + EVAL_SEEDS and args.seed + games > EVAL_SEED:
        parser.error(f"--seed {args.seed}: the training games' first seeds {args.seed}-"
                     f"{args.seed + games - 1} overlap the evaluation seeds {EVAL_SEED}-"
                     f"{EVAL_SEED + EVAL_SEEDS - 1}, which no policy may train on "
                     "(docs/BASELINES.md)")  # fmt: skip
    if args.promote_at is not None and not 0 < args.promote_at <= 1:
        parser.error("--promote-at must be in (0, 1]")
    if args.gamma is not None and not 0 < args.gamma <= 1:
        parser.error("--gamma must be in (0, 1]")
    if args.gae_lambda is not None and not 0 <= args.gae_lambda <= 1:
        parser.error("--gae-lambda must be in [0, 1]")
    for key in ("curriculum", "promote_at", "sampled", "gamma", "gae_lambda"):
        if getattr(args, key) is not None:
            overrides[key] = getattr(args, key)
    hp = replace(hp, **overrides)
    import torch

    try:
        device = resolve_device(args.device)
    except (RuntimeError, ValueError) as err:
        parser.error(f"--device {args.device}: {err}")
    if hp.trainer != "sb3" and args.extractor != "cnn":
        parser.error("--extractor is for --trainer sb3")
    if hp.trainer != "rllib" and ((args.num_env_runners, args.num_learners) != (1, 0)
                                  or args.ray_address is not None):  # fmt: skip
        parser.error("--num-env-runners, --num-learners and --ray-address are for --trainer rllib")
    if hp.trainer == "sb3" and (args.win_weight, args.loss_weight) != (None, None):
        parser.error("--win-weight and --loss-weight are for --trainer ppo and rllib")
    if hp.trainer != "ppo" and (args.memory, args.critic) != ("none", "observation"):
        parser.error("--memory and --critic are for --trainer ppo")
    init = None
    if args.init is not None:
        if hp.trainer != "ppo":
            parser.error("--init is for --trainer ppo")
        try:
            init = load_init(args.init)
        except Exception as err:  # noqa: BLE001 - whatever a bad file makes the loader raise
            parser.error(f"--init {args.init}: not a policy to start from ({err})")
    starts = None
    if args.starts is not None:
        if hp.trainer != "ppo":
            parser.error("--starts is for --trainer ppo")
        if not 0 < args.start_share <= 1:
            parser.error("--start-share must be in (0, 1]")
        try:
            starts = load_starts(args.starts, config)
        except (OSError, ValueError, KeyError) as err:
            parser.error(f"--starts {args.starts}: {err}")
        starts = (starts, args.start_share, str(args.starts))
    if hp.trainer == "rllib":
        rllib_checks(parser, args, config)
    progress = hp.trainer == "sb3" and not args.no_progress and _has_progress_bar()
    torch.set_num_threads(threads)
    out = args.out or default_out(args.task, config)
    try:
        writable_folder(out)
    except ValueError as err:
        parser.error(str(err))
    train(args.task, config, hp, out, args.seed, args.extractor, progress, str(device), init,
          starts, memory=args.memory == "gru", critic=args.critic == "state",
          runners=args.num_env_runners, learners=args.num_learners,
          ray_address=args.ray_address)  # fmt: skip
    return 0


def rllib_checks(parser: argparse.ArgumentParser, args, config: dict) -> None:
    """What `--trainer rllib` needs, checked before Ray starts."""
    import pickle

    cores = os.cpu_count() or 1 if args.ray_address is None else None  # a cluster's: Ray's
    for flag in ("num_env_runners", "num_learners"):
        count = getattr(args, flag)
        if count < 0 or (cores is not None and count > cores):
            name = "--" + flag.replace("_", "-")
            parser.error(f"{name} must be in 0..{cores} (the cores here; --ray-address "
                         "for a cluster's)" if cores else f"{name} must be at least 0")  # fmt: skip
    try:
        pickle.dumps(config)
    except Exception as err:  # noqa: BLE001 - what Ray ships to its workers must pickle
        parser.error(f"the config cannot be sent to Ray's workers: {err}")
    try:
        import ray.rllib  # noqa: F401
    except ImportError:
        parser.error('--trainer rllib needs Ray: pip install -e ".[rllib]"')


def load_starts(path: Path, config: dict) -> list[bytes]:
    """The starting states of `path` (training/starts.py); ValueError (`SnapshotError`) unless
    each was played under `config`."""
    from delve_env import snapshot
    from training.starts import load

    states = load(path)
    if not states:
        raise ValueError("holds no states")
    want = Config.from_kwargs(**config).snapshot_dict()
    for data in states:
        snapshot.check_config(snapshot.read_header(data)["meta"], want)
    return states


def starts_record(starts) -> dict:
    """What a run's games began in, for run.json and the policy's meta."""
    states, share, path = starts
    return {"file": path, "states": len(states), "share": share}


def load_init(name: str):
    """The policy `--init` names: a preset's shipped policy or a policy file."""
    from delve_env.policy import PolicyNet, shipped

    return shipped(name) if name in DIFFICULTIES else PolicyNet.load(name)


def init_record(init) -> dict:
    """What a run started from, for run.json and the policy's meta."""
    return {k: init.meta.get(k) for k in ("task", "config", "seed", "timesteps")}


def resolve_device(name: str):
    """`auto`: CUDA where torch sees a GPU, else the CPU; otherwise torch's own names."""
    import torch

    if name == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device = torch.device(name)
    if device.type == "cuda" and not torch.cuda.is_available():
        raise ValueError("torch sees no CUDA device here (use auto or cpu)")
    return device


def _has_progress_bar() -> bool:
    """SB3's progress bar needs tqdm and rich (the `train` extra)."""
    try:
        import rich  # noqa: F401
        import tqdm  # noqa: F401
    except ImportError:
        print("no progress bar: pip install tqdm rich", file=sys.stderr)
        return False
    return True


def curriculum(task: str, config: dict, hp) -> list[dict]:
    """The configs training goes through: the whole game from `hp.start_depth` one floor at a
    time to the config's depth when `hp.curriculum` is on; else just `config`."""
    if not hp.curriculum or task in SUBTASKS:
        return [config]
    depth = int(Config.from_kwargs(**config).params()[P_DEPTH])
    first = min(hp.start_depth, depth)
    return [{**config, "depth": d} for d in range(first, depth + 1)]


def stage_keys(config: dict) -> dict:
    """What a curriculum stage sets (for run.json)."""
    return {k: config[k] for k in ("depth",) if k in config}


def train(task: str, config: dict, hp, out: Path, seed: int = 0, extractor: str = "cnn",
          progress: bool = True, device: str = "cpu", init=None, starts=None,
          on_update=None, memory: bool = False, critic: bool = False, runners: int = 1,
          learners: int = 0, ray_address: str | None = None) -> Path:  # fmt: skip
    """Train, evaluate along the way, save and plot; returns the saved model's path.

    Args:
        task: A registered id.
        config: Its env config (`resolve_config`).
        hp: Its `TaskDefaults` row (possibly overridden); `hp.trainer` picks the trainer, "ppo"
            (training/ppo.py) or "sb3" (MaskablePPO).
        out: The output folder.
        seed: Seeds the training envs (slot i plays seed + i first) and PPO.
        extractor: "cnn" or "flat" (sb3).
        progress: Show SB3's progress bar.
        device: The torch device.
        init: A `PolicyNet` training/ppo.py starts from (else new weights).
        starts: (snapshot bytes, share, where from): training/ppo.py begins that share of
            the games of the curriculum's last stage in those states.
        on_update: `(timesteps) -> None`, called after each update of training/ppo.py (a
            progress bar).
        memory: training/ppo.py's network with a recurrent core (`--memory gru`).
        critic: ... and a value that reads the privileged state (`--critic state`).
        runners, learners, ray_address: `--trainer rllib`'s env runners, learners and
            cluster (None: a Ray of this machine's own).
    """
    from training.callbacks import Curve, plot_curve
    from training.evaluate import make_env, play, random_policy

    trainer = hp.trainer
    out = Path(out)
    (out / "checkpoints").mkdir(parents=True, exist_ok=True)
    what = f"extractor {extractor}, " if trainer == "sb3" else ""
    print(f"{task} {config}\n{hp}\ntrainer {trainer}, {what}seed {seed}, device {device}, "
          f"out {out}")  # fmt: skip
    started = time.perf_counter()
    baseline = play(make_env(task, config), random_policy(EVAL_SEED), hp.eval_episodes, EVAL_SEED)
    print(f"random-legal baseline: win rate {baseline['win_rate']:.3f}, "
          f"return {baseline['mean_return']:.3f}")  # fmt: skip
    stages = curriculum(task, config, hp)
    curve = Curve(task, out / "curve.csv", hp.eval_episodes, EVAL_SEED, not hp.sampled)
    if trainer == "rllib":
        from training.rllib_ppo import train_rllib as run
    else:
        run = train_ppo if trainer == "ppo" else train_sb3
    try:
        timesteps, schedule, final = run(task, stages, hp, out, seed, curve, extractor=extractor,
                                         progress=progress, device=device, started=started,
                                         init=init, starts=starts, on_update=on_update,
                                         memory=memory, critic=critic, runners=runners,
                                         learners=learners, ray_address=ray_address)  # fmt: skip
    except KeyboardInterrupt:
        kept = last_checkpoint(out)
        print(f"interrupted: the last checkpoint is {kept}" if kept else
              "interrupted before the first checkpoint: nothing kept", file=sys.stderr)  # fmt: skip
        raise
    title = f"{task} " + " ".join(f"{k}={v}" for k, v in config.items() if k != "task")
    label = "PPO (sampled)" if hp.sampled else "PPO (deterministic)"
    plot_curve(out / "curve.csv", out / "curve.png", baseline, title, label)
    seconds = time.perf_counter() - started
    record = {"task": task, "config": config, "hyperparameters": asdict(hp), "trainer": trainer,
              "memory": "gru" if memory or (init is not None and init.memory) else None,
              "critic": "state" if critic or (init is not None and "critic_out_w" in init.w)
              else "observation",
              "extractor": extractor if trainer == "sb3" else None, "device": device,
              **({"env_runners": runners, "learners": learners} if trainer == "rllib" else {}),
              "seed": seed, "eval_seed": EVAL_SEED, "timesteps": timesteps,
              "seconds": round(seconds, 1), "curriculum": schedule,
              "init": init_record(init) if init is not None else None,
              "starts": starts_record(starts) if starts is not None else None,
              "baseline_random": baseline, "final": final}  # fmt: skip
    (out / "run.json").write_text(json.dumps(record, indent=2) + "\n")
    if trainer != "sb3":  # the policy file carries its own record
        from delve_env.policy import PolicyNet

        policy = PolicyNet.load(out / "model.zip")
        policy.meta.update({k: record[k] for k in ("timesteps", "seconds", "final")})
        policy.save(out / "model.zip")
    checkpoints = sorted((out / "checkpoints").glob("*.zip"))
    print(f"done: {timesteps:,} timesteps in {seconds:.0f} s; wrote")
    for path, what in (("model.zip", "the final model"),
                       ("checkpoints", f"{len(checkpoints)} checkpoints"),
                       ("curve.csv", "learning curve: timesteps, win rate, mean return"),
                       ("curve.png", "its plot, random-legal baseline as a line"),
                       ("progress.csv", "the training log"),
                       ("run.json", "config, hyperparameters, baseline, final evaluation")):  # fmt: skip
        print(f"  {out / path}  {what}")
    return out / "model.zip"


def last_checkpoint(out: Path) -> Path | None:
    """The latest whole checkpoint under out/checkpoints (they are written under a temporary
    name and renamed, so none is ever half a file), or None."""
    kept = sorted((Path(out) / "checkpoints").glob("model_*_steps.zip"),
                  key=lambda p: int(p.stem.split("_")[1]))  # fmt: skip
    return kept[-1] if kept else None


def train_ppo(task: str, stages: list[dict], hp, out: Path, seed: int, curve, *, device: str,
              started: float, init=None, starts=None, on_update=None, memory: bool = False,
              critic: bool = False, **_) -> tuple[int, list[dict], dict]:  # fmt: skip
    """training/ppo.py's learner through the curriculum's stages; returns (timesteps, the
    schedule, the final evaluation)."""
    from delve_env.policy import RUNGS, rung_path
    from training.ppo import PPO, Games, evaluate, write_log_header

    ppo = PPO(hp, seed, device, init, memory, critic)
    stage = 0
    meta = {"task": task, "config": stages[-1], "trainer": "ppo", "seed": seed,
            "hidden": ppo.net.hidden, "memory": "gru" if ppo.net.memory else None,
            "critic": "state" if ppo.net.critic else "observation"}  # fmt: skip
    if init is not None:
        meta["init"] = init_record(init)
    if starts is not None:
        meta["starts"] = starts_record(starts)

    def point(config: dict) -> dict:
        result = evaluate(ppo.net, config, hp.eval_episodes, EVAL_SEED, hp.sampled)
        return curve.add(ppo.num_timesteps, config, result)

    point(stages[0])
    schedule = [{"timesteps": 0, **stage_keys(stages[0])}]

    def games_of(stage: int, seed: int) -> Games:
        weights = (hp.win_weight, hp.loss_weight)
        if starts is None or stage + 1 < len(stages):
            return Games(stages[stage], hp.num_envs, seed, outcome_weights=weights)
        return Games(stages[stage], hp.num_envs, seed, starts[0], starts[1], weights)

    games = games_of(0, seed)
    rungs = [(fraction, round(fraction * hp.timesteps)) for fraction in RUNGS]

    def after_update() -> None:  # the ladder: the policy at the first update past each fraction
        while rungs and ppo.num_timesteps >= rungs[0][1]:
            fraction, _ = rungs.pop(0)
            rung = {**meta, "timesteps": ppo.num_timesteps, "rung": fraction}
            ppo.net.export(rung).save(out / rung_path(fraction))
        if on_update is not None:
            on_update(ppo.num_timesteps)

    log_file, log = write_log_header(out / "progress.csv")
    with log_file:
        while ppo.num_timesteps < hp.timesteps:
            ppo.train(games, hp.eval_every, log, started, hp.timesteps, after_update)
            log_file.flush()
            save_whole(
                out / "checkpoints" / f"model_{ppo.num_timesteps}_steps.zip",
                ppo.net.export(meta).save,
            )
            row = point(stages[stage])
            if row["win_rate"] >= hp.promote_at and stage + 1 < len(stages):
                stage += 1  # the curriculum moves on: a new batch of games one floor deeper
                games = games_of(stage, seed + ppo.num_timesteps)
                schedule.append({"timesteps": ppo.num_timesteps, **stage_keys(stages[stage])})
                print(f"curriculum: {stage_keys(stages[stage])} from {ppo.num_timesteps:,} steps")
    final = curve.rows[-1] if stage + 1 == len(stages) else point(stages[-1])
    ppo.net.export(meta).save(out / "model.zip")
    return ppo.num_timesteps, schedule, final


def train_sb3(task: str, stages: list[dict], hp, out: Path, seed: int, curve, *, extractor: str,
              progress: bool, device: str, **_) -> tuple[int, list[dict], dict]:  # fmt: skip
    """sb3-contrib's MaskablePPO through the curriculum's stages (as `train_ppo`)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.logger import configure
    from stable_baselines3.common.vec_env import VecMonitor

    from delve_env.sb3 import DelveSB3VecEnv

    stage = 0
    venv = VecMonitor(DelveSB3VecEnv(hp.num_envs, seed=seed, **stages[0]))  # rollout/ep_* logs
    model = MaskablePPO("MultiInputPolicy", venv, n_steps=hp.n_steps, batch_size=hp.batch_size,
                        n_epochs=hp.n_epochs, ent_coef=hp.ent_coef, gamma=hp.gamma, seed=seed,
                        learning_rate=hp.learning_rate, gae_lambda=hp.gae_lambda,
                        clip_range=hp.clip, vf_coef=hp.vf_coef, max_grad_norm=hp.max_grad_norm,
                        policy_kwargs=policy_kwargs(extractor, hp.net), device=device,
                        verbose=0)  # fmt: skip
    model.set_logger(configure(str(out), ["csv"]))
    curve.evaluate(model, stages[0])
    schedule = [{"timesteps": 0, **stage_keys(stages[0])}]
    # whole chunks up to the first curve point at or past `timesteps`: a shorter run is the
    # start of a longer one, step for step (a checkpoint of one is the other's model)
    while model.num_timesteps < hp.timesteps:
        model.learn(total_timesteps=hp.eval_every, reset_num_timesteps=False, progress_bar=progress)
        save_whole(out / "checkpoints" / f"model_{model.num_timesteps}_steps.zip", model.save)
        row = curve.evaluate(model, stages[stage])
        if row["win_rate"] >= hp.promote_at and stage + 1 < len(stages):
            stage += 1  # the curriculum moves on: a new batch of games one floor deeper
            venv.close()
            venv = VecMonitor(DelveSB3VecEnv(hp.num_envs, seed=seed + model.num_timesteps,
                                             **stages[stage]))  # fmt: skip
            model.set_env(venv)
            schedule.append({"timesteps": model.num_timesteps, **stage_keys(stages[stage])})
            print(f"curriculum: {stage_keys(stages[stage])} from {model.num_timesteps:,} steps")
    final = curve.rows[-1] if stage + 1 == len(stages) else curve.evaluate(model, stages[-1])
    model.save(out / "model.zip")
    return model.num_timesteps, schedule, final


if __name__ == "__main__":
    sys.exit(main())
