"""Is a drop in pass rate more than run-to-run noise? Exact tests over trials' pass/fail.

A pair (scenario × persona) run K times passes some of its trials; the customer is simulated, so
two runs of the same bot pass different numbers. Per pair, Fisher's exact test (one-sided) asks
whether NEW passes fewer of its trials than BASE by more than chance. Per run, the exact
conditional test stratified by pair (the exact form of the Cochran–Mantel–Haenszel test) asks the
same of the total of passes, each pair compared with itself so a hard scenario cannot mask or fake
a change. Both condition on each pair's passes on both sides taken together, so under "no change"
their p-values are exact (conservative, the counts being whole numbers) whatever each pair's pass
probability — there is no normal approximation in the decision. Fisher's test is the
one-stratum case of the run's test. Pure Python: ``math.comb`` and ``statistics.NormalDist``.

The sizes (smallest detectable drop, trials needed) are planning figures and use the normal
approximation at 80% power.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from statistics import NormalDist

POWER = 0.8
_EPS = 1e-12  # p-values are sums of floats; a p exactly at alpha (1/20 at 3 trials a side) must count


@dataclass(frozen=True)
class Counts:
    """One pair's passes and trials on each side."""

    base_passes: int
    base_trials: int
    new_passes: int
    new_trials: int

    @property
    def drop(self) -> float:
        """BASE pass rate minus NEW pass rate (positive: NEW is worse)."""
        return self.base_passes / self.base_trials - self.new_passes / self.new_trials


def _hypergeometric(base_trials: int, new_trials: int, passes: int) -> dict[int, float]:
    """How many of ``passes`` fall on BASE when the passes of a pair are spread at random over
    its ``base_trials + new_trials`` trials (no difference between the sides)."""
    total = base_trials + new_trials
    denominator = math.comb(total, base_trials)
    low, high = max(0, passes - new_trials), min(passes, base_trials)
    return {
        a: math.comb(passes, a) * math.comb(total - passes, base_trials - a) / denominator for a in range(low, high + 1)
    }


def _tail(counts: Sequence[Counts], *, worse: bool) -> float:
    """P(the BASE passes summed over pairs are at least as extreme as observed | each pair's
    total passes), the exact conditional distribution being the convolution of the pairs'
    hypergeometric distributions."""
    distribution = {0: 1.0}
    observed = 0
    for c in counts:
        if c.base_trials == 0 or c.new_trials == 0:
            continue
        observed += c.base_passes
        pair = _hypergeometric(c.base_trials, c.new_trials, c.base_passes + c.new_passes)
        merged: dict[int, float] = {}
        for total, p in distribution.items():
            for a, q in pair.items():
                merged[total + a] = merged.get(total + a, 0.0) + p * q
        distribution = merged
    if worse:  # more of the passes on BASE than chance would put there
        tail = sum(p for total, p in distribution.items() if total >= observed)
    else:
        tail = sum(p for total, p in distribution.items() if total <= observed)
    return min(1.0, tail)


def drop_p_value(counts: Sequence[Counts]) -> float:
    """One-sided p-value that NEW passes fewer trials than BASE: Fisher's exact test for one
    pair, the exact stratified test for several. 1.0 when no pair has trials on both sides."""
    return _tail(counts, worse=True)


def gain_p_value(counts: Sequence[Counts]) -> float:
    """The same test the other way: NEW passes more trials than BASE."""
    return _tail(counts, worse=False)


def significant(p_value: float, alpha: float) -> bool:
    return p_value <= alpha + _EPS


def _variance_of_mean_drop(counts: Sequence[Counts]) -> float:
    """The variance of the mean over pairs of the pass-rate drop, each pair's pass probability
    estimated from both sides together. Smoothed (one pass and one failure added) so that a pair
    that always passed still counts as able to fail: with 3 of 3 it may well fail the fourth."""
    terms = [_pooled(c) * (1 - _pooled(c)) * (1 / c.base_trials + 1 / c.new_trials) for c in counts]
    return sum(terms) / len(terms) ** 2


def _pooled(c: Counts) -> float:
    return (c.base_passes + c.new_passes + 1) / (c.base_trials + c.new_trials + 2)


def _z(alpha: float, power: float) -> float:
    normal = NormalDist()
    return normal.inv_cdf(1 - alpha) + normal.inv_cdf(power)


def min_detectable_drop(counts: Sequence[Counts], alpha: float, power: float = POWER) -> float | None:
    """The smallest drop in the run's pass rate (mean over pairs) that the run's test detects
    with ``power`` at one-sided ``alpha``, with these pairs and trials (normal approximation);
    None without a pair having trials on both sides."""
    usable = [c for c in counts if c.base_trials and c.new_trials]
    if not usable:
        return None
    return _z(alpha, power) * math.sqrt(_variance_of_mean_drop(usable)) + _continuity(usable)


def _continuity(counts: Sequence[Counts]) -> float:
    """Half a pass on each side, as a pass rate over the run: the exact test counts whole passes,
    so it needs about this much more than the normal approximation to reach its power."""
    return sum(0.5 / c.base_trials + 0.5 / c.new_trials for c in counts) / len(counts) ** 2


def trials_needed(counts: Sequence[Counts], drop: float, alpha: float, power: float = POWER) -> int | None:
    """Trials per pair on each side for the run's test to detect a pass-rate ``drop`` with
    ``power``, over as many pairs as ``counts`` and at their pass rates (normal approximation):
    the K solving ``drop = z·sqrt(spread / K) + 1 / (pairs·K)``, the inverse of ``min_detectable_drop``."""
    usable = [c for c in counts if c.base_trials and c.new_trials]
    if not usable or drop <= 0:
        return None
    pairs = len(usable)
    # The variance of the mean drop at one trial a side; it shrinks as 1/K with K trials on each side.
    spread = sum(2 * _pooled(c) * (1 - _pooled(c)) for c in usable) / pairs**2
    b = _z(alpha, power) * math.sqrt(spread)
    x = (-b + math.sqrt(b * b + 4 * drop / pairs)) * pairs / 2  # x = 1 / sqrt(K), the positive root
    return max(2, math.ceil(1 / (x * x)))
