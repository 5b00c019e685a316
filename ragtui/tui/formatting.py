"""Rich ``Text`` builders shared by the screens: scores, verdicts, version comparisons.

Everything here returns ``Text`` assembled from plain strings (cleaned by ``safe_text``), never
markup, so a judge comment containing ``[/]`` is shown as typed.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..core.metrics.rubric_info import CRITERIA
from ..core.text.number_text import tenths_text
from ..core.text.score_text import LOW_STYLE, score_text, styled_score, under_threshold
from ..core.types.agreement_floor import LOW_MARK, AgreementFloor, agreement_words, is_low, trust_level
from ..core.types.stored import StoredJudgment
from ..core.types.verdicts import read_verdict
from .safe_text import clean_text, one_line

DEFAULT_FLOOR = AgreementFloor()

SHORT = {
    "understanding": "Und",
    "relevance": "Rel",
    "completeness": "Cmp",
    "correctness": "Cor",
    "coherence": "Coh",
    "overall": "Ovr",
}


def agreement_note(score: float | None, details: dict[str, Any], floor: AgreementFloor) -> Text:
    """Beside a verdict's score: how far its judge agrees with people, in words and then figures
    (``≈ low agreement with people (Spearman 0.10, n=18; floor 0.5)``, ``agrees with people
    (…)``, ``agreement unmeasured``); nothing for an unscored verdict."""
    if score is None:
        return Text()
    if trust_level(details, floor) == "low":
        return Text(f"  {LOW_MARK} {agreement_words(details, floor)}", style=LOW_STYLE)
    return Text(f"  · {agreement_words(details, floor)}", style="dim")


def verdict_text(
    turn: int,
    metric: str,
    version: int,
    score: float | None,
    details: dict[str, Any],
    error: str | None,
    threshold: float,
    model: str = "",
    floor: AgreementFloor = DEFAULT_FLOOR,
) -> Text:
    """A compact verdict for the Judge pane: headline with the score and its judge's agreement
    with people, criteria, conclusion."""
    low = is_low(details, floor)
    text = Text()
    text.append(f"Turn {turn} · {clean_text(metric)} v{version} · ", style="bold")
    verdict = read_verdict(metric, score, details, error)
    if verdict.skipped:  # the metric did not apply (no reference, no passages): not a failed judge
        text.append("skipped", style="cyan")
    else:
        text.append_text(styled_score(score, threshold, low and score is not None))
    if score is not None and score < threshold:
        text.append("  ")
        text.append_text(under_threshold(score, threshold, low))
    text.append_text(agreement_note(score, details, floor))
    if model:
        text.append(f"  ({one_line(model, 40)})", style="dim")
    if version > 1:
        text.append("  v: every version", style="cyan")
    text.append("\n")
    scores = verdict.criteria
    if scores:
        text.append("  ".join(f"{SHORT.get(k, k)} {criterion(scores.get(k))}" for k in CRITERIA if k in scores))
        text.append("\n")
    conclusion = verdict.conclusion
    if conclusion:
        text.append(clean_text(conclusion) + "\n", style="italic")
    if error and error != conclusion:  # a skipped verdict's reason is its conclusion: said once
        text.append(clean_text(error) + "\n", style="yellow")
    return text


def judgment_text(j: StoredJudgment, threshold: float, floor: AgreementFloor = DEFAULT_FLOOR) -> Text:
    return verdict_text(j.turn, j.metric, j.version, j.score, j.details, j.error, threshold, j.model or "", floor)


def detail_text(j: StoredJudgment, threshold: float, floor: AgreementFloor = DEFAULT_FLOOR) -> Text:
    """The full verdict: every criterion, every reasoning step, the conclusion, and metadata."""
    text = Text()
    text.append(f"Turn {j.turn} · {clean_text(j.metric)} · version {j.version} · score ", style="bold")
    text.append_text(styled_score(j.score, threshold, j.scored and is_low(j.details, floor)))
    text.append_text(agreement_note(j.score, j.details, floor))
    text.append(f"\nmodel {one_line(j.model or '?', 60)} · attempts {j.attempts}")
    if j.latency_ms is not None:
        text.append(f" · {tenths_text(j.latency_ms / 1000)} s")
    text.append(f" · {clean_text(j.created_at)}\n", style="dim")
    verdict = j.verdict
    if verdict.rejudge is not None:
        how = "edited prompt" if verdict.rejudge.edited_prompt else "file prompt"
        text.append(f"re-judged with {one_line(verdict.rejudge.model, 40)}, {how}\n", style="cyan")
    if j.error:
        text.append("\n" + clean_text(j.error) + "\n", style="bold yellow")
    scores = verdict.criteria
    if scores:
        text.append("\nCriteria\n", style="bold underline")
        for name in CRITERIA:
            value = scores.get(name)
            text.append(f"  {name:<14}")
            text.append(f"{criterion(value)}/5\n" if value is not None else "-\n", style="bold")
    if verdict.steps:
        text.append("\nSteps\n", style="bold underline")
        for number, step in enumerate(verdict.steps, start=1):
            text.append(f"  {number}. {clean_text(step)}\n")
    if verdict.conclusion:
        text.append("\nConclusion\n", style="bold underline")
        text.append("  " + clean_text(verdict.conclusion) + "\n", style="italic")
    return text


def metric_text(j: StoredJudgment, threshold: float, floor: AgreementFloor = DEFAULT_FLOOR) -> Text:
    """Another metric's newest verdict on a turn: score against its own pass mark, each step's
    result (statements, verdicts, the supporting span…) and its reason."""
    low = j.scored and is_low(j.details, floor)
    text = Text()
    text.append(f"{clean_text(j.metric)} v{j.version} ", style="bold")
    verdict = j.verdict
    if verdict.skipped:
        text.append("skipped", style="dim")
    else:
        text.append_text(styled_score(j.score, threshold if verdict.threshold is None else verdict.threshold, low))
        text.append_text(agreement_note(j.score, j.details, floor))
    if j.error:
        text.append("  " + clean_text(j.error), style="yellow")
    from ..core.metrics.explain import explain_lines

    for line in explain_lines(j.metric, j.details):
        text.append("\n  " + clean_text(line))
    reason = verdict.reason or verdict.conclusion
    if reason:
        text.append("\n  → " + clean_text(reason), style="italic")
    return text


def changes(previous: StoredJudgment | None, current: StoredJudgment) -> list[str]:
    """What changed from ``previous`` to ``current``: score, criteria, model, error state."""
    if previous is None:
        return ["first version"]
    found: list[str] = []

    if previous.score != current.score:
        found.append(f"score {score_text(previous.score)} → {score_text(current.score)}")
    old = previous.verdict.criteria
    new = current.verdict.criteria
    for name in CRITERIA:  # overall too: it is the criterion that moves the score
        if old.get(name) != new.get(name):
            found.append(f"{name} {old.get(name, '-')} → {new.get(name, '-')}")
    if (previous.model or "") != (current.model or ""):
        found.append(f"model {one_line(previous.model or '?', 30)} → {one_line(current.model or '?', 30)}")
    if previous.prompt != current.prompt:
        found.append("prompt differs")
    if previous.verdict.conclusion != current.verdict.conclusion:
        found.append("conclusion differs")
    return found or ["no change"]


def criterion(value: object) -> str:
    """A criterion's score as the judge's reply gave it (a number, or whatever it wrote
    instead), as one clean line; ``-`` for none."""
    return "-" if value is None else one_line(str(value), 12)


def short_time(stamp: str) -> str:
    """``2025-04-01T09:31:00+00:00`` as ``2025-04-01 09:31``: one unbreakable 16 characters."""
    return stamp.replace("T", " ")[:16]


def version_column(
    j: StoredJudgment, previous: StoredJudgment | None, threshold: float, floor: AgreementFloor | None = None
) -> Text:
    """One version of a verdict for the side-by-side view, with what changed since the last.

    Laid out for a column 22 characters wide (four versions at 80×24 wrap to two rows of two):
    one fact per line, criteria as ``understanding 2.97`` (name and value never split), the
    time without seconds or zone; reasoning steps are in the Verdict tab."""
    text = Text()
    # ≈ and neither red nor green when this version's judge agrees with people under the floor
    text.append_text(styled_score(j.score, threshold, floor is not None and is_low(j.details, floor)))
    text.append(f" · {clean_text(j.metric)}\n", style="bold")
    text.append(f"{one_line(j.model or '?', 40)}\n")
    timing = f" · {tenths_text(j.latency_ms / 1000)} s" if j.latency_ms is not None else ""
    text.append(f"{clean_text(short_time(j.created_at))}{timing}\n", style="dim")
    verdict = j.verdict
    if verdict.rejudge is not None:
        how = "edited prompt" if verdict.rejudge.edited_prompt else "file prompt"
        text.append(f"re-judged: {how}\n", style="cyan")
    else:  # the same number of lines in every box, so the rows of criteria line up
        text.append("judged in the dialogue\n", style="dim")
    if j.error:
        text.append(clean_text(j.error) + "\n", style="bold yellow")
    scores = verdict.criteria
    if scores:
        text.append("\n")
        for name in CRITERIA:
            value = scores.get(name)
            text.append(f"{name:<14}")
            text.append(f"{criterion(value)}\n", style="bold")
    if verdict.conclusion:
        text.append("\n" + clean_text(verdict.conclusion) + "\n", style="italic")
    text.append("\nChanged\n", style="bold underline")
    for change in changes(previous, j):
        text.append(f"• {clean_text(change)}\n", style="magenta")
    return text


def raw_replies(j: StoredJudgment) -> str:
    """What the judge said, as it said it: for a verdict made of several calls, every call's
    reply under its name — the rubric's yes/no checks, a metric's steps — else the one raw reply."""
    parts: list[str] = []
    for call in j.verdict.replies:
        heading = f"── {call.number}. {call.name} ──" + (f" ({call.error})" if call.error else "")
        replies = "\n".join(call.replies) if call.replies else "(no reply)"
        if call.question is not None:  # a yes/no check: its question, then the reply
            parts.append(f"{heading}\n{call.question}\n→ {replies}")
        else:
            parts.append(f"{heading}\n{replies}")
    return "\n\n".join(parts) if parts else j.raw_reply
