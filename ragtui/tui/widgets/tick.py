"""A checkbox and a checklist that draw ✓ when ticked and nothing when not, and a radio button
that draws ● when chosen and ○ when not.

Textual draws an X in the box (● in the radio button) either way and tells the two apart by
colour alone: an unticked box reads as ticked in a terminal whose theme makes the colours close,
or to anyone who does not know the convention. Here the mark itself says it."""

from __future__ import annotations

from typing import Any

from rich.segment import Segment
from textual.strip import Strip
from textual.widgets import Checkbox, RadioButton, SelectionList
from textual.widgets.option_list import OptionDoesNotExist

TICKED = "✓"
UNTICKED = " "
CHOSEN = "●"
NOT_CHOSEN = "○"


class _DrawsItsState:
    """Mixed into a toggle button (before it in the bases): its mark says its state, ``ON_MARK``
    when on, ``OFF_MARK`` when not."""

    ON_MARK = TICKED
    OFF_MARK = UNTICKED
    value: bool  # the toggle button's
    BUTTON_INNER: str

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._mark()

    def watch_value(self) -> None:
        super().watch_value()  # type: ignore[misc]  # the toggle button's, next in the bases
        self._mark()

    def _mark(self) -> None:
        # An instance attribute over Textual's class-wide mark: ToggleButton draws BUTTON_INNER.
        self.BUTTON_INNER = self.ON_MARK if self.value else self.OFF_MARK


class TickBox(_DrawsItsState, Checkbox):
    pass


class ChoiceButton(_DrawsItsState, RadioButton):
    ON_MARK = CHOSEN
    OFF_MARK = NOT_CHOSEN


class TickList(SelectionList[str]):
    # SelectionList draws each option's box with ToggleButton's class-wide X (Checkbox's too).
    def render_line(self, y: int) -> Strip:
        strip = super().render_line(y)
        try:
            selection = self.get_option_at_index(self.scroll_offset.y + y)
        except OptionDoesNotExist:
            return strip  # no option on this line: no box drawn
        segments = list(strip)
        if len(segments) < 2 or segments[1].text != Checkbox.BUTTON_INNER:
            return strip  # not the layout drawn with a box: leave it as Textual drew it
        mark = TICKED if selection.value in self.selected else UNTICKED
        segments[1] = Segment(mark, segments[1].style, segments[1].control)
        return Strip(segments, strip.cell_length)
