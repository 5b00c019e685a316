"""The main screen's panes: which session they show, and redrawing them from the record (after
a re-judge, or when a stopped session is continued) the one way a replay draws them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from ....core.types.errors import RagtuiError

if TYPE_CHECKING:
    from .host import MainHost

    _Base = MainHost
else:
    _Base = object


class Panes(_Base):
    @property
    def session_id(self) -> int | None:
        return self.view.info.session_id

    def reload_panes(self, *, ended: bool = True) -> None:
        if self.session_id is None:
            return
        try:
            session = self.ragtui.store.session(self.session_id)
        except RagtuiError as exc:
            self.notify_plain(str(exc), "error")
            return
        self.view.replay(session, ended=ended)

    def reload_scores(self) -> None:
        """After re-judging: the panes follow the newest versions (drawn the one way)."""
        if self.session_id is not None and not self.running:
            self.reload_panes(ended=self.stopped is not None or self.dialogue is None or self.dialogue.finished)
            self.refresh_state()


__all__ = ["Panes"]
