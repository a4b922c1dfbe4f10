"""A policy sampled at temperatures T (logits / T); kept for the record of docs/LEARNING.md's
"A memory, an ensemble, a temperature".

    python quality/probes/temperature.py delve_env/policies/hard.zip 2000 500 0.9 0.8
"""

import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from delve_env.policy import PolicyNet, play

path, first, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
net = PolicyNet.load(path)
for T in map(float, sys.argv[4:]):
    t = time.time()
    runs = play(
        lambda r, m, t=T: net.logits(r, m) / t,
        {"difficulty": "hard", "reward_mode": "shaped"},
        range(first, first + n),
        True,
    )
    w = sum(r["won"] for r in runs)
    print(
        json.dumps(
            {
                "T": T,
                "first": first,
                "won": w,
                "rate": w / n,
                "steps": float(np.mean([r["length"] for r in runs])),
                "s": round(time.time() - t),
            }
        ),
        flush=True,
    )
