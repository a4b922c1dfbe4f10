"""Win rates and their uncertainty: one rate's interval, and two rates measured on the same
seeds (paired outcomes: the same dungeon won or lost by both).

Two rates side by side, each with its own interval, cannot tell a change of a few points from
the dice; measured on the same seeds, the games both win or both lose cancel, and only the
seeds where they differ (the discordant pairs) carry the difference. `paired_difference` is
Newcombe's hybrid score interval for it (method 10 of Newcombe, Stat. Med. 17:2635, 1998:
Wilson intervals of the two rates joined through their correlation), which keeps inside
[-1, 1] and holds its coverage near rates of 0% and 100%, where the plain Wald interval does
neither; `mcnemar` is the exact test of the same pairs.
"""

from __future__ import annotations

import math

Z95 = 1.96  # the normal quantile of a two-sided 95% interval, as every interval here has used


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The 95% Wilson score interval of k successes in n."""
    if n == 0:
        return 0.0, 1.0
    phat = k / n
    mid = (phat + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(phat * (1 - phat) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, mid - half), min(1.0, mid + half)


def pairs(first: list[bool], second: list[bool]) -> tuple[int, int, int, int]:
    """The 2x2 table of paired outcomes: (both won, only first won, only second won, neither)."""
    if len(first) != len(second):
        raise ValueError(f"paired outcomes need as many of each: {len(first)} and {len(second)}")
    both = sum(a and b for a, b in zip(first, second))
    only_first = sum(a and not b for a, b in zip(first, second))
    only_second = sum(b and not a for a, b in zip(first, second))
    return both, only_first, only_second, len(first) - both - only_first - only_second


def paired_difference(table: tuple[int, int, int, int], z: float = Z95):
    """The difference of two win rates on the same seeds, first minus second, and its 95%
    interval: (difference, low, high), from `pairs`' table (Newcombe's method 10)."""
    a, b, c, d = table
    n = a + b + c + d
    if n == 0:
        return 0.0, -1.0, 1.0
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n, z)
    l2, u2 = wilson(a + c, n, z)
    margins = (a + b) * (c + d) * (a + c) * (b + d)
    phi = 0.0  # the two rates' correlation, continuity-corrected towards 0
    if margins > 0:
        cross = a * d - b * c
        if cross > n / 2:
            phi = (cross - n / 2) / math.sqrt(margins)
        elif cross < 0:
            phi = cross / math.sqrt(margins)
    below = (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2
    above = (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2
    diff = p1 - p2
    return (
        diff,
        max(-1.0, diff - math.sqrt(max(below, 0.0))),
        min(1.0, diff + math.sqrt(max(above, 0.0))),
    )


def mcnemar(table: tuple[int, int, int, int]) -> float:
    """McNemar's exact two-sided p-value: the chance, were both rates equal, of discordant
    pairs split at least as unevenly as `table`'s (a binomial of them at one half)."""
    _, b, c, _ = table
    n, k = b + c, min(b, c)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / 2**n
    return min(1.0, 2 * tail)


# --- several training runs a player ------------------------------------------------------------
#
# An adapted player is a training run, and two runs of one recipe on one game differ: their
# rates scatter by more than the games' dice. A difference between two variants' adapted
# players must be told apart from that scatter, so it is measured across runs: each run's rate
# (on the same seeds, so the dice the runs share cancel) is one draw, and the difference of
# the two means gets Student's t interval on the runs' pooled spread.


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b) (Lentz's continued fraction, as
    Numerical Recipes' betacf)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    if x > (a + 1) / (a + b + 2):  # the fraction converges fast on this side only
        return 1.0 - _betainc(b, a, 1.0 - x)
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                     + a * math.log(x) + b * math.log1p(-x)) / a  # fmt: skip
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    f = d
    for m in range(1, 300):
        for num in (m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
                    -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1))):  # fmt: skip
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            f *= c * d
        if abs(c * d - 1.0) < 1e-14:
            break
    return front * f


def t_two_sided(t: float, df: float) -> float:
    """P(|T| >= |t|) for Student's t with `df` degrees of freedom."""
    return _betainc(df / 2, 0.5, df / (df + t * t))


def t_quantile(df: float, level: float = 0.95) -> float:
    """The t with P(|T| <= t) = level (1.96 for a normal, 12.71 at 1 degree of freedom)."""
    low, high = 0.0, 1e3
    for _ in range(100):  # bisection: P(|T| >= t) falls as t grows
        mid = (low + high) / 2
        low, high = (mid, high) if t_two_sided(mid, df) > 1 - level else (low, mid)
    return (low + high) / 2


def runs_difference(first: list[float], second: list[float], level: float = 0.95) -> dict:
    """Two players made of several training runs each, every run's rate measured on the same
    seeds: the difference of their mean rates, first minus second, with the t interval and
    two-sided p-value of the runs' pooled spread (df = runs - 2). `real` where the interval
    leaves out 0; never with a single run a side, whose spread cannot be measured."""
    a, b = [float(x) for x in first], [float(x) for x in second]
    if not a or not b:
        raise ValueError("each side needs at least one run's rate")
    diff = sum(a) / len(a) - sum(b) / len(b)
    df = len(a) + len(b) - 2
    if df < 1:
        return {"difference": diff, "interval": (-1.0, 1.0), "p": 1.0, "real": False, "df": 0}
    ss = sum((x - sum(a) / len(a)) ** 2 for x in a) + sum((x - sum(b) / len(b)) ** 2 for x in b)
    se = math.sqrt(ss / df * (1 / len(a) + 1 / len(b)))
    half = t_quantile(df, level) * se
    p = (1.0 if diff == 0 else 0.0) if se == 0 else t_two_sided(diff / se, df)
    low, high = diff - half, diff + half
    return {"difference": diff, "interval": (low, high), "p": p,
            "real": se > 0 and (low > 0 or high < 0), "df": df}  # fmt: skip


def runs_interval(rates: list[float], level: float = 0.95) -> tuple[float, float]:
    """The interval of a player's mean rate over its training runs (t over the runs), in
    [0, 1]; (0, 1) with a single run."""
    n = len(rates)
    if n < 2:
        return 0.0, 1.0
    mean = sum(rates) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in rates) / (n - 1))
    half = t_quantile(n - 1, level) * sd / math.sqrt(n)
    return max(0.0, mean - half), min(1.0, mean + half)
