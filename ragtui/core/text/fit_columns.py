"""Column widths that fit a table into the terminal's width, so that at 80 columns a long name is
shortened with an ellipsis in its own cell instead of the table running off the right edge and
cutting whatever column is there mid-word."""

from __future__ import annotations

from collections.abc import Sequence


def fit_widths(natural: Sequence[int], minimum: Sequence[int], room: int) -> list[int]:
    """Widths for columns whose content is ``natural`` wide, adding up to at most ``room``: the
    widest column that can still give gives one character at a time, never under its
    ``minimum`` (a column that must not shrink has its natural width as its minimum). When even
    the minimums do not fit, they are what is returned (the table then scrolls)."""
    widths = list(natural)
    excess = sum(widths) - room
    while excess > 0:
        shrinkable = [i for i, w in enumerate(widths) if w > minimum[i]]
        if not shrinkable:
            break
        widest = max(shrinkable, key=lambda i: widths[i])
        widths[widest] -= 1
        excess -= 1
    return widths


def keep_end(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, its start given up to an ellipsis: for a run id
    (``20261204-093012-ab12`` as ``…093012-ab12``) the end tells runs apart, the start is the
    date the table shows anyway."""
    return text if len(text) <= width else "…" + text[len(text) - width + 1 :] if width > 1 else text[:width]
