"""The judge card's figures from judged items: Spearman (graded metrics) or Cohen's κ (binary
ones) with a 95% interval (``card_interval``), per metric and language.

Two sources of judged items: the calibration items of a labelled set (``ragtui judge-card
--measure``, judged through ``Calibrator``), and the verdicts of turns people labelled in this
database (``--from-labels``, no model called). Unscored items — the judge failed — are counted
and left out of the figure, never read as 0; items the metric does not apply to are counted
apart.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..metrics.base import Metric
from ..store.labelled_turns import LabelledTurn
from ..types.stored import StoredJudgment
from . import agreement
from .calibration_store import StoredItem
from .card_entry import CardEntry
from .card_interval import kappa_interval, spearman_interval


@dataclass(frozen=True)
class Figures:
    figure: str  # spearman | kappa
    value: float | None
    n: int  # scored pairs
    low: float | None
    high: float | None
    unscored: int
    skipped: int


def figures(binary: bool, pairs: list[tuple[float, float]], unscored: int = 0, skipped: int = 0) -> Figures:
    """(judge score, person's label) pairs on 0–1. Binary: both read as yes at 0.5 or above."""
    scores = [s for s, _ in pairs]
    labels = [y for _, y in pairs]
    if binary:
        predicted = [1 if s >= 0.5 else 0 for s in scores]
        people = [1 if y >= 0.5 else 0 for y in labels]
        kappa = agreement.cohen_kappa(predicted, people)
        figure, value, interval = "kappa", kappa, kappa_interval(predicted, people)
    else:
        r = agreement.spearman(scores, labels)
        figure, value, interval = "spearman", r, spearman_interval(r, len(pairs))
    low, high = interval or (None, None)
    return Figures(figure, value, len(pairs), low, high, unscored, skipped)


def item_figures(binary: bool, items: Iterable[StoredItem]) -> Figures:
    """Figures of stored calibration items."""
    rows = list(items)
    pairs = [(float(r.score), r.label) for r in rows if r.score is not None]
    skipped = sum(1 for r in rows if r.skipped)
    return figures(binary, pairs, len(rows) - len(pairs) - skipped, skipped)


def entry(
    metric: str, language: str, model: str, fingerprint: str, found: Figures, on: str, source: str, quick: bool
) -> CardEntry:
    return CardEntry(
        metric,
        language,
        model,
        fingerprint,
        found.figure,
        found.value,
        found.n,
        on,
        source,
        found.low,
        found.high,
        found.unscored,
        quick,
    )


# -- the team's own labels ---------------------------------------------------------------


def made_with(judgment: StoredJudgment, metric: Metric) -> bool:
    """Whether a stored verdict came from ``metric``'s current prompt: each of its fixed
    instructions (system messages) is one of the prompt's parts. A verdict from an edited
    prompt — or one of another metric — does not count for this prompt's entry."""
    template = getattr(metric, "template", None)
    if template is None:
        return False
    fixed = [m.get("content", "") for m in judgment.prompt if m.get("role") == "system"]
    parts = set(template.parts.values())
    return bool(fixed) and all(text in parts for text in fixed)


def raw_score(judgment: StoredJudgment) -> float | None:
    """The judge's own score (before any fit: a fit maps it, the card measures the judge)."""
    fit = judgment.details.get("fit")
    if isinstance(fit, dict) and isinstance(fit.get("raw_score"), int | float):
        return float(fit["raw_score"])
    return judgment.score


def label_figures(binary: bool, turns: list[LabelledTurn], model: str, metric: Metric) -> tuple[Figures, int]:
    """Figures of the newest verdict of ``model`` with ``metric``'s current prompt on each
    labelled turn, and how many turns had one. Graded metrics: the person's 1–5 score (on 0–1,
    score / 5) against the judge's; binary ones: the person's pass / fail (implied by agreeing or
    not with the verdict they saw) against the judge's at the threshold."""
    pairs: list[tuple[float, float]] = []
    unscored = judged = 0
    for turn in turns:
        verdicts = [j for j in turn.judgments if j.model == model and made_with(j, metric)]
        if not verdicts:
            continue
        verdict = verdicts[-1]  # judgments are sorted by version
        if binary:
            person = turn.human_pass()
            label = None if person is None else float(person)
        else:
            label = None if turn.label.score is None else turn.label.score / 5
        if label is None:
            continue
        judged += 1
        score = raw_score(verdict)
        if verdict.details.get("skipped"):
            continue
        if score is None:
            unscored += 1
            continue
        if binary:
            score = 1.0 if score >= turn.threshold else 0.0
        pairs.append((score, label))
    return figures(binary, pairs, unscored), judged
