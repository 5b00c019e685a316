"""How a metric's verdict reads, for every view: its label, its cell, its status, its
explanation and its CSV cells — all from the metric's registered class, so a metric added by a
plugin shows in the run table, the reports, compare, ``show`` and the TUI without any of them
naming it.

A metric describes itself with ``MetricInfo`` (``label``, ``explanation``, ``columns``,
``success_outcomes``) and its class's ``explain(details)`` (how its verdict was reached, one
plain line each) and ``csv_cells(verdict)`` (one cell per ``info.csv_columns``), both declared
on ``MetricClass`` — a class that does not write them gets no explanation lines and one CSV cell,
its score. A view reads a verdict typed (``verdict_of``: outcome, conclusion, threshold, the
explanation lines), never its ``details`` dict. The cell text is ``resolved 0.83`` for a
verdict with an outcome word, else its score (``core.text.score_text``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol

from rich.text import Text

from ..text.score_text import (
    FAIL_STYLE,
    NO_VERDICT,
    PASS_STYLE,
    SKIPPED_STYLE,
    UNSCORED_STYLE,
    no_verdict,
    score_text,
    verdict_text,
)
from ..text.text_safety import strip_controls
from ..types.stored import StoredDialogueJudgment
from ..types.verdicts import Verdict, read_verdict
from .metrics import DIALOGUE, find_metric, metric_info, metric_names, success_outcomes


class VerdictLike(Protocol):
    """What a view's cell reads of a verdict (a typed ``Verdict``, a stored judgment, or
    comparison's light one)."""

    @property
    def metric(self) -> str: ...
    @property
    def score(self) -> float | None: ...
    @property
    def outcome(self) -> str | None: ...
    @property
    def skipped(self) -> bool: ...


STATUS_STYLES = {"pass": PASS_STYLE, "fail": FAIL_STYLE, "unscored": UNSCORED_STYLE, "skipped": SKIPPED_STYLE}


def label(metric: str) -> str:
    """Its column head: the label it declares, else its name."""
    info = metric_info(metric)
    return info.label or info.name if info is not None else metric


def explanation(metric: str) -> str:
    """What its verdict means, in words ("" when it says nothing)."""
    info = metric_info(metric)
    return info.explanation if info is not None else ""


def shown_metrics(present: set[str] | frozenset[str]) -> list[str]:
    """The dialogue metrics of ``present`` in the registry's order; any stored metric no longer
    registered (a plugin uninstalled since) after them, by name — still shown, never dropped."""
    known = metric_names(DIALOGUE)
    return [m for m in known if m in present] + sorted(set(present) - set(known))


def outcome_words(outcome: str | None) -> str:
    return (outcome or "").replace("_", " ")


def cell(verdict: VerdictLike | None, low: bool = False) -> str:
    """``resolved 1.00``, ``0.50``, ``≈0.50``, ``unscored``, ``skipped``, or ``–`` for no verdict."""
    if verdict is None:
        return NO_VERDICT
    if verdict.score is None:
        return verdict_text(None, verdict.skipped)
    words = outcome_words(verdict.outcome)
    return f"{words} {score_text(verdict.score, low)}" if words else score_text(verdict.score, low)


def status(verdict: VerdictLike, threshold: float | None = None) -> str:
    """pass | fail | unscored | skipped. A metric with success outcomes passes on its outcome
    (resolution: resolved or handed over, as the run's resolution rate counts); the others at
    ``threshold``, else their default pass mark."""
    if verdict.score is None:
        return "skipped" if verdict.skipped else "unscored"
    info = metric_info(verdict.metric)
    successes = success_outcomes(verdict.metric)
    if successes:
        return "pass" if verdict.outcome in successes else "fail"
    default = info.default_threshold if info is not None and not info.primary else 1.0
    mark = threshold if threshold is not None else default
    return "pass" if verdict.score >= mark else "fail"


def styled_cell(verdict: VerdictLike | None, threshold: float | None = None, low: bool = False) -> Text:
    """``cell`` in its status's colour (dim when its judge is not trusted: ``low``)."""
    if verdict is None:
        return no_verdict()
    style = "dim" if low and verdict.score is not None else STATUS_STYLES[status(verdict, threshold)]
    return Text(strip_controls(cell(verdict, low)), style=style)  # an outcome is the judge's word


def explain(metric: str, details: Mapping[str, Any]) -> list[str]:
    """How the verdict was reached, in plain lines: the metric's own ``explain`` (none for a
    metric no longer registered)."""
    cls = find_metric(metric)
    return [] if cls is None else [str(line) for line in cls.explain(dict(details))]


class Judged(Protocol):
    """A judgment as ``verdict_of`` reads it: a fresh one or a stored one (turn or dialogue)."""

    @property
    def metric(self) -> str: ...
    @property
    def score(self) -> float | None: ...
    @property
    def details(self) -> dict[str, Any]: ...
    @property
    def error(self) -> str | None: ...


def verdict_of(judgment: Judged) -> Verdict:
    """The typed verdict every view reads, with the metric's explanation lines."""
    details = judgment.details
    lines = tuple(explain(judgment.metric, details))
    return read_verdict(judgment.metric, judgment.score, details, judgment.error, lines)


def csv_columns(metric: str) -> tuple[str, ...]:
    info = metric_info(metric)
    return info.csv_columns if info is not None else (metric,)


def csv_cells(metric: str, verdict: StoredDialogueJudgment | None) -> list[str]:
    """Its cells under ``csv_columns``: the metric's own ``csv_cells``, else its score ("" with
    no verdict, ``unscored`` / ``skipped`` for one without a score)."""
    cls = find_metric(metric)
    if cls is not None:
        return [str(c) for c in cls.csv_cells(verdict)]
    # A metric no longer registered (a plugin uninstalled since): its score under its name.
    return ["" if verdict is None else verdict_text(verdict.score, verdict.skipped)]


__all__ = [
    "Judged",
    "Verdict",
    "VerdictLike",
    "cell",
    "csv_cells",
    "csv_columns",
    "explain",
    "explanation",
    "label",
    "outcome_words",
    "shown_metrics",
    "status",
    "styled_cell",
    "verdict_of",
]
