"""The learning curve: a periodic evaluation callback, its CSV and its plot."""

from __future__ import annotations

import csv
from pathlib import Path

from stable_baselines3.common.callbacks import BaseCallback

from training.evaluate import play_batched

CURVE_FIELDS = ("timesteps", "win_rate", "win_low", "win_high", "mean_return", "mean_length")


class EvalCurveCallback(BaseCallback):
    """Every `every` timesteps (and at the start and the end) play `episodes` deterministic,
    masked episodes on the held-out seeds, all in one batched engine (`play_batched`: the
    same games as the single env), and append a row to `csv_path`.

    Args:
        task: The registered id.
        config: Its env config.
        csv_path: The curve's CSV file (written with a header at the start of training).
        every: Timesteps between two evaluations.
        episodes: Episodes per evaluation.
        seed: First evaluation seed.
        verbose: 1 prints one line per evaluation.
    """

    def __init__(self, task: str, config: dict, csv_path: Path, every: int, episodes: int,
                 seed: int, verbose: int = 1):  # fmt: skip
        super().__init__(verbose)
        self.task, self.config, self.csv_path = task, config, Path(csv_path)
        self.every, self.episodes, self.seed = every, episodes, seed
        self.last = -1  # timesteps of the last evaluation
        self.rows: list[dict] = []

    def _on_training_start(self) -> None:
        with self.csv_path.open("w", newline="") as f:
            csv.writer(f).writerow(CURVE_FIELDS)
        self.evaluate()

    def _on_step(self) -> bool:
        if self.num_timesteps - self.last >= self.every:
            self.evaluate()
        return True

    def _on_training_end(self) -> None:
        if self.num_timesteps != self.last:
            self.evaluate()

    def evaluate(self) -> None:
        result = play_batched(self.task, self.config, self.model, self.episodes, self.seed)
        row = {"timesteps": self.num_timesteps, **{k: result[k] for k in CURVE_FIELDS[1:]}}
        self.rows.append(row)
        self.last = self.num_timesteps
        with self.csv_path.open("a", newline="") as f:
            csv.DictWriter(f, CURVE_FIELDS).writerow(row)
        for key in CURVE_FIELDS[1:]:
            self.logger.record(f"eval/{key}", row[key])
        if self.verbose:
            print(f"eval @ {row['timesteps']:>9,} steps: win rate {row['win_rate']:.3f} "
                  f"({row['win_low']:.2f}-{row['win_high']:.2f}), "
                  f"return {row['mean_return']:.3f}, length {row['mean_length']:.0f}")  # fmt: skip


def read_curve(csv_path: Path) -> list[dict]:
    """The rows of a curve CSV as floats."""
    with Path(csv_path).open(newline="") as f:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(f)]


def plot_curve(csv_path: Path, png_path: Path, baseline: dict, title: str) -> None:
    """Win rate (with its 95% band) and mean return against timesteps, the random-legal
    baseline's values drawn as horizontal lines.

    Args:
        csv_path: A curve CSV written by `EvalCurveCallback`.
        png_path: Where the PNG goes.
        baseline: `play`'s result for the random-legal agent on the same seeds.
        title: The figure's title.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_curve(csv_path)
    t = [r["timesteps"] for r in rows]
    fig, (ax_win, ax_ret) = plt.subplots(1, 2, figsize=(10, 4), constrained_layout=True)
    ax_win.plot(t, [r["win_rate"] for r in rows], "o-", label="PPO (deterministic)")
    ax_win.fill_between(t, [r["win_low"] for r in rows], [r["win_high"] for r in rows],
                        alpha=0.2, label="95% Wilson interval")  # fmt: skip
    ax_win.axhline(baseline["win_rate"], color="gray", ls="--", label="random legal")
    ax_win.set(xlabel="timesteps", ylabel="win rate", ylim=(-0.02, 1.02))
    ax_win.legend(loc="best", fontsize="small")
    ax_ret.plot(t, [r["mean_return"] for r in rows], "o-", label="PPO (deterministic)")
    ax_ret.axhline(baseline["mean_return"], color="gray", ls="--", label="random legal")
    ax_ret.set(xlabel="timesteps", ylabel="mean return")
    ax_ret.legend(loc="best", fontsize="small")
    fig.suptitle(title)
    fig.savefig(png_path, dpi=100)
    plt.close(fig)
