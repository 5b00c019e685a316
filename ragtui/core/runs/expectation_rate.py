"""A run's expectations: the share met or kept, and the policies broken, over its dialogues.

Read from each dialogue's newest verdict of the metric that makes the expectation rate
(``gates = EXPECTATION_RATE``). An unscored expectation (a check
the judge's reply did not answer) counts neither way; a dialogue without the verdict (its
scenario has no expectations and no policy applies) is not part of the rate at all.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..registry.metrics import EXPECTATION_RATE, gate_metric
from ..text.number_text import percent_text, setting_text
from ..types.expectations import ExpectationResult, results_from_details
from ..types.stored import StoredDialogueJudgment, StoredSession


@dataclass(frozen=True)
class Failure:
    """A missed expectation or a broken policy, in one dialogue."""

    session_id: int
    scenario_id: str
    persona_name: str
    result: ExpectationResult

    @property
    def label(self) -> str:
        r = self.result
        what = "policy broken" if r.expectation.origin == "policy" else r.status
        at = f" at turn {r.turn}" if r.turn is not None else ""
        return f"{r.expectation.id} ({what}{at}): {r.expectation.text}"


@dataclass
class ExpectationRate:
    passed: int = 0
    scored: int = 0
    unscored: int = 0
    dialogues: int = 0  # dialogues with an expectations verdict
    failures: list[Failure] = field(default_factory=list)

    @property
    def rate(self) -> float | None:
        return self.passed / self.scored if self.scored else None

    @property
    def policies_broken(self) -> list[Failure]:
        return [f for f in self.failures if f.result.expectation.origin == "policy"]


def session_results(session: StoredSession) -> list[ExpectationResult]:
    verdict = session.latest_dialogue_judgments().get(gate_metric(EXPECTATION_RATE))
    return verdict_results(verdict)


def verdict_results(verdict: StoredDialogueJudgment | None) -> list[ExpectationResult]:
    return results_from_details(verdict.details) if verdict is not None else []


def expectation_rate(sessions: Iterable[StoredSession]) -> ExpectationRate:
    rate = ExpectationRate()
    for s in sessions:
        verdict = s.latest_dialogue_judgments().get(gate_metric(EXPECTATION_RATE))
        if verdict is None:
            continue
        rate.dialogues += 1
        for r in verdict_results(verdict):
            if r.passed is None:
                rate.unscored += 1
                continue
            rate.scored += 1
            if r.passed:
                rate.passed += 1
            else:
                rate.failures.append(Failure(s.id, s.scenario_id, s.persona_name, r))
    return rate


def rate_line(rate: ExpectationRate) -> str:
    """``expectations 7/9 (78%) met or kept, 1 policy broken``."""
    if rate.rate is None:
        return "expectations unscored" if rate.dialogues else "no expectations"
    broken = len(rate.policies_broken)
    line = f"expectations {rate.passed}/{rate.scored} ({percent_text(rate.rate)}) met or kept"
    if rate.unscored:
        line += f", {rate.unscored} unscored"
    return line + f", {broken} polic{'y' if broken == 1 else 'ies'} broken"


def expectation_reasons(rate: ExpectationRate, minimum: float, fail_on_policy: bool) -> list[str]:
    """Why the expectation gates fail the run (empty when they pass or are off)."""
    reasons: list[str] = []
    if fail_on_policy:
        for f in rate.policies_broken:
            reasons.append(f"#{f.session_id} {f.scenario_id} × {f.persona_name}: {f.label}")
    if minimum > 0:
        if rate.rate is None:
            reasons.append(
                f"expectation rate unscored (no scored expectation; min_expectation_rate {setting_text(minimum)})"
            )
        elif rate.rate < minimum:
            reasons.append(
                f"expectation rate {percent_text(rate.rate)} ({rate.passed}/{rate.scored}) < min_expectation_rate {percent_text(minimum)}"
            )
    return reasons
