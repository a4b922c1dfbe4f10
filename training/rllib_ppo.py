"""`delve train ID --trainer rllib`: the default trainer's recipe on RLlib's PPO (the `rllib`
extra), for more cores, or machines, than one process uses.

- **The network** is training/net.py's, as an RLModule (`DelveModule`): it reads the engine's
  uint8 records and masks its logits as training/ppo.py does (an illegal action's logit the
  lowest float: never sampled, its probability 0 in every loss).
- **The games**: each env runner steps its share of the task's envs in one engine
  (`RecordGames`, a Gymnasium vector env with next-step autoreset, RLlib's own), with the
  shaped reward of the task's config and the outcome weights of training/ppo.py's `Games`.
- **PPO's settings** are the task's row of training/tasks.py: the rollout (num_envs x n_steps
  a learner), minibatch, epochs, learning rate (falling linearly to 0), gamma, lambda, clip,
  value weight, gradient cap; no KL penalty and no value clip, as training/ppo.py.
- **The depth curriculum and the curve** are the default trainer's: at each curve point the
  policy plays the held-out seeds (training/ppo.py's `evaluate`), and a point that wins
  `promote_at` sends every env runner one floor deeper.

The run writes what the default trainer writes: `model.zip` (numpy weights and record:
`delve eval`, `playtest`, `watch` and `play` take it, no Ray or torch needed), checkpoints,
the ladder's rungs, `progress.csv`, `curve.csv`/`curve.png` and `run.json`.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from ray.rllib.core.columns import Columns
from ray.rllib.core.rl_module.apis import ValueFunctionAPI
from ray.rllib.core.rl_module.torch import TorchRLModule

from delve_env.config import Config
from delve_env.engine.batch import Engine
from delve_env.engine.core.actions import NUM_ACTIONS
from delve_env.engine.outputs.layout import OBS_BYTES
from training.net import Net, masked_logits
from training.ppo import weigh_outcomes

ENV = "delve-records"  # RLlib's name of `RecordGames`


def record_space() -> spaces.Dict:
    """One game's observation: the engine's uint8 record and the legal actions."""
    return spaces.Dict({
        "observations": spaces.Box(0, 255, (OBS_BYTES,), np.uint8),
        "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
    })  # fmt: skip


class RecordGames(VectorEnv):
    """`num_envs` games of one config stepped by one engine call, as RLlib's env runners step
    a vector env: slot i of `reset(seed=s)` plays seed s + i; a finished slot starts anew on
    the next step (its action ignored). Each observation is `record_space`'s; a game's last
    reward weighs a win `win_weight` and a loss `loss_weight` times (training/ppo.py's
    `weigh_outcomes`, as its `Games`). `config`: the env's config keys, plus num_envs and the two weights."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP}

    def __init__(self, config: dict):
        config = dict(config)
        self.num_envs = int(config.pop("num_envs", 1))
        self.weights = (float(config.pop("win_weight", 1.0)), float(config.pop("loss_weight", 1.0)))
        game = Config.from_kwargs(**config)
        self.engine = Engine(self.num_envs, game.params(), game.party_classes())
        self.single_observation_space = record_space()
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.single_action_space = spaces.Discrete(NUM_ACTIONS)
        self.action_space = spaces.MultiDiscrete(np.full(self.num_envs, NUM_ACTIONS))
        self.done = np.zeros(self.num_envs, dtype=np.bool_)

    def observe(self) -> dict:
        return {"observations": self.engine.obs_record.copy(),
                "action_mask": self.engine.masks.astype(np.int8)}  # fmt: skip

    def reset(self, *, seed=None, options=None):
        n = self.num_envs
        if seed is None:
            seeds = np.random.default_rng().integers(2**63, size=n, dtype=np.uint64)
        else:
            seeds = np.arange(seed, seed + n, dtype=np.uint64)
        self.engine.reset(seeds, np.ones(n, dtype=np.bool_))
        self.done[:] = False
        return self.observe(), {}

    def step(self, actions):
        eng = self.engine
        eng.step(np.asarray(actions, dtype=np.int64), self.done)
        self.done = eng.terminated | eng.truncated
        rewards = eng.rewards.astype(np.float32)
        weigh_outcomes(eng.state, rewards, self.done, self.weights)
        return self.observe(), rewards, eng.terminated.copy(), eng.truncated.copy(), {}


class DelveModule(TorchRLModule, ValueFunctionAPI):
    """training/net.py's `Net` as RLlib's module (model_config {"hidden": width}): masked
    logits, and the value from the same hidden layer."""

    def setup(self):
        self.net = Net(self.model_config.get("hidden", 128))

    def logits_value(self, batch: dict):
        obs = batch[Columns.OBS]
        logits, value, _ = self.net(obs["observations"])
        return masked_logits(logits, obs["action_mask"].bool()), value

    def _forward(self, batch, **kwargs):
        return {Columns.ACTION_DIST_INPUTS: self.logits_value(batch)[0]}

    def _forward_train(self, batch, **kwargs):
        logits, value = self.logits_value(batch)
        return {Columns.ACTION_DIST_INPUTS: logits, Columns.EMBEDDINGS: value}

    def compute_values(self, batch, embeddings=None):
        return embeddings if embeddings is not None else self.logits_value(batch)[1]


def register() -> None:
    from ray.tune.registry import register_env

    register_env(ENV, lambda cfg: RecordGames(dict(cfg)))


def ppo_config(config: dict, hp, seed: int, runners: int, learners: int, device: str = "cpu"):
    """RLlib's PPO config of the recipe: `config` the env's, `hp` the task's row; a CUDA
    `device` gives each learner a GPU."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from training.ppo import HIDDEN

    register()
    env_config = {**config, "win_weight": hp.win_weight, "loss_weight": hp.loss_weight}
    return (
        PPOConfig()
        .environment(ENV, env_config=env_config)
        .env_runners(num_env_runners=runners,
                     num_envs_per_env_runner=max(1, hp.num_envs // max(runners, 1)),
                     gym_env_vectorize_mode="vector_entry_point",
                     rollout_fragment_length=hp.n_steps)  # fmt: skip
        .learners(num_learners=learners, num_gpus_per_learner=int(device.startswith("cuda")))
        .training(train_batch_size_per_learner=hp.num_envs * hp.n_steps // max(learners, 1),
                  minibatch_size=hp.batch_size, num_epochs=hp.n_epochs,
                  lr=[[0, hp.learning_rate], [hp.timesteps, 0.0]], gamma=hp.gamma,
                  lambda_=hp.gae_lambda, clip_param=hp.clip, vf_loss_coeff=hp.vf_coef,
                  entropy_coeff=hp.ent_coef, grad_clip=hp.max_grad_norm,
                  grad_clip_by="global_norm", use_kl_loss=False,
                  vf_clip_param=float("inf"))  # fmt: skip
        .rl_module(rl_module_spec=RLModuleSpec(module_class=DelveModule,
                                               model_config={"hidden": HIDDEN[hp.net]}))
        .debugging(seed=seed)
    )  # fmt: skip


def move_to(algo, config: dict) -> None:
    """Every env runner's games, from their next sample on, of `config` (a curriculum stage)."""

    def remake(runner):
        runner.config.env_config.update(config)
        runner.make_env()

    algo.env_runner_group.foreach_env_runner(remake)


PROGRESS = {"policy_loss": "policy_loss", "value_loss": "vf_loss", "entropy": "entropy",
            "learning_rate": "default_optimizer_learning_rate"}  # fmt: skip


def train_rllib(task: str, stages: list[dict], hp, out: Path, seed: int, curve, *,
                started: float, device: str = "cpu", runners: int = 1, learners: int = 0,
                ray_address: str | None = None, on_update=None, **_) -> tuple[int, list[dict], dict]:  # fmt: skip
    """RLlib's PPO through the curriculum's stages (as training/train_ppo.py's `train_ppo`);
    returns (timesteps, the schedule, the final evaluation). `ray_address`: the cluster's
    (`ray.init(address=...)`), else a Ray of this machine's own."""
    import ray

    from delve_env.policy import RUNGS, rung_path
    from training.ppo import evaluate, write_log_header
    from training.train_ppo import stage_keys

    started_ray = not ray.is_initialized()  # (else this process's Ray, as it stands)
    if started_ray and ray_address is None:  # of this machine: a core a runner, the learner's
        ray.init(num_cpus=max(runners, 1) + 1, include_dashboard=False, log_to_driver=False)
    elif started_ray:
        ray.init(address=ray_address, log_to_driver=False)
    algo = ppo_config(stages[0], hp, seed, runners, learners, device).build_algo()
    stage, steps = 0, 0
    meta = {"task": task, "config": stages[-1], "trainer": "rllib", "seed": seed,
            "hidden": algo.get_module().net.hidden, "memory": None, "critic": "observation",
            "env_runners": runners, "learners": learners}  # fmt: skip

    def net() -> Net:
        return algo.get_module().net

    def point(config: dict) -> dict:
        return curve.add(steps, config, evaluate(net(), config, hp.eval_episodes,
                                                 curve.seed, hp.sampled))  # fmt: skip

    point(stages[0])
    schedule = [{"timesteps": 0, **stage_keys(stages[0])}]
    rungs = [(fraction, round(fraction * hp.timesteps)) for fraction in RUNGS]
    log_file, log = write_log_header(out / "progress.csv")
    try:
        with log_file:
            while steps < hp.timesteps:
                target = min(steps + hp.eval_every, hp.timesteps)
                while steps < target:
                    result = algo.train()
                    before, steps = (
                        steps,
                        int(result["env_runners"]["num_env_steps_sampled_lifetime"]),
                    )
                    seconds = time.perf_counter() - started
                    learner = result["learners"].get("default_policy", {})
                    log.writerow({"timesteps": steps, "seconds": round(seconds, 1),
                                  "steps_per_s": round(steps / seconds),
                                  "episodes": result["env_runners"].get("num_episodes_lifetime"),
                                  "mean_return": result["env_runners"].get("episode_return_mean"),
                                  **{k: learner.get(v) for k, v in PROGRESS.items()}})  # fmt: skip
                    while rungs and steps >= rungs[0][1]:
                        fraction, _ = rungs.pop(0)
                        rung = {**meta, "timesteps": steps, "rung": fraction}
                        net().export(rung).save(out / rung_path(fraction))
                    if on_update is not None:
                        on_update(steps)
                    if steps == before:
                        raise RuntimeError("RLlib sampled no steps in an iteration")
                log_file.flush()
                net().export(meta).save(out / "checkpoints" / f"model_{steps}_steps.zip")
                row = point(stages[stage])
                if row["win_rate"] >= hp.promote_at and stage + 1 < len(stages):
                    stage += 1  # the curriculum moves on: every runner's games a floor deeper
                    move_to(algo, stages[stage])
                    schedule.append({"timesteps": steps, **stage_keys(stages[stage])})
                    print(f"curriculum: {stage_keys(stages[stage])} from {steps:,} steps")
        final = curve.rows[-1] if stage + 1 == len(stages) else point(stages[-1])
        net().export(meta).save(out / "model.zip")
    finally:
        algo.stop()
        if started_ray:
            ray.shutdown()
    return steps, schedule, final
