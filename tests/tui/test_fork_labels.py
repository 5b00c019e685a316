"""A fork copies its parent's turns: a copy of a turn already labelled is not queued again."""

from __future__ import annotations

import pytest
from textual.widgets import Input

from ragtui.core.store.labels import save_label
from ragtui.core.store.store import Store
from ragtui.tui.dialogs.fork_screen import ForkScreen
from ragtui.tui.screens.label_queue import LabelQueueScreen
from ragtui.tui.screens.main_screen import MainScreen

from .conftest import SIZE, open_recorded, settle, static_text


@pytest.mark.recorded
async def test_a_forks_copies_of_labelled_turns_are_not_queued_again(make_app, store: Store):
    app = make_app()
    app.config.labeller = "rita"
    parent = store.sessions()[0].id
    for turn in (1, 2):
        save_label(store, parent, turn, score=4, labeller="rita")
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ForkScreen)
        app.screen.query_one("#fork-turn", Input).value = "2"
        app.screen.query_one("#fork-turn", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        await pilot.press("a")  # the fork's own turn 3, live and judged
        await settle(pilot)
        fork = store.sessions()[0]
        assert (fork.parent_session_id, fork.fork_turn, fork.turns) == (parent, 2, 3)

        await pilot.press("u")
        await pilot.pause()
        assert isinstance(app.screen, LabelQueueScreen)
        queued = [(t.session_id, t.turn) for t in app.screen.queue]
        assert queued == [(parent, 3), (fork.id, 3)]  # not the fork's copies of turns 1 and 2
        assert "2 left" in static_text(app, "#queue-title")
