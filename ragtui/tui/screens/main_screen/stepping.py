"""Driving the open dialogue: step, auto-run, pause, cancel, and stopping cleanly on exit.

The screen only *drives* a ``Dialogue`` and renders the events it emits; what happens in a turn
is decided by the engine. Dialogue streams are consumed in one exclusive worker, so the UI never
blocks and at most one step runs at a time."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from textual import work

from ....core.dialogue.events import Event
from ....core.types.errors import RagtuiError
from .sessions import CONTINUABLE

if TYPE_CHECKING:
    from textual.worker import Worker

    from ....core.dialogue.state_machine import Dialogue
    from .host import MainHost

    _Base = MainHost
else:
    _Base = object

log = logging.getLogger("ragtui")


class Stepping(_Base):
    # Declared again here: mypy takes an assignment in a subclass of a protocol as a new
    # declaration, typed by the first value assigned, unless the subclass declares it.
    stopped: str | None
    _worker: Worker[None] | None
    _pausing: bool
    _paused_session: int | None

    @property
    def running(self) -> bool:
        # A worker just started is still PENDING: it counts, or a quick p would be ignored.
        return self._worker is not None and not self._worker.is_finished

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
        from ...reachability import before_step

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
        from ...reachability import answered

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


__all__ = ["Stepping"]
