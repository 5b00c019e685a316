"""Agreement of a dialogue metric with labelled dialogues, beyond Spearman: per language, a
pass/fail agreement (score and label both above PASS_ABOVE, or both not), and for resolution
the outcome (resolved / partly_resolved / unresolved / handed_over) with its confusion table."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..metrics.dialogue.resolution_info import OUTCOMES
from . import agreement
from .labelled import LabelledItem

PASS_ABOVE = 0.75  # fully (or nearly) resolved / kept / free of repetition


@dataclass
class LanguageStats:
    scored: int = 0
    spearman: float | None = None
    pass_accuracy: float | None = None
    pass_kappa: float | None = None
    outcome_matches: int = 0
    outcome_total: int = 0


@dataclass
class DialogueAgreement:
    by_language: dict[str, LanguageStats] = field(default_factory=dict)
    confusion: dict[tuple[str, str], int] = field(default_factory=dict)  # (label, judged) → count
    outcome_names: tuple[str, ...] = OUTCOMES


def dialogue_agreement(
    metric: str, items: list[LabelledItem], scores: Mapping[str, Any], details: Mapping[str, dict[str, Any]]
) -> DialogueAgreement:
    """``scores``: item key → stored item (``score``, ``label``); ``details``: item key → the
    judgment's details (for the judged outcome)."""
    found = DialogueAgreement()
    for language in sorted({i.language for i in items} | {"all"}):
        chosen = [i for i in items if language in ("all", i.language)]
        pairs = [(scores[i.key].score, i.label) for i in chosen if i.key in scores and scores[i.key].score is not None]
        stats = LanguageStats(scored=len(pairs))
        if pairs:
            xs, ys = [p[0] for p in pairs], [p[1] for p in pairs]
            stats.spearman = agreement.spearman(xs, ys)
            binary = agreement.binary_agreement([int(x > PASS_ABOVE) for x in xs], [int(y > PASS_ABOVE) for y in ys])
            stats.pass_accuracy, stats.pass_kappa = binary.accuracy, binary.kappa
        if metric == "resolution":
            for item in chosen:
                judged = (details.get(item.key) or {}).get("outcome")
                if item.outcome and judged and item.key in scores and scores[item.key].score is not None:
                    stats.outcome_total += 1
                    stats.outcome_matches += int(judged == item.outcome)
                    if language == "all":
                        found.confusion[(item.outcome, judged)] = found.confusion.get((item.outcome, judged), 0) + 1
        found.by_language[language] = stats
    return found
