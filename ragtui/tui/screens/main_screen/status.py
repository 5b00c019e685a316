"""The main screen's status line and header state: what the next key can do, from where the
dialogue is (m only when the customer is next), led by the endpoints that did not answer at
start; and every notification it shows, as plain text."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

from ...safe_text import one_line
from .sessions import CONTINUABLE

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

    from .host import MainHost

    _Base = MainHost
else:
    _Base = object

NEXT_STEP = {"user": "customer message", "bot": "bot answer", "judge": "verdicts"}


class StatusLine(_Base):
    # Declared again here: mypy takes an assignment in a subclass of a protocol as a new
    # declaration, typed by the first value assigned, unless the subclass declares it.
    _status: str

    def set_status(self, message: str) -> None:
        self._status = message
        self._draw_status()

    def _draw_status(self) -> None:
        """The status line, led by the endpoints that did not answer at start while nothing
        runs (a failed step says its own error instead)."""
        from ...reachability import status_note

        unreachable, dialogue = self.ragtui.unreachable, self.dialogue
        quiet = self.running or (dialogue is not None and dialogue.failed is not None)
        note = f"{status_note(unreachable)} " if unreachable and not quiet else ""
        self.status_line.update(Text(one_line(note + self._status, 400)))

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


__all__ = ["NEXT_STEP", "StatusLine"]
