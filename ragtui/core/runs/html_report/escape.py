"""The one way text enters the report: escaped for HTML text and attribute values alike.

Model replies, customer messages, verdict comments, scenario and persona names all pass through
``esc``; nothing of them ever becomes markup, an attribute name, a URL or script. Attributes the
report builds (ids, filter keys) hold only numbers and ragtui's own words."""

from __future__ import annotations

import html

from ...text.text_safety import visible


def esc(value: object) -> str:
    """HTML-escaped, with control characters shown as their pictures (␛, ␇): an ESC or BEL of a
    model's reply is drawn, never written raw into a file someone may ``cat`` to a terminal."""
    return html.escape(visible(str(value)), quote=True)


def colour(value: float | None) -> str:
    """A cell's colour for a 0–1 score: red through amber to green; grey for no score."""
    if value is None:
        return "#9aa0a6"
    v = min(1.0, max(0.0, value))
    if v < 0.5:  # red (#d93025) → amber (#f9ab00)
        t = v / 0.5
        r, g, b = 217 + (249 - 217) * t, 48 + (171 - 48) * t, 37 + (0 - 37) * t
    else:  # amber → green (#1e8e3e)
        t = (v - 0.5) / 0.5
        r, g, b = 249 + (30 - 249) * t, 171 + (142 - 171) * t, 0 + 62 * t
    return f"#{int(r):02x}{int(g):02x}{int(b):02x}"
