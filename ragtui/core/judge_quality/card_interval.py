"""95% intervals of the judge card's figures.

- Spearman's r: the interval ``ragtui calibrate`` prints (``agreement.spearman_interval``:
  Fisher's z with the Bonett–Wright standard error), so the card and calibrate never give two
  intervals for the same items. Defined for n ≥ 4.
- Cohen's κ: a percentile bootstrap — 2000 resamples of the (judge, person) pairs with
  replacement, drawn from a fixed seed so the same items always give the same interval; the
  2.5th and 97.5th percentiles of the resampled κ. Resamples where κ is undefined (one class
  only) are left out; with fewer than half of them defined there is no interval, nor with fewer
  than 10 pairs (resampling a handful of items says nothing about the judge).

Both return None rather than a misleading interval when there is too little to go on.
"""

from __future__ import annotations

import math
import random

from .agreement import cohen_kappa, spearman_interval

__all__ = ["kappa_interval", "spearman_interval"]

BOOTSTRAP_RESAMPLES = 2000
BOOTSTRAP_SEED = 20261202
MIN_BOOTSTRAP_PAIRS = 10


def kappa_interval(
    predicted: list[int], labels: list[int], resamples: int = BOOTSTRAP_RESAMPLES, seed: int = BOOTSTRAP_SEED
) -> tuple[float, float] | None:
    n = len(predicted)
    if n < MIN_BOOTSTRAP_PAIRS or cohen_kappa(predicted, labels) is None:
        return None
    rng = random.Random(seed)
    values: list[float] = []
    for _ in range(resamples):
        picks = [rng.randrange(n) for _ in range(n)]
        kappa = cohen_kappa([predicted[i] for i in picks], [labels[i] for i in picks])
        if kappa is not None:
            values.append(kappa)
    if len(values) < resamples / 2:
        return None
    values.sort()
    return _percentile(values, 0.025), _percentile(values, 0.975)


def _percentile(ordered: list[float], q: float) -> float:
    """Linear interpolation between the closest ranks (NumPy's default)."""
    position = q * (len(ordered) - 1)
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)
