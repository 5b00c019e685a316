"""The dialogue verdict block: under the last turn in the Judge pane, and in the verdict screen.

Plain ``Text`` from cleaned strings (``safe_text``), never markup: intents and reasons are the
judge's words.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.text import Text

from ..core.registry import metric_views
from ..core.registry.metrics import EXPECTATION_RATE, gate_role
from ..core.types.agreement_floor import LOW_MARK, AgreementFloor, agreement_words, is_low
from .expectation_block import expectation_block
from .safe_text import clean_text


def dialogue_line(metric: str, version: int, score: float | None, details: dict[str, Any], error: str | None) -> Text:
    """One metric's headline: ``resolution v1 · resolved 1.00`` (or skipped / unscored): its
    label and cell from its registered class, a plugin's as a built-in's."""
    text = Text()
    text.append(f"{clean_text(metric_views.label(metric))} v{version} · ", style="bold")
    verdict = _Verdict(metric, score, details)
    text.append_text(metric_views.styled_cell(verdict, metric_views.threshold_of(details)))
    if error and not details.get("skipped"):
        text.append("  " + clean_text(error), style="yellow")
    return text


@dataclass(frozen=True)
class _Verdict:
    """A verdict as the Judge pane holds it (the live event's or the stored one's parts)."""

    metric: str
    score: float | None
    details: dict[str, Any]

    @property
    def outcome(self) -> str | None:
        value = self.details.get("outcome")
        return str(value) if value else None

    @property
    def skipped(self) -> bool:
        return self.score is None and bool(self.details.get("skipped"))


def dialogue_block(
    verdicts: list[tuple[str, int, float | None, dict[str, Any], str | None]], full: bool = False
) -> Text:
    """The block for a finished dialogue; ``full`` adds every intent, fact and answer pair."""
    text = Text("Dialogue verdict\n", style="bold underline")
    for metric, version, score, details, error in verdicts:
        text.append_text(dialogue_line(metric, version, score, details, error))
        block = _own_block(metric, details)
        text.append_text(block)
        text.append("\n")
        if full and not block:
            meaning = metric_views.explanation(metric)
            if meaning:
                text.append("  " + clean_text(meaning) + "\n", style="dim italic")
            for line in metric_views.explain(metric, details):
                text.append("  " + clean_text(line) + "\n")
        if details.get("conclusion") and not details.get("skipped"):
            text.append("  → " + clean_text(str(details["conclusion"])) + "\n", style="italic")
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
    if details.get("conclusion") and score is not None:
        text.append("\n→ " + clean_text(str(details["conclusion"])), style="italic")
    return text


def _own_block(metric: str, details: dict[str, Any]) -> Text:
    """The expectation rate's metric's own block, always shown and in colour (✓ / ✗ per
    expectation): a missed expectation is what the team reads first, so it is not left to the full
    view; "" else."""
    return expectation_block(details) if gate_role(metric) == EXPECTATION_RATE else Text()
