"""The one way a score becomes text, for every view: the terminal, the TUI, the CSV export, the
Markdown, JUnit and HTML reports.

A score is 0–1 with two decimals — or, beside the pass mark it is under, as many more as it
takes for the text to show that it is under (0.2954 under 0.30 reads ``0.295``, never ``0.30``);
a verdict the judge could not give is ``unscored`` — never 0;
a score whose judge agrees with people under the floor (``[min_judge_agreement]``) carries
``≈`` and is drawn neither red nor green, because its pass or fail is not trusted. The styled
form is built from the plain one, so the two never disagree on what a score says; it uses Rich
``Text`` with plain style names (Rich renders in both front ends; no markup is ever parsed).
"""

from __future__ import annotations

import math

from rich.text import Text

from ..types.agreement_floor import LOW_MARK
from .number_text import NO_NUMBER

UNSCORED = "unscored"  # the judge gave nothing usable: never shown as 0
SKIPPED = "skipped"  # the metric did not apply (e.g. repetition with one answer)
NO_VERDICT = NO_NUMBER  # nothing was judged at all, which is not "unscored"

# Style names: red under the pass mark, green at or over it, yellow for no usable verdict, dim
# (neither red nor green) for a score its judge is not trusted on.
FAIL_STYLE = "bold red"
PASS_STYLE = "bold green"
UNSCORED_STYLE = "bold yellow"
LOW_STYLE = "dim"
SKIPPED_STYLE = "cyan"
NO_VERDICT_STYLE = "dim"


def shown_score(score: float, mark: float | None = None) -> str:
    """``0.83``; a score under ``mark`` that two decimals would round up to it gets as many
    decimals as it takes to read as under it (0.2954 under 0.30: ``0.295``; 0.29999: ``0.2999``)."""
    text = f"{score:.2f}"
    if mark is None or score >= mark or float(text) < mark:
        return text
    for decimals in (3, 4):
        text = f"{score:.{decimals}f}"
        if float(text) < mark:
            return text
    return f"{math.floor(score * 10_000) / 10_000:.4f}"  # cut, never rounded up to the mark


def mark_text(mark: float) -> str:
    """A pass mark: ``0.70``, or every decimal it has (``0.705``) so a score beside it never
    reads as equal to a mark it is under."""
    text = f"{mark:.2f}"
    return text if float(text) == mark else f"{mark:g}"


def score_text(score: float | None, low: bool = False, threshold: float | None = None) -> str:
    """``0.83``; ``≈0.30`` when ``low``; ``unscored`` for None. With ``threshold``, a score under
    it shows as many decimals as it takes to read as under it (``shown_score``)."""
    if score is None:
        return UNSCORED
    return f"{LOW_MARK if low else ''}{shown_score(score, threshold)}"


def under_mark(score: float, mark: float, low: bool = False) -> str:
    """``0.28 < 0.70``: a score under its pass mark, with as many decimals as it takes for the
    text to say so (0.2999 under 0.3 reads ``0.2999 < 0.30``, never ``0.30 < 0.3``)."""
    return f"{LOW_MARK if low else ''}{shown_score(score, mark)} < {mark_text(mark)}"


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
    """``score_text`` in its colour: red under ``threshold``, green at or over it; a score under
    it with the decimals that show it is (``0.295`` under 0.30, never ``0.30``)."""
    return Text(score_text(score, low, threshold), style=score_style(score, threshold, low))


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
        return Text(f"{LOW_MARK} below {mark_text(threshold)}", style=LOW_STYLE)
    return Text(f"fails: below {mark_text(threshold)}", style=FAIL_STYLE)


def figure_text(value: float | None) -> str:
    """A 0–1 figure beside the scores that is not a verdict's score — an agreement, a probability
    (P(yes)), pass^k, a pass mark in a table, a similarity — with a score's two decimals, so the
    two read alike; ``–`` for none."""
    return NO_VERDICT if value is None else f"{value:.2f}"


def delta_text(value: float | None) -> str:
    """A change of a score or a figure, signed, with a score's two decimals: ``+0.12``; ``–`` for none."""
    return NO_VERDICT if value is None else f"{value:+.2f}"


def measure_text(value: float) -> str:
    """A measured quantity that is no 0–1 figure (words per message, turns): three significant
    figures or so — ``123``, ``12.3``, ``1.23``."""
    magnitude = abs(value)
    return f"{value:.0f}" if magnitude >= 100 else f"{value:.1f}" if magnitude >= 10 else f"{value:.2f}"


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
    "delta_text",
    "figure_text",
    "measure_text",
    "mark_text",
    "no_verdict",
    "score_style",
    "score_text",
    "shown_score",
    "styled_score",
    "styled_verdict",
    "under_mark",
    "under_threshold",
    "verdict_text",
]
