"""Confidence intervals for the balance study (docs/balance.md).

A proportion gets Wilson's score interval (right near 0 and 1, where a game's rarer
outcomes live); a difference between two independent proportions gets Newcombe's
hybrid score interval (his method 10, 1998), built from the two Wilson intervals; a
mean gets the normal approximation. All at 95% (z = 1.959964).
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(k: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson's score interval for ``k`` successes in ``n`` trials; (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = k / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def newcombe(k1: int, n1: int, k2: int, n2: int, z: float = Z95) -> tuple[float, float, float]:
    """The difference p1 - p2 and Newcombe's hybrid score interval for it."""
    p1 = k1 / n1 if n1 else 0.0
    p2 = k2 / n2 if n2 else 0.0
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p1 - p2
    low = d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2)
    high = d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)
    return d, low, high


def mean_interval(counts: dict[int, int], z: float = Z95) -> tuple[float, float, float]:
    """The mean of a histogram ``{value: how many}`` with its normal-approximation interval."""
    n = sum(counts.values())
    if n == 0:
        return 0.0, 0.0, 0.0
    mean = sum(v * c for v, c in counts.items()) / n
    var = sum(c * (v - mean) ** 2 for v, c in counts.items()) / max(n - 1, 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def mean_difference(
    first: dict[int, int], second: dict[int, int], z: float = Z95
) -> tuple[float, float, float]:
    """The second histogram's mean minus the first's, with the normal-approximation
    interval of a difference of independent means (Welch's standard error)."""
    ma, la, ha = mean_interval(first, z)
    mb, lb, hb = mean_interval(second, z)
    half = math.hypot((ha - la) / 2, (hb - lb) / 2)
    return mb - ma, mb - ma - half, mb - ma + half
