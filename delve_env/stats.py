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
