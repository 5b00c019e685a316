"""What "passed" means for a dialogue: decided here, once, for every output (docs/glossary.md).

A dialogue **passed** when it ended normally — finished, not cancelled, interrupted or ended by an
error — and every check that applies to it holds:

- its score (the rubric's) is at or above the threshold; a dialogue with no score did not pass;
- each metric the run added with ``--metric`` is at or above its pass mark (none of its turns
  scored: did not pass);
- when it has a scored resolution verdict, the problem was resolved or handed over.

How far a judge agrees with people does not change whether a dialogue passed; it changes whether
a dialogue that did not pass fails the run (the gates, ``gate.py``). The run summary, the results
table's pass column, pass^k and its trial marks, the Markdown and JUnit reports, the HTML report,
``ragtui runs`` and the TUI all read a dialogue's pass from ``dialogue_passed``; the readers that
have no ``StoredSession`` (the run listing's SQL, compare's light dialogues) reduce what they read
to the same inputs.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ..metrics import PRIMARY_METRIC
from ..registry.metrics import RESOLUTION_RATE, gate_metric, success_outcomes
from ..text.score_text import under_mark
from ..types.stored import StoredSession
from ..types.verdicts import read_verdict

ENDED_BADLY = ("error", "cancelled")  # stop reasons of a dialogue that did not end normally
PASSED_MARK, NOT_PASSED_MARK = "✓", "✗"  # a dialogue's pass in a table's pass column


def ended_normally(status: str, stop_reason: str | None) -> bool:
    """Finished, and not by a cancel or an error (an interrupted dialogue is not finished)."""
    return status == "finished" and stop_reason not in ENDED_BADLY


@dataclass(frozen=True)
class TurnVerdict:
    """One turn's newest verdict of a metric, reduced to what its pass mark needs."""

    turn: int
    metric: str
    score: float | None
    threshold: float | None  # the pass mark it was judged against (``Verdict.threshold``)
    skipped: bool = False  # the metric did not apply to the turn: counts neither way


@dataclass(frozen=True)
class MetricMean:
    mean: float | None  # None: no turn could be scored
    mark: float | None  # its pass mark (the newest turn's), None when none is known

    @property
    def holds(self) -> bool:
        return self.mean is not None and (self.mark is None or self.mean >= self.mark)

    def problem(self, metric: str) -> str:
        """``faithfulness 0.40 < 0.80`` / ``faithfulness unscored``; "" when it holds."""
        if self.mean is None:
            return f"{metric} unscored"
        return "" if self.holds or self.mark is None else f"{metric} {under_mark(self.mean, self.mark)}"


def metric_means_of(
    verdicts: Iterable[TurnVerdict], metrics: Iterable[str], fallback: Mapping[str, float] | None = None
) -> dict[str, MetricMean]:
    """Per metric of ``metrics`` other than the rubric: the mean of its scored turns and its pass
    mark (the newest turn's, else ``fallback``'s). A metric whose every verdict was skipped (it did
    not apply) is absent: it neither passes nor fails the dialogue."""
    fallback = fallback or {}
    by_metric: dict[str, list[TurnVerdict]] = {}
    for v in sorted(verdicts, key=lambda v: v.turn):
        if v.metric != PRIMARY_METRIC and not v.skipped:
            by_metric.setdefault(v.metric, []).append(v)
    out = {}
    for metric in metrics:
        mine = by_metric.get(metric)
        if metric == PRIMARY_METRIC or not mine:
            continue
        scores = [v.score for v in mine if v.score is not None]
        mark = mine[-1].threshold if mine[-1].threshold is not None else fallback.get(metric)
        out[metric] = MetricMean(sum(scores) / len(scores) if scores else None, mark)
    return out


def session_turn_verdicts(session: StoredSession) -> list[TurnVerdict]:
    return [turn_verdict(turn, metric, j.score, j.details) for (turn, metric), j in session.latest_judgments().items()]


def turn_verdict(turn: int, metric: str, score: float | None, details: dict[str, Any] | None) -> TurnVerdict:
    verdict = read_verdict(metric, score, details or {})
    return TurnVerdict(turn, metric, score, verdict.threshold, verdict.skipped)


def dialogue_passed(
    ended: bool, score: float | None, threshold: float, resolved: bool | None = None, metrics_hold: bool = True
) -> bool:
    """The definition (see the module): ended normally, scored at or above ``threshold``, every
    ``--metric`` at its pass mark, and not left unresolved by a scored resolution verdict
    (``resolved`` None: no scored resolution verdict, no evidence either way)."""
    return ended and score is not None and score >= threshold and resolved is not False and metrics_hold


def resolved_of(outcome: str | None, score: float | None) -> bool | None:
    """A verdict of the metric that makes the resolution rate, as the definition reads it: None
    unscored, else whether its outcome is one of that metric's success outcomes."""
    return None if score is None else outcome in success_outcomes(gate_metric(RESOLUTION_RATE))


@dataclass(frozen=True)
class PassReading:
    """A stored dialogue read against the definition: whether it passed, and if not, why."""

    ended: bool
    score: float | None
    threshold: float
    resolved: bool | None
    metrics: dict[str, MetricMean]

    @property
    def metrics_hold(self) -> bool:
        return all(m.holds for m in self.metrics.values())

    @property
    def passed(self) -> bool:
        return dialogue_passed(self.ended, self.score, self.threshold, self.resolved, self.metrics_hold)

    def reasons(self) -> list[str]:
        """Why it did not pass, in the order of the definition; [] when it passed."""
        if not self.ended:
            return ["did not end normally"]
        out = []
        if self.score is None:
            out.append("no score")
        elif self.score < self.threshold:
            out.append(f"score {under_mark(self.score, self.threshold)}")
        out += [m.problem(name) for name, m in self.metrics.items() if not m.holds]
        if self.resolved is False:
            out.append("unresolved")
        return out


def read_pass(
    session: StoredSession, threshold: float | None = None, thresholds: Mapping[str, float] | None = None
) -> PassReading:
    """``session`` against the definition, at ``threshold`` (else the one it ran with)."""
    # The resolution rate's rule: an unsolved problem is part of the definition of "passed".
    resolution = session.latest_dialogue_judgments().get(gate_metric(RESOLUTION_RATE))
    resolved = None if resolution is None else resolved_of(resolution.outcome, resolution.score)
    return PassReading(
        ended_normally(session.status, session.stop_reason),
        session.score,
        session.threshold if threshold is None else threshold,
        resolved,
        metric_means_of(session_turn_verdicts(session), session.metrics, thresholds),
    )


def session_passed(session: StoredSession, threshold: float | None = None) -> bool:
    return read_pass(session, threshold).passed


def passed_count(sessions: Iterable[StoredSession]) -> int:
    return sum(1 for s in sessions if session_passed(s))
