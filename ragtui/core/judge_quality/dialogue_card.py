"""Dialogue verdicts carry their judge's agreement with people, as turn verdicts do.

``resolution``, ``repetition`` and ``expectations`` can decide a run's exit status, so each of
their verdicts carries the judge card's entry for exactly its judge model and prompt
(``details["agreement"]``, ``judge_card.entry_for``) and that key (``details["judge_key"]``): the
gate reads the entry as judged, every view the card's entry for the key as it stands when shown.
"""

from __future__ import annotations

from typing import Any

from ..metrics.dialogue.base import DialogueContext, DialogueMetric
from ..models.llm import DeltaCallback
from ..store.store import Store
from ..types.agreement_floor import AgreementFloor
from ..types.judge_key import carry, judge_key
from ..types.judgments import Judgment
from .fit import prompt_fingerprint
from .judge_card import entry_for


class CardedDialogueMetric:
    """A dialogue metric whose scored verdicts carry ``agreement`` (its judge's card entry, None
    when unmeasured) and their judge key, by which every view reads the card when it shows them."""

    def __init__(self, inner: DialogueMetric, agreement: dict[str, Any] | None, key: dict[str, str]) -> None:
        self.inner = inner
        self.agreement = agreement
        self.key = key
        self.name = inner.name

    def __getattr__(self, name: str) -> Any:  # applies, template, info … of the inner metric
        return getattr(self.inner, name)

    async def judge(self, context: DialogueContext, on_delta: DeltaCallback | None = None) -> Judgment:
        judgment = await self.inner.judge(context, on_delta)
        if judgment.score is not None:
            carry(judgment.details, self.key, self.agreement)
        return judgment


def carded_dialogue_metrics(
    metrics: list[DialogueMetric], store: Store | None, model: str, floor: AgreementFloor
) -> list[DialogueMetric]:
    """Each metric wrapped with its judge key and its card entry (None: this judge and prompt
    are unmeasured, and its verdicts read so until the card measures them)."""
    out: list[DialogueMetric] = []
    for metric in metrics:
        fingerprint = prompt_fingerprint(metric)
        entry = entry_for(store, metric.name, model, fingerprint, floor)
        key = judge_key(model, fingerprint)
        out.append(CardedDialogueMetric(metric, entry.to_dict() if entry is not None else None, key))
    return out
