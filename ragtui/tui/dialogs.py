"""Small modal dialogs: confirmation, unsaved changes, export path, help.

Every modal has its own footer (it covers the main screen's, whose keys do not apply here) and
compact one-line buttons, so its actions stay on screen at 80×24.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Label, Static

from ..core.errors import RagtuiError
from ..core.output_file import check_output, is_database_file


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
                yield Button("Yes (y)", variant="error", id="yes", compact=True)
                yield Button("No (n)", id="no", compact=True)
        yield Footer(compact=True, show_command_palette=False)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


Choice = Literal["save", "discard", "stay"]


class UnsavedChangesScreen(ModalScreen[Choice]):
    """Save, discard or stay: asked before edits would be thrown away."""

    BINDINGS = [
        Binding("s", "choose('save')", "Save"),
        Binding("d", "choose('discard')", "Discard"),
        Binding("escape", "choose('stay')", "Stay"),
    ]

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(Text(f"{self.what} has unsaved changes."), markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Save (s)", variant="primary", id="save", compact=True)
                yield Button("Discard (d)", variant="error", id="discard", compact=True)
                yield Button("Stay (Escape)", id="stay", compact=True)
        yield Footer(compact=True, show_command_palette=False)

    def action_choose(self, choice: Choice) -> None:
        self.dismiss(choice)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)  # type: ignore[arg-type]


class ExportScreen(ModalScreen[Path | None]):
    """Choose where the CSV goes; Enter writes, Escape closes. The dialog writes the file
    itself: a path that cannot be written is reported here, keeping what was typed."""

    BINDINGS = [Binding("escape", "dismiss(None)", "Close")]

    OPTION = "the Export dialog's file"  # how output-guard messages name this field

    def __init__(
        self,
        default: Path,
        write: Callable[[Path], None],
        warning: str | None = None,
        database: Path | None = None,
    ) -> None:
        super().__init__()
        self.default = default
        self._confirmed: Path | None = None  # the existing file the user agreed to overwrite
        self.write = write
        self.warning = warning
        self.database = database

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Export the open session to CSV (one row per dialogue). File:")
            yield Input(str(self.default), id="export-path")
            if self.warning:
                yield Static(Text("⚠ " + self.warning), id="export-warning", classes="warning", markup=False)
            yield Static("", id="export-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Export", variant="primary", id="export", compact=True)
                yield Button("Cancel", id="cancel", compact=True)
        yield Footer(compact=True, show_command_palette=False)

    def _error(self, message: str) -> None:
        self.query_one("#export-error", Static).update(Text(message))

    @on(Input.Submitted)
    @on(Button.Pressed, "#export")
    def _export(self) -> None:
        value = self.query_one("#export-path", Input).value.strip()
        if not value:
            self._error("Type a file name.")
            return
        path = Path(value).expanduser()
        if path.is_dir():
            self._error(f"{path} is a folder: add a file name.")
            return
        if self.database is not None and is_database_file(path, self.database):
            self._error(f"{path}: that is the session database; choose another file.")
            return
        if path != self.default:  # ragtui makes its own exports folder; a typed folder must exist
            try:  # refused before "overwrite?": a database is never offered for overwriting
                check_output(path, option=self.OPTION, database=self.database)
            except RagtuiError as exc:
                self._error(str(exc))
                return
        if path.exists() and path != self._confirmed:
            # Ask before overwriting: a second Export on the same name confirms.
            self._confirmed = path
            self._error(f"{path} exists. Press Export again to overwrite it, or change the name.")
            return
        try:
            self.write(path)
        except RagtuiError as exc:
            self._error(str(exc))
            return
        except OSError as exc:
            self._error(f"Cannot write {path}: {exc.strerror or exc}")
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
  x        export the open session to CSV (default folder: ragtui's data folder, exports/)
  f        fork the open session after turn N: a new session continues live from there
  l        label the newest bot turn: your own 1–5 score, a note, agree/disagree with the judge
  u        to label: the unlabelled turns of this run; 1–5 / a / d label and move on, n / p
  o        sessions: open (read / continue) or delete stored sessions
  e        personas: list, create, edit, duplicate, delete
  R        runs: scores and trends; Enter compares two runs, r replays one
  ctrl+p   command palette: every action by name
  F1 / ?   this help          ctrl+q  quit (a running dialogue is cancelled cleanly)

Continuing
  s / a on a cancelled, failed or interrupted session continue it where it stopped, from
  wherever it was opened; a metric missing on the last turn runs first. A failed step (server
  down) pauses the session: s / a retry it once the server is back.

Other screens
  Verdicts  ↑/↓ turn · [ / ] or 1–5 switch tab · r re-judge · Escape back
  Runs      with trials (--repeat K): pass^1 / pass^K, each pair's trials as ● pass ○ fail
  Compare   Enter: a pair's two dialogues side by side; there [ / ] previous / next trial
  Personas  ctrl+s save · ctrl+n new · ctrl+t duplicate · F8 delete · ctrl+l language;
            leaving with unsaved edits asks: save, discard or stay

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
        with Vertical(classes="dialog help"):
            with VerticalScroll(id="help-text"):  # the text scrolls; Close stays in view
                yield Static(Text(HELP), markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Close (Escape)", id="close", compact=True)
        yield Footer(compact=True, show_command_palette=False)

    @on(Button.Pressed, "#close")
    def _close(self) -> None:
        self.dismiss(None)
