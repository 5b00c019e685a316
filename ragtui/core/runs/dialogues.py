"""A run's dialogues in the light form comparison needs, read with three queries per run.

Loading full ``StoredSession`` objects (every prompt and raw reply) for two runs of a thousand
dialogues would cost seconds and hundreds of megabytes; comparison only needs scores, the
latest judgment per turn and metric, and the message texts to see where dialogues diverge.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..metrics import PRIMARY_METRIC
from ..registry import metric_views
from ..registry.metrics import EXPECTATION_RATE, RESOLUTION_RATE, gate_metric
from ..store import run_reads
from ..store.store import Store
from ..types.judge_key import current_agreement
from .passing import TurnVerdict, dialogue_passed, metric_means_of, resolved_of, turn_verdict

PairKey = tuple[str, str, int]  # scenario, persona, occurrence (1 unless a run repeats a pair)


@dataclass(frozen=True)
class VerdictScore:
    """The newest verdict of one dialogue metric, reduced to what comparison needs."""

    metric: str
    score: float | None
    outcome: str | None
    skipped: bool = False
    threshold: float | None = None

    @property
    def status(self) -> str:
        """pass | fail | unscored | skipped. A metric with success outcomes passes on its outcome
        (a resolution resolved or correctly handed over, as in the run's resolution rate); the
        others at their pass mark."""
        return metric_views.status(self, self.threshold)

    def words(self, low: bool = False) -> str:
        """``resolved 1.00`` / ``0.50`` / ``unscored`` / ``skipped``; ``≈0.50`` when ``low``."""
        return metric_views.cell(self, low)


@dataclass(frozen=True)
class ExpectationOutcome:
    """One expectation's result in a dialogue, reduced to what comparison needs."""

    status: str  # met | missed | kept | broken | unscored
    text: str
    origin: str  # scenario | policy
    turn: int | None = None

    @property
    def passed(self) -> bool | None:
        return None if self.status == "unscored" else self.status in ("met", "kept")


@dataclass
class RunDialogue:
    session_id: int
    scenario_id: str
    persona_name: str
    language: str
    score: float | None
    threshold: float
    stop_reason: str | None
    turns: int
    unscored_turns: int
    trial: int = 1  # which trial of its scenario × persona (`ragtui run --repeat K`)
    customer: dict[int, str] = field(default_factory=dict)  # turn → customer message
    bot: dict[int, str] = field(default_factory=dict)  # turn → bot answer
    judgments: dict[tuple[int, str], float | None] = field(default_factory=dict)  # newest per (turn, metric)
    verdicts: dict[str, VerdictScore] = field(default_factory=dict)  # newest dialogue verdict per metric
    # expectation id → its result in the newest expectations verdict
    expectations: dict[str, ExpectationOutcome] = field(default_factory=dict)
    # metric → its judge's measured agreement with people (``details["agreement"]`` of a newest
    # scored verdict), absent when unmeasured
    agreement: dict[str, dict[str, Any]] = field(default_factory=dict)
    # the newest verdict per turn of each metric other than the rubric (``--metric``): its pass reads them
    metric_verdicts: dict[tuple[int, str], TurnVerdict] = field(default_factory=dict)

    @property
    def status(self) -> str:
        """pass | fail | unscored: a dialogue with no score neither passes nor fails."""
        if self.score is None:
            return "unscored"
        return "pass" if self.score >= self.threshold else "fail"

    @property
    def counted(self) -> bool:
        """A trial: not ended by an error or a cancel (those are reported apart, as in the gate)."""
        return self.stop_reason not in ("error", "cancelled")

    @property
    def passed(self) -> bool:
        """Passed, as every output reads it (``passing.dialogue_passed``, docs/glossary.md)."""
        # The resolution rate's rule: an unsolved problem is part of the definition of "passed".
        resolution = self.verdicts.get(gate_metric(RESOLUTION_RATE))
        resolved = None if resolution is None else resolved_of(resolution.outcome, resolution.score)
        verdicts = self.metric_verdicts.values()
        hold = all(m.holds for m in metric_means_of(verdicts, {v.metric for v in verdicts}).values())
        return dialogue_passed(self.counted, self.score, self.threshold, resolved, hold)

    def turn_score(self, turn: int) -> float | None:
        return self.judgments.get((turn, PRIMARY_METRIC))

    def metric_mean(self, metric: str) -> float | None:
        scores = [v for (_t, m), v in self.judgments.items() if m == metric and v is not None]
        return sum(scores) / len(scores) if scores else None

    @property
    def metrics(self) -> set[str]:
        return {m for _t, m in self.judgments}


def load_run(store: Store, run_id: str) -> list[RunDialogue]:
    """Every dialogue of ``run_id``, oldest first."""
    lookup = store.agreement_lookup
    by_id = {r[0]: RunDialogue(*r) for r in run_reads.run_sessions(store, run_id)}
    for session_id, turn, role, text in run_reads.run_texts(store, run_id):
        (by_id[session_id].customer if role == "user" else by_id[session_id].bot)[turn] = text
    # Ordered by version, so the newest version of each (turn, metric) is the one left.
    entries: dict[tuple[int, int, str], dict[str, Any] | None] = {}
    for session_id, turn, metric, score, agreement, key, mark, skipped in run_reads.run_turn_verdicts(store, run_id):
        by_id[session_id].judgments[(turn, metric)] = score
        if metric != PRIMARY_METRIC:
            verdict = turn_verdict(turn, metric, score, {"threshold": mark, "skipped": skipped})
            by_id[session_id].metric_verdicts[(turn, metric)] = verdict
        scored = score is not None
        entries[(session_id, turn, metric)] = current_agreement(metric, agreement, key, lookup) if scored else None
    for (session_id, _turn, metric), entry in entries.items():
        if entry and metric not in by_id[session_id].agreement:
            by_id[session_id].agreement[metric] = entry
    # Dialogue verdicts: only the columns needed (not prompts or raw replies), newest version last.
    for session_id, metric, score, outcome, threshold, skipped, agreement, key in run_reads.run_dialogue_verdicts(
        store, run_id
    ):
        # The newest version's judge: its agreement (or none, unmeasured) replaces an older one's.
        by_id[session_id].agreement.pop(metric, None)
        entry = current_agreement(metric, agreement, key, lookup) if score is not None else None
        if entry:
            by_id[session_id].agreement[metric] = entry
        by_id[session_id].verdicts[metric] = VerdictScore(
            metric,
            score,
            outcome,
            skipped=score is None and bool(skipped),
            threshold=float(threshold) if isinstance(threshold, int | float) else None,
        )
    _load_expectations(store, run_id, by_id)
    return list(by_id.values())


def _load_expectations(store: Store, run_id: str, by_id: dict[int, RunDialogue]) -> None:
    """Each dialogue's newest expectations verdict, one row per expectation (json_each), with
    only the fields comparison needs — not the checks' prompts and replies."""
    newest: dict[int, int] = {}
    rows = run_reads.run_expectation_results(
        store, run_id, gate_metric(EXPECTATION_RATE)
    )  # its results: one per expectation
    for session_id, version, eid, status, text, origin, turn in rows:
        dialogue = by_id[session_id]
        if newest.get(session_id) != version:  # a newer version replaces the older one whole
            newest[session_id] = version
            dialogue.expectations = {}
        dialogue.expectations[str(eid)] = ExpectationOutcome(str(status), str(text), str(origin or "scenario"), turn)


def keyed(dialogues: list[RunDialogue]) -> dict[PairKey, RunDialogue]:
    """Dialogues by scenario × persona; a pair that occurs twice in a run is matched in order of
    trial (parallel workers finish trials in any order, so session ids are not trial order)."""
    seen: dict[tuple[str, str], int] = {}
    out: dict[PairKey, RunDialogue] = {}
    for d in sorted(dialogues, key=lambda d: d.trial):  # stable: session order within a trial
        n = seen.get((d.scenario_id, d.persona_name), 0) + 1
        seen[(d.scenario_id, d.persona_name)] = n
        out[(d.scenario_id, d.persona_name, n)] = d
    return out


def by_pair(dialogues: list[RunDialogue]) -> dict[tuple[str, str], list[RunDialogue]]:
    """Every counted trial of each scenario × persona, in trial order: none dropped, none picked."""
    out: dict[tuple[str, str], list[RunDialogue]] = {}
    for d in sorted(dialogues, key=lambda d: d.trial):
        if d.counted:
            out.setdefault((d.scenario_id, d.persona_name), []).append(d)
    return out
