"""The main screen: header, the Customer / Bot / Judge panes, and the dialogue controls.

It only *drives* a ``Dialogue`` (step, run, pause, cancel) and renders the events it emits;
what happens in a turn is decided by the engine. Dialogue streams are consumed in one
exclusive worker, so the UI never blocks and at most one step runs at a time.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import TYPE_CHECKING, cast

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import Screen
from textual.widgets import Footer, Input, Static
from textual.worker import Worker

from ..core.dialogue.events import Event
from ..core.dialogue.state_machine import Dialogue, Phase
from ..core.errors import RagtuiError
from ..core.record.export import write_csv
from .dialogs import ExportScreen
from .event_view import EventView
from .header import SessionHeader
from .panes import RolePane
from .safe_text import one_line
from .session_actions import SessionActions

if TYPE_CHECKING:
    from .app import RagtuiApp

log = logging.getLogger("ragtui")
NEXT_STEP = {Phase.USER: "customer message", Phase.BOT: "bot answer", Phase.JUDGE: "verdict"}


class MainScreen(SessionActions, Screen[None]):
    BINDINGS = [
        Binding("n", "new_session", "New", tooltip="Start a session: scenario and persona, or a free question"),
        Binding("s", "step", "Step", tooltip="Run the next step: customer message, bot answer or verdict"),
        Binding("a", "auto_run", "Auto-run", tooltip="Run to the end (or resume after a pause)"),
        Binding("p", "pause", "Pause", tooltip="Stop auto-run after the step in progress"),
        Binding("c", "cancel", "Cancel", tooltip="Stop the dialogue now; it is recorded as cancelled"),
        Binding("m", "customer", "Type as customer", tooltip="Write the next customer message yourself"),
        Binding("v", "verdicts", "Verdicts", tooltip="Verdict details, prompts, raw replies, passages"),
        Binding("r", "rejudge", "Re-judge", tooltip="Judge a bot turn again"),
        Binding("x", "export", "Export CSV", tooltip="Export the open session to CSV"),
        Binding("l", "label", "Label", tooltip="Label the newest bot turn: your score, note, agree/disagree"),
        Binding("u", "label_queue", "To label", tooltip="Unlabelled turns of this run, one key each"),
        Binding("escape", "hide_input", "Close input", show=False),
    ]

    def __init__(self) -> None:
        super().__init__()
        self.dialogue: Dialogue | None = None
        self._worker: Worker[None] | None = None
        self._pausing = False

    @property
    def ragtui(self) -> RagtuiApp:
        return cast("RagtuiApp", self.app)

    def compose(self) -> ComposeResult:
        yield SessionHeader(id="header")
        yield Static("", id="status", markup=False)
        with Horizontal(id="panes"):
            yield RolePane("Customer", "user", id="pane-user")
            yield RolePane("Bot", "bot", id="pane-bot")
            yield RolePane("Judge", "judge", id="pane-judge")
        yield Input(placeholder="The customer's next message — Enter sends, Escape closes", id="customer-input")
        yield Footer()

    def on_mount(self) -> None:
        header = self.header
        header.endpoints = self.ragtui.endpoints
        header.problem = self.ragtui.problem
        header.info.threshold = self.ragtui.config.threshold
        header.show()
        self.view = EventView(self, header)
        self.set_status("Press n to start a session, o to open a stored one, F1 for help.")

    # -- accessors ---------------------------------------------------------------------------

    @property
    def header(self) -> SessionHeader:
        return self.query_one(SessionHeader)

    def pane(self, role: str) -> RolePane:
        return self.query_one(f"#pane-{role}", RolePane)

    @property
    def running(self) -> bool:
        # A worker just started is still PENDING: it counts, or a quick p would be ignored.
        return self._worker is not None and not self._worker.is_finished

    @property
    def session_id(self) -> int | None:
        return self.header.info.session_id

    def set_status(self, message: str) -> None:
        self.query_one("#status", Static).update(Text(message))

    def notify_plain(self, message: str, severity: str = "information") -> None:
        """Notifications may quote model output or file contents: never parse them as markup."""
        self.app.notify(one_line(message, 500), severity=severity, markup=False)  # type: ignore[arg-type]

    def refresh_state(self) -> None:
        """Status line and header state from the dialogue's position."""
        info, dialogue = self.header.info, self.dialogue
        if dialogue is None:
            info.state = "read only" if info.session_id is not None else "no session"
        elif dialogue.finished:
            info.state = f"finished: {dialogue.stop_reason or 'done'}"
            self.set_status(f"Session finished ({dialogue.stop_reason}). n: new session · v: verdicts · x: export")
        elif self.running:
            info.state = "pausing" if self._pausing else "running"
        else:
            info.state = "paused" if dialogue.turn else "ready"
            self.set_status(f"Next: {NEXT_STEP[dialogue.phase]} — s: step · a: auto-run · m: type as customer")
        self.header.show()

    # -- driving -----------------------------------------------------------------------------

    def _ready_dialogue(self) -> Dialogue | None:
        dialogue = self.dialogue
        if dialogue is None:
            why = "No session open: press n to start one, or o to open a stored one."
            if self.session_id is not None:
                why = self.ragtui.problem or "This session is read only."
            self.notify_plain(why, "warning")
            return None
        if dialogue.finished:
            self.notify_plain(f"Session #{dialogue.session_id} is finished. Press n for a new one.", "warning")
            return None
        if self.running:
            self.notify_plain("A step is already running: p pauses, c cancels.", "warning")
            return None
        return dialogue

    def action_step(self, user_text: str | None = None) -> None:
        dialogue = self._ready_dialogue()
        if dialogue is not None:
            self._start(dialogue.step(user_text))

    def action_auto_run(self) -> None:
        dialogue = self._ready_dialogue()
        if dialogue is not None:
            self._start(dialogue.run())

    def _start(self, stream: AsyncIterator[Event]) -> None:
        self._pausing = False
        self._worker = self._consume(stream)
        self.refresh_state()
        self.set_status("Running… p: pause after this step · c: cancel now")

    @work(exclusive=True, group="dialogue", exit_on_error=False)
    async def _consume(self, stream: AsyncIterator[Event]) -> None:
        try:
            async for event in stream:
                self.view.show(event)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
        except Exception as exc:  # a bug must not take the app down; the store has the rest
            log.exception("dialogue stream failed")
            self.notify_plain(f"internal error: {type(exc).__name__}: {exc}", "error")
        finally:
            self._pausing = False
            self.call_later(self.refresh_state)

    def action_pause(self) -> None:
        if self.dialogue is None or not self.running:
            self.notify_plain("Nothing is running.", "warning")
            return
        self.dialogue.pause()
        self._pausing = True
        self.refresh_state()
        self.set_status("Pausing after the step in progress… a: resume")

    def action_cancel(self) -> None:
        dialogue = self.dialogue
        if dialogue is None or dialogue.finished:
            self.notify_plain("No unfinished session to cancel.", "warning")
            return
        done = dialogue.cancel()  # a running step ends its stream with DialogueDone instead
        if done is not None:
            self.view.show(done)
            self.refresh_state()

    async def stop_for_exit(self) -> None:
        """Closing mid-run: cancel cleanly so the session is recorded and can be continued."""
        if self.dialogue is not None and self.running and self._worker is not None:
            self.dialogue.cancel()
            await self._worker.wait()

    # -- the operator as customer ------------------------------------------------------------

    def action_customer(self) -> None:
        dialogue = self._ready_dialogue()
        if dialogue is None:
            return
        if dialogue.phase is not Phase.USER:
            self.notify_plain(f"The {NEXT_STEP[dialogue.phase]} comes first: press s to step to the customer.")
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
        """After re-judging: the dialogue score and the Judge pane follow the newest versions."""
        if self.session_id is not None and not self.running:
            try:
                self.view.replay_judge(self.ragtui.store.session(self.session_id))
            except RagtuiError as exc:
                self.notify_plain(str(exc), "error")
            self.refresh_state()

    def action_label(self) -> None:
        from .label_dialog import label_newest_turn

        if self.session_id is None:
            self.notify_plain("No session open: open one with o to label its turns.", "warning")
            return
        label_newest_turn(
            self.ragtui,
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

    def action_export(self) -> None:
        if self.session_id is None:
            self.notify_plain("No session open to export.", "warning")
            return
        default = Path.cwd() / f"ragtui-session-{self.session_id}.csv"
        self.app.push_screen(ExportScreen(default), self._export)

    def _export(self, path: Path | None) -> None:
        if path is None or self.session_id is None:
            return
        try:
            write_csv([self.ragtui.store.session(self.session_id)], path, self.ragtui.store.path)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        self.notify_plain(f"Exported session #{self.session_id} to {path}")
