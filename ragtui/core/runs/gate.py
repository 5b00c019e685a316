"""The gate of ``ragtui run``: whether a finished run passes, and every reason it does not.

One place decides, so the exit status, the JUnit report and the Markdown summary never
disagree: a dialogue fails on its rubric score (under the threshold, or no score at all — a
gate never passes without evidence) and on every other metric the run asked for
(``--metric``); the run fails on its resolution rate when ``min_resolution_rate`` is set, on
its expectation pass rate when ``min_expectation_rate`` is set, and on any broken policy with
``--fail-on-policy``.

A score from a judge whose measured agreement with people is under ``[min_judge_agreement]``
(``metrics.agreement_floor``) does not fail the gate unless ``gate_low_agreement`` (or
``--gate-low-agreement``) asks: the result lists what was left out, for the run summary's line.
The same floor applies to the dialogue verdicts that gate the run: the resolution rate, the
expectation rate and broken policies are left out when every such verdict of the run is low
agreement. The result also names which verdicts decided the exit status and which were shown
only (``gate_scope``).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..metrics import PRIMARY_METRIC
from ..registry.metrics import EXPECTATION_RATE, RESOLUTION_RATE, gate_metric
from ..store.dialogue_verdicts import ResolutionRate, resolution_rate
from ..text.number_text import percent_text, setting_text
from ..text.score_text import under_mark
from ..types.agreement_floor import AgreementFloor, floor_words
from ..types.stored import StoredSession
from .expectation_rate import ExpectationRate, expectation_rate, expectation_reasons
from .gate_scope import VerdictScope, scope_of
from .low_agreement import LeftOut, add_left_out, low_dialogue_metrics, low_metrics
from .passing import ENDED_BADLY, ended_normally, metric_means_of, session_turn_verdicts

GATED_STOPS = ENDED_BADLY


def metric_means(
    session: StoredSession, thresholds: Mapping[str, float]
) -> dict[str, tuple[float | None, float | None]]:
    """Per metric other than the rubric (``--metric``): the mean of its newest scored verdict
    per turn (None when no turn could be scored) and its pass mark. Skipped verdicts (not
    applicable to the turn) count neither way. The same reading "passed" makes (``passing``)."""
    means = metric_means_of(session_turn_verdicts(session), session.metrics, thresholds)
    return {metric: (m.mean, m.mark) for metric, m in means.items()}


@dataclass(frozen=True)
class LowScore:
    """A failing score whose judge agrees with people under the floor: the gate leaves it out."""

    metric: str
    score: float
    mark: float  # the pass mark it is under
    details: dict[str, Any]  # one of its verdicts' details (they carry the judge's agreement)


def failing_low_scores(
    session: StoredSession, thresholds: Mapping[str, float], floor: AgreementFloor, threshold: float
) -> list[LowScore]:
    """The dialogue's failing low-agreement scores: the rubric's score under ``threshold``, then
    each ``--metric`` mean under its pass mark — the ones the gate and the reports leave out."""
    low = low_metrics(session, floor)
    out = []
    if PRIMARY_METRIC in low and session.score is not None and session.score < threshold:
        out.append(LowScore(PRIMARY_METRIC, session.score, threshold, low[PRIMARY_METRIC]))
    for metric, (mean, mark) in metric_means(session, thresholds).items():
        if metric in low and mean is not None and mark is not None and mean < mark:
            out.append(LowScore(metric, mean, mark, low[metric]))
    return out


def metric_problems(session: StoredSession, thresholds: Mapping[str, float], exempt: Collection[str] = ()) -> list[str]:
    """Why the ``--metric`` metrics fail this dialogue: ``faithfulness 0.40 < 0.8``. ``exempt``:
    metrics whose failing score does not count (low judge agreement)."""
    problems = []
    for metric, (mean, mark) in metric_means(session, thresholds).items():
        if mean is not None and metric in exempt:
            continue
        if mean is None:
            problems.append(f"{metric} unscored")
        elif mark is not None and mean < mark:
            problems.append(f"{metric} {under_mark(mean, mark)}")
    return problems


def judged(session: StoredSession) -> bool:
    """A dialogue the gate counts: it ended normally — finished, not cancelled or in error (those
    are reported apart)."""
    return ended_normally(session.status, session.stop_reason)


def run_resolution(sessions: list[StoredSession]) -> ResolutionRate:
    """The run's resolution rate over the dialogues the gate counts (newest verdict each)."""
    return resolution_rate({s.id: s.latest_dialogue_judgments() for s in sessions if judged(s)})


@dataclass
class GateResult:
    status: int  # 0 pass, 1 fail, 2 a dialogue ended in error
    reasons: list[str] = field(default_factory=list)  # one line each, for the terminal and reports
    resolution: ResolutionRate | None = None  # when the run has dialogue verdicts
    min_resolution_rate: float = 0.0
    resolution_problem: str | None = None  # why the resolution gate fails, when it does
    expectations: ExpectationRate = field(default_factory=ExpectationRate)
    floor: AgreementFloor = field(default_factory=AgreementFloor)
    gate_low_agreement: bool = False
    left_out: list[LeftOut] = field(default_factory=list)  # failing low-agreement scores not counted
    # Which verdicts decided the exit status and which were shown only, in the summary's order.
    scope: list[VerdictScope] = field(default_factory=list)

    def exempt(self, session: StoredSession) -> set[str]:
        """The metrics of ``session`` whose failing scores this gate does not count."""
        return set() if self.gate_low_agreement else set(low_metrics(session, self.floor))


def resolution_reason(rate: ResolutionRate, minimum: float) -> str | None:
    """Why the resolution gate fails, or None. An unscored verdict is no evidence either way:
    it is never counted as unresolved, but the gate cannot pass on it (as for turn scores)."""
    if minimum <= 0:
        return None
    if rate.rate is None:
        return f"resolution rate unscored (no dialogue has a scored resolution verdict; min_resolution_rate {setting_text(minimum)})"
    if rate.rate < minimum:
        return f"resolution rate {percent_text(rate.rate)} ({rate.successes}/{rate.scored}) < min_resolution_rate {percent_text(minimum)}"
    if rate.unscored:
        return f"{rate.unscored} dialogue(s) without a scored resolution verdict (min_resolution_rate {percent_text(minimum)})"
    return None


def run_gate(
    sessions: list[StoredSession],
    threshold: float,
    thresholds: Mapping[str, float] | None = None,
    min_resolution_rate: float = 0.0,
    min_expectation_rate: float = 0.0,
    fail_on_policy: bool = False,
    floor: AgreementFloor | None = None,
    gate_low_agreement: bool = False,
) -> GateResult:
    """2 if any dialogue ended in error; else 1 if any dialogue fails (see the module) or the
    resolution rate is under ``min_resolution_rate``; else 0. Cancelled and interrupted
    dialogues count neither way: the run table and the resume hint show them."""
    thresholds = thresholds or {}
    counted = [s for s in sessions if judged(s)]
    resolution = run_resolution(sessions) if any(s.dialogue_judgments for s in counted) else None
    result = GateResult(0, resolution=resolution, min_resolution_rate=min_resolution_rate)
    result.floor, result.gate_low_agreement = floor or AgreementFloor(), gate_low_agreement
    result.expectations = expectation_rate(counted)
    errors = [s for s in sessions if s.stop_reason == "error"]
    if errors:
        result.status = 2
        result.reasons.append(f"{len(errors)} dialogue(s) ended in error")
    # Per dialogue, the failing scores the gate leaves out (none when it gates them anyway).
    left = {
        s.id: [] if gate_low_agreement else failing_low_scores(s, thresholds, result.floor, threshold) for s in counted
    }
    under = 0
    for s in counted:
        if s.score is None or s.score >= threshold:
            continue
        rubric = [i for i in left[s.id] if i.metric == PRIMARY_METRIC]
        if rubric:
            add_left_out(result.left_out, PRIMARY_METRIC, rubric[0].details, result.floor)
        else:
            under += 1
    unscored = sum(1 for s in counted if s.score is None)
    if under:
        result.reasons.append(f"{under} dialogue(s) scored under the threshold {setting_text(threshold)}")
    if unscored:
        result.reasons.append(f"{unscored} dialogue(s) could not be scored")
    for s in counted:
        for item in left[s.id]:
            if item.metric != PRIMARY_METRIC:
                add_left_out(result.left_out, item.metric, item.details, result.floor)
        for metric_problem in metric_problems(s, thresholds, result.exempt(s)):
            result.reasons.append(f"#{s.id} {s.scenario_id} × {s.persona_name}: {metric_problem}")
    # Dialogue verdicts whose judge is under the floor in every dialogue: their gates are shown only.
    low_dialogue = {} if gate_low_agreement else low_dialogue_metrics(counted, result.floor)
    if min_resolution_rate > 0 and counted:
        problem = resolution_reason(resolution or ResolutionRate(0, 0, len(counted)), min_resolution_rate)
        resolution_metric = gate_metric(RESOLUTION_RATE)
        if problem and resolution_metric in low_dialogue:
            why = floor_words(low_dialogue[resolution_metric], result.floor)
            result.left_out.append(LeftOut(resolution_metric, why, failing=problem))
        elif problem:
            result.resolution_problem = problem
            result.reasons.append(problem)
    if counted:
        failing = expectation_reasons(result.expectations, min_expectation_rate, fail_on_policy)
        expectations = gate_metric(EXPECTATION_RATE)
        if failing and expectations in low_dialogue:
            why = floor_words(low_dialogue[expectations], result.floor)
            result.left_out.append(LeftOut(expectations, why, failing="; ".join(failing)))
        else:
            result.reasons.extend(failing)
    result.scope = scope_of(
        counted, result.floor, gate_low_agreement, min_resolution_rate, min_expectation_rate, fail_on_policy
    )
    if result.status == 0 and result.reasons:
        result.status = 1
    return result
