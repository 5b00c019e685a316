"""The run summary's line on how far the run's judge agrees with people (``judge_quality.judge_card``)."""

from __future__ import annotations

from typing import Any

from ..judge_quality.judge_card import UNMEASURED, agreement_text
from ..registry.metrics import PRIMARY_METRIC
from ..store import run_reads
from ..store.store import Store
from ..types.agreement_floor import LOW_MARK, LOW_WORDS, AgreementFloor, floor_words, is_low
from ..types.judge_key import current_agreement
from ..types.stored import StoredSession


def run_agreement_line(
    store: Store, run_id: str, metric: str = PRIMARY_METRIC, floor: AgreementFloor | None = None
) -> str:
    """``rubric scores: agreement with people: Spearman 0.52 (n=19, …)`` from the run's verdicts, or
    ``rubric scores: unmeasured — ragtui judge-card`` when none carries a measured figure; with
    ``≈ low agreement (Spearman 0.10 < floor 0.5)`` after it when the figure is under the floor."""
    # Each judge of the run once (a run has one, a re-judged one a few): the first the card measures.
    pairs = run_reads.judges_of_run(store, run_id, metric)
    entries = (current_agreement(metric, agreement, key, store.agreement_lookup) for agreement, key in pairs)
    entry = next((e for e in entries if e is not None), None)
    details = {"agreement": entry} if entry else {}
    text = agreement_text(details) if entry else UNMEASURED
    if entry and is_low(details, floor or AgreementFloor()):
        text += f" · {LOW_MARK} {LOW_WORDS} ({floor_words(details, floor or AgreementFloor())})"
    return f"{metric} scores: {text}"


def dialogue_agreement_lines(sessions: list[StoredSession], floor: AgreementFloor | None = None) -> list[str]:
    """``resolution verdicts: agreement with people: Spearman 0.52 (…) · ≈ low agreement (…)`` per
    dialogue verdict the run has, read from its first scored verdict that carries a figure (the
    rubric's line reads the database; these read the loaded dialogues)."""
    floor = floor or AgreementFloor()
    found: dict[str, tuple[bool, dict[str, Any]]] = {}  # metric → (carries its agreement, details)
    for s in sessions:
        for metric, j in sorted(s.latest_dialogue_judgments().items()):
            carries = j.verdict.agreement_recorded
            if j.score is not None and (metric not in found or (carries and not found[metric][0])):
                found[metric] = (carries, j.details)
    lines = []
    for metric, (_, details) in found.items():
        text = agreement_text(details)
        if is_low(details, floor):
            text += f" · {LOW_MARK} {LOW_WORDS} ({floor_words(details, floor)})"
        lines.append(f"{metric} verdicts: {text}")
    return lines
