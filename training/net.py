"""The policy network in torch: `delve_env.policy.PolicyNet`'s forward pass, trainable.

It reads the engine's uint8 observation records as they are (no float Dict, no one-hot
planes): the categorical bytes through one embedding bag (the one-hot layer as a sum of
rows), the rest scaled into [0, 1] through one linear layer, then a hidden layer shared by
the action logits and the value. `export` gives the numpy policy the same weights.
"""

from __future__ import annotations

import numpy as np
import torch
from numba import get_num_threads, njit, prange
from torch import nn

from delve_env.engine.core.actions import NUM_ACTIONS
from delve_env.policy import CRITIC, PolicyNet, critic_inputs, inputs


@njit(cache=True, parallel=True)
def one_hot_grad(idx: np.ndarray, grad: np.ndarray, out: np.ndarray, parts: int) -> None:
    """out[r] = the sum of grad[b] over the (b, k) with idx[b, k] == r. Each categorical byte
    k has rows of its own, so the threads take the bytes in parts and never write the same
    row; every row sums in the same order for any number of parts."""
    out[:] = 0.0
    for part in prange(parts):
        for k in range(idx.shape[1] * part // parts, idx.shape[1] * (part + 1) // parts):
            for b in range(idx.shape[0]):
                row, g = out[idx[b, k]], grad[b]
                for h in range(g.shape[0]):
                    row[h] += g[h]


class OneHotLayer(torch.autograd.Function):
    """The one-hot layer: row sums of `weight` at each sample's indices (one row per
    categorical byte). Forward is torch's embedding bag. Its backward sorts every index of the
    batch, several times slower on a CPU than adding each sample's gradient into its rows
    (`one_hot_grad`); on a GPU, the one-hot matrix times the gradient."""

    @staticmethod
    def forward(ctx, idx: torch.Tensor, weight: torch.Tensor) -> torch.Tensor:
        ctx.save_for_backward(idx)
        ctx.rows = weight.shape[0]
        return nn.functional.embedding_bag(idx, weight, mode="sum")

    @staticmethod
    def backward(ctx, grad: torch.Tensor):
        (idx,) = ctx.saved_tensors
        if grad.device.type != "cpu":
            one_hot = grad.new_zeros((idx.shape[0], ctx.rows)).scatter_(1, idx, 1.0)
            return None, one_hot.T @ grad
        out = torch.empty((ctx.rows, grad.shape[1]), dtype=grad.dtype)
        one_hot_grad(idx.numpy(), grad.contiguous().numpy(), out.numpy(), get_num_threads())
        return None, out


class Net(nn.Module):
    """Logits and value of a batch of observation records.

    Args:
        hidden: Width of both hidden layers.
        memory: A recurrent core (a GRU cell) between the first layer and the second: its
            output, through a projection that starts at zero, is added to the first layer's,
            so a new core changes nothing until trained (a memoryless policy goes on from
            where it stood).
        critic: A value that also reads the privileged state (`DelveEnv.state()`: the rooms'
            and the run's parts, engine/outputs/privileged.py), added to the value of the
            observation through a layer that starts at zero. Training only: the policy that
            plays reads the observation alone.
    """

    def __init__(self, hidden: int = 128, memory: bool = False, critic: bool = False):
        super().__init__()
        x = inputs()
        self.register_buffer("cat_at", torch.as_tensor(x.cat_at))
        self.register_buffer("cat_base", torch.as_tensor(x.cat_base))
        self.register_buffer("num_at", torch.as_tensor(x.num_at))
        self.register_buffer("num_scale", torch.as_tensor(x.num_scale))
        self.embed = nn.Embedding(x.cat_rows, hidden)  # used as a bag (OneHotLayer)
        self.num = nn.Linear(len(x.num_at), hidden)
        self.body = nn.Linear(hidden, hidden)
        self.pi = nn.Linear(hidden, NUM_ACTIONS)
        self.v = nn.Linear(hidden, 1)
        nn.init.normal_(self.embed.weight, std=0.02)
        nn.init.orthogonal_(self.pi.weight, gain=0.01)  # a near-uniform first policy
        nn.init.zeros_(self.pi.bias)
        nn.init.orthogonal_(self.v.weight, gain=1.0)
        self.hidden = hidden
        self.memory = memory
        self.critic = critic
        if memory:
            self.gru = nn.GRUCell(hidden, hidden)
            self.recall = nn.Linear(hidden, hidden)
            nn.init.zeros_(self.recall.weight)
            nn.init.zeros_(self.recall.bias)
        if critic:
            at, scale = critic_inputs()
            self.register_buffer("state_at", torch.as_tensor(at))
            self.register_buffer("state_scale", torch.as_tensor(scale))
            self.critic_state = nn.Linear(len(at), CRITIC)
            self.critic_h = nn.Linear(hidden, CRITIC, bias=False)
            self.critic_out = nn.Linear(CRITIC, 1)
            nn.init.zeros_(self.critic_out.weight)
            nn.init.zeros_(self.critic_out.bias)

    def first(self, records: torch.Tensor) -> torch.Tensor:
        """The first hidden layer of uint8 records (..., OBS_BYTES)."""
        lead = records.shape[:-1]
        records = records.reshape(-1, records.shape[-1])
        idx = records[:, self.cat_at].long() + self.cat_base
        num = records[:, self.num_at].float() * self.num_scale
        h = torch.relu(OneHotLayer.apply(idx, self.embed.weight) + self.num(num))
        return h.reshape(*lead, self.hidden)

    def heads(self, h: torch.Tensor, states: torch.Tensor | None):
        """(logits, value) from the first layer (after the memory)."""
        h = torch.relu(self.body(h))
        value = self.v(h).squeeze(-1)
        if self.critic and states is not None:
            s = states[..., self.state_at].float() * self.state_scale
            c = torch.relu(self.critic_state(s) + self.critic_h(h))
            value = value + self.critic_out(c).squeeze(-1)
        return self.pi(h), value

    def forward(self, records: torch.Tensor, hidden: torch.Tensor | None = None,
                states: torch.Tensor | None = None):  # fmt: skip
        """(logits, value, hidden) of one step of a batch: uint8 records (B, OBS_BYTES), the
        memory as it stood (B, hidden; zeros where None) and, for the critic, the privileged
        states (B, STATE_BYTES). hidden is None without a memory. The caller masks the logits."""
        h = self.first(records)
        if self.memory:
            hidden = self.gru(h, h.new_zeros(h.shape) if hidden is None else hidden)
            h = h + self.recall(hidden)
        logits, value = self.heads(h, states)
        return logits, value, hidden

    def sequence(self, records: torch.Tensor, hidden: torch.Tensor, starts: torch.Tensor,
                 states: torch.Tensor | None = None):  # fmt: skip
        """(logits, value) of T steps of B games (records (T, B, OBS_BYTES)) from the memory
        `hidden` (B, hidden) held before the first; `starts` (T, B) flags the steps that begin a
        game, where the memory starts from zeros (the training rollout's segments)."""
        h = self.first(records)
        if self.memory:
            out = []
            for t in range(h.shape[0]):
                hidden = self.gru(h[t], hidden * (1.0 - starts[t])[:, None])
                out.append(hidden)
            h = h + self.recall(torch.stack(out))
        return self.heads(h, states)

    def named(self) -> dict[str, torch.Tensor]:
        """The parameters by the numpy policy's names (WEIGHTS, then MEMORY and CRITIC where
        the network has them)."""
        out = {"embed": self.embed.weight, "num_w": self.num.weight, "num_b": self.num.bias,
               "body_w": self.body.weight, "body_b": self.body.bias, "pi_w": self.pi.weight,
               "pi_b": self.pi.bias, "v_w": self.v.weight, "v_b": self.v.bias}  # fmt: skip
        if self.memory:
            out.update({"gru_w_ih": self.gru.weight_ih, "gru_w_hh": self.gru.weight_hh,
                        "gru_b_ih": self.gru.bias_ih, "gru_b_hh": self.gru.bias_hh,
                        "recall_w": self.recall.weight, "recall_b": self.recall.bias})  # fmt: skip
        if self.critic:
            out.update({"critic_state_w": self.critic_state.weight,
                        "critic_state_b": self.critic_state.bias, "critic_h_w": self.critic_h.weight,
                        "critic_out_w": self.critic_out.weight,
                        "critic_out_b": self.critic_out.bias})  # fmt: skip
        return out

    def weights(self) -> dict[str, np.ndarray]:
        """The numpy policy's arrays (by `named`'s names)."""
        return {k: v.detach().cpu().numpy().copy() for k, v in self.named().items()}

    def export(self, meta: dict | None = None) -> PolicyNet:
        """The numpy policy with these weights (the critic's ride along, for training on)."""
        return PolicyNet(self.weights(), meta)

    @staticmethod
    def from_policy(policy: PolicyNet, memory: bool = False, critic: bool = False) -> Net:
        """A torch network holding a numpy policy's weights (to go on training it), with a
        memory and a critic where the policy has them or they are asked for (new ones start
        at zero: the network plays as the policy did)."""
        net = Net(policy.w["body_w"].shape[0], memory or policy.memory > 0,
                  critic or "critic_out_w" in policy.w)  # fmt: skip
        with torch.no_grad():
            for name, param in net.named().items():
                if name in policy.w:
                    param.copy_(torch.as_tensor(policy.w[name]))
        return net


def masked_logits(logits: torch.Tensor, masks: torch.Tensor) -> torch.Tensor:
    """Logits with every illegal action at the dtype's lowest value: its probability is 0 and
    its log-probability finite, so the entropy's p * log p stays 0, not nan."""
    return logits.masked_fill(~masks, torch.finfo(logits.dtype).min)


def log_probs_entropy(logits: torch.Tensor, masks: torch.Tensor, actions: torch.Tensor):
    """The log-probability of each chosen action under the masked policy, and its entropy."""
    logp = torch.log_softmax(masked_logits(logits, masks), dim=-1)
    p = logp.exp()
    entropy = -(p * logp).sum(-1)
    return logp.gather(1, actions[:, None]).squeeze(1), entropy


def sample(logits: torch.Tensor, masks: torch.Tensor, generator: torch.Generator) -> torch.Tensor:
    """One action a row from the masked policy (Gumbel-max: never an illegal action)."""
    u = torch.rand(logits.shape, generator=generator).clamp_(1e-12, 1.0)
    return (masked_logits(logits, masks) - torch.log(-torch.log(u))).argmax(-1)
