"""Which verdicts decided a run's exit status, and which were shown only — one line of the run
summary, so a run that passes because nothing judged could fail it says so.

A verdict decides the exit status when it has a gate that is on (the rubric and each ``--metric``
always; the resolution rate with ``min_resolution_rate``; expectations with
``min_expectation_rate`` or ``--fail-on-policy``) and its judge is not under the agreement floor
in every dialogue (or ``--gate-low-agreement`` asks). Every other verdict of the run is shown only,
with the reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..registry.metrics import DIALOGUE, EXPECTATION_RATE, RESOLUTION_RATE, gate_role, metric_info
from ..types.agreement_floor import AgreementFloor
from ..types.stored import StoredSession
from .low_agreement import low_dialogue_metrics, low_metrics

LOW = "low agreement"


@dataclass(frozen=True)
class VerdictScope:
    metric: str
    gates: bool
    why: str = ""  # why it is shown only: "low agreement", "min_resolution_rate 0: off", "not a gate"


def _turn_scopes(sessions: list[StoredSession], floor: AgreementFloor, gate_low: bool) -> list[VerdictScope]:
    present: dict[str, bool] = {}  # metric → low in every dialogue that scored it
    for s in sessions:
        low = low_metrics(s, floor)
        for (_turn, metric), j in sorted(s.latest_judgments().items()):
            if j.score is not None:
                present[metric] = present.get(metric, True) and metric in low
    return [VerdictScope(m, gate_low or not low, "" if gate_low or not low else LOW) for m, low in present.items()]


def _dialogue_gate_off(metric: str, min_resolution: float, min_expectation: float, fail_on_policy: bool) -> str:
    """Why a dialogue verdict's gate is off, or "" when it is on."""
    role = gate_role(metric)
    if role == RESOLUTION_RATE:
        return "" if min_resolution > 0 else "min_resolution_rate 0: off"
    if role == EXPECTATION_RATE:
        return "" if min_expectation > 0 or fail_on_policy else "min_expectation_rate 0 and no --fail-on-policy: off"
    return "not a gate"


def scope_of(
    sessions: list[StoredSession],
    floor: AgreementFloor,
    gate_low: bool,
    min_resolution: float,
    min_expectation: float,
    fail_on_policy: bool,
) -> list[VerdictScope]:
    """Each verdict of ``sessions`` (the dialogues the gate counts): whether it decided the exit status."""
    out = _turn_scopes(sessions, floor, gate_low)
    low = {} if gate_low else low_dialogue_metrics(sessions, floor)
    judged = sorted(
        {m for s in sessions for m, j in s.latest_dialogue_judgments().items() if j.score is not None},
        key=lambda m: (getattr(metric_info(m), "order", 50), m),
    )
    for metric in judged:
        info = metric_info(metric)
        if info is not None and info.kind != DIALOGUE:
            continue
        off = _dialogue_gate_off(metric, min_resolution, min_expectation, fail_on_policy)
        out.append(VerdictScope(metric, not off and metric not in low, off or (LOW if metric in low else "")))
    return out


def gate_off(scopes: list[VerdictScope]) -> set[str]:
    """The verdicts whose gate is off in this run ("not a gate", a minimum of 0): they are shown
    only whatever their judge's agreement, so no change of agreement can make them gate or stop."""
    return {s.metric for s in scopes if not s.gates and s.why != LOW}


def scope_line(scopes: list[VerdictScope]) -> str:
    """``exit status decided by: rubric · shown only: resolution (low agreement), repetition (not a
    gate)``; when nothing judged decides it, says so plainly. "" for a run with no verdicts."""
    if not scopes:
        return ""
    shown = ", ".join(f"{s.metric} ({s.why})" for s in scopes if not s.gates)
    deciding = [s.metric for s in scopes if s.gates]
    if deciding:
        return f"exit status decided by: {', '.join(deciding)}" + (f" · shown only: {shown}" if shown else "")
    return (
        f"no verdict decides this exit status — shown only: {shown}; only dialogues that end in error, "
        "do not finish or cannot be scored fail the run (--gate-low-agreement gates on the low-agreement ones)"
    )
