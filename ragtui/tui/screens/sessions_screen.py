"""The sessions browser: every stored session, newest first; filter them, open one, or delete one.

The title and the keys stay put above and below the list however long it is; the columns are
fitted to the terminal's width (long names shortened with …) so nothing is cut at 80 columns;
``/`` filters the list by words matched against scenario, persona, run and status.

A deleted session is announced with a ``SessionsScreen.Deleted`` message, which bubbles up to
the app, so a screen that has it open can close it.
"""

from __future__ import annotations

from datetime import date

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Input, Static

from ...core.runs.low_agreement import low_rubric_sessions
from ...core.store.ownership import this_process
from ...core.text.filter_words import matches
from ...core.text.fit_columns import Column, Shorten, fit_table, shorten
from ...core.text.score_text import styled_score
from ...core.text.short_date import short_date
from ...core.types.errors import RagtuiError
from ...core.types.stored import StoredSession
from ..context import TuiServices, services
from ..dialogs.common import ConfirmScreen
from ..safe_text import one_line, plain
from ..store_watch import StoreChanged
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

FORK_MARK = "⑂"  # beside the id of a session forked from another (its first turns are copied)
REPLAY_MARK = "↻"  # … and of one that replayed another's customer messages, as on Runs

TITLE = (
    "Sessions — Enter: open (cancelled, failed, interrupted: s / a continue) · /: filter · d: delete · "
    f"Escape: back · {FORK_MARK} fork {REPLAY_MARK} replay"
)

# The columns in the order shown: what a person scans for first (how it stopped, its score)
# before the long names. Fitted by ``fit_columns`` as every list is: figures whole, a name
# shortened from its middle, a run id from its start, never so far that two rows read the same.
COLUMNS: tuple[Column, ...] = (
    Column("id"),
    Column("stop"),
    Column("score"),
    Column("turns"),
    Column("scenario", Shorten("middle", least=8, apart=True)),
    Column("persona", Shorten("middle", least=6, apart=True)),
    Column("run", Shorten("start", least=8, apart=True)),
    Column("started"),
)
LANGUAGE_COLUMN = Column("lang")  # only when the list holds more than one language
SCROLLBAR = 2  # the vertical scrollbar a long list has, taken from the table's width


class SessionsScreen(Screen[int | None]):
    """Dismisses with the id of the session to open, or None."""

    class Deleted(Message):
        """A session was deleted from the store."""

        def __init__(self, session_id: int) -> None:
            super().__init__()
            self.session_id = session_id

    DEFAULT_CSS = """
    SessionsScreen #sessions { height: 1fr; }
    SessionsScreen #sessions-filter { display: none; padding: 0 1; }
    SessionsScreen #sessions-filter.-shown { display: block; }
    """

    BINDINGS = [
        Binding("enter", "open", "Open", priority=True, tooltip="Open the session (s / a continue a stopped one)"),
        Binding(
            "slash",
            "filter",
            "Filter",
            tooltip="Filter the list: type words found in the scenario, persona, run or status "
            "(angry done); Enter goes back to the list, Escape clears the filter",
        ),
        Binding("d,delete", "delete", "Delete", tooltip="Delete the session, after asking"),
        Binding("home", "first", "First", show=False, tooltip="The newest session (the top row)"),
        Binding("end", "last", "Last", show=False, tooltip="The oldest session (the bottom row)"),
        Binding("f5", "reload", "Reload", tooltip="Read the list again"),
        Binding("escape", "back", "Back", tooltip="Clear the filter; without one, back to the main screen"),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.sessions: list[StoredSession] = []
        self.low: set[int] = set()  # sessions whose rubric judge agrees with people under the floor

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose(self) -> ComposeResult:
        yield Static(Text(TITLE), id="title")
        yield Input(placeholder="filter: words in scenario, persona, run or status", id="sessions-filter", compact=True)
        yield RowTable(id="sessions")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.action_reload()
        self.query_one(DataTable).focus()

    def on_resize(self) -> None:
        self._show()  # the columns are fitted to the width

    @property
    def query_text(self) -> str:
        return self.query_one("#sessions-filter", Input).value

    def action_reload(self) -> None:
        try:
            self.sessions = self.ragtui.store.sessions()
        except RagtuiError as exc:
            self.app.notify(str(exc), severity="error", markup=False)
            return
        # Scores whose judge agrees with people under the floor: ≈, neither red nor green.
        floor = self.ragtui.config.min_judge_agreement
        self.low = low_rubric_sessions(self.ragtui.store, [s.id for s in self.sessions], floor)
        self._show()

    def _stop(self, s: StoredSession, me: object, running: int | None) -> str:
        stop = s.stop_reason if s.status == "finished" else s.status
        if s.status == "running" and s.error:  # paused on a failed step: continuable
            return "paused: step failed"
        if s.status == "running" and s.owner == me and s.id != running:
            return "paused"  # held by this app between steps, not running now
        return stop or "?"

    def _show(self) -> None:
        """The sessions the filter keeps, in columns fitted to the table's width."""
        table = self.query_one(DataTable)
        keep = self._selected()
        me, running, today = this_process(), self.ragtui.running_session, date.today()
        query = self.query_text
        rows: list[tuple[StoredSession, list[str]]] = []
        for s in self.sessions:
            stop = self._stop(s, me, running)
            if not matches(query, (s.scenario_id, s.persona_name, s.run_id or "", stop, s.status)):
                continue
            mark = FORK_MARK if s.fork_turn is not None else REPLAY_MARK if s.replay_of is not None else ""
            cells = [
                f"{s.id}{mark}",
                one_line(stop, 40),
                self._score(s).plain,
                f"{s.turns}/{s.max_turns}",
                one_line(s.scenario_id, 60),
                one_line(s.persona_name, 40),
                one_line(s.run_id or "–", 40),
                one_line(short_date(s.created_at, today), 20),
                one_line(s.language, 8),
            ]
            rows.append((s, cells))
        columns = list(COLUMNS)
        if len({s.language for s in self.sessions}) > 1:
            columns.append(LANGUAGE_COLUMN)
        room = self.app.size.width - SCROLLBAR - 2 * table.cell_padding * len(columns)
        widths = fit_table(columns, [cells for _, cells in rows], room)
        table.clear(columns=True)
        for column, width in zip(columns, widths, strict=True):
            table.add_column(column.header, width=width)
        for s, cells in rows:
            names = (shorten(cells[i], widths[i], columns[i].how.fit) for i in (4, 5, 6))  # with …
            table.add_row(
                Text(cells[0], justify="right"),
                Text(cells[1], style=STOP_STYLES.get(cells[1], "")),
                self._score(s),
                cells[3],
                *(plain(name) for name in names),
                *cells[7 : len(columns)],
                key=str(s.id),
            )
        if keep is not None and str(keep) in table.rows:  # not filtered out, nor gone
            table.move_cursor(row=table.get_row_index(str(keep)))
        self._show_title(len(rows))

    def _score(self, s: StoredSession) -> Text:
        # No judged turn at all is no score, which is not "unscored".
        judged = s.score is not None or s.unscored_turns
        return styled_score(s.score, s.threshold, s.id in self.low) if judged else Text("–")

    def _show_title(self, shown: int) -> None:
        title = Text(TITLE)
        if not self.sessions:
            title = Text("No sessions yet — Escape, then n to start one.")
        elif self.query_text.strip():
            title.append(f"\nFilter: {shown} of {len(self.sessions)} sessions · Escape clears it", style="bold")
        self.query_one("#title", Static).update(title)

    def action_filter(self) -> None:
        field = self.query_one("#sessions-filter", Input)
        field.add_class("-shown")
        field.focus()

    @on(Input.Changed, "#sessions-filter")
    def _filter_changed(self) -> None:
        self._show()

    def action_back(self) -> None:
        field = self.query_one("#sessions-filter", Input)
        if field.value or field.has_class("-shown"):
            field.value = ""  # the list comes back whole (Input.Changed)
            field.remove_class("-shown")
            self.query_one(DataTable).focus()
            return
        self.dismiss(None)

    def action_first(self) -> None:
        self.query_one(RowTable).action_scroll_top()

    def action_last(self) -> None:
        self.query_one(RowTable).action_scroll_bottom()

    def on_store_changed(self, _message: StoreChanged) -> None:
        """Another process changed the record: the list follows (the filter kept), the cursor
        stays on its row."""
        self.action_reload()

    def _selected(self) -> int | None:
        table = self.query_one(DataTable)
        if table.row_count == 0:
            return None
        key = table.coordinate_to_cell_key(table.cursor_coordinate).row_key
        return int(key.value) if key.value is not None else None

    def action_open(self) -> None:
        if self.focused is self.query_one("#sessions-filter", Input):
            self.query_one(DataTable).focus()  # Enter in the filter: back to the list it filtered
            return
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
