"""The dialogue verdict block: under the last turn in the Judge pane, and in the verdict screen.

Plain ``Text`` from cleaned strings (``safe_text``), never markup: intents and reasons are the
judge's words.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..core.registry import metric_views
from ..core.registry.metrics import EXPECTATION_RATE, gate_role
from ..core.types.agreement_floor import LOW_MARK, AgreementFloor, agreement_words, is_low
from ..core.types.verdicts import read_verdict
from .expectation_block import expectation_block
from .safe_text import clean_text


def dialogue_line(metric: str, version: int, score: float | None, details: dict[str, Any], error: str | None) -> Text:
    """One metric's headline: ``resolution v1 · resolved 1.00`` (or skipped / unscored): its
    label and cell from its registered class, a plugin's as a built-in's."""
    text = Text()
    text.append(f"{clean_text(metric_views.label(metric))} v{version} · ", style="bold")
    verdict = read_verdict(metric, score, details, error)
    text.append_text(metric_views.styled_cell(verdict, verdict.threshold))
    if error and not verdict.skipped:
        text.append("  " + clean_text(error), style="yellow")
    return text


def dialogue_block(
    verdicts: list[tuple[str, int, float | None, dict[str, Any], str | None]], full: bool = False
) -> Text:
    """The block for a finished dialogue; ``full`` adds every intent, fact and answer pair."""
    text = Text("Dialogue verdict\n", style="bold underline")
    for metric, version, score, details, error in verdicts:
        text.append_text(dialogue_line(metric, version, score, details, error))
        verdict = read_verdict(metric, score, details, error, tuple(metric_views.explain(metric, details)))
        block = _own_block(metric, details)
        text.append_text(block)
        text.append("\n")
        if full and not block:
            meaning = metric_views.explanation(metric)
            if meaning:
                text.append("  " + clean_text(meaning) + "\n", style="dim italic")
            for line in verdict.explanation:
                text.append("  " + clean_text(line) + "\n")
        if verdict.conclusion and not verdict.skipped:
            text.append("  → " + clean_text(verdict.conclusion) + "\n", style="italic")
    return text


def dialogue_live_block(
    metric: str,
    version: int,
    score: float | None,
    details: dict[str, Any],
    error: str | None,
    floor: AgreementFloor | None = None,
) -> Text:
    """One dialogue verdict as it arrives in the Judge pane, under the last turn; with the
    agreement ``floor``, a scored verdict says how far its judge agrees with people, as a turn's."""
    text = Text("Dialogue · ", style="bold magenta")
    text.append_text(dialogue_line(metric, version, score, details, error))
    if floor is not None and score is not None:
        low = is_low(details, floor)
        words = agreement_words(details, floor)
        text.append(f"\n{LOW_MARK} {words}" if low else f"\n{words}", style="dim")
    text.append_text(_own_block(metric, details))
    conclusion = read_verdict(metric, score, details, error).conclusion
    if conclusion and score is not None:
        text.append("\n→ " + clean_text(conclusion), style="italic")
    return text


def _own_block(metric: str, details: dict[str, Any]) -> Text:
    """The expectation rate's metric's own block, always shown and in colour (✓ / ✗ per
    expectation): a missed expectation is what the team reads first, so it is not left to the full
    view; "" else."""
    return expectation_block(details) if gate_role(metric) == EXPECTATION_RATE else Text()
