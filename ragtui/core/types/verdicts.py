"""A verdict as every view reads it, typed: its score, its outcome word, its one-line conclusion,
the pass mark it was judged against, whether the metric did not apply, why it is unscored, and
the lines that say how it was reached.

A metric keeps whatever it likes in a judgment's ``details`` (criteria, steps, per-statement
checks); the few keys every view reads are these fields, named once here — a view asks
``judgment.verdict`` (or ``metric_views.verdict_of``, which adds the metric's explanation lines),
never ``details["conclusion"]``. A metric writes them with ``Verdict.details()`` (or the same
keys by hand: ``threshold``, ``conclusion``, ``outcome``, ``skipped``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

# The keys of ``details`` that the typed fields are read from.
THRESHOLD, CONCLUSION, OUTCOME, SKIPPED = "threshold", "conclusion", "outcome", "skipped"


@dataclass(frozen=True)
class Verdict:
    metric: str
    score: float | None  # 0–1; None: unscored (``error`` says why) or skipped
    outcome: str | None = None  # the verdict's word (``resolved``, ``signed_off``); None: it has none
    conclusion: str = ""  # one line: what the judge concluded ("" when it said nothing)
    threshold: float | None = None  # the pass mark it was judged against; None: not recorded
    skipped: bool = False  # the metric did not apply (no score, and no fault either)
    error: str | None = None  # why it is unscored
    explanation: tuple[str, ...] = ()  # how it was reached, one plain line each (the metric's ``explain``)

    @property
    def scored(self) -> bool:
        return self.score is not None

    def details(self) -> dict[str, Any]:
        """The keys a metric stores in ``Judgment.details`` for the views to read back."""
        out: dict[str, Any] = {}
        if self.threshold is not None:
            out[THRESHOLD] = self.threshold
        if self.conclusion:
            out[CONCLUSION] = self.conclusion
        if self.outcome is not None:
            out[OUTCOME] = self.outcome
        if self.skipped:
            out[SKIPPED] = True
        return out


def _number(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def read_verdict(
    metric: str,
    score: float | None,
    details: Mapping[str, Any],
    error: str | None = None,
    explanation: tuple[str, ...] = (),
) -> Verdict:
    """The typed verdict of a judgment's ``details`` (a stored one's or a fresh one's). An outcome
    counts only on a scored verdict: an unscored one has no word."""
    outcome = details.get(OUTCOME)
    conclusion = details.get(CONCLUSION)
    return Verdict(
        metric=metric,
        score=score,
        outcome=str(outcome) if outcome is not None and score is not None else None,
        conclusion=str(conclusion) if conclusion else "",
        threshold=_number(details.get(THRESHOLD)),
        skipped=score is None and bool(details.get(SKIPPED)),
        error=error,
        explanation=explanation,
    )


__all__ = ["CONCLUSION", "OUTCOME", "SKIPPED", "THRESHOLD", "Verdict", "read_verdict"]
