"""Several policies played as one (their logits or probabilities averaged); kept for the
record of docs/LEARNING.md's "A memory, an ensemble, a temperature".

    python quality/probes/ensemble.py logit 500 1000 POLICY.zip POLICY.zip ...
"""

import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from delve_env.policy import PolicyNet, play


def ensemble(paths, how):
    nets = [PolicyNet.load(p) for p in paths]

    def logits(records, masks):
        ls = [n.logits(records, masks) for n in nets]
        if how == "logit":
            out = np.mean([np.where(masks, x, 0.0) for x in ls], axis=0)
        else:
            ps = []
            for x in ls:
                z = x - x.max(axis=1, keepdims=True)
                p = np.exp(z)
                ps.append(p / p.sum(axis=1, keepdims=True))
            out = np.log(np.mean(ps, axis=0) + 1e-30)
        return np.where(masks, out, -np.inf)

    return logits


if __name__ == "__main__":
    how, n, first = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    paths = sys.argv[4:]
    t = time.time()
    runs = play(
        ensemble(paths, how),
        {"difficulty": "hard", "reward_mode": "shaped"},
        range(first, first + n),
        True,
    )
    w = sum(r["won"] for r in runs)
    print(
        json.dumps(
            {
                "how": how,
                "n": len(paths),
                "won": w,
                "episodes": n,
                "rate": w / n,
                "steps": float(np.mean([r["length"] for r in runs])),
                "s": round(time.time() - t),
                "paths": paths,
            }
        )
    )
