"""The intervals the realism figures carry, in plain Python, reproducible by their seed.

- A share of items (conversations that asked for a person; blind-test pairs the judge got right)
  carries a **Wilson score interval**: it stays inside 0–1 and is honest at small n and at shares
  near 0 or 1, where the normal approximation is not.
- A mean carries a **percentile bootstrap** over *conversations*: each resample draws whole
  conversations with replacement and takes the mean over their values. Messages of one
  conversation are not independent (one customer writes them all), so resampling messages one by
  one would make the interval too narrow; a conversation-level figure is a conversation of one value.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile
RESAMPLES = 2000


@dataclass(frozen=True)
class Estimate:
    """A figure with its 95% interval: ``value`` a mean or a share; ``n`` what it is over
    (messages, conversations, pairs) and ``groups`` the conversations they came from."""

    value: float | None
    low: float | None
    high: float | None
    n: int
    groups: int

    @property
    def empty(self) -> bool:
        return self.value is None


NOTHING = Estimate(None, None, None, 0, 0)


def wilson(successes: float, n: int, z: float = Z_95) -> tuple[float, float] | None:
    """The Wilson score interval of ``successes`` out of ``n``; None for n = 0. ``successes``
    may be fractional (a blind-test pair the judge could not split counts half)."""
    if n <= 0:
        return None
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def share(hits: int, n: int) -> Estimate:
    """``hits`` of ``n`` items as a share with its Wilson interval."""
    found = wilson(hits, n)
    if found is None:
        return NOTHING
    return Estimate(hits / n, found[0], found[1], n, n)


def cluster_mean(groups: list[list[float]], *, seed: int, resamples: int = RESAMPLES) -> Estimate:
    """The mean over every value of ``groups`` (one list per conversation; empty lists are left
    out) with a percentile bootstrap interval that resamples whole groups (see module docstring).
    One group: its mean and a zero-width interval (nothing to resample)."""
    kept = [g for g in groups if g]
    values = sum(len(g) for g in kept)
    if not kept:
        return NOTHING
    mean = sum(sum(g) for g in kept) / values
    if len(kept) == 1:
        return Estimate(mean, mean, mean, values, 1)
    rng = random.Random(seed)
    sums = [(sum(g), len(g)) for g in kept]
    means = []
    for _ in range(resamples):
        drawn = rng.choices(sums, k=len(sums))
        means.append(sum(s for s, _ in drawn) / sum(c for _, c in drawn))
    means.sort()
    low = means[int(0.025 * (resamples - 1))]
    high = means[int(round(0.975 * (resamples - 1)))]
    return Estimate(mean, low, high, values, len(kept))


def apart(a: Estimate, b: Estimate) -> bool:
    """The two 95% intervals do not overlap: a conservative sign that the sides differ (two
    overlapping intervals may still differ; two apart ones surely do at about this level)."""
    if a.low is None or a.high is None or b.low is None or b.high is None:
        return False
    return a.high < b.low or b.high < a.low
