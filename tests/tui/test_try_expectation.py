"""Trying an expectation on the verdict screen (``e``): the judge's P(met) for the open turn's
answer, shown in the dialog, tried again without closing it, and nothing stored."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from textual.pilot import Pilot

from ragtui.core.config.settings import Config
from ragtui.tui.dialogs.expectation_dialog import ASKING, TryExpectationScreen
from ragtui.tui.screens.verdict_screen import VerdictScreen
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE, check_answers, yes_no_reply
from .conftest import SIZE, open_recorded, settle, static_text

STATEMENT = "### STATEMENT ###"


def judge_answering(p_yes: float | None):
    """The rubric's checks as usual; an expectation question answered with P(yes) = ``p_yes``
    (None: a reply that names neither yes nor no)."""
    rubric = check_answers(4)

    def respond(body: dict) -> Reply:
        if not any(STATEMENT in str(m.get("content", "")) for m in body["messages"]):  # the retry too
            return rubric(body)
        return Reply("It depends") if p_yes is None else yes_no_reply(p_yes)

    return respond


def expectation_requests(server) -> list[str]:  # noqa: ANN001 - the fake server
    return [
        str(body["messages"][-1].get("content", ""))
        for body in server.chat_requests(JUDGE)
        if STATEMENT in str(body["messages"][-1].get("content", ""))
    ]


def row_counts(database: Path) -> dict[str, int]:
    """Rows of every table, to see that trying stored nothing."""
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True) as db:
        tables = [r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {t: db.execute(f'SELECT COUNT(*) FROM "{t}"').fetchone()[0] for t in tables}


# Every test tries expectations on the answers of the dialogue recorded once per worker.
pytestmark = pytest.mark.recorded


async def open_dialog(pilot: Pilot) -> None:
    await open_recorded(pilot)
    await pilot.press("v")
    await pilot.pause()
    assert isinstance(pilot.app.screen, VerdictScreen)
    await pilot.press("e")
    await pilot.pause()
    assert isinstance(pilot.app.screen, TryExpectationScreen)


async def submit(pilot: Pilot, text: str) -> str:
    field = pilot.app.screen.query_one("#try-text")
    field.value = ""
    field.focus()
    await pilot.press(*text)
    await pilot.press("ctrl+s")
    await settle(pilot)
    return static_text(pilot.app, "#try-result")


async def test_the_judge_s_p_met_is_shown_and_tried_again_without_closing(make_app, server, tui_config: Config) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot)
        server.set_default(JUDGE, judge_answering(0.8))
        before = row_counts(tui_config.database)
        earlier = len(expectation_requests(server))
        shown = await submit(pilot, "apologises for the wait")
        # the P(met), then how far the judge of expectation checks agrees with people (the card)
        assert shown.splitlines() == ["Turn 3: P(met) 0.80 met (probability)", "Judge: agreement unmeasured"]
        (asked,) = expectation_requests(server)[earlier:]
        assert "apologises for the wait" in asked

        server.set_default(JUDGE, judge_answering(0.1))
        await pilot.press("tab", "space")  # the prohibition box
        shown = await submit(pilot, "promises a refund")
        assert isinstance(app.screen, TryExpectationScreen)  # still open
        assert shown.splitlines()[0] == "Turn 3: P(does it) 0.10 kept (probability)"
        (asked,) = expectation_requests(server)[earlier + 1 :]
        assert "promises a refund" in asked

        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, VerdictScreen)
        assert row_counts(tui_config.database) == before  # nothing stored


async def test_a_contains_form_is_decided_in_code_with_no_request(make_app, server) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot)
        requests = len(server.chat_requests())
        await pilot.press("tab", "tab", "down", "enter")  # the form: contains
        shown = await submit(pilot, "linked SERVICES")
        assert shown == "Turn 3: P(met) 1.00 met (code)"
        shown = await submit(pilot, "a refund")
        assert shown == "Turn 3: P(met) 0.00 not met (code)"
        assert len(server.chat_requests()) == requests


async def test_the_highlighted_form_is_the_one_tried(make_app, server) -> None:
    """↓ moves the choice of form as it moves the highlight: no Space or Enter needed."""
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await open_dialog(pilot)
        requests = len(server.chat_requests())
        await pilot.press("tab", "tab", "down")  # the form: contains
        shown = await submit(pilot, "linked SERVICES")
        assert shown == "Turn 3: P(met) 1.00 met (code)"
        assert len(server.chat_requests()) == requests


async def test_a_garbage_judge_reply_is_unscored_never_a_number(make_app, server) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot)
        server.set_default(JUDGE, judge_answering(None))
        earlier = len(expectation_requests(server))
        shown = await submit(pilot, "apologises for the wait")
        assert shown.startswith("Turn 3: P(met) unscored — ")
        assert "0." not in shown
        assert len(expectation_requests(server)) == earlier + 1  # asked once (its retry follows)


async def test_bad_text_is_one_line_and_no_request(make_app, server) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot)
        requests = len(server.chat_requests())
        shown = await submit(pilot, "   ")
        assert "the expectation is empty" in shown and "\n" not in shown
        await pilot.press("tab", "tab", "down", "down", "enter")  # the form: regex
        shown = await submit(pilot, "(")
        assert "regex: '(' does not compile" in shown and "\n" not in shown
        assert len(server.chat_requests()) == requests
        assert ASKING not in shown


async def test_an_endpoint_error_is_one_line_and_the_dialog_stays_usable(make_app, server) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot)
        server.set_default(JUDGE, Reply("", status=500))
        shown = await submit(pilot, "apologises for the wait")
        assert "unscored" in shown or "could not be asked" in shown
        assert "\n" not in shown
        server.set_default(JUDGE, judge_answering(0.9))
        shown = await submit(pilot, "apologises for the wait")
        assert shown.splitlines()[0] == "Turn 3: P(met) 0.90 met (probability)"


async def test_the_dialog_says_it_is_asking_and_escape_leaves_a_judge_that_never_answers(make_app, server) -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_dialog(pilot)
        server.set_default(JUDGE, Reply(hang=True))
        await pilot.press(*"apologises for the wait", "ctrl+s")
        await pilot.pause()
        assert static_text(app, "#try-result") == ASKING
        await pilot.press("escape")  # the UI still answers keys while the judge is asked
        await pilot.pause()
        assert isinstance(app.screen, VerdictScreen)
