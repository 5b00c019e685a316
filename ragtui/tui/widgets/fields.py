"""The one-line fields of ragtui's screens and dialogs, in two kinds.

Textual's Input selects all its text when it gets the focus, so the first key typed after Tab
replaced a persona's description, a note or a path. A ``TextField`` never does that: typing adds
at the cursor (at the end of what the field holds). A ``NumberField`` holds one number, typed
whole (trials, a score, a turn, a temperature): it keeps the selection, shown highlighted, so
typing 3 over 1 gives 3, not 13.
"""

from __future__ import annotations

from typing import Any

from textual.widgets import Input


class TextField(Input):
    def __init__(self, value: str | None = None, **kwargs: Any) -> None:
        super().__init__(value, select_on_focus=False, **kwargs)


class NumberField(Input):
    def __init__(self, value: str | None = None, **kwargs: Any) -> None:
        super().__init__(value, select_on_focus=True, **kwargs)
