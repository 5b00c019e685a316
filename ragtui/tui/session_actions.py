"""Starting, opening and closing sessions on the main screen (a mixin, to keep files small).

Opening a stored session replays it into the panes and, when an engine is available, resumes
it with ``Engine.resume_dialogue`` so step / auto-run continue where it stopped.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.content.personas import load_personas
from ..core.content.scenarios import load_scenarios
from ..core.errors import RagtuiError
from ..core.metrics import KNOWN_METRICS
from ..core.record.ownership import this_process
from .estimate_text import session_estimator
from .header import SessionInfo
from .new_session import NewSessionRequest, NewSessionScreen

if TYPE_CHECKING:
    from .main_screen import MainScreen

    _Base = MainScreen
else:
    _Base = object


class SessionActions(_Base):
    # -- sessions ----------------------------------------------------------------------------

    def _can_switch(self) -> bool:
        if self.running:
            self.notify_plain("A dialogue is running: pause (p) or cancel (c) it first.", "warning")
            return False
        return True

    def action_new_session(self) -> None:
        if not self._can_switch():
            return
        engine = self.ragtui.engine
        if engine is None:
            self.notify_plain(self.ragtui.problem or "no engine", "warning")
            return
        config = self.ragtui.config
        try:
            scenarios = load_scenarios(config.scenarios, engine.language)
            personas = load_personas(config.personas, engine.language)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        screen = NewSessionScreen(
            scenarios,
            personas,
            engine.language,
            list(KNOWN_METRICS),
            [m.name for m in engine.metrics],
            estimate=session_estimator(self.ragtui),
        )
        self.app.push_screen(screen, self._start_session)

    def _start_session(self, request: NewSessionRequest | None) -> None:
        engine = self.ragtui.engine
        if request is None or engine is None:
            return
        try:
            dialogue = engine.new_dialogue(request.scenario, request.persona, metrics=list(request.metrics))
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        self.dialogue = dialogue
        self.view.reset(
            SessionInfo(
                session_id=dialogue.session_id,
                scenario=request.scenario.id,
                persona=request.persona.name,
                max_turns=dialogue.max_turns,
                threshold=dialogue.threshold,
            )
        )
        self.refresh_state()
        if request.auto_run:
            self.action_auto_run()

    def open_session(self, session_id: int | None) -> None:
        """Show a stored session, and make it continuable when an engine is available."""
        if session_id is None or not self._can_switch():
            return
        try:
            session = self.ragtui.store.session(session_id)
            engine = self.ragtui.engine
            # Another live process runs it: two writers would duplicate its turns and verdicts.
            owner = session.owner if session.status == "running" else None
            elsewhere = owner is not None and owner != this_process()
            self.dialogue = engine.resume_dialogue(session_id) if engine is not None and not elsewhere else None
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        self.view.replay(session)
        self.refresh_state()
        if elsewhere and owner is not None:
            self.set_status(f"Read only: session #{session_id} is being run by {owner.describe()}.")
        elif self.dialogue is None:
            self.set_status("Read only: no endpoint is configured to continue this session.")
        if session.error:
            self.notify_plain(f"Session #{session_id} ended with an error: {session.error}", "warning")

    def forget_session(self, session_id: int) -> None:
        """The sessions browser deleted ``session_id``; close it here if it was open."""
        if self.session_id == session_id:
            self.dialogue = None
            self.view.reset(SessionInfo(threshold=self.ragtui.config.threshold))
            self.set_status("The open session was deleted. Press n to start a new one.")
