"""What the report shows of a run, read from the database: the summary figures, each dialogue's
outcome, and the inputs of the charts. Dialogue verdicts are gathered by their stored name, so a
kind of verdict added later (``expectations`` …) shows without a change here."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field

from ...dialogue.estimate import RoleTokens, spent
from ...metrics import PRIMARY_METRIC
from ...registry import metric_views
from ...registry.metrics import RESOLUTION_RATE, gate_metric
from ...store import run_reads, run_shards
from ...store.labels import Label, labels_where
from ...store.store import Store
from ...text.score_text import NO_VERDICT, verdict_text
from ...types.agreement_floor import AgreementFloor
from ...types.stored import StoredDialogueJudgment, StoredSession
from ..expectation_rate import rate_line
from ..gate import run_gate, run_resolution
from ..listing import list_runs
from ..low_agreement import agreement_lines, left_out_line, low_metrics
from ..pass_k import RunPassK, pass_k_line, run_pass_k
from ..run_report import outcome, rate_words
from ..shards import shard_summary
from .charts import TrendPoint
from .turn_labels import labels_by_message

# The text of a verdict worth a line: the first of these its details hold.
TREND_RUNS = 10


@dataclass
class VerdictKind:
    """One kind of dialogue verdict over the run: how many, how many scored, their mean."""

    name: str
    count: int = 0
    scored: int = 0
    total: float = 0.0
    outcomes: dict[str, int] = field(default_factory=dict)

    @property
    def mean(self) -> float | None:
        return self.total / self.scored if self.scored else None


@dataclass
class DialogueView:
    session: StoredSession
    outcome_kind: str  # passed | failure | error | skipped (the run gate's reading)
    outcome_message: str
    resolution: str  # the resolution outcome word, "unscored", or "–" without one
    verdicts: list[StoredDialogueJudgment]
    low: bool = False  # its rubric score's judge agrees with people under the floor: ≈, not red

    @property
    def under_threshold(self) -> bool:
        score = self.session.score
        return score is not None and score < self.session.threshold

    @property
    def failed(self) -> bool:
        """Failed the gate: a skipped dialogue (not finished, or failing only on scores the gate
        leaves out) neither passed nor failed."""
        return self.outcome_kind in ("failure", "error")


@dataclass
class RunView:
    run_id: str
    database: str
    threshold: float
    dialogues: list[DialogueView]
    run_score: float | None
    resolution_line: str
    pass_k: str | None
    judge_models: list[str]
    kinds: list[VerdictKind]
    gate_status: int
    gate_reasons: list[str]
    trend: list[TrendPoint]
    shards: str | None
    agreement: str | None = None  # people's agree / disagree labels of this run's verdicts
    expectations: str | None = None  # the run's expectation pass rate and policies broken, when any
    # each metric's judge agreement with people, as measured (or unmeasured), and what the gate
    # left out because it was low
    measured: list[str] = field(default_factory=list)
    not_gated: str = ""
    trial_pairs: RunPassK | None = None  # each pair over its trials (pass_k.run_pass_k)
    tokens: list[RoleTokens] = field(default_factory=list)  # what each step spent (estimate.spent)
    labels: dict[int, list[Label]] = field(default_factory=dict)  # people's labels by bot message id

    @property
    def not_gated_under_threshold(self) -> int:
        """Dialogues scored under the threshold whose judge is low agreement: not failed by the
        gate, and the report says so as plainly as it says the gate passed."""
        return sum(1 for d in self.dialogues if d.under_threshold and d.low and d.outcome_kind == "skipped")

    @property
    def low(self) -> bool:
        """Every scored dialogue's rubric judge is low agreement: the run's scores carry ≈."""
        scored = [d for d in self.dialogues if d.session.score is not None]
        return bool(scored) and all(d.low for d in scored)

    @property
    def scenarios(self) -> list[str]:
        return sorted({d.session.scenario_id for d in self.dialogues})

    @property
    def personas(self) -> list[str]:
        return sorted({d.session.persona_name for d in self.dialogues})

    @property
    def outcomes(self) -> list[str]:
        return sorted({d.resolution for d in self.dialogues})

    def cells(self) -> dict[tuple[int, int], tuple[float | None, int, bool]]:
        """(scenario index, persona index) → (mean score over its scored dialogues, dialogues, and
        whether every scored one's judge is low agreement: the cell then reads ≈, never red)."""
        rows = {name: i for i, name in enumerate(self.scenarios)}
        columns = {name: j for j, name in enumerate(self.personas)}
        scored: dict[tuple[int, int], list[DialogueView]] = {}
        counts: dict[tuple[int, int], int] = {}
        for d in self.dialogues:
            key = (rows[d.session.scenario_id], columns[d.session.persona_name])
            counts[key] = counts.get(key, 0) + 1
            if d.session.score is not None:
                scored.setdefault(key, []).append(d)
        out: dict[tuple[int, int], tuple[float | None, int, bool]] = {}
        for key, n in counts.items():
            mine = scored.get(key, [])
            mean = sum(d.session.score or 0.0 for d in mine) / len(mine) if mine else None
            out[key] = (mean, n, bool(mine) and all(d.low for d in mine))
        return out


def verdict_summary(j: StoredDialogueJudgment) -> str:
    """The verdict's own words, whatever its kind: its summary, conclusion … or why it is unscored."""
    words = j.verdict.words
    if words:
        return words
    if j.skipped:
        return "skipped"
    return j.error or ""


def _resolution_word(latest: dict[str, StoredDialogueJudgment]) -> str:
    """The outcome filter and the dialogue's headline: the outcome word of the metric that makes
    the run's resolution rate."""
    j = latest.get(gate_metric(RESOLUTION_RATE))
    if j is None:
        return NO_VERDICT
    if j.score is None:
        return verdict_text(None, j.skipped)
    return (j.outcome or "scored").replace("_", " ")


def _kinds(dialogues: list[DialogueView]) -> list[VerdictKind]:
    kinds: dict[str, VerdictKind] = {}
    for d in dialogues:
        for j in d.verdicts:
            kind = kinds.setdefault(j.metric, VerdictKind(j.metric))
            kind.count += 1
            if j.score is not None:
                kind.scored += 1
                kind.total += j.score
            if j.outcome:
                kind.outcomes[j.outcome] = kind.outcomes.get(j.outcome, 0) + 1
    # The registry's order (plugins' included); a kind no longer registered after them, by name.
    return [kinds[name] for name in metric_views.shown_metrics(set(kinds))]


def _interval(scores: list[float]) -> tuple[float | None, float | None, float | None]:
    """Mean and a 95% interval (normal approximation: cheap for a run of thousands)."""
    if not scores:
        return None, None, None
    mean = sum(scores) / len(scores)
    if len(scores) < 2:
        return mean, mean, mean
    sd = math.sqrt(sum((s - mean) ** 2 for s in scores) / (len(scores) - 1))
    half = 1.96 * sd / math.sqrt(len(scores))
    return mean, max(0.0, mean - half), min(1.0, mean + half)


def run_trend(store: Store, run_id: str) -> list[TrendPoint]:
    """The last runs of this run's scenario × persona set, up to this one, with intervals."""
    runs = list_runs(store)
    mine = next((r for r in runs if r.run_id == run_id), None)
    if mine is None:
        return []
    same = [r.run_id for r in runs if r.scenario_set == mine.scenario_set]
    shown = same[: same.index(run_id) + 1][-TREND_RUNS:]
    scores: dict[str, list[float]] = {r: [] for r in shown}
    for rid, score in run_reads.scores_of_runs(store, shown):
        scores[rid].append(float(score))
    return [TrendPoint(rid, *_interval(scores[rid]), current=rid == run_id) for rid in shown]


def label_agreement(store: Store, run_id: str) -> str | None:
    """How often people who labelled this run's verdicts agreed with the judge; None unlabelled."""
    rows = run_reads.label_agreement(store, run_id)
    if not rows:
        return None
    return "; ".join(
        f"{metric}: people agreed with {int(agreed)} of {n} labelled verdict(s)" for metric, agreed, n in rows
    )


def run_view(
    store: Store,
    run_id: str,
    thresholds: Mapping[str, float],
    min_resolution_rate: float = 0.0,
    floor: AgreementFloor | None = None,
    gate_low_agreement: bool = False,
    prices: Mapping[str, tuple[float, float]] | None = None,
) -> RunView:
    sessions = store.run_sessions(run_id)
    threshold = sessions[0].threshold if sessions else 0.7
    gate = run_gate(
        sessions, threshold, thresholds, min_resolution_rate, floor=floor, gate_low_agreement=gate_low_agreement
    )
    dialogues = []
    for s in sessions:
        latest = s.latest_dialogue_judgments()
        result = outcome(s, thresholds, gate)
        dialogues.append(
            DialogueView(
                s,
                result.kind,
                result.message,
                _resolution_word(latest),
                [latest[m] for m in metric_views.shown_metrics(set(latest))],
                PRIMARY_METRIC in low_metrics(s, gate.floor),
            )
        )
    scored = [s.score for s in sessions if s.score is not None]
    has_verdicts = any(d.verdicts for d in dialogues)
    trials = run_pass_k(sessions, threshold)
    judges = sorted(
        {j.model for s in sessions for j in s.judgments if j.model}
        | {j.model for d in dialogues for j in d.verdicts if j.model}
    )
    return RunView(
        run_id=run_id,
        database=store.path.name if store.path else "",  # the file's name: a CI runner's folders are noise
        threshold=threshold,
        dialogues=dialogues,
        run_score=sum(scored) / len(scored) if scored else None,
        resolution_line=rate_words(run_resolution(sessions) if has_verdicts else None),
        pass_k=pass_k_line(trials) if trials.trials > 1 else None,
        judge_models=judges,
        kinds=_kinds(dialogues),
        gate_status=gate.status,
        gate_reasons=list(gate.reasons),
        trend=run_trend(store, run_id),
        shards=shard_summary(run_id, run_shards.shards_of(store, run_id)),
        agreement=label_agreement(store, run_id),
        expectations=rate_line(gate.expectations) if gate.expectations.dialogues else None,
        measured=agreement_lines(sessions, gate.floor),
        not_gated=left_out_line(gate.left_out),
        trial_pairs=trials,
        tokens=spent(store, run_id, dict(prices or {})),
        labels=labels_by_message(labels_where(store, run_id=run_id)),
    )
