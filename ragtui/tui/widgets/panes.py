"""The three streaming panes (Customer, Bot, Judge).

Streaming without re-rendering a whole message per token: fragments are buffered and flushed
at most every 100 ms, and a message is a column of *chunks* (``Static`` widgets of at most a few KB),
so each flush re-renders only the last chunk, and asks for a layout pass only when that chunk
gains a line. A 100 KB reply therefore costs about the same
per flush as a short one. Panes follow the newest text while they are scrolled to the bottom;
once the operator scrolls up they stay put, and follow again when scrolled back down. (Textual's
``anchor()`` does the same but pins short content to the bottom of the pane, which reads oddly
for a conversation that starts at the top.)
"""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.geometry import Size
from textual.timer import Timer
from textual.widgets import Static

from ..safe_text import StreamCleaner, clean_text, plain

CHUNK_CHARS = 2000  # past this, a chunk closes at the next newline
HARD_CHUNK_CHARS = 8000  # ...or near here, for a reply with no newline at all
# A chunk closed at the hard limit ends after the last whitespace this far back, so a long
# single paragraph is not split inside a word (a chunk is its own widget, wrapped on its own).
WORD_BACKTRACK = 400
# Streamed text is shown at most ten times a second per pane: every update costs a screen
# refresh (the profile's largest share of the TUI's CPU), and reading gains nothing faster.
FLUSH_SECONDS = 0.1


class MessageView(Vertical):
    """One message: a heading line, then its text as chunks that only ever grow at the end."""

    DEFAULT_CSS = """
    MessageView { height: auto; margin-bottom: 1; }
    MessageView > .heading { color: $text-muted; text-style: bold; }
    MessageView > .chunk { height: auto; }
    """

    def __init__(self, heading: Text, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._heading = Static(heading, classes="heading", markup=False)
        self._chunks: list[str] = []
        self._widgets: list[Static] = []
        self._pending = ""  # text that arrived before this widget was mounted
        self._ready = False
        self._closed = False  # the last chunk ended at a boundary: the next text opens a new one
        self._height = _Height()

    def compose(self) -> ComposeResult:
        yield self._heading

    def on_mount(self) -> None:
        self._ready = True  # composed: chunks now go below the heading
        if self._pending:
            text, self._pending = self._pending, ""
            self.append(text)

    @property
    def text(self) -> str:
        return "".join(self._chunks) + self._pending

    def set_heading(self, heading: Text) -> None:
        self._heading.update(heading)

    def append(self, text: str) -> None:
        """Add cleaned text at the end, opening a new chunk when the current one is full."""
        if not self._ready:
            self._pending += text
            return
        while text:
            if not self._chunks or self._closed:
                self._open_chunk()
            current = self._chunks[-1]
            if len(current) + len(text) <= CHUNK_CHARS:
                self._set_last(current + text)
                return
            # Past the soft limit: close the chunk at the next newline, or at the hard limit.
            newline = text.find("\n", max(CHUNK_CHARS - len(current) - 1, 0))
            limit = max(HARD_CHUNK_CHARS - len(current), 1)
            if 0 <= newline < limit:
                cut, self._closed = newline + 1, True
            elif len(text) >= limit:
                cut, self._closed = _word_cut(text, limit), True
            else:
                cut = len(text)
            self._set_last(current + text[:cut])
            text = text[cut:]

    def settle(self, final: str) -> None:
        """End on the stored text. Usually it is what was streamed, or that minus trailing
        whitespace (trimmed in place); anything else is re-rendered once."""
        current = self.text
        if current == final:
            return
        extra = len(current) - len(final)
        if self._ready and self._chunks and 0 < extra <= len(self._chunks[-1]) and current.startswith(final):
            self._set_last(self._chunks[-1][:-extra])
            return
        self.replace(final)

    def replace(self, text: str) -> None:
        """Show ``text`` instead of what was streamed (used when they differ, e.g. no deltas)."""
        for widget in self._widgets:
            widget.remove()
        self._chunks, self._widgets, self._pending = [], [], ""
        self.append(text)

    def _open_chunk(self) -> None:
        self._closed = False
        widget = Static("", classes="chunk", markup=False)
        self._chunks.append("")
        self._widgets.append(widget)
        self._height = _Height()
        self.mount(widget)

    def _set_last(self, text: str) -> None:
        self._chunks[-1] = text
        # A chunk closed at a newline shows no empty last line; the next chunk starts below.
        shown = text[:-1] if text.endswith("\n") else text
        widget = self._widgets[-1]
        # A layout pass re-renders the whole screen (the profile's biggest cost while streaming):
        # ask for one only when the chunk gains a line, which is most flushes' exception.
        # Cleaned again here, where it is drawn (its callers pass cleaned text; this costs
        # about 0.2 ms for a full chunk): the widget does not depend on every caller for it.
        widget.update(Text(clean_text(shown)), layout=self._height.changed(self, widget, shown))


def _word_cut(text: str, limit: int) -> int:
    """Where to close a chunk at the hard limit: after the last whitespace before ``limit``
    (within WORD_BACKTRACK characters), or at ``limit`` for text with no space at all."""
    start = max(limit - WORD_BACKTRACK, 0)
    space = max(text.rfind(" ", start, limit), text.rfind("\t", start, limit))
    return space + 1 if space >= 0 else limit


class _Height:
    """The number of lines a growing chunk wraps to at its width, kept up to date cheaply:
    the lines before its last newline are counted once, only the last paragraph is wrapped
    again on each update (text is only ever appended)."""

    def __init__(self) -> None:
        self.width = -1
        self.prefix = 0  # characters up to and including the last newline already counted
        self.prefix_lines = 0
        self.lines = -1

    def changed(self, view: Vertical, widget: Static, text: str) -> bool:
        width = widget.size.width
        if width <= 0 or not widget.is_mounted:
            return True  # not laid out yet: let the layout decide
        if width != self.width or len(text) < self.prefix:
            self.width, self.prefix, self.prefix_lines = width, 0, 0
        console = view.app.console
        cut = text.rfind("\n") + 1
        if cut > self.prefix:
            self.prefix_lines += _wrapped(console, text[self.prefix : cut - 1], width)
            self.prefix = cut
        lines = self.prefix_lines + _wrapped(console, text[cut:], width)
        grew, self.lines = lines != self.lines, lines
        return grew


def _wrapped(console: Console, text: str, width: int) -> int:
    """Lines ``text`` takes at ``width``, wrapped as the Static showing it wraps it."""
    return len(Text(text).wrap(console, width)) or 1


class RolePane(VerticalScroll):
    """A scrolling column of messages for one role, fed by engine events."""

    DEFAULT_CSS = """
    RolePane { border: round $panel-lighten-2; padding: 0 1; width: 1fr; height: 1fr; }
    RolePane:focus { border: round $accent; }
    RolePane > .block { height: auto; margin-bottom: 1; }
    RolePane > .error { color: $error; text-style: bold; }
    RolePane > .note { color: $text-muted; }
    """

    def __init__(self, title: str, role: str, *, separate_json: bool = False, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.role = role
        # The judge streams one JSON reply per call, several per turn (a metric's steps): start
        # each on its own line instead of gluing "…]}{"verdicts": [".
        self._separate_json = separate_json
        self._last_char = ""
        self.border_title = plain(title)
        self._live: MessageView | None = None
        self._live_turn = 0
        self._live_heading = ""
        self._buffer: list[str] = []
        self._cleaner = StreamCleaner()
        self._follow_pending = False
        self._following = True
        self._flush_timer: Timer | None = None

    def _schedule_flush(self) -> None:
        """A one-shot timer while text is arriving: an idle pane wakes nobody."""
        if self._flush_timer is None:
            self._flush_timer = self.set_timer(FLUSH_SECONDS, self._timed_flush)

    def _timed_flush(self) -> None:
        self._flush_timer = None
        self.flush()
        if self._following and self.scroll_y < self.max_scroll_y:
            self._schedule_flush()  # content still settling below: catch up once more

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        # Only the operator scrolls up (this pane only ever scrolls itself down): stop
        # following then; reaching the bottom again resumes following.
        if new_value < old_value - 0.5:
            self._following = False
        if new_value >= self.max_scroll_y - 1:
            self._following = True

    def _follow(self) -> None:
        """Call when content changes: scroll to the newest text unless the operator scrolled up."""
        if self._following and not self._follow_pending:
            self._follow_pending = True
            self.call_after_refresh(self._scroll_to_end)

    def _scroll_to_end(self, tries: int = 3) -> None:
        self._follow_pending = False
        if self._following:
            self.scroll_end(animate=False, immediate=True)
            # A chunk mounted in the same pass may grow the content after this layout: check
            # again after the next refresh or two, instead of polling on a timer.
            if tries > 1:
                self.call_after_refresh(self._catch_up, tries - 1)

    def _catch_up(self, tries: int) -> None:
        if self._following and self.scroll_y < self.max_scroll_y:
            self._scroll_to_end(tries)

    def watch_virtual_size(self, size: Size) -> None:
        # The content's height is known only once its layout ran, which on a busy machine can
        # come more refreshes after the text than the catch-ups above wait for: whenever the
        # scrollable size changes, a following pane goes to the end (after this refresh, when
        # the scroll limits match the new size).
        if self._following:
            self._follow()

    def clear(self) -> None:
        self._live, self._buffer, self._cleaner = None, [], StreamCleaner()
        self.remove_children()
        self.scroll_home(animate=False, immediate=True)
        self._following = True

    def add_delta(self, turn: int, fragment: str, heading: str | None = None) -> None:
        """Buffer a streamed fragment; the timer (or the end of the message) shows it. The
        message streaming is headed ``heading``, by default its turn's ("Turn 3 …")."""
        heading = heading or f"Turn {turn} …"
        if self._live is None or self._live_turn != turn or self._live_heading != heading:
            self.flush()
            self._live = MessageView(plain(heading, style="bold"))
            self._live_turn, self._live_heading = turn, heading
            self._last_char = ""
            self._follow()
            self.mount(self._live)
        text = self._cleaner.feed(fragment)
        if self._separate_json and text.strip():
            if text.lstrip()[0] == "{" and self._last_char in ("}", "]"):
                text = "\n" + text.lstrip()
            self._last_char = text.rstrip()[-1]
        self._buffer.append(text)
        self._schedule_flush()

    def flush(self) -> None:
        # Also a catch-up: a chunk mounted after the last scroll may have grown the content.
        if self._following and self.scroll_y < self.max_scroll_y:
            self.scroll_end(animate=False, immediate=True)
        if self._buffer and self._live is not None:
            text, self._buffer = "".join(self._buffer), []
            if text:
                self._follow()
                self._live.append(text)

    def finish_message(self, turn: int, text: str, label: str) -> None:
        """A message is complete: settle the streamed view on the stored text."""
        self._buffer.append(self._cleaner.flush())
        self.flush()
        final = clean_text(text)
        self._follow()
        heading = Text(f"Turn {turn} · {clean_text(label)}", style="bold")
        if self._live is not None and self._live_turn == turn:
            view = self._live
            view.set_heading(heading)
            view.settle(final)
        else:
            view = MessageView(heading)
            view.append(final)
            self.mount(view)
        self._live = None

    def discard_live(self) -> None:
        """Drop the message being streamed (the judge's raw JSON) once its formatted
        replacement is ready; the raw reply stays available in the verdict screen."""
        self._buffer, self._cleaner = [], StreamCleaner()
        if self._live is not None:
            self._live.remove()
            self._live = None

    def add_block(self, text: Text, classes: str = "block") -> Static:
        """A finished block of styled text (verdicts, notes, errors)."""
        self._buffer.append(self._cleaner.flush())
        self.flush()
        self._live = None
        self._follow()
        text = text.copy()
        text.rstrip()  # a trailing newline would add a blank line before the margin
        widget = Static(text, classes=classes, markup=False)
        self.mount(widget)
        return widget

    def add_error(self, message: str) -> Static:
        return self.add_block(Text("⚠ " + clean_text(message)), classes="block error")

    def add_note(self, message: str) -> Static:
        return self.add_block(Text(clean_text(message)), classes="block note")
