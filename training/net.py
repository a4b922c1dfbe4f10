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
from delve_env.policy import WEIGHTS, PolicyNet, inputs


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
    """

    def __init__(self, hidden: int = 128):
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

    def forward(self, records: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        """(logits, value) of uint8 records (B, OBS_BYTES); the caller masks the logits."""
        idx = records[:, self.cat_at].long() + self.cat_base
        num = records[:, self.num_at].float() * self.num_scale
        h = torch.relu(OneHotLayer.apply(idx, self.embed.weight) + self.num(num))
        h = torch.relu(self.body(h))
        return self.pi(h), self.v(h).squeeze(-1)

    def named(self) -> dict[str, torch.Tensor]:
        """The parameters by the numpy policy's names (WEIGHTS)."""
        return {"embed": self.embed.weight, "num_w": self.num.weight, "num_b": self.num.bias,
                "body_w": self.body.weight, "body_b": self.body.bias, "pi_w": self.pi.weight,
                "pi_b": self.pi.bias, "v_w": self.v.weight, "v_b": self.v.bias}  # fmt: skip

    def weights(self) -> dict[str, np.ndarray]:
        """The numpy policy's arrays (WEIGHTS' names)."""
        named = self.named()
        return {k: named[k].detach().cpu().numpy().copy() for k in WEIGHTS}

    def export(self, meta: dict | None = None) -> PolicyNet:
        """The numpy policy with these weights."""
        return PolicyNet(self.weights(), meta)

    @staticmethod
    def from_policy(policy: PolicyNet) -> Net:
        """A torch network holding a numpy policy's weights (to go on training it)."""
        net = Net(policy.w["body_w"].shape[0])
        with torch.no_grad():
            for name, param in net.named().items():
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
