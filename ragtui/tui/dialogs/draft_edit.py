"""Edit a generated scenario's question and reference. ``ctrl+s`` saves once the code checks pass
again (the question in the scenario's language; the reference still stating every fact a
``contains`` expectation checks); otherwise the dialog stays open and says what failed."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.widgets import Label, Static, TextArea

from ...core.generate.review import Reviewed, edit_problems
from .dialog import Dialog


class DraftEditScreen(Dialog[tuple[str, str] | None]):
    BINDINGS = [Binding("ctrl+s", "submit", "Save")]
    SUBMIT_ON_ENTER = False  # Enter is a new line in the text areas

    def __init__(self, item: Reviewed) -> None:
        super().__init__()
        self.item = item

    def compose_dialog(self) -> ComposeResult:
        s = self.item.scenario
        with Vertical(classes="dialog", id="draft-edit"):
            yield Label(Text(f"Edit {s.id} — ctrl+s: save · Escape: cancel"))
            yield Label("Question:")
            yield TextArea(s.question, id="draft-question", soft_wrap=True, compact=True)
            yield Label("Reference answer:")
            yield TextArea(s.reference or "", id="draft-reference", soft_wrap=True, compact=True)
            yield Static("", id="draft-problems", markup=False)

    def action_submit(self) -> None:
        question = self.query_one("#draft-question", TextArea).text
        reference = self.query_one("#draft-reference", TextArea).text
        problems = edit_problems(self.item, question, reference)
        if problems:
            self.query_one("#draft-problems", Static).update(Text("Not saved: " + "; ".join(problems), style="red"))
            return
        self.dismiss((question, reference))
