"""Agreement between a metric and human labels, in plain Python (no SciPy dependency).

Graded labels: Spearman's rank correlation (Pearson on average ranks, so ties are handled as
SciPy's ``spearmanr`` does) with a 95% confidence interval from the Fisher z-transform using the
Bonett–Wright standard error for Spearman, sqrt((1 + r²/2) / (n − 3)). A deterministic interval
rather than a bootstrap: the same results always print the same figures, which is what lets a
page of docs/ quote them and ``ragtui calibrate`` reproduce them. Also the mean absolute error.

Binary labels: accuracy, precision, recall and F1 of the positive class (1), and Cohen's kappa,
(p_o − p_e) / (1 − p_e), which discounts the agreement two raters reach by chance.

Every function returns None where the statistic is undefined (too few items, no variance)
rather than a misleading number.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile


def average_ranks(values: list[float]) -> list[float]:
    """1-based ranks; tied values share the mean of the ranks they span."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    start = 0
    while start < len(order):
        end = start
        while end + 1 < len(order) and values[order[end + 1]] == values[order[start]]:
            end += 1
        shared = (start + end) / 2 + 1
        for position in range(start, end + 1):
            ranks[order[position]] = shared
        start = end + 1
    return ranks


def pearson(xs: list[float], ys: list[float]) -> float | None:
    n = len(xs)
    if n < 2 or n != len(ys):
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx == 0 or syy == 0:
        return None  # a constant judge (or constant labels) has no correlation to speak of
    return sxy / math.sqrt(sxx * syy)


def spearman(xs: list[float], ys: list[float]) -> float | None:
    return pearson(average_ranks(xs), average_ranks(ys))


def spearman_interval(r: float | None, n: int, z: float = Z_95) -> tuple[float, float] | None:
    """95% interval for Spearman's r by Fisher's z with the Bonett–Wright standard error."""
    if r is None or n < 4:
        return None
    clamped = max(min(r, 0.999999), -0.999999)
    centre = math.atanh(clamped)
    half = z * math.sqrt((1 + r * r / 2) / (n - 3))
    return math.tanh(centre - half), math.tanh(centre + half)


def mean_absolute_error(xs: list[float], ys: list[float]) -> float | None:
    if not xs:
        return None
    return sum(abs(x - y) for x, y in zip(xs, ys, strict=True)) / len(xs)


@dataclass(frozen=True)
class BinaryAgreement:
    n: int
    accuracy: float | None
    precision: float | None
    recall: float | None
    f1: float | None
    kappa: float | None
    true_positive: int
    false_positive: int
    false_negative: int
    true_negative: int


def binary_agreement(predicted: list[int], labels: list[int]) -> BinaryAgreement:
    """Predicted and labelled classes, each 0 or 1."""
    pairs = list(zip(predicted, labels, strict=True))
    n = len(pairs)
    tp = sum(1 for p, y in pairs if p == 1 and y == 1)
    fp = sum(1 for p, y in pairs if p == 1 and y == 0)
    fn = sum(1 for p, y in pairs if p == 0 and y == 1)
    tn = sum(1 for p, y in pairs if p == 0 and y == 0)
    if n == 0:
        return BinaryAgreement(0, None, None, None, None, None, 0, 0, 0, 0)
    accuracy = (tp + tn) / n
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = 2 * tp / (2 * tp + fp + fn) if tp + fp + fn else None
    return BinaryAgreement(n, accuracy, precision, recall, f1, cohen_kappa(predicted, labels), tp, fp, fn, tn)


def cohen_kappa(a: list[int], b: list[int]) -> float | None:
    n = len(a)
    if n == 0:
        return None
    observed = sum(1 for x, y in zip(a, b, strict=True) if x == y) / n
    classes = set(a) | set(b)
    expected = sum((a.count(c) / n) * (b.count(c) / n) for c in classes)
    if expected == 1:
        return None  # both raters used one class only: chance explains everything
    return (observed - expected) / (1 - expected)


def auc(scores: list[float | None], positive: list[bool]) -> float | None:
    """Area under the ROC curve: the chance a random positive item scores above a random
    negative one (ties count half). None without both kinds."""
    pos = [s for s, p in zip(scores, positive, strict=True) if p and s is not None]
    neg = [s for s, p in zip(scores, positive, strict=True) if not p and s is not None]
    if not pos or not neg:
        return None
    wins = sum(1.0 if a > b else 0.5 if a == b else 0.0 for a in pos for b in neg)
    return wins / (len(pos) * len(neg))
