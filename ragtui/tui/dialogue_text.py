"""The dialogue verdict block: under the last turn in the Judge pane, and in the verdict screen.

Plain ``Text`` from cleaned strings (``safe_text``), never markup: intents and reasons are the
judge's words.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..core.text.score_text import styled_score
from .expectation_block import expectation_block
from .safe_text import clean_text

OUTCOME_STYLES = {
    "resolved": "bold green",
    "handed_over": "bold cyan",
    "partly_resolved": "bold yellow",
    "unresolved": "bold red",
}


def dialogue_line(metric: str, version: int, score: float | None, details: dict[str, Any], error: str | None) -> Text:
    """One metric's headline: ``resolution v1 · resolved · 1.00`` (or skipped / unscored)."""
    text = Text()
    text.append(f"{metric} v{version} · ", style="bold")
    if score is None and details.get("skipped"):
        text.append("skipped", style="dim")
    elif metric == "resolution" and score is not None:
        outcome = str(details.get("outcome", "?"))
        text.append(outcome.replace("_", " "), style=OUTCOME_STYLES.get(outcome, "bold"))
        text.append(" · ")
        text.append_text(styled_score(score, float(details.get("threshold", 1.0))))
    else:
        text.append_text(styled_score(score, float(details.get("threshold", 1.0))))
    if error and not details.get("skipped"):
        text.append("  " + clean_text(error), style="yellow")
    return text


def dialogue_block(
    verdicts: list[tuple[str, int, float | None, dict[str, Any], str | None]], full: bool = False
) -> Text:
    """The block for a finished dialogue; ``full`` adds every intent, fact and answer pair."""
    from ..core.metrics.dialogue.explain import explain_dialogue  # the metrics: not at start-up

    text = Text("Dialogue verdict\n", style="bold underline")
    for metric, version, score, details, error in verdicts:
        text.append_text(dialogue_line(metric, version, score, details, error))
        if metric == "expectations":
            text.append_text(expectation_block(details))
        text.append("\n")
        if full and metric != "expectations":
            for line in explain_dialogue(metric, details):
                text.append("  " + clean_text(line) + "\n")
        if details.get("conclusion") and not details.get("skipped"):
            text.append("  → " + clean_text(str(details["conclusion"])) + "\n", style="italic")
    return text


def dialogue_live_block(
    metric: str, version: int, score: float | None, details: dict[str, Any], error: str | None
) -> Text:
    """One dialogue verdict as it arrives in the Judge pane, under the last turn."""
    text = Text("Dialogue · ", style="bold magenta")
    text.append_text(dialogue_line(metric, version, score, details, error))
    if metric == "expectations":
        text.append_text(expectation_block(details))
    if details.get("conclusion") and score is not None:
        text.append("\n→ " + clean_text(str(details["conclusion"])), style="italic")
    return text
