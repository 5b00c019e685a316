"""Scores from a judge whose measured agreement with people is under the floor
(``metrics.agreement_floor``): which metrics of a dialogue they are, and the run summary's line
when the gate left them out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..registry.metrics import PRIMARY_METRIC
from ..store import run_reads
from ..store.store import Store
from ..types.agreement_floor import AgreementFloor, floor_words, is_low, trust_cell
from ..types.judge_key import current_agreement
from ..types.stored import StoredSession

GATE_ANYWAY = "gate them anyway with --gate-low-agreement or gate_low_agreement = true"


def low_metrics(session: StoredSession, floor: AgreementFloor) -> dict[str, dict[str, Any]]:
    """Metric → the details of one of its verdicts, for each metric of the dialogue whose newest
    scored verdicts are all low agreement. One trusted score among them keeps the metric gated:
    only a metric with no score worth gating on is left out."""
    by_metric: dict[str, list[dict[str, Any]]] = {}
    for j in session.latest_judgments().values():
        if j.score is not None:
            by_metric.setdefault(j.metric, []).append(j.details)
    return {m: ds[0] for m, ds in by_metric.items() if all(is_low(d, floor) for d in ds)}


def low_dialogue_metrics(sessions: list[StoredSession], floor: AgreementFloor) -> dict[str, dict[str, Any]]:
    """Metric → the details of one of its verdicts, for each dialogue metric (resolution,
    expectations …) whose newest scored verdicts in ``sessions`` all come from a judge under the
    floor: its run-level gate (the resolution rate, the expectation rate) is left out."""
    by_metric: dict[str, list[dict[str, Any]]] = {}
    for s in sessions:
        for metric, j in s.latest_dialogue_judgments().items():
            if j.score is not None:
                by_metric.setdefault(metric, []).append(j.details)
    return {m: ds[0] for m, ds in by_metric.items() if all(is_low(d, floor) for d in ds)}


@dataclass
class LeftOut:
    """A metric whose failing scores the gate did not count, and why."""

    metric: str
    why: str  # "Spearman 0.10 < floor 0.5"
    dialogues: int = 0
    failing: str = ""  # a run-level gate left out: what it would have failed on


def add_left_out(left_out: list[LeftOut], metric: str, details: dict[str, Any], floor: AgreementFloor) -> None:
    for item in left_out:
        if item.metric == metric:
            item.dialogues += 1
            return
    left_out.append(LeftOut(metric, floor_words(details, floor), 1))


def left_out_line(left_out: list[LeftOut]) -> str:
    """``not gated (low judge agreement): rubric Spearman 0.10 < floor 0.5 (2 dialogue(s) under its
    pass mark); gate them anyway with …``; "" when nothing was left out."""
    if not left_out:
        return ""
    parts = [f"{i.metric} {i.why} ({i.failing or f'{i.dialogues} dialogue(s) under its pass mark'})" for i in left_out]
    return f"not gated (low judge agreement): {', '.join(parts)}; {GATE_ANYWAY}"


def metric_agreements(sessions: list[StoredSession]) -> dict[str, dict[str, Any]]:
    """Metric → the details of its first scored verdict in ``sessions`` (which carry its judge's
    measured agreement, or nothing when unmeasured): what a report shows per metric, turn and
    dialogue verdicts alike."""
    best: dict[str, tuple[bool, dict[str, Any]]] = {}  # metric → (carries its agreement, details)
    for s in sessions:
        turn = [(metric, j.score, j.verdict, j.details) for (_, metric), j in sorted(s.latest_judgments().items())]
        dialogue = [(m, j.score, j.verdict, j.details) for m, j in sorted(s.latest_dialogue_judgments().items())]
        for metric, score, verdict, details in turn + dialogue:
            carries = verdict.agreement_recorded
            if score is not None and (metric not in best or (carries and not best[metric][0])):
                best[metric] = (carries, details)
    return {metric: details for metric, (_, details) in best.items()}


def agreement_lines(sessions: list[StoredSession], floor: AgreementFloor) -> list[str]:
    """``rubric judge: Spearman 0.10 (n=18) · low agreement`` per metric with a score."""
    return [f"{m} judge: {trust_cell(d, floor)}" for m, d in sorted(metric_agreements(sessions).items())]


def low_rubric_sessions(store: Store, session_ids: list[int], floor: AgreementFloor) -> set[int]:
    """Of ``session_ids``, the sessions whose newest scored rubric verdicts all come from a judge
    under the floor (as ``low_metrics`` reads a loaded session), from one query — for the lists
    of sessions, which load no verdicts."""
    if not session_ids:
        return set()
    lows: dict[int, list[bool]] = {}
    for session_id, agreement, key in run_reads.newest_judges(store, session_ids, PRIMARY_METRIC):
        entry = current_agreement(PRIMARY_METRIC, agreement, key, store.agreement_lookup)
        details = {"agreement": entry} if entry else {}
        lows.setdefault(session_id, []).append(is_low(details, floor))
    return {sid for sid, each in lows.items() if all(each)}
