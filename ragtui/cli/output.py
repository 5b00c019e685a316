"""Terminal output helpers. Untrusted text (model output, user files) is only ever passed to
Rich as ``Text`` objects or with ``markup=False``: a bot reply containing ``[bold]`` or ``[/]``
is shown as typed, never interpreted.

What the *terminal* would interpret — escape sequences, other C0/C1 controls, bidi overrides in
a model's reply — is drawn visibly instead (``␛[31m``), by the console itself: every line
``ragtui`` prints passes through ``SafeConsole``, whichever command built it. Rich's own
styling travels separately from the text (control segments and styles), so it still works.
The controls are made visible *before* Rich lays the text out: ``␛`` takes a cell where ESC
took none, and a box measured with the ESC in it came out wider than the terminal.
"""

from __future__ import annotations

import copy
import dataclasses
import time
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Protocol

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType
from rich.panel import Panel
from rich.segment import Segment
from rich.table import Table
from rich.text import Span, Text

from ..core.text.fit_columns import (
    ELLIPSIS,
    WHOLE,
    WRAPPED,
    Column,
    Fit,
    Shorten,
    fit_table,
    kept,
    natural_widths,
)
from ..core.text.score_text import styled_score
from ..core.text.text_safety import CONTROL_CHARACTER, visible
from ..core.text.text_safety import error_line as error_line  # shared with the TUI's start-up


def visible_text(text: Text) -> Text:
    """``text`` with each control character drawn visibly (``visible``), its styles kept: each
    span moves with the characters it covered (a picture can be longer than its control)."""
    plain = text.plain
    if not CONTROL_CHARACTER.search(plain):
        return text
    parts: list[str] = []
    where: list[int] = []  # the offset in the shown text of each character of ``plain``
    offset = 0
    for char in plain:
        where.append(offset)
        parts.append(visible(char) if CONTROL_CHARACTER.match(char) else char)
        offset += len(parts[-1])
    where.append(offset)
    shown = text.blank_copy("".join(parts))
    shown.spans = [Span(where[s.start], where[s.end], s.style) for s in text.spans]
    return shown


def _shown(renderable: Any) -> Any:
    """What is laid out instead of ``renderable``: a Text, or a panel's title, made visible.
    (What a panel or a table holds is rendered through ``render`` too, and made visible there.)"""
    if isinstance(renderable, Text):
        return visible_text(renderable)
    if isinstance(renderable, Panel) and (renderable.title or renderable.subtitle):
        panel = copy.copy(renderable)
        for name in ("title", "subtitle"):
            title = getattr(panel, name)
            setattr(panel, name, visible_text(title) if isinstance(title, Text) else title and visible(title))
        return panel
    return renderable


class SafeConsole(Console):
    """A console that never sends a control character of the *text* to the terminal."""

    def render(self, renderable: RenderableType, options: ConsoleOptions | None = None) -> Iterable[Segment]:
        return super().render(_shown(renderable), options)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(
            segment if segment.control or not segment.text else Segment(visible(segment.text), *segment[1:])
            for segment in buffer
        )

    def on_broken_pipe(self) -> None:
        """The reader of the output went away (``ragtui run … | head``). Rich would exit at
        once (status 1, wherever it was printing); raised instead, it ends the command through
        ``main``, like every other write to the closed pipe, and stops the run the way Ctrl-C
        does, so its record stays resumable."""
        self.quiet = True  # nothing more to print, to a reader that is gone
        raise BrokenPipeError


console = SafeConsole(highlight=False)
console_err = SafeConsole(stderr=True, highlight=False)


def print_table(table: Table, shorten: Mapping[str, Shorten] | None = None) -> None:
    """A table: drawn by Rich on a terminal, fitted to its width; without one (CI logs, ``| tee``,
    ``| less``) as plain aligned columns, nothing cut. Rich measures and wraps every cell (~1.5 ms
    a row: a second and more at the end of a large run, spent on a log). The text still goes
    through the console, so controls in it are drawn visibly.

    On a terminal the columns are fitted by ``core.text.fit_columns``, as every list is:
    ``shorten`` says, by heading, how a column gives up width (a run id its start, a name its
    middle, never so far that two rows read the same); a column it does not name keeps its
    figures whole when right-aligned and wraps otherwise. A heading is never cut. A table too
    wide for its box is drawn without one, fitted; too wide even so, as plain columns the
    terminal wraps (nothing is cut to a width nothing fits in)."""
    headers = [_plain(column.header) for column in table.columns]
    rows = [
        list(row) for row in zip(*([_plain(cell) for cell in column.cells] for column in table.columns), strict=True)
    ]
    if console.is_terminal:
        fitted = _fitted(table, headers, rows, shorten or {})
        if fitted is not None:
            console.print(fitted)
            return
    widths = [max([cell_len(h), *(cell_len(row[i]) for row in rows)]) for i, h in enumerate(headers)]
    right = [column.justify == "right" for column in table.columns]

    def line(values: Iterable[str]) -> str:
        padded = (
            " " * (w - cell_len(v)) + v if r else v + " " * (w - cell_len(v))
            for v, w, r in zip(values, widths, right, strict=True)
        )
        return "  ".join(padded).rstrip()

    lines = [_plain(table.title)] if table.title else []
    lines += [line(headers), line("-" * w for w in widths), *(line(row) for row in rows)]
    console.out("\n".join(lines), highlight=False)


def _fitted(table: Table, headers: list[str], rows: list[list[str]], shorten: Mapping[str, Shorten]) -> Table | None:
    """``table`` fitted to the console: boxed when every column fits whole in the box; else
    without the box, two spaces between columns, then one, the first where nothing is
    shortened or else the roomiest, its columns fitted and cells shortened to them (a heading
    may wrap between its words, never inside one); None when even the narrowest widths do not
    fit (or a cell is not text, which only Rich can measure)."""
    if not all(isinstance(cell, (str, Text)) for column in table.columns for cell in column.cells):
        return None
    columns = [
        Column(header, shorten.get(header) or (WHOLE if column.justify == "right" else WRAPPED))
        for header, column in zip(headers, table.columns, strict=True)
    ]
    natural = natural_widths(columns, rows)
    if sum(natural) + _frame_width(table) <= console.width:
        return table
    chosen: tuple[Table, list[int]] | None = None
    for gap in (1, 0):
        bare = _unboxed(table, gap)
        room = console.width - _frame_width(bare)
        widths = fit_table(columns, rows, room, heading_wraps=True)
        if sum(widths) <= room:
            chosen = (bare, widths)
            if widths == natural:
                break
    if chosen is None:
        return None
    bare, widths = chosen
    bare.columns = [
        dataclasses.replace(
            column,
            width=width,
            min_width=None,
            max_width=None,
            no_wrap=False,  # a heading may wrap between words; a cell is shortened to fit, or wraps
            _cells=[_shortened(cell, width, fit.how.fit) for cell in column.cells],
        )
        for column, fit, width in zip(table.columns, columns, widths, strict=True)
    ]
    return bare


def _unboxed(table: Table, gap: int) -> Table:
    """``table`` without its box: a rule under the headings, columns ``gap`` + 1 spaces apart."""
    bare = copy.copy(table)
    bare.box, bare.show_edge, bare.pad_edge, bare.padding = box.SIMPLE_HEAD, False, False, (0, 0, 0, gap)
    return bare


def _frame_width(table: Table) -> int:
    """The cells ``table`` takes besides its columns' text: its box's lines and the cells'
    padding, as Rich counts them (``Table._extra_width`` and ``_get_padding_width``)."""
    count = len(table.columns)
    lines = ((2 if table.show_edge else 0) + count - 1) if table.box else 0
    _, right, _, left = table.padding
    if table.collapse_padding:
        left, right = 0, abs(left - right)
    padding = (left + right) * count
    if not table.pad_edge and count:
        padding -= left + right
    return lines + padding


def _shortened(cell: RenderableType, width: int, fit: Fit) -> RenderableType:
    """A cell shortened into ``width`` cells as ``fit`` says, its styles kept."""
    text = cell if isinstance(cell, Text) else Text(str(cell))
    if "\n" in text.plain:
        return cell  # several lines: left to Rich, which crops each with an ellipsis
    cut = kept(text.plain, width, fit)
    if cut is None:
        return cell
    head, tail = cut
    return Text.assemble(text[:head], ELLIPSIS, text[len(text) - tail :] if tail else "")


def _plain(cell: object) -> str:
    text = cell.plain if isinstance(cell, Text) else str(cell)
    # Measured as it will be drawn: controls made visible first, one line per row.
    return " ".join(visible(text, keep_newlines=False).split())


def session_score_text(session: object, low: bool = False) -> Text:
    """A dialogue's score; one with no judged turn at all has no score, which is not "unscored"."""
    score, threshold = getattr(session, "score", None), getattr(session, "threshold", 0.0)
    if score is None and not getattr(session, "unscored_turns", 0):
        return Text("-", style="dim")
    return styled_score(score, threshold, low)


def stop_text(reason: str | None) -> Text:
    styles = {
        "done": "green",
        "max_turns": "cyan",
        "error": "bold red",
        "cancelled": "yellow",
        "paused": "yellow",
        "interrupted": "bold yellow",
        "gave_up": "magenta",
        "handed_over": "blue",
    }
    return Text(reason or "running", style=styles.get(reason or "", "dim"))


def model_label(model: str, served: str | None) -> str:
    """The model asked for, and the one that answered when the answer named another."""
    return f"{model} → answered by {served}" if served and served != model else model


def say_discovered(endpoints: dict) -> None:  # dict[str, Endpoint]
    """When a role's model was found on its server (none was named), say which, on stderr."""
    from ..core.models.endpoints import discovery_note

    note = discovery_note(endpoints)
    if note:
        console_err.print(Text(note, style="dim"))


class ItemProgress(Protocol):
    """What per-item work uses of its bar: rich's ``Progress`` on a terminal, ``LineProgress`` in
    a log. A task is whatever ``add_task`` returned (rich's ``TaskID`` or ``LineProgress``'s int)."""

    def __enter__(self) -> Any: ...

    def __exit__(self, exc_type: Any, exc: Any, tb: Any, /) -> None: ...

    def add_task(self, description: str, *, total: int, note: str) -> Any: ...

    def update(self, task: Any, /, *, note: str, advance: int | None = None, completed: int | None = None) -> None: ...


def item_progress() -> ItemProgress:
    """The bar of long per-item work (calibrating, re-judging): done/total, elapsed, time left,
    and a note (e.g. the unscored count); on stderr, gone when finished. Without a terminal (CI
    logs) a plain line instead, at most every ``LineProgress.EVERY_S`` seconds and at the end,
    so a log is never silent for minutes."""
    if not console_err.is_terminal:
        return LineProgress()
    # Imported here: every command imports this module, few draw a bar.
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        TextColumn("{task.fields[note]}", style="yellow"),
        console=console_err,
        transient=True,
    )


class LineProgress:
    """``item_progress`` for a log: "judging 5/22 · 1 min 10 s · about 3 min 20 s left · note"."""

    EVERY_S = 10.0

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._tasks: dict[int, dict] = {}

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def add_task(self, description: str, total: int, note: str = "") -> int:
        now = self._clock()
        task = len(self._tasks)
        self._tasks[task] = {"description": description, "total": total, "done": 0, "start": now, "last": now}
        return task

    def update(self, task: int, advance: int | None = None, note: str = "", completed: int | None = None) -> None:
        t = self._tasks[task]
        t["done"] = completed if completed is not None else t["done"] + (advance or 0)
        now = self._clock()
        if t["done"] < t["total"] and now - t["last"] < self.EVERY_S:
            return
        t["last"] = now
        elapsed = now - t["start"]
        parts = [f"{t['description']} {t['done']}/{t['total']}", format_seconds(elapsed)]
        if 0 < t["done"] < t["total"]:
            parts.append(f"about {format_seconds(elapsed / t['done'] * (t['total'] - t['done']))} left")
        if note:
            parts.append(note)
        console_err.print(Text(" · ".join(parts)), soft_wrap=True)


def format_seconds(seconds: float) -> str:
    seconds = int(round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    minutes, seconds = divmod(seconds, 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"
