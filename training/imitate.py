"""A policy that copies the scripted expert: the start `delve train --init` goes on from.

python -m training.imitate Delve-Hard-v0 --games 500 --out runs/hard-imitate

Plays the scripted expert (agents/scripted.py) on seeds `--seed`, `--seed + 1`, ... and keeps
each step's observation record, action mask, the expert's action and the discounted return
that followed. The network (training/net.py) then learns the expert's action by masked
cross-entropy and the return by its value head, so that PPO, started from it, begins near the
expert's play with a value that already knows it. The expert reads the whole state; the
policy reads only its observation, so what it copies is what the observation shows.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np

from delve_env.engine.core.actions import NUM_ACTIONS
from delve_env.engine.outputs.layout import OBS_BYTES


def collect(task: str, config: dict, games: int, seed: int, gamma: float) -> dict:
    """The expert's steps in `games` games from `seed` on: records, masks, actions, returns."""
    import gymnasium as gym

    from agents.scripted import ScriptedAgent

    env = gym.make(task, **config).unwrapped
    agent = ScriptedAgent()
    records, masks, actions, returns, won = [], [], [], [], 0
    for g in range(games):
        env.reset(seed=seed + g)
        rewards, done = [], False
        while not done:
            records.append(env.engine.obs_record[0].copy())
            masks.append(env.engine.masks[0].copy())
            a = agent.act(env)
            actions.append(a)
            _, r, term, trunc, _ = env.step(a)
            rewards.append(r)
            done = term or trunc
        won += int(env.state.outcome[0] == 1)
        ret, game_returns = 0.0, np.empty(len(rewards), dtype=np.float32)
        for t in range(len(rewards) - 1, -1, -1):
            ret = rewards[t] + gamma * ret
            game_returns[t] = ret
        returns.append(game_returns)
    return {"records": np.asarray(records, dtype=np.uint8).reshape(-1, OBS_BYTES),
            "masks": np.asarray(masks, dtype=np.bool_).reshape(-1, NUM_ACTIONS),
            "actions": np.asarray(actions, dtype=np.int64),
            "returns": np.concatenate(returns), "games": games, "won": won}  # fmt: skip


def fit(net, data: dict, epochs: int, batch_size: int, learning_rate: float, seed: int,
        vf_coef: float = 0.5, log=print) -> list[dict]:  # fmt: skip
    """Masked cross-entropy to the expert's actions plus `vf_coef` times the value's squared
    error to the returns; one row of means per epoch."""
    import torch

    from training.net import log_probs_entropy

    gen = torch.Generator().manual_seed(seed)
    opt = torch.optim.Adam(net.parameters(), lr=learning_rate, eps=1e-5)
    records = torch.from_numpy(data["records"])
    masks, actions = torch.from_numpy(data["masks"]), torch.from_numpy(data["actions"])
    returns = torch.from_numpy(data["returns"])
    size, rows = len(actions), []
    for epoch in range(epochs):
        order = torch.randperm(size, generator=gen)
        sums = {"loss": 0.0, "value_loss": 0.0, "agree": 0.0}
        for lo in range(0, size, batch_size):
            b = order[lo : lo + batch_size]
            logits, value = net(records[b])
            logp, _ = log_probs_entropy(logits, masks[b], actions[b])
            value_loss = 0.5 * (value - returns[b]).pow(2).mean()
            loss = -logp.mean() + vf_coef * value_loss
            opt.zero_grad(set_to_none=True)
            loss.backward()
            opt.step()
            with torch.no_grad():
                likeliest = logits.masked_fill(~masks[b], -torch.inf).argmax(-1)
                sums["loss"] += -logp.sum().item()
                sums["value_loss"] += value_loss.item() * len(b)
                sums["agree"] += (likeliest == actions[b]).sum().item()
        rows.append({"epoch": epoch + 1, **{k: v / size for k, v in sums.items()}})
        log(rows[-1])
    return rows


def main(argv: list[str] | None = None) -> int:
    import torch

    from training.net import Net
    from training.ppo import HIDDEN
    from training.tasks import resolve_config, task_parser

    parser = task_parser(__doc__, "python -m training.imitate")
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--seed", type=int, default=100_000,
                        help="first seed (default 100000: apart from the evaluation's 1000-1499)")  # fmt: skip
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=1024)
    parser.add_argument("--learning-rate", type=float, default=1e-3)
    parser.add_argument("--gamma", type=float, default=0.999)
    parser.add_argument("--net", choices=tuple(HIDDEN), default="small")
    parser.add_argument("--data", type=Path, help="reuse the steps saved in this .npz")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        config = resolve_config(args)
    except ValueError as err:
        parser.error(str(err))
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    if args.data is not None:
        with np.load(args.data) as f:
            data = {k: f[k] for k in f.files}
    else:
        data = collect(args.task, config, args.games, args.seed, args.gamma)
        np.savez(args.out / "steps.npz", **data)
    collected = time.perf_counter() - started
    print(f"{len(data['actions']):,} expert steps from {int(data['games'])} games "
          f"({int(data['won'])} won) in {collected:.0f} s")  # fmt: skip
    torch.manual_seed(args.seed)
    net = Net(HIDDEN[args.net])
    rows = fit(net, data, args.epochs, args.batch_size, args.learning_rate, args.seed)
    meta = {"task": args.task, "config": config, "trainer": "imitation", "seed": args.seed,
            "hidden": net.hidden, "timesteps": 0, "expert_steps": int(len(data["actions"])),
            "expert_games": int(data["games"]), "epochs": args.epochs}  # fmt: skip
    net.export(meta).save(args.out / "model.zip")
    record = {**meta, "seconds": round(time.perf_counter() - started, 1), "fit": rows}
    (args.out / "run.json").write_text(json.dumps(record, indent=2))
    print(f"-> {args.out / 'model.zip'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
