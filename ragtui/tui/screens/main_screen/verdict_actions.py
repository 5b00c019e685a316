"""The open session's verdicts: v opens them (r on the re-judge tab), l labels the newest bot
turn, u opens the turns still to label (of the open session's run, else every session)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.types.errors import RagtuiError

if TYPE_CHECKING:
    from .host import MainHost

    _Base = MainHost
else:
    _Base = object


class VerdictActions(_Base):
    def action_verdicts(self, rejudge: bool = False) -> None:
        from ..verdict_screen import VerdictScreen

        if self.session_id is None:
            self.notify_plain("No session open.", "warning")
            return
        self.app.push_screen(VerdictScreen(self.session_id, rejudge=rejudge), lambda _r: self.reload_scores())

    def action_rejudge(self) -> None:
        self.action_verdicts(rejudge=True)

    def action_label(self) -> None:
        from ...dialogs.label_dialog import label_newest_turn

        if self.session_id is None:
            self.notify_plain("No session open: open one with o to label its turns.", "warning")
            return
        label_newest_turn(
            self.app,
            self.session_id,
            lambda label: self.pane("judge").add_note(f"turn {label.turn}: your label {label.summary()}"),
        )

    def action_label_queue(self) -> None:
        from ..label_queue import LabelQueueScreen

        run_id = None
        if self.session_id is not None:
            try:
                run_id = self.ragtui.store.session(self.session_id).run_id
            except RagtuiError:
                run_id = None
        self.app.push_screen(LabelQueueScreen(run_id))


__all__ = ["VerdictActions"]
