"""The sessions browser: every stored session, newest first; open one, or delete one.

A deleted session is announced with a ``SessionsScreen.Deleted`` message, which bubbles up to
the app, so a screen that has it open can close it.
"""

from __future__ import annotations

import contextlib

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Static

from ...core.runs.low_agreement import low_rubric_sessions
from ...core.store.ownership import this_process
from ...core.text.score_text import styled_score
from ...core.types.errors import RagtuiError
from ..context import TuiServices, services
from ..dialogs.common import ConfirmScreen
from ..record_watch import RecordChanged
from ..safe_text import one_line
from ..widgets.row_table import RowTable

STOP_STYLES = {
    "done": "green",
    "max_turns": "cyan",
    "error": "bold red",
    "cancelled": "yellow",
    "paused": "yellow",
    "interrupted": "bold yellow",
    "paused: step failed": "red",
    "gave_up": "magenta",
    "handed_over": "blue",
}


class SessionsScreen(Screen[int | None]):
    """Dismisses with the id of the session to open, or None."""

    class Deleted(Message):
        """A session was deleted from the store."""

        def __init__(self, session_id: int) -> None:
            super().__init__()
            self.session_id = session_id

    BINDINGS = [
        Binding("enter", "open", "Open", priority=True, tooltip="Open the session (s / a continue a stopped one)"),
        Binding("d,delete", "delete", "Delete", tooltip="Delete the session, after asking"),
        Binding("home", "first", "First", show=False, tooltip="The newest session (the top row)"),
        Binding("end", "last", "Last", show=False, tooltip="The oldest session (the bottom row)"),
        Binding("f5", "reload", "Reload", tooltip="Read the list again"),
        Binding("escape", "dismiss(None)", "Back", tooltip="Back to the main screen"),
    ]

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose(self) -> ComposeResult:
        yield Static(
            Text("Sessions — Enter: open (cancelled, failed, interrupted: s / a continue) · d: delete · Escape: back"),
            id="title",
        )
        yield RowTable(id="sessions")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        table = self.query_one(DataTable)
        # What a person scans for first (how it stopped, its score) before the long names, so
        # nothing needed falls off the right at 80 columns.
        table.add_columns("id", "stop", "score", "turns", "scenario", "persona", "lang", "started")
        self.action_reload()
        table.focus()

    def action_reload(self) -> None:
        table = self.query_one(DataTable)
        table.clear()
        try:
            sessions = self.ragtui.store.sessions()
        except RagtuiError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        me, running = this_process(), self.ragtui.running_session
        # Scores whose judge agrees with people under the floor: ≈, neither red nor green.
        low = low_rubric_sessions(self.ragtui.store, [s.id for s in sessions], self.ragtui.config.min_judge_agreement)
        for s in sessions:
            stop = s.stop_reason if s.status == "finished" else s.status
            if s.status == "running" and s.error:  # paused on a failed step: continuable
                stop = "paused: step failed"
            elif s.status == "running" and s.owner == me and s.id != running:
                stop = "paused"  # held by this app between steps, not running now
            table.add_row(
                Text(str(s.id), justify="right"),
                Text(stop or "?", style=STOP_STYLES.get(stop or "", "")),
                styled_score(s.score, s.threshold, s.id in low)
                if s.score is not None or s.unscored_turns
                else Text("–"),
                f"{s.turns}/{s.max_turns}",
                Text(one_line(s.scenario_id, 30)),
                Text(one_line(s.persona_name, 20)),
                s.language,
                s.created_at.replace("T", " ")[:16],
                key=str(s.id),
            )
        if not sessions:
            self.query_one("#title", Static).update(Text("No sessions yet — Escape, then n to start one."))

    def action_first(self) -> None:
        self.query_one(RowTable).action_scroll_top()

    def action_last(self) -> None:
        self.query_one(RowTable).action_scroll_bottom()

    def on_record_changed(self, _message: RecordChanged) -> None:
        """Another process changed the record: the list follows, the cursor stays on its row."""
        table = self.query_one(DataTable)
        keep = self._selected()
        self.action_reload()
        if keep is not None:
            with contextlib.suppress(LookupError):  # the row may be gone (deleted elsewhere)
                table.move_cursor(row=table.get_row_index(str(keep)))

    def _selected(self) -> int | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return int(key.value) if key.value is not None else None

    def action_open(self) -> None:
        session_id = self._selected()
        if session_id is not None:
            self.dismiss(session_id)

    @on(DataTable.RowSelected)
    def _row_selected(self) -> None:
        self.action_open()

    def action_delete(self) -> None:
        session_id = self._selected()
        if session_id is None:
            return
        if self.ragtui.running_session == session_id:
            self.app.notify("That session is running: cancel it first.", severity="warning", markup=False)
            return

        def confirmed(answer: bool | None) -> None:
            if not answer:
                return
            try:
                self.ragtui.store.delete_session(session_id)
            except RagtuiError as exc:
                self.app.notify(str(exc), severity="error", markup=False)
                return
            self.post_message(self.Deleted(session_id))
            self.app.notify(f"Deleted session #{session_id}", markup=False)
            self.action_reload()

        from ...core.store.labels import labels_going_with

        labels = labels_going_with(self.ragtui.store, session_id)  # a person's work goes too: say so
        self.app.push_screen(
            ConfirmScreen(
                f"Delete session #{session_id} with all its messages and verdicts{labels}? This cannot be undone."
            ),
            confirmed,
        )
