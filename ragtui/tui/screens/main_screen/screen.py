"""The main screen itself: its widgets (header, status line, the Customer / Bot / Judge panes,
the customer's input field, the footer) and the parts it is made of, one job each — the status
line, the panes, stepping, the operator as customer, verdicts, export, sessions, new sessions and
their trials, forks (``MainHost`` says what the parts use of each other)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.screen import Screen
from textual.widgets import Footer, Input, Static

from ...context import TuiServices, services
from ...store_watch import StoreWatch
from ...widgets.event_view import EventView
from ...widgets.fields import TextField
from ...widgets.header import SessionHeader, SessionInfo
from ...widgets.panes import RolePane
from .bindings import BINDINGS
from .customer_input import CustomerInput
from .exports import Exports
from .forks import Forks
from .new_session import NewSessions
from .panes import Panes
from .sessions import Sessions
from .status import StatusLine
from .stepping import Stepping
from .verdict_actions import VerdictActions

if TYPE_CHECKING:
    from textual.worker import Worker

    from ....core.dialogue.state_machine import Dialogue
    from ....core.store.run_plan import PlanEntry
    from ...dialogs.new_session import NewSessionRequest


class MainScreen(
    StatusLine,
    Panes,
    Stepping,
    CustomerInput,
    VerdictActions,
    Exports,
    Sessions,
    NewSessions,
    Forks,
    Screen[None],
):
    BINDINGS = BINDINGS

    def __init__(self) -> None:
        super().__init__()
        self.dialogue: Dialogue | None = None
        self._worker: Worker[None] | None = None
        self._pausing = False
        # The session whose auto-run was paused with p: one that only ran a step with s is not paused.
        self._paused_session: int | None = None
        self._status = ""  # the status line's own text, without the unreachable endpoints' note
        self.stopped: str | None = None  # why the open session stopped (cancelled…), until continued
        self.pending_trials: list[PlanEntry] = []  # trials of the run started here, not started yet
        self.trials_auto_run = False
        self.waiting_request: NewSessionRequest | None = None  # chosen while ragtui connects

    @property
    def ragtui(self) -> TuiServices:
        return services(self.app)

    def compose(self) -> ComposeResult:
        yield SessionHeader(id="header")
        yield Static("", id="status", markup=False)
        yield EventView(self.ragtui.store, self.ragtui.config.min_judge_agreement, id="panes")
        yield TextField(placeholder="The customer's next message — Enter sends, Escape closes", id="customer-input")
        yield Footer(compact=True, show_command_palette=False)

    def on_mount(self) -> None:
        self.view = self.query_one(EventView)
        self.view.info = SessionInfo(threshold=self.ragtui.config.threshold)
        # The header shows the view's session info whenever it changes (init: at once).
        self.watch(self.view, "info", self._show_info)
        self.store_watch = StoreWatch(self, self.ragtui.store)  # follows other processes' writes
        self.connected()

    def _show_info(self, info: SessionInfo) -> None:
        self.header.info = info

    # -- its widgets -------------------------------------------------------------------------

    @property
    def header(self) -> SessionHeader:
        return self.query_one(SessionHeader)

    @property
    def status_line(self) -> Static:
        return self.query_one("#status", Static)

    @property
    def customer_field(self) -> Input:
        return self.query_one("#customer-input", Input)

    def pane(self, role: str) -> RolePane:
        return self.view.pane(role)

    # -- what the app tells it ---------------------------------------------------------------

    def connected(self) -> None:
        """The app's endpoints and engine changed (start-up finished connecting)."""
        header = self.header
        header.endpoints = self.ragtui.endpoints
        header.problem = self.ragtui.problem
        self.refresh_state()
        if not self.ragtui.connecting:
            self.start_waiting()

    def reach_changed(self) -> None:
        """The endpoints found unreachable changed (the check at start, or a role answered)."""
        self.header.unreachable = dict(self.ragtui.unreachable)
        self._draw_status()

    # -- its messages: Textual finds ``@on`` handlers only in a Screen subclass's own body ------

    @on(EventView.Notice)
    def _notice(self, notice: EventView.Notice) -> None:
        self.notify_plain(notice.text, notice.severity)

    @on(Input.Submitted, "#customer-input")
    def _send_customer(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.action_hide_input()
        if text:
            self.action_step(user_text=text)


__all__ = ["MainScreen"]
