"""Delve frames: how long one picture (`render_mode="rgb_array"`) and one text screen
(`"ansi"`) take, along a random-legal episode of the default config.

    python benchmarks/frames.py              # 200 frames of each
    python benchmarks/frames.py --frames 50
"""

from __future__ import annotations

import argparse
import platform
import time

import numpy as np

from delve_env import DelveEnv


def time_frames(render_mode: str, frames: int, seed: int = 0) -> float:
    """Milliseconds per frame (median), stepping a random-legal policy between frames."""
    env = DelveEnv(render_mode=render_mode)
    _, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    env.render()  # warm: fonts and the tile atlas are built once
    took = []
    for _ in range(frames):
        t0 = time.perf_counter()
        env.render()
        took.append(time.perf_counter() - t0)
        action = rng.choice(np.flatnonzero(info["action_mask"]))
        _, _, done, cut, info = env.step(int(action))
        if done or cut:
            _, info = env.reset()
    return 1000 * float(np.median(took))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=200, help="frames of each (default 200)")
    args = parser.parse_args()
    print(
        f"machine: {platform.processor() or platform.machine()}, python {platform.python_version()}"
    )
    print("| render mode | ms per frame (median) |")
    print("|---|---:|")
    for mode in ("rgb_array", "ansi"):
        print(f"| {mode} | {time_frames(mode, args.frames):.2f} |")


if __name__ == "__main__":
    main()
