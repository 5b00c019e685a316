"""Continuing a session or running a fork closes its last stored turn again (its verdicts are
in the record already); the judge pane shows that turn's score line once, as a reopened
session does."""

from __future__ import annotations

import re

from textual.widgets import Input

from ragtui.core.store.store import Store
from ragtui.tui.dialogs.fork_screen import ForkScreen

from .conftest import SIZE, pane_text, settle


def score_lines(judge: str) -> list[str]:
    return re.findall(r"Turn \d+ score", judge)


async def test_continuing_a_cancelled_session_draws_each_turn_score_once(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        session_id = store.sessions()[0].id
        for _ in range(6):  # step until turn 1 is judged (customer, bot, verdict)
            if store.session(session_id).judgments:
                break
            await pilot.press("s")
            await settle(pilot)
        assert store.session(session_id).judgments
        await pilot.press("c")
        await settle(pilot)
        assert score_lines(pane_text(app, "judge")) == ["Turn 1 score"]
        await pilot.press("a")  # continue to the end
        await settle(pilot)
        live = score_lines(pane_text(app, "judge"))
        assert live == ["Turn 1 score", "Turn 2 score", "Turn 3 score"]
        await pilot.press("o")  # reopened: the same lines
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert score_lines(pane_text(app, "judge")) == live


async def test_a_fork_draws_the_copied_turns_score_once(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("f")
        await pilot.pause()
        assert isinstance(app.screen, ForkScreen)
        app.screen.query_one("#fork-turn", Input).value = "1"
        app.screen.query_one("#fork-turn", Input).focus()
        await pilot.press("enter")
        await pilot.pause()
        await pilot.press("a")
        await settle(pilot)
        assert score_lines(pane_text(app, "judge")) == ["Turn 1 score", "Turn 2 score", "Turn 3 score"]
