"""A verdict as every view reads it, typed: its score, its outcome word, its one-line conclusion,
the pass mark it was judged against, whether the metric did not apply, why it is unscored, and
the lines that say how it was reached.

A metric keeps whatever it likes in a judgment's ``details`` (criteria, steps, per-statement
checks); the keys any view reads are these fields, named once here — a view asks
``judgment.verdict`` (or ``metric_views.verdict_of``, which adds the metric's explanation lines),
never ``details["conclusion"]`` (tests/architecture/test_views_read_typed_verdicts.py). A metric
writes the common ones with ``Verdict.details()`` (or the same keys by hand: ``threshold``,
``conclusion``, ``outcome``, ``skipped``); the optional ones (criteria, steps, a fitted score's
raw value, how it was read, the calls it took) are read back when present.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .verdict_parts import JudgeReply, Rejudge, rejudge_of, replies_of

# The keys of ``details`` that the typed fields are read from.
THRESHOLD, CONCLUSION, OUTCOME, SKIPPED = "threshold", "conclusion", "outcome", "skipped"
REASON, COMMENT, CRITERIA, STEPS, OVERALL = "reason", "comment", "scores", "steps", "overall"
FIT, READ, AGREEMENT = "fit", "read", "agreement"
SUMMARY, NOTE = "summary", "explanation"  # words a plugin's verdict may record (no built-in does)


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
    reason: str = ""  # a metric's reason for its score, beside its conclusion ("" when none)
    comment: str = ""  # the judge's comment, as verdicts stored before ``conclusion`` had it
    summary: str = ""  # a one-line summary, when the metric recorded one
    note: str = ""  # an explanation in words, when the metric recorded one under ``explanation``
    # Criterion → the score the judge gave it (the rubric's 1–5), as its reply gave it: a number
    # or whatever it wrote instead. Left out of the hash: a dict has none.
    criteria: Mapping[str, Any] = field(default_factory=dict, hash=False)
    steps: tuple[str, ...] = ()  # its reasoning steps, in order
    overall: float | None = None  # the rubric's overall 1–5, when it recorded one
    raw_score: float | None = None  # the judge's own score before a fit to people's labels mapped it
    read: str = ""  # how its probabilities were read: "sampled", "mixed" … ("" when not recorded)
    agreement_recorded: bool = False  # it carries its judge's agreement with people
    rejudge: Rejudge | None = None  # how it was re-judged; None: judged in the dialogue
    replies: tuple[JudgeReply, ...] = ()  # call by call, when it took several

    @property
    def scored(self) -> bool:
        return self.score is not None

    @property
    def words(self) -> str:
        """Its own words, whichever it recorded — its summary, conclusion, reason, comment or
        explanation, the first there is — stripped; "" when it said nothing."""
        said = (self.summary, self.conclusion, self.reason, self.comment, self.note)
        return next((w.strip() for w in said if w.strip()), "")

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


def _text(value: object) -> str:
    return str(value) if value else ""


def _raw_score(details: Mapping[str, Any]) -> float | None:
    fit = details.get(FIT)
    return _number(fit.get("raw_score")) if isinstance(fit, dict) else None


def _words(value: object) -> str:
    return value if isinstance(value, str) else ""


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
        reason=_text(details.get(REASON)),
        comment=_text(details.get(COMMENT)),
        summary=_words(details.get(SUMMARY)),
        note=_words(details.get(NOTE)),
        criteria=criteria if isinstance(criteria := details.get(CRITERIA), dict) else {},
        steps=tuple(str(step) for step in details.get(STEPS) or ()),
        overall=_number(details.get(OVERALL)),
        raw_score=_raw_score(details),
        read=_text(details.get(READ)),
        agreement_recorded=AGREEMENT in details,
        rejudge=rejudge_of(details),
        replies=replies_of(details),
    )


__all__ = [
    "CONCLUSION",
    "OUTCOME",
    "SKIPPED",
    "THRESHOLD",
    "JudgeReply",
    "Rejudge",
    "Verdict",
    "read_verdict",
]
