"""Dialogue verdicts on the terminal: the block under a transcript (``show``), the columns of
the run table and the run's resolution rate. Untrusted text goes in as ``Text`` only."""

from __future__ import annotations

from rich.text import Text

from ..core.metrics.dialogue.explain import explain_dialogue
from ..core.metrics.explain import status_word
from ..core.store.dialogue_verdicts import ResolutionRate, StoredDialogueJudgment
from ..core.text.score_text import no_verdict, score_text, styled_score, styled_verdict
from .output import model_label

OUTCOME_STYLES = {
    "resolved": "green",
    "handed_over": "cyan",
    "partly_resolved": "yellow",
    "unresolved": "bold red",
}


def outcome_text(j: StoredDialogueJudgment | None, with_score: bool = True) -> Text:
    """``resolved 1.00`` in the outcome's colour; ``unscored`` or ``–`` when there is none."""
    if j is None:
        return Text("–", style="dim")
    if j.score is None:
        return Text("unscored", style="yellow")
    text = Text((j.outcome or "?").replace("_", " "), style=OUTCOME_STYLES.get(j.outcome or "", ""))
    if with_score:
        text.append(f" {score_text(j.score)}", style="dim")
    return text


def metric_cell(j: StoredDialogueJudgment | None) -> Text:
    if j is None:
        return no_verdict()
    return styled_verdict(j.score, j.details.get("threshold", 1.0), j.skipped)


def rate_text(rate: ResolutionRate) -> Text:
    """``resolution rate 60% (3/5)``, with unscored dialogues counted apart, never as failures."""
    text = Text("resolution rate ")
    if rate.rate is None:
        text.append("unscored", style="yellow")
    else:
        text.append(f"{rate.rate:.0%}", style="green" if rate.rate >= 0.7 else "bold red")
        text.append(f" ({rate.successes}/{rate.scored} resolved or handed over)")
    if rate.unscored:
        text.append(f", {rate.unscored} unscored", style="yellow")
    return text


def dialogue_verdict_text(j: StoredDialogueJudgment) -> Text:
    """One dialogue verdict with its steps: intents, facts or answer pairs, and the conclusion."""
    text = Text()
    text.append(f"{j.metric} v{j.version}: ", style="bold")
    word = status_word(j.score, j.details)
    if word == "skipped":
        text.append(f"skipped: {j.error or j.details.get('conclusion') or ''}", style="cyan")
        return text
    text.append_text(
        outcome_text(j) if j.metric == "resolution" else styled_score(j.score, j.details.get("threshold", 1.0))
    )
    if j.model:
        text.append(f"  ({model_label(j.model, j.served_model)})", style="dim")
    if j.score is None:
        text.append(f"\n{j.error or 'unscored'}", style="yellow")
        if j.raw_reply:
            text.append("\nraw reply: ", style="dim")
            text.append(j.raw_reply[:2000])
        return text
    for line in explain_dialogue(j.metric, j.details):
        text.append(f"\n  {line}", style="dim")
    if j.details.get("conclusion"):
        text.append("\n→ " + str(j.details["conclusion"]))
    return text
