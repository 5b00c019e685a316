"""Dialogue verdicts on the terminal: the block under a transcript (``show``) and the run's
resolution rate (the run table's cells are ``registry.metric_views``). Untrusted text goes in as ``Text`` only."""

from __future__ import annotations

from rich.text import Text

from ..core.judge_quality.judge_card import agreement_text
from ..core.metrics.explain import status_word
from ..core.registry import metric_views
from ..core.store.dialogue_verdicts import ResolutionRate, StoredDialogueJudgment
from ..core.text.number_text import percent_text
from .output import model_label


def rate_text(rate: ResolutionRate) -> Text:
    """``resolution rate 60% (3/5)``, with unscored dialogues counted apart, never as failures."""
    text = Text("resolution rate ")
    if rate.rate is None:
        text.append("unscored", style="yellow")
    else:
        text.append(percent_text(rate.rate), style="green" if rate.rate >= 0.7 else "bold red")
        text.append(f" ({rate.successes}/{rate.scored} resolved or handed over)")
    if rate.unscored:
        text.append(f", {rate.unscored} unscored", style="yellow")
    return text


def dialogue_verdict_text(j: StoredDialogueJudgment) -> Text:
    """One dialogue verdict with what it means and its steps: intents, facts or answer pairs,
    and the conclusion. Any dialogue metric, a plugin's too: its label, cell and lines come from
    its registered class (``metric_views``)."""
    text = Text()
    text.append(f"{metric_views.label(j.metric)} v{j.version}: ", style="bold")
    word = status_word(j.score, j.details)
    verdict = metric_views.verdict_of(j)
    if word == "skipped":
        text.append(f"skipped: {j.error or verdict.conclusion}", style="cyan")
        return text
    text.append_text(metric_views.styled_cell(verdict, verdict.threshold))
    if j.model:
        text.append(f"  ({model_label(j.model, j.served_model)})", style="dim")
    if j.score is not None:  # how far its judge agrees with people, as under every turn score
        text.append(f"\n{agreement_text(j.details)}", style="dim")
    meaning = metric_views.explanation(j.metric)
    if meaning:
        text.append(f"\n{meaning}", style="dim italic")
    if j.score is None:
        text.append(f"\n{j.error or 'unscored'}", style="yellow")
        if j.raw_reply:
            text.append("\nraw reply: ", style="dim")
            text.append(j.raw_reply[:2000])
        return text
    for line in verdict.explanation:
        text.append(f"\n  {line}", style="dim")
    if verdict.conclusion:
        text.append("\n→ " + verdict.conclusion)
    return text
