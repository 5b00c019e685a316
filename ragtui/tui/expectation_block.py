"""The expectations block: ✓ / ✗ per expectation with the turn that met or broke it.

Shown read-only after the last turn in the Judge pane and on the verdict screen. Built as
``Text`` from cleaned strings, never markup: the expectations are the team's words, the errors
may quote the judge.
"""

from __future__ import annotations

from typing import Any

from rich.text import Text

from ..core.types.expectations import ExpectationResult, results_from_details
from .safe_text import clean_text

STYLES = {True: "green", False: "bold red", None: "yellow"}
MARKS = {True: "✓", False: "✗", None: "?"}


def expectation_line(result: ExpectationResult) -> Text:
    e = result.expectation
    text = Text(f"  {MARKS[result.passed]} ", style=STYLES[result.passed])
    if e.origin == "policy":
        text.append("policy ", style="magenta")
    text.append(clean_text(e.id), style="bold")
    at = f" at turn {result.turn}" if result.turn is not None else ""
    text.append(f" {result.status}{at}: ", style=STYLES[result.passed])
    # The reason an expectation is unscored is on the verdict screen's raw reply and in `show`:
    # here one line each, so the block stays readable in a narrow pane.
    text.append(clean_text(e.text if e.form == "judged" else f"{e.form} {e.text}"))
    return text


def expectation_block(details: dict[str, Any]) -> Text:
    """One line per expectation of a stored ``expectations`` verdict (empty when none)."""
    text = Text()
    for result in results_from_details(details):
        text.append("\n")
        text.append_text(expectation_line(result))
    return text
