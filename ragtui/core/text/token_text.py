"""Token counts and costs as text, for the terminal's token tables and the HTML report alike:
``12,345``; ``–`` where the server did not say (never 0); ``$0.0123``, or ``no price`` for a
model the config's ``[prices]`` does not name."""

from __future__ import annotations

UNKNOWN = "–"  # the server did not say (e.g. how many prompt tokens it reused)
NO_PRICE = "no price"


def tokens_text(value: float | None) -> str:
    return UNKNOWN if value is None else f"{value:,.0f}"


def cost_text(value: float | None) -> str:
    return NO_PRICE if value is None else f"${value:,.4f}"
