"""Small modal dialogs: confirmation, export path, help."""

from __future__ import annotations

from pathlib import Path

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, Static


class ConfirmScreen(ModalScreen[bool]):
    """Yes/no; ``y`` confirms, ``n`` or Escape declines. The question may quote user data."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(self.question), markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", variant="error", id="yes")
                yield Button("No (n)", id="no")

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class ExportScreen(ModalScreen[Path | None]):
    """Choose where the CSV goes; Enter writes, Escape closes."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    def __init__(self, default: Path) -> None:
        super().__init__()
        self.default = default
        self._confirmed: Path | None = None  # the existing file the user agreed to overwrite

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Export the open session to CSV (one row per dialogue). File:")
            yield Input(str(self.default), id="export-path")
            yield Static("", id="export-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Export", variant="primary", id="export")
                yield Button("Cancel", id="cancel")

    @on(Input.Submitted)
    @on(Button.Pressed, "#export")
    def _export(self) -> None:
        value = self.query_one("#export-path", Input).value.strip()
        if not value:
            self.query_one("#export-error", Static).update("Type a file name.")
            return
        path = Path(value).expanduser()
        if path.is_dir():
            self.query_one("#export-error", Static).update(Text(f"{path} is a folder: add a file name."))
            return
        if path.exists() and path != self._confirmed:
            # Ask before overwriting: a second Export on the same name confirms.
            self._confirmed = path
            self.query_one("#export-error", Static).update(
                Text(f"{path} exists. Press Export again to overwrite it, or change the name.")
            )
            return
        self.dismiss(path)

    @on(Button.Pressed, "#cancel")
    def _cancel(self) -> None:
        self.dismiss(None)


HELP = """\
ragtui — watch a simulated customer talk to your support bot while a judge scores every answer.

Main screen
  n        new session: pick a scenario and a persona, or type a free question
  s        step: the next customer message, bot answer or verdict
  a        auto-run to the end (also resumes after a pause)
  p        pause auto-run after the step in progress
  c        cancel the dialogue now (recorded as cancelled; it can be continued later)
  m        type the next customer message yourself (Enter sends, Escape closes)
  v        verdicts: criteria, comment, exact prompt, raw reply, passages, versions
  r        re-judge a bot turn: same judge, another model, or an edited prompt
  x        export the open session to CSV
  l        label the newest bot turn: your own 1–5 score, a note, agree/disagree with the judge
  u        to label: the unlabelled turns of this run; 1–5 / a / d label and move on, n / p
  o        sessions: open (read / continue) or delete stored sessions
  e        personas: list, create, edit, duplicate, delete
  ctrl+p   command palette: every action by name
  F1 / ?   this help          ctrl+q  quit (a running dialogue is cancelled cleanly)

Scores
  Labels are people's scores and opinions of the judge, kept apart from the verdicts.
  A turn scores Overall/5. Under the threshold it is red. A verdict the judge could not give
  is "unscored" — never 0 — and does not count in the dialogue score (the mean of the turns).

Panes follow the newest text; scroll up to read back, scroll to the bottom to follow again.
Model output is always shown as plain text.
"""


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,q,f1,question_mark", "dismiss(None)", "Close")]

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog help"):
            yield Static(Text(HELP), markup=False)
            yield Button("Close (Escape)", id="close")

    @on(Button.Pressed, "#close")
    def _close(self) -> None:
        self.dismiss(None)
