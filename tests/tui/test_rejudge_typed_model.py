"""Re-judge with another model: the name is stored exactly as typed or pasted, however fast
the keys come (a terminal delivers a burst, or a paste, in one read)."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input

from ragtui.core.store.store import Store
from ragtui.tui.dialogs.rejudge_screen import RejudgeScreen
from ragtui.tui.screens.verdict_screen import VerdictScreen

from .conftest import SIZE, notifications, open_recorded, settle

NAME = "judge-two"


async def open_rejudge_on_another_model(pilot) -> RejudgeScreen:  # noqa: ANN001 - a textual Pilot
    await open_recorded(pilot)
    await pilot.press("v")
    await pilot.pause()
    await pilot.press("r")
    await pilot.pause()
    dialog = pilot.app.screen
    assert isinstance(dialog, RejudgeScreen)
    return dialog


def newest_model(store: Store) -> str | None:
    return max(store.session(1).judgments, key=lambda j: j.id).model


async def rejudge_and_check(pilot, dialog: RejudgeScreen, store: Store, server) -> None:  # noqa: ANN001
    assert dialog.query_one("#model-name", Input).value == NAME  # what the field shows
    await pilot.press("ctrl+s")
    await settle(pilot)
    assert isinstance(pilot.app.screen, VerdictScreen)
    assert newest_model(store) == NAME  # what is stored
    assert server.chat_requests(NAME)  # and the model that was asked
    versions = [str(c.render()) for c in pilot.app.screen.query(".version")]
    assert NAME in versions[0]  # the newest, first
    assert any("v2 scores" in n for n in notifications(pilot.app))


def burst(app, keys: list[str]) -> None:  # noqa: ANN001 - the ragtui app
    """Keys as a terminal delivers fast typing: all queued before the first is handled."""
    for key in keys:
        app.post_message(events.Key(key, key if len(key) == 1 else None))


@pytest.mark.recorded
@pytest.mark.parametrize("with_arrow", [False, True], ids=["after-choosing", "arrow-in-the-burst"])
async def test_a_model_name_typed_in_one_burst_is_stored_as_typed(make_app, store: Store, server, with_arrow):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_rejudge_on_another_model(pilot)
        if not with_arrow:
            await pilot.press("down")  # "Another model", the choices still focused
            await pilot.pause()
        burst(app, ["down"] * with_arrow + list(NAME))
        await pilot.pause()
        assert dialog.mode == "model"
        await rejudge_and_check(pilot, dialog, store, server)


@pytest.mark.recorded
async def test_a_pasted_model_name_is_stored_as_pasted(make_app, store: Store, server):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        dialog = await open_rejudge_on_another_model(pilot)
        await pilot.press("down")  # "Another model", the choices still focused
        await pilot.pause()
        app.post_message(events.Paste(NAME))
        await pilot.pause()
        await rejudge_and_check(pilot, dialog, store, server)
