"""Column widths that fit a table into the terminal's width, so that at 80 columns a long name is
shortened with an ellipsis in its own cell instead of the table running off the right edge and
cutting whatever column is there mid-word.

Every list that must fit a width (``ragtui sessions`` and ``runs`` on a terminal, the TUI's
Sessions list and the Runs screen's trends) fits it here, by the same rules:

- a header is never cut: a column is never narrower than its heading;
- figures (ids, scores, counts, dates) are never shortened (``whole``);
- a run id gives up its start (``…093012-ab12``: the end tells runs apart) and a scenario or
  persona name its middle (``refu…tial``: ids that share a prefix differ at the end), and never
  below the width at which the rows shown stay told apart — two runs or two pairs never read
  the same;
- free text (the bot and its models) gives up its end, or wraps where the table can wrap.

Widths are counted in terminal cells, so a Japanese name takes the room it is drawn in.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, TypeVar

from rich.cells import cell_len, get_character_cell_size

Fit = Literal["whole", "end", "start", "middle", "wrap"]
"""How a column's text gives up width: not at all, its end, its start, its middle, or by
wrapping onto more lines (a table that cannot wrap gives up the end instead)."""

ELLIPSIS = "…"
PAIR_SEPARATOR = " × "
T = TypeVar("T")


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


def _head(text: str, cells: int) -> str:
    """The longest start of ``text`` that takes at most ``cells`` cells."""
    used = 0
    for i, ch in enumerate(text):
        used += get_character_cell_size(ch)
        if used > cells:
            return text[:i]
    return text


def _tail(text: str, cells: int) -> str:
    """The longest end of ``text`` that takes at most ``cells`` cells."""
    return _head(text[::-1], cells)[::-1]


def kept(text: str, width: int, fit: Fit) -> tuple[int, int] | None:
    """How many characters of ``text``'s start and of its end stay when it is shortened into
    ``width`` cells as ``fit`` says (an ellipsis between them), or None when it stays whole —
    so that styled text can be cut where its plain text is."""
    if fit in ("whole", "wrap") or cell_len(text) <= width:
        return None
    keep = max(0, width - 1)  # the ellipsis takes one cell
    if fit == "start":
        return 0, len(_tail(text, keep))
    if fit == "middle":
        return len(_head(text, keep - keep // 2)), len(_tail(text, keep // 2))
    return len(_head(text, keep)), 0


def shorten(text: str, width: int, fit: Fit) -> str:
    """``text`` in at most ``width`` cells, giving up what ``fit`` says with an ellipsis in its
    place (``whole`` and ``wrap`` text is returned as it is: it is never cut, or the table wraps it)."""
    cut = kept(text, width, fit)
    if cut is None:
        return text
    if width <= 0:
        return ""
    head, tail = cut
    return text[:head] + ELLIPSIS + (text[len(text) - tail :] if tail else "")


def keep_end(text: str, width: int) -> str:
    """``text`` in at most ``width`` characters, its start given up to an ellipsis: for a run id
    (``20261204-093012-ab12`` as ``…093012-ab12``) the end tells runs apart, the start is the
    date the table shows anyway."""
    return shorten(text, width, "start")


def pair_label(first: str, second: str, width: int | None = None) -> str:
    """``scenario × persona`` in at most ``width`` cells: whole when it fits, else each name
    shortened from its middle (``refund…rtial × skeptical``; under 20 cells ``refu…tial·skeptical``),
    the second (a persona, short) kept whole while it takes no more than half; no ``width``: whole."""
    whole = f"{first}{PAIR_SEPARATOR}{second}"
    if width is None or cell_len(whole) <= width:
        return whole
    separator = PAIR_SEPARATOR if width >= 20 else "·"  # narrow: every cell for the names
    room = max(0, width - cell_len(separator))
    second_cells = min(cell_len(second), max(room // 2, room - cell_len(first)))
    first_cells = room - second_cells
    return f"{shorten(first, first_cells, 'middle')}{separator}{shorten(second, second_cells, 'middle')}"


def narrowest_apart(items: Sequence[T], shown: Callable[[T, int], str], least: int, most: int) -> int:
    """The narrowest width from ``least`` to ``most`` at which the different ``items``, as
    ``shown(item, width)`` draws them, still read differently (``most`` when none is)."""
    different = list(dict.fromkeys(items))
    for width in range(max(0, least), most):
        if len({shown(item, width) for item in different}) == len(different):
            return width
    return most


@dataclass(frozen=True)
class Shorten:
    """How a column gives up width: ``fit``; ``least``, the narrowest it becomes for a reason of
    its own (a run id's random end still whole); ``apart``: never so narrow that two different
    cells read the same (ids and names, which is what they are for)."""

    fit: Fit = "whole"
    least: int = 0
    apart: bool = False


WHOLE = Shorten()
RUN_ID = Shorten("start", least=5, apart=True)  # …ab12: the random end of 20261204-093012-ab12
NAME = Shorten("middle", apart=True)  # refu…tial: a scenario or persona
TEXT = Shorten("end", least=8)
WRAPPED = Shorten("wrap", least=8)
NEWEST = Shorten("start", least=5)  # a sparkline, oldest first: its newest end


@dataclass(frozen=True)
class Column:
    """A column of a table to fit: its heading and how its text shortens."""

    header: str
    how: Shorten = WHOLE


def heading_width(header: str, wraps: bool) -> int:
    """The cells a heading needs: all of it on one line, or its longest word where the table
    wraps a heading between words (a heading is never cut inside a word)."""
    return max((cell_len(word) for word in header.split()), default=0) if wraps else cell_len(header)


def narrowest(column: Column, cells: Sequence[str], heading_wraps: bool = False) -> int:
    """How narrow ``column`` may become with ``cells`` in it: never under its heading (or the
    heading's longest word, ``heading_wraps``), its own ``least``, nor — ids and names — the
    width that keeps its rows told apart."""
    how = column.how
    heading = heading_width(column.header, heading_wraps)
    natural = max([heading, *(cell_len(c) for c in cells)])
    if how.fit == "whole":
        return natural
    least = min(natural, max(heading, how.least))
    if how.apart:
        least = narrowest_apart(cells, lambda text, width: shorten(text, width, how.fit), least, natural)
    return least


def natural_widths(columns: Sequence[Column], rows: Sequence[Sequence[str]]) -> list[int]:
    """Each column's width with nothing shortened: its widest cell or its heading."""
    return [max([cell_len(c.header), *(cell_len(row[i]) for row in rows)]) for i, c in enumerate(columns)]


def fit_table(
    columns: Sequence[Column], rows: Sequence[Sequence[str]], room: int, heading_wraps: bool = False
) -> list[int]:
    """The width of each of ``columns`` holding ``rows`` (plain text, a cell per column), adding
    up to at most ``room`` where the columns' narrowest widths allow it (``fit_widths``)."""
    minimum = [narrowest(c, [row[i] for row in rows], heading_wraps) for i, c in enumerate(columns)]
    return fit_widths(natural_widths(columns, rows), minimum, room)
