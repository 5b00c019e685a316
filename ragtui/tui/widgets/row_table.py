"""A table whose cursor is a row: Home / End go to the first / last row (Textual's DataTable
moves them along columns, which a row cursor does not have), and the first columns can stay put
while the rest scroll sideways at 80 columns."""

from __future__ import annotations

from typing import Any

from textual.binding import Binding
from textual.widgets import DataTable


class RowTable(DataTable[Any]):
    BINDINGS = [
        Binding("home", "scroll_top", "First row", show=False),
        Binding("end", "scroll_bottom", "Last row", show=False),
    ]

    def __init__(self, *, fixed: int = 1, **kwargs: Any) -> None:
        kwargs.setdefault("cursor_type", "row")
        kwargs.setdefault("zebra_stripes", True)
        super().__init__(**kwargs)
        self.fixed_columns = fixed  # the row's name stays in view when scrolled right
