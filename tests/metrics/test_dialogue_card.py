"""Dialogue verdicts carry their judge's card entry, as turn verdicts do: the entry measured for
exactly this judge model and prompt, never a quick one."""

from __future__ import annotations

import asyncio
from pathlib import Path

from ragtui.core.judge_quality.card_entry import CardEntry
from ragtui.core.judge_quality.card_store import save_entry
from ragtui.core.judge_quality.dialogue_card import CardedDialogueMetric, carded_dialogue_metrics
from ragtui.core.judge_quality.fit import prompt_fingerprint
from ragtui.core.metrics.dialogue.base import DialogueContext
from ragtui.core.store.store import Store
from ragtui.core.types.agreement_floor import AgreementFloor
from ragtui.core.types.judgments import Judgment


class Resolution:
    name = "resolution"

    def applies(self, context: DialogueContext) -> bool:
        return True

    async def judge(self, context: DialogueContext, on_delta: object = None) -> Judgment:
        return Judgment(self.name, 0.4, {"outcome": "unresolved"})


def entry(fingerprint: str, n: int, quick: bool = False) -> CardEntry:
    return CardEntry("resolution", "en", "j", fingerprint, "spearman", 0.36, n, "labels", "measured", -0.05, 0.66,
                     quick=quick)  # fmt: skip


def test_a_dialogue_verdict_carries_the_entry_that_decides_its_gate_not_a_quick_one(tmp_path: Path):
    metric = Resolution()
    store = Store.open(tmp_path / "card.db")
    try:
        save_entry(store, entry(prompt_fingerprint(metric), 30))
        save_entry(store, entry(prompt_fingerprint(metric), 4, quick=True))  # newer, but quick
        (carded,) = carded_dialogue_metrics([metric], store, "j", AgreementFloor())  # type: ignore[list-item]
        (other_model,) = carded_dialogue_metrics([metric], store, "k", AgreementFloor())  # type: ignore[list-item]
    finally:
        store.close()
    judgment = asyncio.run(carded.judge(None))  # type: ignore[arg-type]
    assert judgment.details["agreement"]["n"] == 30 and judgment.details["outcome"] == "unresolved"
    assert carded.applies(None)  # type: ignore[attr-defined,arg-type]
    # Unmeasured for that model: no entry, but its judge key, so a later measurement reaches it.
    assert isinstance(other_model, CardedDialogueMetric) and other_model.agreement is None
