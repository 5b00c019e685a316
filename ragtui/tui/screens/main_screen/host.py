"""What the main screen's parts use of each other: the ``MainHost`` protocol.

``MainScreen`` is put together from small mixins, one job each (``status``, ``stepping``,
``sessions`` …). Each is typed against this protocol — at run time its base is ``object`` — so a
part names only what the screen declares here, never another part's module, and each file
stays readable on its own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from textual.app import App
    from textual.notifications import SeverityLevel
    from textual.widgets import Input, Static
    from textual.worker import Worker

    from ....core.dialogue.state_machine import Dialogue
    from ....core.store.run_plan import PlanEntry
    from ...context import TuiServices
    from ...dialogs.new_session import NewSessionRequest
    from ...store_watch import StoreWatch
    from ...widgets.event_view import EventView
    from ...widgets.header import SessionHeader
    from ...widgets.panes import RolePane


class MainHost(Protocol):
    """The main screen as its parts see it."""

    app: App[Any]
    view: EventView
    store_watch: StoreWatch
    dialogue: Dialogue | None
    stopped: str | None  # why the open session stopped (cancelled…), until continued
    pending_trials: list[PlanEntry]  # trials of the run started here, not started yet
    trials_auto_run: bool
    waiting_request: NewSessionRequest | None  # chosen while ragtui connects
    _worker: Worker[None] | None
    _pausing: bool
    _paused_session: int | None  # the session whose auto-run was paused with p
    _status: str  # the status line's own text, without the unreachable endpoints' note

    # Textual's, of every screen.
    def call_later(self, callback: Callable[..., Any], *args: Any, **kwargs: Any) -> bool: ...

    # The screen's widgets, and what the app tells it (screen.py).
    @property
    def ragtui(self) -> TuiServices: ...
    @property
    def header(self) -> SessionHeader: ...
    @property
    def status_line(self) -> Static: ...
    @property
    def customer_field(self) -> Input: ...
    def pane(self, role: str) -> RolePane: ...
    def reach_changed(self) -> None: ...

    # The status line (status.py) and the panes (panes.py).
    @property
    def session_id(self) -> int | None: ...
    def set_status(self, message: str) -> None: ...
    def _draw_status(self) -> None: ...
    def notify_plain(self, message: str, severity: SeverityLevel = "information") -> None: ...
    def refresh_state(self) -> None: ...
    def reload_panes(self, *, ended: bool = True) -> None: ...
    def reload_scores(self) -> None: ...

    # Stepping (stepping.py).
    @property
    def running(self) -> bool: ...
    def _not_ready(self) -> str | None: ...
    def action_step(self, user_text: str | None = None) -> None: ...
    def action_auto_run(self) -> None: ...
    def _ready_dialogue(self) -> Dialogue | None: ...

    # Sessions (sessions.py, new_session.py).
    def _can_switch(self) -> bool: ...
    def start_waiting(self) -> None: ...
    def next_trial(self) -> None: ...
    def continue_session(self, session_id: int) -> Dialogue | None: ...
    def release_for_exit(self) -> None: ...
    def action_hide_input(self) -> None: ...
    def action_verdicts(self, rejudge: bool = False) -> None: ...


__all__ = ["MainHost"]
