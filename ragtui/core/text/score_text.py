"""The one way a score becomes text, for every view: the terminal, the TUI, the CSV export, the
Markdown, JUnit and HTML reports.

A score is 0–1 with two decimals; a verdict the judge could not give is ``unscored`` — never 0;
a score whose judge agrees with people under the floor (``[min_judge_agreement]``) carries
``≈`` and is drawn neither red nor green, because its pass or fail is not trusted. The styled
form is built from the plain one, so the two never disagree on what a score says; it uses Rich
``Text`` with plain style names (Rich renders in both front ends; no markup is ever parsed).
"""

from __future__ import annotations

from rich.text import Text

from ..types.agreement_floor import LOW_MARK

UNSCORED = "unscored"  # the judge gave nothing usable: never shown as 0
SKIPPED = "skipped"  # the metric did not apply (e.g. repetition with one answer)
NO_VERDICT = "–"  # nothing was judged at all, which is not "unscored"

# Style names: red under the pass mark, green at or over it, yellow for no usable verdict, dim
# (neither red nor green) for a score its judge is not trusted on.
FAIL_STYLE = "bold red"
PASS_STYLE = "bold green"
UNSCORED_STYLE = "bold yellow"
LOW_STYLE = "dim"
SKIPPED_STYLE = "cyan"
NO_VERDICT_STYLE = "dim"


def score_text(score: float | None, low: bool = False) -> str:
    """``0.83``; ``≈0.30`` when ``low``; ``unscored`` for None."""
    if score is None:
        return UNSCORED
    return f"{LOW_MARK if low else ''}{score:.2f}"


def under_mark(score: float, mark: float, low: bool = False) -> str:
    """``0.28 < 0.70``: a score under its pass mark, with as many decimals as it takes for the
    text to say so (0.2999 under 0.3 reads ``0.2999 < 0.30``, never ``0.30 < 0.3``)."""
    for decimals in (2, 3, 4):
        shown = f"{score:.{decimals}f}"
        if float(shown) < mark:
            break
    return f"{LOW_MARK if low else ''}{shown} < {mark:.2f}"


def verdict_text(score: float | None, skipped: bool = False, low: bool = False) -> str:
    """A verdict's score: as ``score_text``, but ``skipped`` for a metric that did not apply."""
    return SKIPPED if score is None and skipped else score_text(score, low)


def score_style(score: float | None, threshold: float, low: bool = False) -> str:
    if score is None:
        return UNSCORED_STYLE
    if low:
        return LOW_STYLE
    return FAIL_STYLE if score < threshold else PASS_STYLE


def styled_score(score: float | None, threshold: float, low: bool = False) -> Text:
    """``score_text`` in its colour: red under ``threshold``, green at or over it."""
    return Text(score_text(score, low), style=score_style(score, threshold, low))


def styled_verdict(score: float | None, threshold: float, skipped: bool = False, low: bool = False) -> Text:
    """``verdict_text`` in its colour (a skipped verdict in cyan)."""
    if score is None and skipped:
        return Text(SKIPPED, style=SKIPPED_STYLE)
    return styled_score(score, threshold, low)


def under_threshold(score: float | None, threshold: float, low: bool = False) -> Text:
    """What a score under its pass mark adds beside it: ``fails: below 0.70`` in the fail colour
    when its judge is trusted (measured or unmeasured); ``≈ below 0.70`` dim when the judge agrees
    with people under the floor (not a fail: its pass or fail is not trusted); nothing for a
    score at or over the mark, or none."""
    if score is None or score >= threshold:
        return Text()
    if low:
        return Text(f"{LOW_MARK} below {threshold:.2f}", style=LOW_STYLE)
    return Text(f"fails: below {threshold:.2f}", style=FAIL_STYLE)


def no_verdict() -> Text:
    return Text(NO_VERDICT, style=NO_VERDICT_STYLE)


__all__ = [
    "FAIL_STYLE",
    "LOW_STYLE",
    "NO_VERDICT",
    "PASS_STYLE",
    "SKIPPED",
    "SKIPPED_STYLE",
    "UNSCORED",
    "UNSCORED_STYLE",
    "no_verdict",
    "score_style",
    "score_text",
    "styled_score",
    "styled_verdict",
    "under_threshold",
    "verdict_text",
]
