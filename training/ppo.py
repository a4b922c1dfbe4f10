"""Masked PPO over the engine's own buffers: the default trainer of `delve train`.

One engine steps every training game; each step the network reads the engine's observation
records and masks as they are (uint8, no Dict, no float copies) in one forward pass, and
the rollout lives in preallocated arrays. The update is PPO's clipped objective with
generalised advantage estimates, as in CleanRL's single-file PPO, with the illegal actions'
logits set to the lowest float (TorchRL's MaskedCategorical does the same) so that they are
never sampled and add nothing to the entropy. docs/LEARNING.md says why it replaced
sb3-contrib's MaskablePPO as the default (`--trainer sb3` still runs that).

Two options of the network (training/net.py): a memory (`--memory gru`), trained over
segments of SEGMENT steps of each game's rollout from the memory it held at the segment's
start (stored as it played, zero at each game's start; the recurrent PPO of SB3-contrib and
R2D2), and a critic that reads the privileged state (`--critic state`), asked of the engine
each step of the rollout (an asymmetric actor-critic: the policy never sees it).
"""

from __future__ import annotations

import csv
import math
import time
from pathlib import Path

import numpy as np
import torch

from delve_env import snapshot
from delve_env.config import Config
from delve_env.engine.batch import Engine
from delve_env.engine.core.actions import NUM_ACTIONS
from delve_env.engine.outputs.layout import OBS_BYTES
from delve_env.engine.outputs.privileged import STATE_BYTES
from delve_env.engine.outputs.rewards import outcome_reward
from delve_env.policy import PolicyNet
from training.net import Net, log_probs_entropy, sample

HIDDEN = {"small": 128, "tiny": 16}  # TaskDefaults.net -> the hidden layers' width
SEGMENT = 32  # a recurrent update's sequences: steps of one game's rollout (or n_steps' divisor)
LOG_FIELDS = ("timesteps", "seconds", "steps_per_s", "episodes", "win_rate", "mean_return",
              "policy_loss", "value_loss", "entropy", "approx_kl", "clip_frac",
              "learning_rate")  # fmt: skip


class Games:
    """The training games: one engine of `num_envs` slots with same-step autoreset (a finished
    slot's next observation is its new game's first), slot i starting with seed `seed + i`.

    With `starts` (snapshot bytes of this config, training/starts.py), each new game, the
    first ones too, begins with chance `start_share` in one of them, drawn at random, on a
    fresh play RNG (so a start played again plays out anew).

    With `outcome_weights` (W, L), a won game's end pays W times the engine's win reward
    (W x (1, + 0.5 with the book)) and a lost one's L times its loss (-L); a game cut short at
    the step cap stays 0. The shaping's progress is kept by a lost game too, so W weighs the
    win against it; and a discounted loss costs less the later it comes, so L = 0 takes away
    what a party gains by putting a loss off."""

    def __init__(self, task_config: dict, num_envs: int, seed: int, starts: list | None = None,
                 start_share: float = 0.5, outcome_weights: tuple = (1.0, 1.0)):  # fmt: skip
        config = Config.from_kwargs(**task_config)
        self.engine = Engine(num_envs, config.params(), config.party_classes())
        self.engine.reset(np.arange(seed, seed + num_envs, dtype=np.uint64),
                          np.ones(num_envs, dtype=np.bool_))  # fmt: skip
        self.no_reset = np.zeros(num_envs, dtype=np.bool_)
        self.starts, self.start_share = starts or [], start_share
        self.outcome_weights = outcome_weights
        self.config = config.snapshot_dict()
        self.rng = np.random.default_rng(seed)
        self.started = 0  # games begun in a start
        self.begin(np.ones(num_envs, dtype=np.bool_))

    def begin(self, new: np.ndarray) -> None:
        """Put a share of the new games flagged in `new` in a start."""
        if not self.starts:
            return
        which = new & (self.rng.random(len(new)) < self.start_share)
        eng = self.engine
        for e in np.flatnonzero(which):
            data = self.starts[self.rng.integers(len(self.starts))]
            snapshot.from_bytes(data, eng.state, int(e), config=self.config)
            eng.state.rng[e] = self.rng.integers(1, 2**63, dtype=np.uint64)
        if which.any():
            eng.refresh(which)
            self.started += int(which.sum())

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(rewards, dones, won) of one step; the finished slots start their next games."""
        eng = self.engine
        eng.step(actions, self.no_reset)
        dones = eng.terminated | eng.truncated
        won = dones & (eng.state.outcome == 1)
        rewards = eng.rewards.copy()
        if dones.any():
            weigh_outcomes(eng.state, rewards, dones, self.outcome_weights)
            eng.reset(np.empty(0, dtype=np.uint64), dones)
            self.begin(dones)
        return rewards, dones, won


def weigh_outcomes(state, rewards: np.ndarray, ended: np.ndarray, weights: tuple) -> None:
    """Pay the outcome of each game flagged in `ended` (W, L) = `weights` times: a win's end
    W times the engine's win reward, a loss's L times its loss (`rewards` changed in place;
    a game cut short has no outcome, so stays as it is)."""
    if weights == (1.0, 1.0):
        return
    for e in np.flatnonzero(ended):
        weight = weights[0] if state.outcome[e] == 1 else weights[1]
        rewards[e] += (weight - 1.0) * outcome_reward(state, e)


def policy_of(net: Net):
    """What `play` plays of the torch network: `(records, masks) -> masked logits`, or the
    numpy policy of a recurrent one (its memory kept a game)."""
    if net.memory:
        return net.export()
    device = next(net.parameters()).device

    def logits(records: np.ndarray, masks: np.ndarray) -> np.ndarray:
        with torch.no_grad():
            out = net(torch.from_numpy(np.ascontiguousarray(records)).to(device))[0]
        return np.where(masks, out.cpu().numpy(), -np.inf)

    return logits


class PPO:
    """The learner: network, optimiser and rollout buffers for `num_envs` x `n_steps` steps.

    Args:
        hp: A `training.tasks.TaskDefaults` row.
        seed: Seeds torch (the network's initial weights and the sampled actions).
        init: A trained policy to start from (its weights), else new weights.
        memory: Give the network a recurrent core (new ones start at zero: `Net`).
        critic: Give its value the privileged state to read.
    """

    def __init__(self, hp, seed: int = 0, device: str = "cpu", init: PolicyNet | None = None,
                 memory: bool = False, critic: bool = False):  # fmt: skip
        import numba

        # the one-hot layer's backward (numba) on as many threads as torch's layers
        numba.set_num_threads(min(torch.get_num_threads(), numba.config.NUMBA_NUM_THREADS))
        self.hp = hp
        self.device = torch.device(device)
        torch.manual_seed(seed)
        if init is None:
            net = Net(HIDDEN[hp.net], memory, critic)
        else:
            net = Net.from_policy(init, memory, critic)
        self.net = net.to(self.device)
        self.opt = torch.optim.Adam(self.net.parameters(), lr=hp.learning_rate, eps=1e-5)
        self.gen = torch.Generator().manual_seed(seed)
        n, t = hp.num_envs, hp.n_steps
        self.obs = torch.zeros((t, n, OBS_BYTES), dtype=torch.uint8)
        self.masks = torch.zeros((t, n, NUM_ACTIONS), dtype=torch.bool)
        self.actions = torch.zeros((t, n), dtype=torch.long)
        self.logps = torch.zeros((t, n))
        self.values = torch.zeros((t, n))
        self.rewards = torch.zeros((t, n))
        self.dones = torch.zeros((t, n))
        self.states = torch.zeros((t, n, STATE_BYTES), dtype=torch.uint8) if net.critic else None
        if net.memory:
            self.hidden = torch.zeros((n, net.hidden))  # each game's memory now
            self.hidden_at = torch.zeros((t, n, net.hidden))  # ... before step t
            self.starts = torch.zeros((t, n))  # step t begins a game
            self.first = torch.ones(n)  # the next step begins a game
            self.segment = math.gcd(t, SEGMENT)  # the steps of a segment
        self.num_timesteps = 0
        self.episodes = 0
        self.recent: list[tuple[float, bool]] = []  # (return, won) of finished training games

    def collect(self, games: Games, returns: np.ndarray) -> torch.Tensor:
        """Play `n_steps` steps of every game into the buffers; returns the last values."""
        eng = games.engine
        net, dev = self.net, self.device
        for t in range(self.hp.n_steps):
            self.obs[t] = torch.from_numpy(eng.obs_record)
            self.masks[t] = torch.from_numpy(eng.masks)
            states = self.state_now(eng, t)
            hidden = None
            if net.memory:
                self.hidden_at[t], self.starts[t] = self.hidden, self.first
                hidden = self.hidden.to(dev)
            with torch.no_grad():
                logits, value, hidden = net(self.obs[t].to(dev), hidden, states)
                logits, value = logits.cpu(), value.cpu()
                action = sample(logits, self.masks[t], self.gen)
                logp, _ = log_probs_entropy(logits, self.masks[t], action)
            self.actions[t], self.logps[t], self.values[t] = action, logp, value
            rewards, dones, won = games.step(action.numpy())
            self.rewards[t] = torch.from_numpy(rewards)
            self.dones[t] = torch.from_numpy(dones.astype(np.float32))
            if net.memory:  # a finished game's slot starts its next game from no memory
                self.first = self.dones[t].clone()
                self.hidden = hidden.cpu() * (1.0 - self.first)[:, None]
            returns += rewards
            for e in np.flatnonzero(dones):
                self.recent.append((float(returns[e]), bool(won[e])))
                returns[e] = 0.0
            self.episodes += int(dones.sum())
        self.num_timesteps += self.hp.n_steps * self.hp.num_envs
        with torch.no_grad():
            hidden = self.hidden.to(dev) if net.memory else None
            records = torch.from_numpy(eng.obs_record).to(dev)
            return net(records, hidden, self.state_now(eng, None))[1].cpu()

    def state_now(self, eng: Engine, t: int | None):
        """The privileged states of the engine's slots for the critic (kept as step t's), or
        None where the network has no critic."""
        if not self.net.critic:
            return None
        states = torch.from_numpy(eng.privileged())
        if t is not None:
            self.states[t] = states
        return states.to(self.device)

    def advantages(self, last_value: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """Generalised advantage estimates and the value targets (a game's end, won, lost or
        cut short, bootstraps nothing past it)."""
        hp = self.hp
        adv = torch.zeros_like(self.rewards)
        gae = torch.zeros(hp.num_envs)
        for t in reversed(range(hp.n_steps)):
            next_value = last_value if t == hp.n_steps - 1 else self.values[t + 1]
            live = 1.0 - self.dones[t]
            delta = self.rewards[t] + hp.gamma * next_value * live - self.values[t]
            gae = delta + hp.gamma * hp.gae_lambda * live * gae
            adv[t] = gae
        return adv, adv + self.values

    def update(self, last_value: torch.Tensor, learning_rate: float) -> dict:
        """`n_epochs` passes of minibatches over the rollout; returns the losses' means."""
        hp = self.hp
        for group in self.opt.param_groups:
            group["lr"] = learning_rate
        adv, target = self.advantages(last_value)
        size = hp.n_steps * hp.num_envs
        obs, masks = self.obs.reshape(size, OBS_BYTES), self.masks.reshape(size, NUM_ACTIONS)
        actions, old_logp = self.actions.reshape(size), self.logps.reshape(size)
        adv, target = adv.reshape(size), target.reshape(size)
        states = None if self.states is None else self.states.reshape(size, STATE_BYTES)
        stats = {k: 0.0 for k in ("policy_loss", "value_loss", "entropy", "approx_kl",
                                  "clip_frac")}  # fmt: skip
        batches = 0
        dev = self.device
        for _ in range(hp.n_epochs):
            for b in self.minibatches():
                if self.net.memory:
                    logits, value = self.segments(b)
                else:
                    s = None if states is None else states[b].to(dev)
                    logits, value, _ = self.net(obs[b].to(dev), None, s)
                logp, entropy = log_probs_entropy(logits, masks[b].to(dev), actions[b].to(dev))
                ratio = (logp - old_logp[b].to(dev)).exp()
                a = adv[b].to(dev)
                a = (a - a.mean()) / (a.std() + 1e-8)
                policy_loss = torch.max(-a * ratio,
                                        -a * ratio.clamp(1 - hp.clip, 1 + hp.clip)).mean()  # fmt: skip
                value_loss = 0.5 * (value - target[b].to(dev)).pow(2).mean()
                loss = policy_loss + hp.vf_coef * value_loss - hp.ent_coef * entropy.mean()
                self.opt.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), hp.max_grad_norm)
                self.opt.step()
                with torch.no_grad():
                    stats["policy_loss"] += policy_loss.item()
                    stats["value_loss"] += value_loss.item()
                    stats["entropy"] += entropy.mean().item()
                    log_ratio = logp - old_logp[b].to(dev)
                    stats["approx_kl"] += ((ratio - 1) - log_ratio).mean().item()
                    stats["clip_frac"] += ((ratio - 1).abs() > hp.clip).float().mean().item()
                batches += 1
        return {k: v / batches for k, v in stats.items()}

    def minibatches(self):
        """One epoch's minibatches of the rollout's flat (t * num_envs + e) indices, in a
        random order: single steps, or for a memory whole segments (SEGMENT steps of one
        game's slot, as many as make up batch_size steps)."""
        hp = self.hp
        size = hp.n_steps * hp.num_envs
        if not self.net.memory:
            order = torch.randperm(size, generator=self.gen)
            yield from (order[lo : lo + hp.batch_size] for lo in range(0, size, hp.batch_size))
            return
        seg = self.segment
        count = (hp.n_steps // seg) * hp.num_envs  # segment k: slot k % n from step k // n * seg
        per = max(1, hp.batch_size // seg)
        order = torch.randperm(count, generator=self.gen)
        steps = torch.arange(seg)[:, None]
        for lo in range(0, count, per):
            k = order[lo : lo + per]
            t0, e = (k // hp.num_envs) * seg, k % hp.num_envs
            yield ((t0[None, :] + steps) * hp.num_envs + e[None, :]).reshape(-1)  # (seg, b)

    def segments(self, b: torch.Tensor):
        """(logits, value) of a minibatch of segments (`minibatches`' flat indices, step-major),
        the memory replayed through each from the one it held at its first step."""
        hp, dev, seg = self.hp, self.device, self.segment
        t, e = b // hp.num_envs, b % hp.num_envs
        shape = (seg, -1)
        records = self.obs[t, e].reshape(*shape, OBS_BYTES).to(dev)
        starts = self.starts[t, e].reshape(shape).to(dev)
        hidden = self.hidden_at[t[: len(b) // seg], e[: len(b) // seg]].to(dev)
        states = None
        if self.states is not None:
            states = self.states[t, e].reshape(*shape, STATE_BYTES).to(dev)
        logits, value = self.net.sequence(records, hidden, starts, states)
        return logits.reshape(len(b), NUM_ACTIONS), value.reshape(len(b))

    def train(self, games: Games, timesteps: int, log: csv.DictWriter | None, started: float,
              total: int, after_update=None) -> None:  # fmt: skip
        """Collect and update until `timesteps` more steps are learned; `total` is the whole
        run's budget (the learning rate falls linearly to 0 over it); `after_update()`, where
        given, is called after each update (the ladder's rungs are kept there)."""
        goal = self.num_timesteps + timesteps
        returns = np.zeros(self.hp.num_envs)
        while self.num_timesteps < goal:
            last_value = self.collect(games, returns)
            lr = self.hp.learning_rate * max(0.0, 1.0 - self.num_timesteps / max(total, 1))
            stats = self.update(last_value, lr)
            if after_update is not None:
                after_update()
            if log is not None:
                recent, self.recent = self.recent[-200:], []
                seconds = time.perf_counter() - started
                log.writerow({
                    "timesteps": self.num_timesteps, "seconds": round(seconds, 1),
                    "steps_per_s": round(self.num_timesteps / seconds),
                    "episodes": self.episodes,
                    "win_rate": np.mean([w for _, w in recent]) if recent else "",
                    "mean_return": np.mean([r for r, _ in recent]) if recent else "",
                    "learning_rate": lr, **stats})  # fmt: skip


def evaluate(net: Net, config: dict, episodes: int, seed: int, sampled: bool) -> dict:
    """Play `episodes` games (seeds seed, seed + 1, ...) with the network in one batch."""
    from training.evaluate import play_policy_batched

    return play_policy_batched(policy_of(net), config, episodes, seed, sampled)


def write_log_header(path: Path):
    f = path.open("w", newline="")
    writer = csv.DictWriter(f, LOG_FIELDS)
    writer.writeheader()
    return f, writer
