"""Small modal dialogs: confirmation, unsaved changes, export path, help (its text is built by
``help_text`` from every screen's keys).

They follow the convention of ``dialog.Dialog`` (ctrl+s submits, Escape cancels, their own
footer) and have compact one-line buttons, so their actions stay on screen at 80×24.
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
from textual.widgets import Button, Input, Label, Static

from ...core.files.output_file import check_output, is_database_file
from ...core.types.errors import RagtuiError
from ..help_text import help_text
from ..safe_text import field_text, plain
from ..widgets.fields import TextField
from .dialog import Dialog


class ConfirmScreen(Dialog[bool]):
    """Yes/no; ``y`` or ctrl+s confirms, ``n`` or Escape declines. The question may quote user
    data. Focus starts on No: Enter alone never confirms a deletion."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n", "answer(False)", "No"),
        Binding("ctrl+s", "submit", "Yes", show=False),
        Binding("escape", "cancel", "No", show=False),
    ]
    CANCEL_RESULT = False

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(plain(self.question), markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Yes (y)", variant="error", id="yes", compact=True)
                yield Button("No (n)", id="no", compact=True)

    def on_mount(self) -> None:
        self.query_one("#no", Button).focus()

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)

    def action_submit(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


Choice = Literal["save", "discard", "stay"]


class UnsavedChangesScreen(Dialog[Choice]):
    """Save (s or ctrl+s), discard (d) or stay (Escape): asked before edits would be thrown away."""

    BINDINGS = [
        Binding("s", "choose('save')", "Save"),
        Binding("d", "choose('discard')", "Discard"),
        Binding("ctrl+s", "submit", "Save", show=False),
        Binding("escape", "cancel", "Stay"),
    ]
    CANCEL_RESULT = "stay"

    def __init__(self, what: str) -> None:
        super().__init__()
        self.what = what

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(plain(f"{self.what} has unsaved changes."), markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Save (s)", variant="primary", id="save", compact=True)
                yield Button("Discard (d)", variant="error", id="discard", compact=True)
                yield Button("Stay (Escape)", id="stay", compact=True)

    def action_choose(self, choice: Choice) -> None:
        self.dismiss(choice)

    def action_submit(self) -> None:
        self.dismiss("save")

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)  # type: ignore[arg-type]


class ExportScreen(Dialog[Path | None]):
    """Choose where the CSV goes; ctrl+s or Enter writes, Escape closes. The dialog writes the
    file itself: a path that cannot be written is reported here, keeping what was typed."""

    BINDINGS = [Binding("ctrl+s", "submit", "Export")]

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

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label("Export the open session to CSV (one row per dialogue). File:")
            yield TextField(field_text(str(self.default)), id="export-path")
            if self.warning:
                yield Static(plain("⚠ " + self.warning), id="export-warning", classes="warning", markup=False)
            yield Static("", id="export-error", classes="error", markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Export (ctrl+s)", variant="primary", id="export", compact=True)
                yield Button("Cancel (Esc)", id="cancel", compact=True)

    def _error(self, message: str) -> None:
        self.query_one("#export-error", Static).update(plain(message))

    @on(Button.Pressed, "#export")
    def action_submit(self) -> None:
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
        self.action_cancel()


class HelpScreen(Dialog[None]):
    """Every key of every screen (a test checks it against their bindings)."""

    BINDINGS = [
        Binding("ctrl+s", "submit", "Close", show=False),
        Binding("escape,q,f1,question_mark", "cancel", "Close"),
    ]

    def compose_dialog(self) -> ComposeResult:
        with Vertical(classes="dialog help"):
            with VerticalScroll(id="help-text"):  # the text scrolls; Close stays in view
                yield Static(Text(help_text()), markup=False)
            with Horizontal(classes="buttons"):
                yield Button("Close (Escape)", id="close", compact=True)

    @on(Button.Pressed, "#close")
    def action_submit(self) -> None:
        self.dismiss(None)
