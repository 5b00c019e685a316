"""Fitting a metric's raw scores to people's labels, and applying the fit at run time.

``ragtui calibrate METRIC DATA --fit`` learns, from the judged items of a calibration run:
- graded metrics: an isotonic (monotone, step-wise) map from raw score to the label scale —
  it keeps the judge's ranking and fixes its scale (a judge that never says 0 or 5);
- binary metrics: the threshold on P(yes) that maximises Cohen's kappa.

Figures before and after are computed on folds the fit never saw (``cross_validate``), so a fit
cannot flatter itself. The fit is stored with the judge model and the metric's *prompt
fingerprint* (``prompt_fingerprint``: its templates, few-shot examples and scoring method) and
applied only when both match exactly; a fit for another model or prompt is never applied, and
the judgment says whether a fit was applied (``details["fit"]``).
"""

from __future__ import annotations

import bisect
import hashlib
import json
import random
from dataclasses import dataclass, field
from typing import Any

from . import agreement

# Bump when the way raw scores are computed changes: an old fit must not map new scores.
SCORING_METHOD = "logprob-expected-level/1"
FOLDS = 5


@dataclass
class Fit:
    """A stored mapping from raw score to the label scale (0–1)."""

    metric: str
    model: str
    fingerprint: str
    kind: str  # "isotonic" | "threshold"
    xs: list[float] = field(default_factory=list)  # isotonic: block upper bounds of raw scores
    ys: list[float] = field(default_factory=list)  # isotonic: fitted value of each block
    threshold: float | None = None  # binary: raw P(yes) at or above which the answer is yes

    def apply(self, raw: float) -> float:
        if self.kind == "threshold":
            assert self.threshold is not None
            return 1.0 if raw >= self.threshold else 0.0
        return isotonic_predict(self.xs, self.ys, raw)

    def params(self) -> dict[str, Any]:
        return {"xs": self.xs, "ys": self.ys, "threshold": self.threshold}


def prompt_fingerprint(metric: object) -> str:
    """What a fit is valid for besides the model: templates, examples, scoring method. A wrapped
    metric (a fit, a card entry) has the fingerprint of the judge it wraps."""
    while hasattr(metric, "inner") and hasattr(metric, "key"):
        metric = metric.inner
    digest = hashlib.sha256(SCORING_METHOD.encode())
    digest.update(type(metric).__name__.encode())
    template = getattr(metric, "template", None)
    if template is not None:
        digest.update(json.dumps(template.parts, sort_keys=True, ensure_ascii=False).encode())
    for example in getattr(metric, "examples", []) or []:
        digest.update(json.dumps([example.step, example.inputs, example.output], ensure_ascii=False).encode())
    scoring = getattr(metric, "scoring", "")  # a judge scored other than by its template alone
    if isinstance(scoring, str) and scoring:
        digest.update(scoring.encode())
    return digest.hexdigest()[:16]


# -- isotonic regression (pool adjacent violators) ------------------------------------------


def isotonic_fit(raw: list[float], labels: list[float]) -> tuple[list[float], list[float]]:
    """Blocks (upper bound of raw score, fitted value), non-decreasing in the fitted value."""
    pairs = sorted(zip(raw, labels, strict=True))
    blocks: list[list[float]] = []  # [sum of labels, count, max raw]
    for x, y in pairs:
        blocks.append([y, 1.0, x])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            total, count, top = blocks.pop()
            blocks[-1][0] += total
            blocks[-1][1] += count
            blocks[-1][2] = top
    return [b[2] for b in blocks], [b[0] / b[1] for b in blocks]


def isotonic_predict(xs: list[float], ys: list[float], raw: float) -> float:
    """The fitted value of the block ``raw`` falls in, interpolated between block midpoints."""
    if not xs:
        return raw
    index = bisect.bisect_left(xs, raw)
    if index >= len(xs):
        return ys[-1]
    if index == 0:
        return ys[0]
    # Linear between neighbouring blocks' bounds keeps ties from collapsing distinct raw scores.
    x0, x1 = xs[index - 1], xs[index]
    t = 0.0 if x1 == x0 else (raw - x0) / (x1 - x0)
    return ys[index - 1] + t * (ys[index] - ys[index - 1])


def best_threshold(raw: list[float], labels: list[float]) -> float:
    values = sorted(set(raw))
    cuts = [(a + b) / 2 for a, b in zip(values, values[1:], strict=False)] or [0.5]
    truth = [1 if y >= 0.5 else 0 for y in labels]

    def kappa(t: float) -> float:
        return agreement.cohen_kappa([1 if r >= t else 0 for r in raw], truth) or -1.0

    return max(cuts, key=lambda t: (kappa(t), -abs(t - 0.5)))


def fit(metric: str, model: str, fingerprint: str, binary: bool, raw: list[float], labels: list[float]) -> Fit:
    if binary:
        return Fit(metric, model, fingerprint, "threshold", threshold=best_threshold(raw, labels))
    xs, ys = isotonic_fit(raw, labels)
    return Fit(metric, model, fingerprint, "isotonic", xs, ys)


# -- cross-validation -----------------------------------------------------------------------


@dataclass
class FitReport:
    n: int
    folds: int
    before: dict[str, float | None]
    after: dict[str, float | None]


def _figures(binary: bool, scores: list[float], labels: list[float], threshold: float = 0.5) -> dict[str, float | None]:
    if binary:
        stats = agreement.binary_agreement(
            [1 if s >= threshold else 0 for s in scores], [1 if y >= 0.5 else 0 for y in labels]
        )
        return {"kappa": stats.kappa, "accuracy": stats.accuracy, "f1": stats.f1}
    return {
        "spearman": agreement.spearman(scores, labels),
        "mae": agreement.mean_absolute_error(scores, labels),
    }


def cross_validate(
    binary: bool, raw: list[float], labels: list[float], folds: int = FOLDS, seed: int = 13
) -> FitReport:
    """Out-of-fold figures: each item's fitted score comes from a fit on the other folds."""
    order = list(range(len(raw)))
    random.Random(seed).shuffle(order)
    folds = max(2, min(folds, len(raw)))
    fitted = [0.0] * len(raw)
    for k in range(folds):
        held = set(order[k::folds])
        train = [i for i in order if i not in held]
        model = fit("", "", "", binary, [raw[i] for i in train], [labels[i] for i in train])
        for i in held:
            fitted[i] = model.apply(raw[i])
    return FitReport(len(raw), folds, _figures(binary, raw, labels), _figures(binary, fitted, labels))
