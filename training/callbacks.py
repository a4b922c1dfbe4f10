"""The learning curve: a periodic evaluation callback, its CSV and its plot."""

from __future__ import annotations

import csv
from pathlib import Path

from training.evaluate import play_batched

CURVE_FIELDS = ("timesteps", "depth", "win_rate", "win_low", "win_high", "mean_return",
                "mean_length", "score", "score_low", "score_high")  # fmt: skip


class Curve:
    """The learning curve: `episodes` masked episodes on the held-out seeds per point, all in
    one batched engine (`play_batched`: the same games as the single env), one CSV row each.

    Args:
        task: The registered id.
        csv_path: The curve's CSV file (written with its header now).
        episodes: Episodes per point.
        seed: First evaluation seed.
        deterministic: Play the likeliest action (else sample the policy's actions).
        verbose: Print one line per point.
    """

    def __init__(self, task: str, csv_path: Path, episodes: int, seed: int,
                 deterministic: bool = True, verbose: bool = True):  # fmt: skip
        self.task, self.csv_path = task, Path(csv_path)
        self.episodes, self.seed = episodes, seed
        self.deterministic, self.verbose = deterministic, verbose
        self.rows: list[dict] = []
        with self.csv_path.open("w", newline="") as f:
            csv.writer(f).writerow(CURVE_FIELDS)

    def evaluate(self, model, config: dict) -> dict:
        """Play an SB3 model's episodes under `config` now; append and return the row."""
        result = play_batched(self.task, config, model, self.episodes, self.seed,
                              deterministic=self.deterministic)  # fmt: skip
        return self.add(model.num_timesteps, config, result)

    def add(self, timesteps: int, config: dict, result: dict) -> dict:
        """Append the row of an evaluation `result` (`evaluate.summarize`) and return it."""
        row = {"timesteps": timesteps, "depth": config.get("depth", ""),
               **{k: result.get(k, "") for k in CURVE_FIELDS[2:]}}  # fmt: skip
        self.rows.append(row)
        with self.csv_path.open("a", newline="") as f:
            csv.DictWriter(f, CURVE_FIELDS).writerow(row)
        if self.verbose:
            depth = f" depth {row['depth']}" if row["depth"] != "" else ""
            print(f"eval @ {row['timesteps']:>9,} steps{depth}: win rate {row['win_rate']:.3f} "
                  f"({row['win_low']:.2f}-{row['win_high']:.2f}), "
                  f"return {row['mean_return']:.3f}, length {row['mean_length']:.0f}"
                  + (f", score {row['score']:.1f}" if row["score"] != "" else ""), flush=True)  # fmt: skip
        return row


def read_curve(csv_path: Path) -> list[dict]:
    """The rows of a curve CSV as floats."""
    with Path(csv_path).open(newline="") as f:
        return [{k: float(v) if v != "" else None for k, v in row.items()}
                for row in csv.DictReader(f)]  # fmt: skip


def plot_curve(csv_path: Path, png_path: Path, baseline: dict, title: str,
               label: str = "PPO (deterministic)") -> None:  # fmt: skip
    """Win rate (with its 95% band), mean return and, where the curve has it, the Delve score
    (with its band) against timesteps, the random-legal baseline's values drawn as
    horizontal lines, and a dotted line where the curriculum went a floor deeper.

    Args:
        csv_path: A curve CSV written by `Curve`.
        png_path: Where the PNG goes.
        baseline: `play`'s result for the random-legal agent on the same seeds.
        title: The figure's title.
        label: The policy's legend.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = read_curve(csv_path)
    t = [r["timesteps"] for r in rows]
    scored = all(r.get("score") is not None for r in rows)
    fig, axes = plt.subplots(1, 3 if scored else 2, figsize=(15 if scored else 10, 4),
                             constrained_layout=True)  # fmt: skip
    ax_win, ax_ret = axes[0], axes[1]
    if scored:
        ax = axes[2]
        ax.plot(t, [r["score"] for r in rows], "o-", label=label)
        ax.fill_between(t, [r["score_low"] for r in rows], [r["score_high"] for r in rows],
                        alpha=0.2, label="95% bootstrap interval")  # fmt: skip
        if "score" in baseline:
            ax.axhline(baseline["score"], color="gray", ls="--", label="random legal")
        ax.set(xlabel="timesteps", ylabel="Delve score", ylim=(-1, 101))
        ax.legend(loc="best", fontsize="small")
    ax_win.plot(t, [r["win_rate"] for r in rows], "o-", label=label)
    ax_win.fill_between(t, [r["win_low"] for r in rows], [r["win_high"] for r in rows],
                        alpha=0.2, label="95% Wilson interval")  # fmt: skip
    ax_win.axhline(baseline["win_rate"], color="gray", ls="--", label="random legal")
    ax_win.set(xlabel="timesteps", ylabel="win rate", ylim=(-0.02, 1.02))
    ax_win.legend(loc="best", fontsize="small")
    ax_ret.plot(t, [r["mean_return"] for r in rows], "o-", label=label)
    ax_ret.axhline(baseline["mean_return"], color="gray", ls="--", label="random legal")
    ax_ret.set(xlabel="timesteps", ylabel="mean return")
    ax_ret.legend(loc="best", fontsize="small")
    for before, row in zip(rows, rows[1:]):  # the curriculum's steps: a line at each
        if row["depth"] != before["depth"] and row["depth"] is not None:
            for ax in (ax_win, ax_ret):
                ax.axvline(row["timesteps"], color="tab:green", ls=":", lw=1)
            ax_win.text(row["timesteps"], 0.97, f" depth {row['depth']:.0f}", fontsize=8,
                        va="top", color="tab:green")  # fmt: skip
    fig.suptitle(title)
    fig.savefig(png_path, dpi=100)
    plt.close(fig)
