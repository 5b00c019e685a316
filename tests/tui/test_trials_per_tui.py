"""Trials are each TUI's own: a number chosen in one TUI never applies unseen in another (they
share the user's state file)."""

from __future__ import annotations

from textual.widgets import Input

from ragtui.core.store import run_plan
from ragtui.core.store.store import Store
from ragtui.tui.dialogs.new_session import NewSessionScreen
from ragtui.tui.screens.main_screen import MainScreen

from .conftest import SIZE, settle, static_text


def trials_field(app) -> Input:  # noqa: ANN001 - the ragtui app
    return app.screen.query_one("#trials", Input)


async def test_trials_chosen_in_one_tui_do_not_apply_in_another(make_app, store: Store):
    first = make_app()
    async with first.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        trials_field(first).value = "3"
        await pilot.press("ctrl+s")  # a run of 3 trials, its first session started
        await settle(pilot)
        assert isinstance(first.screen, MainScreen)
    (planned,) = store.sessions()
    assert planned.run_id is not None and len(run_plan.entries(store, planned.run_id)) == 3

    other = make_app()  # another TUI of the same user: same state file, its own trials
    async with other.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(other.screen, NewSessionScreen)
        assert trials_field(other).value == "1"  # the config's repeat, not the other TUI's 3
        assert "trials" not in static_text(other, "#new-estimate")
        await pilot.press("ctrl+r")  # a plain start and auto-run
        await settle(pilot)
        assert isinstance(other.screen, MainScreen)
    sessions = sorted(store.sessions(), key=lambda s: s.id)
    assert len(sessions) == 2  # one dialogue, not a run of three
    assert sessions[-1].run_id is None and sessions[-1].status == "finished"
