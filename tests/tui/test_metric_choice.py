"""Metrics are chosen per session in the TUI: the new-session dialog lists them, pre-ticked
from the config, and the session runs (and records) exactly the ones ticked plus the rubric."""

from __future__ import annotations

from textual.widgets import SelectionList

from ragtui.tui.new_session import NewSessionScreen

from .conftest import SIZE


async def test_new_session_runs_the_metrics_ticked(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)
        metrics = app.screen.query_one("#metric-list", SelectionList)
        assert metrics.selected == []  # the config runs the rubric only
        metrics.select("faithfulness")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        session = store.sessions()[0]
        assert session.metrics == ["rubric", "faithfulness"]
