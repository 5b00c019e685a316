"""The main screen: header, the Customer / Bot / Judge panes, and the dialogue controls.

It only *drives* a ``Dialogue`` (step, run, pause, cancel) and renders the events it emits;
what happens in a turn is decided by the engine. Dialogue streams are consumed in one
exclusive worker, so the UI never blocks and at most one step runs at a time.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.notifications import SeverityLevel
from textual.screen import Screen
from textual.widgets import Footer, Input, Static
from textual.worker import Worker

from ...core.dialogue.events import Event
from ...core.types.errors import RagtuiError
from ..context import TuiServices, services
from ..safe_text import one_line
from ..store_watch import StoreWatch
from ..widgets.event_view import EventView
from ..widgets.fields import TextField
from ..widgets.header import SessionHeader, SessionInfo
from ..widgets.panes import RolePane
from .fork_actions import ForkActions
from .session_actions import CONTINUABLE, SessionActions

if TYPE_CHECKING:
    from ...core.dialogue.state_machine import Dialogue
    from ...core.store.run_plan import PlanEntry
    from ..dialogs.new_session import NewSessionRequest

log = logging.getLogger("ragtui")
NEXT_STEP = {"user": "customer message", "bot": "bot answer", "judge": "verdicts"}


class MainScreen(SessionActions, ForkActions, Screen[None]):
    # The footer shows what fits in 80 columns: the keys of the core loop and the way to the
    # other screens. p and c are offered in the status line while a step runs (the only time
    # they apply), m when the customer is next; the rest are in Help (F1) and the palette.
    BINDINGS = [
        Binding("n", "new_session", "New", tooltip="New session: a scenario and a persona, or a free question"),
        Binding("s", "step", "Step", tooltip="Step: the next customer message, bot answer or verdict"),
        Binding("a", "auto_run", "Auto", tooltip="Auto-run to the end (resumes after a pause)"),
        Binding("p", "pause", "Pause", show=False, tooltip="Pause auto-run after the step in progress"),
        Binding("c", "cancel", "Cancel", show=False, tooltip="Cancel now (recorded as cancelled; s / a continue it)"),
        Binding("m", "customer", "Type", show=False, tooltip="Type the next customer message (Enter sends)"),
        Binding("v", "verdicts", "Verdicts", tooltip="Verdicts: criteria, prompt, raw reply, passages, versions"),
        Binding(
            "r", "rejudge", "Re-judge", show=False, tooltip="Re-judge a turn: same judge, another model, edited prompt"
        ),
        Binding("x", "export", "Export", show=False, tooltip="Export the open session to CSV (data folder, exports/)"),
        Binding("f", "fork", "Fork", show=False, tooltip="Fork after turn N: a new session continues live from there"),
        Binding("l", "label", "Label", tooltip="Label the newest bot turn: your 1–5 score, a note, agree/disagree"),
        Binding(
            "u",
            "label_queue",
            "To label",
            show=False,
            tooltip="To label: turns you have not labelled (the open session's run, else every session)",
        ),
        Binding("o", "app.sessions", "Sessions", tooltip="Browse, open or delete stored sessions"),
        Binding("R", "app.runs", "Runs", tooltip="Runs: scores, trends, compare two, replay one"),
        Binding("e", "app.personas", "Personas", show=False, tooltip="Edit personas"),
        Binding("ctrl+q", "app.quit", "Quit", tooltip="Quit; a running dialogue is cancelled cleanly"),
        Binding("escape", "hide_input", "Close input", show=False, tooltip="Close the customer-message field"),
    ]

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

    @on(EventView.Notice)
    def _notice(self, notice: EventView.Notice) -> None:
        self.notify_plain(notice.text, notice.severity)

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

    # -- accessors ---------------------------------------------------------------------------

    @property
    def header(self) -> SessionHeader:
        return self.query_one(SessionHeader)

    def pane(self, role: str) -> RolePane:
        return self.view.pane(role)

    @property
    def running(self) -> bool:
        # A worker just started is still PENDING: it counts, or a quick p would be ignored.
        return self._worker is not None and not self._worker.is_finished

    @property
    def session_id(self) -> int | None:
        return self.view.info.session_id

    def set_status(self, message: str) -> None:
        self._status = message
        self._draw_status()

    def _draw_status(self) -> None:
        """The status line, led by the endpoints that did not answer at start while nothing
        runs (a failed step says its own error instead)."""
        from ..reachability import status_note

        unreachable, dialogue = self.ragtui.unreachable, self.dialogue
        quiet = self.running or (dialogue is not None and dialogue.failed is not None)
        note = f"{status_note(unreachable)} " if unreachable and not quiet else ""
        self.query_one("#status", Static).update(Text(one_line(note + self._status, 400)))

    def notify_plain(self, message: str, severity: SeverityLevel = "information") -> None:
        """Notifications may quote model output or file contents: never parse them as markup."""
        self.app.notify(one_line(message, 500), severity=severity, markup=False)

    def refresh_state(self) -> None:
        """Header state and the status hint from where the dialogue is: the hint offers only
        what the next key can do (m only when the customer is next)."""
        header, dialogue = self.header, self.dialogue
        header.connecting = self.ragtui.connecting
        if dialogue is None:
            header.state = "read only" if self.session_id is not None else "no session"
            if self.session_id is None and self.waiting_request is not None:
                self.set_status("The session you chose starts as soon as ragtui is connected…")
            elif self.session_id is None:
                waiting = " (connecting…)" if self.ragtui.connecting else ""
                self.set_status(f"Press n to start a session{waiting}, o to open a stored one, F1 for help.")
        elif self.running:
            header.state = "pausing" if self._pausing else "running"
            self.set_status("Running… p: pause after this step · c: cancel now")
        elif dialogue.finished:
            reason = dialogue.stop_reason or "done"
            header.state = f"finished: {reason}"
            if reason in CONTINUABLE:
                header.state = f"{reason} · s/a continue"
                self.set_status(f"Session {reason}. s: continue one step · a: continue to the end · n: new session")
            else:
                self.set_status(f"Session finished ({reason}). n: new session · v: verdicts · x: export")
        else:
            step = NEXT_STEP[dialogue.phase.value]
            keys = "s: step · a: auto-run" + (" · m: type as customer" if dialogue.phase.value == "user" else "")
            if dialogue.failed:
                header.state = "paused: step failed"
                # The keys first, at the left: the failure's toast sits at the top right, over
                # the end of this line, for as long as it is up.
                self.set_status(
                    f"s / a: retry · c: cancel — the {step} failed (see the pane); retry once the server is back"
                )
            elif self.stopped:
                header.state = f"{self.stopped} · s/a continue"
                self.set_status(f"Stopped ({self.stopped}). Next: {step} — {keys}")
            else:
                # Paused only when the operator paused auto-run: a step run with s simply ended.
                header.state = "paused" if self._paused_session == dialogue.session_id else "ready"
                self.set_status(f"Next: {step} — {keys}")

    # -- driving -----------------------------------------------------------------------------

    def _not_ready(self) -> str | None:
        if self.ragtui.connecting:
            return f"{self.ragtui.connecting} Dialogues can start in a moment."
        return None

    def _ready_dialogue(self) -> Dialogue | None:
        dialogue = self.dialogue
        if dialogue is None:
            why = self._not_ready() or "No session open: press n to start one, or o to open a stored one."
            if self.session_id is not None and not self.ragtui.connecting:
                why = self.ragtui.problem or "This session is read only."
            self.notify_plain(why, "warning")
            return None
        if self.running:
            self.notify_plain("A step is already running: p pauses, c cancels.", "warning")
            return None
        if dialogue.finished:
            if dialogue.stop_reason not in CONTINUABLE:
                self.notify_plain(
                    f"Session #{dialogue.session_id} is finished ({dialogue.stop_reason}). Press n for a new one.",
                    "warning",
                )
                return None
            dialogue = self.continue_session(dialogue.session_id)
        return dialogue

    def action_step(self, user_text: str | None = None) -> None:
        dialogue = self._ready_dialogue()
        if dialogue is not None:
            self._say_unreachable(dialogue, typed=user_text is not None)
            self._start(dialogue.step(user_text))

    def action_auto_run(self) -> None:
        dialogue = self._ready_dialogue()
        if dialogue is not None:
            self._say_unreachable(dialogue)
            self._start(dialogue.run())

    def _say_unreachable(self, dialogue: Dialogue, *, typed: bool = False) -> None:
        """Before sending a step to an endpoint that did not answer at start, say so."""
        from ..reachability import before_step

        warning = None if typed else before_step(dialogue, self.ragtui.unreachable)
        if warning:
            self.notify_plain(warning, "warning")

    def _start(self, stream: AsyncIterator[Event]) -> None:
        if self.stopped:  # continuing: the end line of the earlier stop no longer applies
            self.stopped = None
            self.reload_panes(ended=False)
        self._pausing, self._paused_session = False, None
        self._worker = self._consume(stream)
        self.refresh_state()

    @work(exclusive=True, group="dialogue", exit_on_error=False)
    async def _consume(self, stream: AsyncIterator[Event]) -> None:
        try:
            async for event in stream:
                self.view.show(event)
                self._reached(event)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
        except Exception as exc:  # a bug must not take the app down; the store has the rest
            log.exception("dialogue stream failed")
            self.notify_plain(f"internal error: {type(exc).__name__}: {exc}", "error")
        finally:
            self._pausing = False
            self.call_later(self.refresh_state)
            self.call_later(self.next_trial)

    def _reached(self, event: Event) -> None:
        """A role found unreachable at start answered after all: no longer marked."""
        from ..reachability import answered

        role = answered(event) if self.ragtui.unreachable else None
        if role in self.ragtui.unreachable:
            del self.ragtui.unreachable[role]
            self.reach_changed()

    def action_pause(self) -> None:
        if self.dialogue is None or not self.running:
            self.notify_plain("Nothing is running.", "warning")
            return
        self.dialogue.pause()
        self._pausing, self._paused_session = True, self.dialogue.session_id
        self.refresh_state()
        self.set_status("Pausing after the step in progress… a: resume")

    def action_cancel(self) -> None:
        dialogue = self.dialogue
        if dialogue is None or dialogue.finished:
            self.notify_plain("No unfinished session to cancel.", "warning")
            return
        self.stopped = None
        done = dialogue.cancel()  # a running step ends its stream with DialogueDone instead
        if done is not None:
            self.view.show(done)
            self.refresh_state()

    async def stop_for_exit(self) -> None:
        """Closing mid-run: cancel cleanly so the session is recorded and can be continued;
        a session paused here is recorded as paused."""
        if self.dialogue is not None and self.running and self._worker is not None:
            self.dialogue.cancel()
            await self._worker.wait()
        self.release_for_exit()

    # -- the operator as customer ------------------------------------------------------------

    def action_customer(self) -> None:
        dialogue = self._ready_dialogue()
        if dialogue is None:
            return
        if dialogue.phase.value != "user":
            step = NEXT_STEP[dialogue.phase.value]
            comes = "come" if step == "verdicts" else "comes"
            self.notify_plain(f"The {step} {comes} first: press s to step to the customer.")
            return
        field = self.query_one("#customer-input", Input)
        field.add_class("shown")
        field.focus()

    def action_hide_input(self) -> None:
        field = self.query_one("#customer-input", Input)
        field.remove_class("shown")
        field.value = ""
        self.query_one("#pane-bot", RolePane).focus()

    @on(Input.Submitted, "#customer-input")
    def _send_customer(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.action_hide_input()
        if text:
            self.action_step(user_text=text)

    # -- verdicts and export -----------------------------------------------------------------

    def action_verdicts(self, rejudge: bool = False) -> None:
        from .verdict_screen import VerdictScreen

        if self.session_id is None:
            self.notify_plain("No session open.", "warning")
            return
        self.app.push_screen(VerdictScreen(self.session_id, rejudge=rejudge), lambda _r: self.reload_scores())

    def action_rejudge(self) -> None:
        self.action_verdicts(rejudge=True)

    def reload_scores(self) -> None:
        """After re-judging: the panes follow the newest versions (drawn the one way)."""
        if self.session_id is not None and not self.running:
            self.reload_panes(ended=self.stopped is not None or self.dialogue is None or self.dialogue.finished)
            self.refresh_state()

    def action_label(self) -> None:
        from ..dialogs.label_dialog import label_newest_turn

        if self.session_id is None:
            self.notify_plain("No session open: open one with o to label its turns.", "warning")
            return
        label_newest_turn(
            self.app,
            self.session_id,
            lambda label: self.pane("judge").add_note(f"turn {label.turn}: your label {label.summary()}"),
        )

    def action_label_queue(self) -> None:
        from .label_queue import LabelQueueScreen

        run_id = None
        if self.session_id is not None:
            try:
                run_id = self.ragtui.store.session(self.session_id).run_id
            except RagtuiError:
                run_id = None
        self.app.push_screen(LabelQueueScreen(run_id))

    def reload_panes(self, *, ended: bool = True) -> None:
        if self.session_id is None:
            return
        try:
            session = self.ragtui.store.session(self.session_id)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        self.view.replay(session, ended=ended)

    def action_export(self) -> None:
        from ...core.config import paths
        from ..dialogs.common import ExportScreen

        if self.session_id is None:
            self.notify_plain("No session open to export.", "warning")
            return
        # Not the current folder: a git checkout would collect untracked CSV files.
        default = paths.data_dir() / "exports" / f"ragtui-session-{self.session_id}.csv"
        warning = None
        if self.running or (self.dialogue is not None and not self.dialogue.finished):
            warning = "This session is not finished: the file will hold what is recorded so far."
        session_id = self.session_id

        def exported(path: Path | None) -> None:
            if path:
                self.notify_plain(f"Exported session #{session_id} to {path}")

        self.app.push_screen(
            ExportScreen(
                default, lambda path: self._export(session_id, path, default), warning, self.ragtui.store.path
            ),
            exported,
        )

    def _export(self, session_id: int, path: Path, default: Path) -> None:
        """Write the CSV; raises RagtuiError, which the dialog shows without closing."""
        from ...core.store.export import write_csv
        from ..dialogs.common import ExportScreen

        if path.parent == default.parent:  # ragtui's own exports folder; a folder the user typed must exist
            path.parent.mkdir(parents=True, exist_ok=True)
        write_csv([self.ragtui.store.session(session_id)], path, self.ragtui.store.path, option=ExportScreen.OPTION)
