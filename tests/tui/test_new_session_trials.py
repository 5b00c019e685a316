"""The new-session dialog's Trials field: its default from the config's repeat, a bad value
refused in the dialog, and K > 1 making one run of K sessions of the pair, trials 1..K."""

from __future__ import annotations

import asyncio

from textual.widgets import Input

from ragtui.core.store import run_plan
from ragtui.core.store.store import Store
from ragtui.tui.dialogs.new_session import NewSessionScreen
from ragtui.tui.screens.main_screen import MainScreen

from .conftest import SIZE, settle, static_text


def trials_field(app) -> Input:  # noqa: ANN001 - the ragtui app
    return app.screen.query_one("#trials", Input)


async def test_the_trials_field_defaults_to_the_configs_repeat_and_refuses_a_bad_value(
    make_app, tui_config, store: Store
):
    tui_config.repeat = 4
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)
        assert trials_field(app).value == "4"
        for bad in ("0", "21", "two"):
            trials_field(app).value = bad
            await pilot.press("ctrl+s")
            await pilot.pause()
            assert isinstance(app.screen, NewSessionScreen)  # nothing started: the dialog stays
            assert static_text(app, "#new-error") == f"Trials must be a whole number from 1 to 20, got {bad!r}."
        assert store.sessions() == []


async def test_k_trials_run_as_one_run_of_k_sessions_and_the_dialog_remembers_k(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert trials_field(app).value == "1"  # the config's repeat: 1
        trials_field(app).value = "3"
        await pilot.press("ctrl+r")  # start and auto-run: each trial starts when the one before ends
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while loop.time() < deadline:
            await settle(pilot)
            sessions = store.sessions()
            if len(sessions) == 3 and all(s.status == "finished" for s in sessions):
                break
        assert isinstance(app.screen, MainScreen)
        sessions = sorted(store.sessions(), key=lambda s: s.id)
        assert [s.stop_reason for s in sessions] == ["max_turns"] * 3
        run_ids = {s.run_id for s in sessions}
        assert len(run_ids) == 1 and None not in run_ids
        (run_id,) = run_ids
        assert {(s.scenario["id"], s.persona.name) for s in sessions} == {
            (sessions[0].scenario["id"], sessions[0].persona.name)
        }
        trials, most = run_plan.session_trials(store, run_id)
        assert sorted(trials.values()) == [1, 2, 3] and most == 3
        assert all(e.session_id is not None for e in run_plan.entries(store, run_id))

        await pilot.press("n")  # the last choice, trials included
        await pilot.pause()
        assert trials_field(app).value == "3"
