"""Opening, continuing and closing stored sessions on the main screen.

Opening a stored session replays it into the panes and, when an engine is available, resumes
it with ``Engine.resume_dialogue`` so step / auto-run continue where it stopped. The same
happens when s / a are pressed on a session that was cancelled, failed or interrupted: it is
continued, wherever it was opened from. A session another live process runs is shown read only
and followed (``StoreWatch``) until that process finishes it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.store.lineage import lineage_lines
from ....core.store.ownership import this_process
from ....core.types.errors import RagtuiError
from ...store_watch import StoreChanged
from ...widgets.header import SessionInfo

if TYPE_CHECKING:
    from ....core.dialogue.state_machine import Dialogue
    from ....core.store.run_plan import PlanEntry
    from .host import MainHost

    _Base = MainHost
else:
    _Base = object

# A session stopped this way can be continued with s / a. "interrupted": its process went away;
# "paused": left paused by a TUI that closed cleanly.
CONTINUABLE = {"cancelled", "error", "interrupted", "paused"}


def continuable(status: str | None, stop_reason: str | None) -> bool:
    """A stopped session that s / a continue: cancelled, failed, or interrupted (its owner
    process is gone), as its status or its stop reason says."""
    return status in CONTINUABLE or (status == "finished" and stop_reason in CONTINUABLE)


class Sessions(_Base):
    # Declared again here: mypy takes an assignment in a subclass of a protocol as a new
    # declaration, typed by the first value assigned, unless the subclass declares it.
    dialogue: Dialogue | None
    stopped: str | None
    pending_trials: list[PlanEntry]

    def _can_switch(self) -> bool:
        if self.running:
            self.notify_plain("A dialogue is running: pause (p) or cancel (c) it first.", "warning")
            return False
        return True

    def open_session(self, session_id: int | None) -> None:
        """Show a stored session, and make it continuable when an engine is available."""
        if session_id is None or not self._can_switch():
            return
        self.pending_trials = []  # another session: the run's trials left stay for `ragtui run --resume`
        try:
            session = self.ragtui.store.session(session_id)
            engine = self.ragtui.engine
            # Another live process runs it: two writers would duplicate its turns and verdicts.
            owner = session.owner if session.status == "running" else None
            elsewhere = owner is not None and owner != this_process()
            dialogue = engine.resume_dialogue(session_id) if engine is not None and not elsewhere else None
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        if dialogue is not None:
            dialogue.pause_on_failure = True
        self.dialogue = dialogue
        stopped = continuable(session.status, session.stop_reason) and not (dialogue and dialogue.finished)
        self.stopped = (session.stop_reason or session.status) if stopped else None
        self.view.replay(session)
        self.refresh_state()
        # kill -9 writes nothing: the watcher looks for the owner's death itself.
        self.store_watch.follow(session_id if elsewhere else None)
        if elsewhere and owner is not None:
            self.set_status(f"Read only: session #{session_id} is being run by {owner.describe()}.")
        elif self.dialogue is None:
            self.set_status("Read only: no endpoint is configured to continue this session.")
        if session.error:
            self.notify_plain(f"Session #{session_id} stopped on an error: {session.error}", "warning")
        lineage = lineage_lines(self.ragtui.store, session)
        if lineage:
            self.set_status(f"Session #{session_id}: " + "; ".join(lineage))

    def on_store_changed(self, _message: StoreChanged) -> None:
        """Another process wrote to the database: a session shown read only (run elsewhere)
        is redrawn from the record, and becomes continuable once that process finished it."""
        session_id = self.session_id
        if session_id is None or self.running or self.dialogue is not None:
            return  # nothing shown, or this app drives it: its own writes are on screen already
        try:
            session = self.ragtui.store.session(session_id)
        except RagtuiError:
            return  # deleted elsewhere: the next key on it says so
        seen = (
            session.status,
            session.stop_reason,
            session.updated_at,
            len(session.messages),
            len(session.judgments),
            len(session.partials),
        )
        if seen == getattr(self, "_followed", None):
            return  # another session changed (or only a heartbeat): nothing to redraw
        self._followed = seen
        self.open_session(session_id)

    def release_for_exit(self) -> None:
        """Closing cleanly with a session paused here: record it as paused, so it does not later
        read as interrupted (its process gone) nor as running; s / a continue it."""
        dialogue, session_id = self.dialogue, self.session_id
        if dialogue is None or session_id is None or dialogue.finished or self.running:
            return
        try:
            session = self.ragtui.store.session(session_id)
            if session.status == "running" and session.owner == this_process():
                self.ragtui.store.set_status(session_id, "paused", error=session.error)
        except RagtuiError as exc:  # closing anyway: the session reads as interrupted, still continuable
            self.notify_plain(str(exc), "warning")

    def continue_session(self, session_id: int) -> Dialogue | None:
        """Pick up a cancelled, failed or interrupted session where the store says it stopped
        (a metric missing on the last turn included); None when there is nothing left to do."""
        engine = self.ragtui.engine
        if engine is None:
            self.notify_plain(self._not_ready() or self.ragtui.problem or "Dialogues cannot run.", "warning")
            return None
        try:
            dialogue = engine.resume_dialogue(session_id)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return None
        dialogue.pause_on_failure = True
        previous = self.dialogue
        self.dialogue = dialogue
        if dialogue.finished:
            self.notify_plain(f"Session #{session_id} has nothing left to run. Press n for a new one.", "warning")
            return None
        self.stopped = (previous.stop_reason if previous is not None else None) or "stopped"
        return dialogue

    def forget_session(self, session_id: int) -> None:
        """The sessions browser deleted ``session_id``; close it here if it was open."""
        if self.session_id == session_id:
            self.dialogue, self.stopped = None, None
            self.view.reset(SessionInfo(threshold=self.ragtui.config.threshold))
            self.set_status("The open session was deleted. Press n to start a new one.")


__all__ = ["CONTINUABLE", "Sessions", "continuable"]
