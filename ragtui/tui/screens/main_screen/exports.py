"""x: export the open session to CSV, by default into the data folder's ``exports/`` (not the
current folder: a git checkout would collect untracked CSV files)."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .host import MainHost

    _Base = MainHost
else:
    _Base = object


class Exports(_Base):
    def action_export(self) -> None:
        from ....core.config import paths
        from ...dialogs.common import ExportScreen

        if self.session_id is None:
            self.notify_plain("No session open to export.", "warning")
            return
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
        from ....core.store.export import write_csv
        from ...dialogs.common import ExportScreen

        if path.parent == default.parent:  # ragtui's own exports folder; a folder the user typed must exist
            path.parent.mkdir(parents=True, exist_ok=True)
        write_csv([self.ragtui.store.session(session_id)], path, self.ragtui.store.path, option=ExportScreen.OPTION)


__all__ = ["Exports"]
