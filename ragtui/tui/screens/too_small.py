"""Shown instead of the app while the terminal is smaller than the layout can hold."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Static

MIN_SIZE = (80, 24)  # every screen and dialog is laid out to work from here up


class TooSmallScreen(Screen[None]):
    """One line, no bindings of its own: the app pops it once the terminal is large enough."""

    DEFAULT_CSS = """
    TooSmallScreen { align: center middle; }
    TooSmallScreen > Static { width: 100%; content-align: center middle; text-style: bold; }
    """

    def compose(self) -> ComposeResult:
        yield Static(self._message(), markup=False)

    def _message(self) -> Text:
        width, height = self.app.size
        return Text(
            f"Make the terminal larger: ragtui needs {MIN_SIZE[0]}×{MIN_SIZE[1]}, this one is {width:d}×{height:d}."
        )

    def on_resize(self, event: events.Resize) -> None:
        self.query_one(Static).update(self._message())
