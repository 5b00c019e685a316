"""A paired bootstrap interval for the mean of score differences, reproducible by its seed.

Each resample draws n paired differences with replacement; the 2.5th and 97.5th percentiles
of the resampled means bound the interval. Pairing matters: the same scenario × persona is
scored in both runs, so their difference removes how hard each scenario is.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

SEED = 12
RESAMPLES = 2000


@dataclass(frozen=True)
class Interval:
    mean: float
    low: float
    high: float
    n: int
    confidence: float = 0.95

    @property
    def verdict(self) -> str:
        """better / worse when the whole interval lies on one side of zero."""
        if self.low > 0:
            return "better"
        if self.high < 0:
            return "worse"
        return "no clear difference"


def paired_bootstrap(
    deltas: list[float], *, resamples: int = RESAMPLES, seed: int = SEED, confidence: float = 0.95
) -> Interval | None:
    """None when there is no pair to measure; a zero-width interval for a single pair."""
    n = len(deltas)
    if n == 0:
        return None
    mean = sum(deltas) / n
    if n == 1:
        return Interval(mean, mean, mean, 1, confidence)
    rng = random.Random(seed)
    means = sorted(sum(rng.choices(deltas, k=n)) / n for _ in range(resamples))
    tail = (1 - confidence) / 2
    low = means[int(tail * (resamples - 1))]
    high = means[int(round((1 - tail) * (resamples - 1)))]
    return Interval(mean, low, high, n, confidence)
