"""Calibration: run a metric over labelled items and measure how far it agrees with people.

``Calibrator`` judges each item exactly as a dialogue turn would be judged (same metric
classes, prompts, examples and retry rules; derived metrics get their inputs), stores each
result as it completes (``calibration_store``), skips items a matching earlier run already
judged, and ``report()`` computes agreement from everything stored for the selected items:
Spearman with a 95% interval for graded metrics, accuracy/F1/kappa for binary ones, plus items
per minute, unscored and skipped counts, and the items it disagreed with most.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..metrics.base import Metric, TurnContext
from ..models.llm import ChatClient
from ..store.store import Store
from ..types.judgments import Judgment
from ..types.passages import Passage
from ..types.turns import Utterance
from . import agreement
from . import calibration_store as db
from .labelled import LabelledItem


@dataclass(frozen=True)
class Disagreement:
    key: str
    line: int
    label: float
    score: float
    conclusion: str

    @property
    def gap(self) -> float:
        return abs(self.score - self.label)


@dataclass
class CalibrationReport:
    run_id: int
    metric: str
    binary: bool
    selected: int  # items chosen for this report (after --limit and skipped input lines)
    judged: int  # of those, judged (now or in an earlier session)
    scored: int
    unscored: int
    skipped: int  # the metric did not apply (e.g. no reference)
    items_per_minute: float | None
    spearman: float | None = None
    interval: tuple[float, float] | None = None
    mae: float | None = None
    binary_stats: agreement.BinaryAgreement | None = None
    auc: float | None = None  # good vs bad items, when the data marks them (the rubric set)
    by_language: dict[str, LanguageFigures] = field(default_factory=dict)
    worst: list[Disagreement] = field(default_factory=list)


@dataclass(frozen=True)
class LanguageFigures:
    n: int
    spearman: float | None
    auc: float | None


def context_for(item: LabelledItem) -> TurnContext:
    passages = [Passage(f"{item.key}#{i}", "", text) for i, text in enumerate(item.passages, start=1)]
    return TurnContext(
        turn=1,
        question=item.question,
        response=item.response,
        passages=passages,
        history=[Utterance("user" if role == "user" else "bot", text) for role, text in item.history],
        language=item.language,
        reference=item.reference,
    )


def dialogue_context_for(item: LabelledItem) -> Any:
    from ..metrics.dialogue import context_from_messages

    return context_from_messages(
        [{"role": role, "text": text} for role, text in item.messages], item.language, list(item.passages)
    )


async def judge_with(metrics: list[Metric], target: str, context: TurnContext) -> Judgment:
    """Run ``metrics`` in order (derived ones see the earlier judgments) and return ``target``'s."""
    earlier: dict[str, Judgment] = {}
    for metric in metrics:
        earlier[metric.name] = await metric.judge(dataclasses.replace(context, earlier=dict(earlier)))
    return earlier[target]


def fingerprint(parts: dict[str, Any], data_path: Path, metrics: dict[str, list[Metric]]) -> str:
    """What makes two calibration runs comparable: inputs, data bytes, prompts and examples."""
    digest = hashlib.sha256()
    digest.update(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode())
    digest.update(data_path.read_bytes())
    for language in sorted(metrics):
        for metric in metrics[language]:
            template = getattr(metric, "template", None)
            if template is not None:
                digest.update(json.dumps(template.parts, sort_keys=True, ensure_ascii=False).encode())
            for example in getattr(metric, "examples", []):
                digest.update(json.dumps([example.step, example.inputs, example.output], ensure_ascii=False).encode())
            digest.update(repr(getattr(metric, "options", "")).encode())
    return digest.hexdigest()


class Calibrator:
    def __init__(
        self,
        store: Store,
        metric: str,
        binary: bool,
        client: ChatClient,
        metrics_for: Callable[[str], list[Metric]],
    ) -> None:
        self.store = store
        self.metric = metric
        self.binary = binary
        self.client = client
        self.metrics_for = metrics_for  # language → the metrics to run, target last or with inputs
        self.run_id: int | None = None

    def open_run(self, data_path: Path, languages: set[str], settings: dict[str, Any], new: bool = False) -> bool:
        """Find the matching earlier run (True) or start one (False)."""
        metrics = {language: self.metrics_for(language) for language in languages}
        parts = {"metric": self.metric, "binary": self.binary, "model": self.client.endpoint.model, **settings}
        key = fingerprint(parts, data_path, metrics)
        existing = None if new else db.find_run(self.store, key)
        if existing is not None:
            self.run_id = existing
            db.set_run_status(self.store, existing, "running")
            return True
        self.run_id = db.create_run(
            self.store,
            metric=self.metric,
            data_path=str(data_path.resolve()),
            fingerprint=key,
            model=self.client.endpoint.model,
            settings={**settings, "judge": self.client.endpoint.public()},
        )
        return False

    def pending(self, items: list[LabelledItem]) -> list[LabelledItem]:
        assert self.run_id is not None
        done = db.stored_items(self.store, self.run_id)
        return [item for item in items if item.key not in done]

    async def judge(self, item: LabelledItem) -> Judgment:
        """Judge one item and store it; transport errors propagate (the run can resume)."""
        assert self.run_id is not None
        started = time.perf_counter()
        if item.messages:  # a whole dialogue, for a dialogue metric
            metric = next(m for m in self.metrics_for(item.language) if m.name == self.metric)
            judgment = await metric.judge(dialogue_context_for(item))
        else:
            judgment = await judge_with(self.metrics_for(item.language), self.metric, context_for(item))
        elapsed = (time.perf_counter() - started) * 1000
        db.add_item(self.store, self.run_id, item.key, item.line, item.label, judgment, elapsed)
        return judgment

    def stored(self) -> dict[str, db.StoredItem]:
        assert self.run_id is not None
        return db.stored_items(self.store, self.run_id)

    def target_metric(self, language: str) -> Metric:
        """The metric object calibrated for ``language`` (its prompt makes the fit's fingerprint)."""
        return next(m for m in self.metrics_for(language) if m.name == self.metric)

    def finish(self) -> None:
        if self.run_id is not None:
            db.set_run_status(self.store, self.run_id, "finished")

    def report(self, items: list[LabelledItem], worst: int = 5) -> CalibrationReport:
        assert self.run_id is not None
        return build_report(
            self.run_id, self.metric, self.binary, items, db.stored_items(self.store, self.run_id), worst
        )


def build_report(
    run_id: int, metric: str, binary: bool, items: list[LabelledItem], stored: dict[str, db.StoredItem], worst: int
) -> CalibrationReport:
    rows = [stored[item.key] for item in items if item.key in stored]
    scored = [r for r in rows if r.score is not None]
    skipped = sum(1 for r in rows if r.skipped)
    elapsed = sum(r.elapsed_ms for r in rows)
    report = CalibrationReport(
        run_id=run_id,
        metric=metric,
        binary=binary,
        selected=len(items),
        judged=len(rows),
        scored=len(scored),
        unscored=len(rows) - len(scored) - skipped,
        skipped=skipped,
        items_per_minute=len(rows) / (elapsed / 60000) if elapsed > 0 else None,
    )
    scores = [r.score for r in scored if r.score is not None]
    labels = [r.label for r in scored]
    if binary:
        report.binary_stats = agreement.binary_agreement(
            [1 if s >= 0.5 else 0 for s in scores], [1 if y >= 0.5 else 0 for y in labels]
        )
    else:
        report.spearman = agreement.spearman(scores, labels)
        report.interval = agreement.spearman_interval(report.spearman, len(scores))
        report.mae = agreement.mean_absolute_error(scores, labels)
    goods = {item.key: item.good for item in items if item.good is not None}
    if goods:
        report.auc = agreement.auc(
            [r.score for r in scored if r.key in goods], [goods[r.key] for r in scored if r.key in goods]
        )
    languages = {item.key: item.language for item in items}
    if len(set(languages.values())) > 1:
        for language in sorted(set(languages.values())):
            part = [r for r in scored if languages.get(r.key) == language and r.score is not None]
            marked = [r for r in part if r.key in goods]
            part_scores = [r.score for r in part if r.score is not None]
            report.by_language[language] = LanguageFigures(
                len(part),
                None if binary else agreement.spearman(part_scores, [r.label for r in part]),
                agreement.auc([r.score for r in marked], [goods[r.key] for r in marked]) if marked else None,
            )
    ranked = sorted(
        (Disagreement(r.key, r.line, r.label, r.score, r.conclusion) for r in scored if r.score is not None),
        key=lambda d: (-d.gap, d.line),
    )
    report.worst = [d for d in ranked if d.gap > (0.0 if binary else 0.2)][:worst]
    return report
