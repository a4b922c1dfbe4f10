"""A policy with a memory of its last action: the probe of docs/LEARNING.md's "A memory, an
ensemble, a temperature" (kept for the record; run from the repository root).

    python quality/probes/memory.py train --out runs/memory-s0 --seed 0   # 3M steps from hard
    python quality/probes/memory.py eval --model runs/memory-s0/model.pt  # 500 sampled games

The network reads the last action's family + 1, its argument and how many times in a row it
was taken (capped at 20) through three embedding tables added into the first hidden layer,
zero at the start, so the first policy is the shipped hard policy exactly.
"""

import json
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import torch
from torch import nn

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from delve_env.engine.core.actions import ARG, FAMILIES, FAMILY, NUM_ACTIONS
from delve_env.engine.outputs.layout import OBS_BYTES
from delve_env.policy import choose, shipped, uniforms
from training.net import Net, OneHotLayer, log_probs_entropy, sample
from training.ppo import PPO, Games, write_log_header
from training.tasks import DEFAULTS

NONE = NUM_ACTIONS
CAP = 20  # times in a row, capped
FAM1 = np.append(FAMILY + 1, 0)  # action (NONE: none) -> family + 1, 0 for none
ARG0 = np.append(ARG, 0)
MAX_ARG = int(ARG.max()) + 1


class Memory:
    def __init__(self, n):
        self.prev = np.full(n, NONE, dtype=np.int64)
        self.rep = np.zeros(n, dtype=np.int64)

    def tensor(self, idx=slice(None)):
        p = self.prev[idx]
        return torch.from_numpy(np.stack([FAM1[p], ARG0[p], np.minimum(self.rep[idx], CAP)], 1))

    def after(self, actions, dones, idx=None):
        if idx is None:
            idx = np.arange(len(self.prev))
        a = actions
        same = a == self.prev[idx]
        self.rep[idx] = np.where(same, self.rep[idx] + 1, 1)
        self.prev[idx] = a
        d = idx[dones]
        self.prev[d], self.rep[d] = NONE, 0


class MemNet(Net):
    def __init__(self, hidden=128):
        super().__init__(hidden)
        self.fam = nn.Embedding(len(FAMILIES) + 1, hidden)
        self.arg = nn.Embedding(MAX_ARG, hidden)
        self.rep = nn.Embedding(CAP + 1, hidden)
        for e in (self.fam, self.arg, self.rep):
            nn.init.zeros_(e.weight)

    def forward(self, records, mem):
        idx = records[:, self.cat_at].long() + self.cat_base
        num = records[:, self.num_at].float() * self.num_scale
        h = OneHotLayer.apply(idx, self.embed.weight) + self.num(num)
        h = torch.relu(h + self.fam(mem[:, 0]) + self.arg(mem[:, 1]) + self.rep(mem[:, 2]))
        h = torch.relu(self.body(h))
        return self.pi(h), self.v(h).squeeze(-1)

    @staticmethod
    def from_policy(policy):
        net = MemNet(policy.w["body_w"].shape[0])
        with torch.no_grad():
            for name, param in net.named().items():
                param.copy_(torch.as_tensor(policy.w[name]))
        return net


class MemPPO(PPO):
    def __init__(self, hp, seed, net):
        super().__init__(hp, seed)
        self.net = net
        self.opt = torch.optim.Adam(self.net.parameters(), lr=hp.learning_rate, eps=1e-5)
        self.mems = torch.zeros((hp.n_steps, hp.num_envs, 3), dtype=torch.long)
        self.memory = Memory(hp.num_envs)

    def collect(self, games, returns):
        eng = games.engine
        for t in range(self.hp.n_steps):
            self.obs[t] = torch.from_numpy(eng.obs_record)
            self.masks[t] = torch.from_numpy(eng.masks)
            self.mems[t] = self.memory.tensor()
            with torch.no_grad():
                logits, value = self.net(self.obs[t], self.mems[t])
                action = sample(logits, self.masks[t], self.gen)
                logp, _ = log_probs_entropy(logits, self.masks[t], action)
            self.actions[t], self.logps[t], self.values[t] = action, logp, value
            rewards, dones, won = games.step(action.numpy())
            self.memory.after(action.numpy(), dones)
            self.rewards[t] = torch.from_numpy(rewards)
            self.dones[t] = torch.from_numpy(dones.astype(np.float32))
            returns += rewards
            for e in np.flatnonzero(dones):
                self.recent.append((float(returns[e]), bool(won[e])))
                returns[e] = 0.0
            self.episodes += int(dones.sum())
        self.num_timesteps += self.hp.n_steps * self.hp.num_envs
        with torch.no_grad():
            return self.net(torch.from_numpy(eng.obs_record), self.memory.tensor())[1]

    def update(self, last_value, learning_rate):
        hp = self.hp
        for group in self.opt.param_groups:
            group["lr"] = learning_rate
        adv, target = self.advantages(last_value)
        size = hp.n_steps * hp.num_envs
        obs, masks = self.obs.reshape(size, OBS_BYTES), self.masks.reshape(size, NUM_ACTIONS)
        mems = self.mems.reshape(size, 3)
        actions, old_logp = self.actions.reshape(size), self.logps.reshape(size)
        adv, target = adv.reshape(size), target.reshape(size)
        stats = {k: 0.0 for k in ("policy_loss", "value_loss", "entropy", "approx_kl", "clip_frac")}
        batches = 0
        for _ in range(hp.n_epochs):
            order = torch.randperm(size, generator=self.gen)
            for lo in range(0, size, hp.batch_size):
                b = order[lo : lo + hp.batch_size]
                logits, value = self.net(obs[b], mems[b])
                logp, entropy = log_probs_entropy(logits, masks[b], actions[b])
                ratio = (logp - old_logp[b]).exp()
                a = adv[b]
                a = (a - a.mean()) / (a.std() + 1e-8)
                policy_loss = torch.max(
                    -a * ratio, -a * ratio.clamp(1 - hp.clip, 1 + hp.clip)
                ).mean()
                value_loss = 0.5 * (value - target[b]).pow(2).mean()
                loss = policy_loss + hp.vf_coef * value_loss - hp.ent_coef * entropy.mean()
                self.opt.zero_grad(set_to_none=True)
                loss.backward()
                torch.nn.utils.clip_grad_norm_(self.net.parameters(), hp.max_grad_norm)
                self.opt.step()
                with torch.no_grad():
                    stats["policy_loss"] += policy_loss.item()
                    stats["value_loss"] += value_loss.item()
                    stats["entropy"] += entropy.mean().item()
                    lr_ = logp - old_logp[b]
                    stats["approx_kl"] += ((ratio - 1) - lr_).mean().item()
                    stats["clip_frac"] += ((ratio - 1).abs() > hp.clip).float().mean().item()
                batches += 1
        return {k: v / batches for k, v in stats.items()}


def play_mem(net, config, seeds, sampled=True):
    from delve_env.vector import DelveVectorEnv

    seeds = np.asarray(list(seeds), dtype=np.uint64)
    venv = DelveVectorEnv(len(seeds), **config)
    venv.reset(seed=[int(s) for s in seeds])
    eng = venv.engine
    n = eng.num_envs
    mem = Memory(n)
    steps = np.zeros(n, dtype=np.int64)
    playing = np.ones(n, dtype=np.bool_)
    actions = np.zeros(n, dtype=np.int64)
    ended = np.zeros(n, dtype=np.bool_)
    won = np.zeros(n, dtype=np.bool_)
    while playing.any():
        live = np.flatnonzero(playing)
        with torch.no_grad():
            out, _ = net(
                torch.from_numpy(np.ascontiguousarray(eng.obs_record[live])), mem.tensor(live)
            )
        logits = np.where(eng.masks[live], out.numpy(), -np.inf)
        actions[live] = choose(logits, uniforms(seeds[live], steps[live]) if sampled else None)
        eng.step(actions, ended)
        ended[:] = False
        steps[live] += 1
        d = (eng.terminated | eng.truncated)[live]
        mem.after(actions[live], d, live)
        for e in live[d]:
            won[e] = eng.state.outcome[e] == 1
            playing[e], ended[e] = False, True
    return int(won.sum()), steps


if __name__ == "__main__":
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("cmd")
    p.add_argument("--out")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--timesteps", type=int, default=3_000_000)
    p.add_argument("--lr", type=float, default=1e-4)
    p.add_argument("--episodes", type=int, default=500)
    p.add_argument("--model")
    p.add_argument("--greedy", action="store_true")
    a = p.parse_args()
    torch.set_num_threads(1)
    config = {"difficulty": "hard", "reward_mode": "shaped"}
    if a.cmd == "eval":
        net = (
            MemNet.from_policy(shipped("hard"))
            if a.model is None
            else torch.load(a.model, weights_only=False)
        )
        t = time.time()
        w, steps = play_mem(net, config, range(1000, 1000 + a.episodes), not a.greedy)
        print(
            json.dumps(
                {
                    "model": a.model,
                    "won": w,
                    "episodes": a.episodes,
                    "rate": w / a.episodes,
                    "mean_steps": float(steps.mean()),
                    "seconds": round(time.time() - t),
                }
            )
        )
    elif a.cmd == "train":
        hp = replace(
            DEFAULTS["Delve-Hard-v0"],
            gamma=0.999,
            learning_rate=a.lr,
            timesteps=a.timesteps,
            curriculum=False,
        )
        out = Path(a.out)
        out.mkdir(parents=True, exist_ok=True)
        net = MemNet.from_policy(shipped("hard"))
        ppo = MemPPO(hp, a.seed, net)
        games = Games(config, hp.num_envs, a.seed)
        f, log = write_log_header(out / "progress.csv")
        started = time.perf_counter()
        with f:
            while ppo.num_timesteps < hp.timesteps:
                ppo.train(games, hp.eval_every, log, started, hp.timesteps)
                f.flush()
                torch.save(ppo.net, out / "model.pt")
                print(ppo.num_timesteps, round(time.perf_counter() - started), flush=True)
        torch.save(ppo.net, out / "model.pt")
        print("done", round(time.perf_counter() - started))
