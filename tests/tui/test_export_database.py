"""The Export dialog refuses the session database itself at once, in one line, without first
offering to overwrite it."""

from __future__ import annotations

import os

import pytest
from textual.widgets import Input

from ragtui.core.store.store import Store
from ragtui.tui.dialogs.common import ExportScreen

from .conftest import SIZE, open_recorded


@pytest.mark.recorded
async def test_typing_the_database_path_says_so_at_once(make_app, store: Store):
    before = store.path.read_bytes()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        for typed in (str(store.path), os.path.relpath(store.path)):  # as typed: absolute or relative
            await pilot.press("x")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, ExportScreen)
            dialog.query_one("#export-path", Input).value = typed
            await pilot.press("enter")
            await pilot.pause()
            shown = str(dialog.query_one("#export-error").render())
            assert app.screen is dialog
            assert "that is the session database; choose another file" in shown
            assert "exists" not in shown and "--csv" not in shown and "Export dialog's file" not in shown
            await pilot.press("enter")  # pressing again changes nothing
            await pilot.pause()
            assert app.screen is dialog and "that is the session database" in str(
                dialog.query_one("#export-error").render()
            )
            await pilot.press("escape")
            await pilot.pause()
    assert store.path.read_bytes()[:16] == before[:16] and store.sessions()
