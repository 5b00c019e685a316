"""Asked when a persona is saved under a new name: rename it, keep both, or go back.

A rename never loses a file silently: "rename" removes only the user's own file of the old
name (a shipped persona stays as shipped), "copy" keeps the old one as it is.
"""

from __future__ import annotations

from typing import Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Static

from ..safe_text import one_line
from .dialog import Dialog

RenameChoice = Literal["rename", "copy", "cancel"]


class PersonaRenameScreen(Dialog[RenameChoice]):
    """Rename (ctrl+s or r), save as a copy (c) or cancel (Escape)."""

    BINDINGS = [
        Binding("ctrl+s", "submit", "Rename"),
        Binding("r", "choose('rename')", "Rename", show=False),
        Binding("c", "choose('copy')", "Save as a copy"),
    ]
    CANCEL_RESULT = "cancel"

    def __init__(self, old: str, new: str, old_is_shipped: bool) -> None:
        super().__init__()
        self.old, self.new, self.old_is_shipped = old, new, old_is_shipped

    def compose_dialog(self) -> ComposeResult:
        old, new = one_line(self.old, 40), one_line(self.new, 40)  # names typed or read from files
        question = Text(f"Save persona {old} as {new}?\n")
        if self.old_is_shipped:
            question.append(f"Rename: {new} is saved in your folder; the shipped {old} stays available.")
        else:
            question.append(f"Rename: {old} is removed. Copy: both are kept.")
        with Vertical(classes="dialog"):
            yield Static(question, id="rename-question", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Rename (ctrl+s / r)", variant="primary", id="rename", compact=True)
                yield Button("Save as a copy (c)", id="copy", compact=True)
                yield Button("Cancel (Escape)", id="cancel", compact=True)

    def action_choose(self, choice: RenameChoice) -> None:
        self.dismiss(choice)

    def action_submit(self) -> None:
        self.dismiss("rename")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)  # type: ignore[arg-type]
