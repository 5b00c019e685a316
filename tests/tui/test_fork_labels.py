"""People's labels where sessions are copied or deleted: a fork's copy of a turn already labelled
is not queued again; deleting a labelled session says whose labels go with it."""

from __future__ import annotations

import pytest
from textual.widgets import Input, Static

from ragtui.core.store.labels import save_label, session_labels
from ragtui.core.store.store import Store
from ragtui.tui.dialogs.common import ConfirmScreen
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


@pytest.mark.recorded
async def test_deleting_a_labelled_session_says_whose_labels_go_with_it(make_app, store: Store):
    session = store.sessions()[0].id
    save_label(store, session, 1, score=4, labeller="rita")
    save_label(store, session, 2, agree=False, labeller="rita")
    save_label(store, session, 1, score=2, labeller="sam")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("d")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        question = " ".join(str(s.render()) for s in app.screen.query(Static))
        assert f"Delete session #{session} with all its messages and verdicts and 2 people's labels (3 labels)?" in (
            question
        )
        await pilot.press("y")
        await pilot.pause()
    assert store.sessions() == [] and session_labels(store, session) == []
