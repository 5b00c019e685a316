"""Dialogue verdicts carry their judge's agreement with people, as turn verdicts do.

``resolution``, ``repetition`` and ``expectations`` can decide a run's exit status, so each of
their verdicts carries the judge card's entry for exactly its judge model and prompt
(``details["agreement"]``, ``judge_card.entry_for``): the gate and every view then read whether
it is low agreement from the stored verdict, as they do for the rubric.
"""

from __future__ import annotations

from typing import Any

from ..models.llm import DeltaCallback
from ..store.store import Store
from ..types.agreement_floor import AgreementFloor
from ..types.judgments import Judgment
from .dialogue.base import DialogueContext, DialogueMetric
from .fit import prompt_fingerprint
from .judge_card import entry_for


class CardedDialogueMetric:
    """A dialogue metric whose scored verdicts carry ``agreement`` (its judge's card entry)."""

    def __init__(self, inner: DialogueMetric, agreement: dict[str, Any]) -> None:
        self.inner = inner
        self.agreement = agreement
        self.name = inner.name

    def __getattr__(self, name: str) -> Any:  # applies, template, info … of the inner metric
        return getattr(self.inner, name)

    async def judge(self, context: DialogueContext, on_delta: DeltaCallback | None = None) -> Judgment:
        judgment = await self.inner.judge(context, on_delta)
        if judgment.score is not None:
            judgment.details["agreement"] = self.agreement
        return judgment


def carded_dialogue_metrics(
    metrics: list[DialogueMetric], store: Store | None, model: str, floor: AgreementFloor
) -> list[DialogueMetric]:
    """Each metric wrapped with its card entry when this judge and prompt are measured; the
    others as they are (their verdicts read as unmeasured)."""
    out: list[DialogueMetric] = []
    for metric in metrics:
        entry = entry_for(store, metric.name, model, prompt_fingerprint(metric), floor)
        out.append(CardedDialogueMetric(metric, entry.to_dict()) if entry is not None else metric)
    return out
