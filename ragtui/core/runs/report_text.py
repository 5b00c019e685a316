"""Small formatting shared by the reports: intervals, and cells safe for Markdown (a score's
text and a delta's are ``core.text.score_text``)."""

from __future__ import annotations

from ..text.number_text import fine_delta_text
from .paired_bootstrap import Interval


def interval_text(interval: Interval | None) -> str:
    if interval is None:
        return "no pair scored in both runs"
    return (
        f"mean Δ {fine_delta_text(interval.mean)} (95% CI {fine_delta_text(interval.low)} … {fine_delta_text(interval.high)}, "
        f"paired bootstrap, n={interval.n}): {interval.verdict}"
    )


def md_cell(text: object) -> str:
    """Scenario ids and persona names come from user files: keep them from breaking the table
    or becoming HTML in a pull-request comment."""
    value = " ".join(str(text).split())
    return value.replace("\\", "\\\\").replace("|", "\\|").replace("<", "&lt;").replace(">", "&gt;")
