"""Driving a dialogue with keys: new session, step, auto-run, pause, resume, cancel, the
operator typing as the customer, endpoint failures, and quitting mid-run."""

from __future__ import annotations

import asyncio

import pytest

from ragtui.core.store.store import Store
from ragtui.tui.dialogs.new_session import NewSessionScreen
from ragtui.tui.screens.main_screen import MainScreen
from stand_ins.fake_openai import Gate, Reply

from ..conftest import BOT, JUDGE, check_answers, turns_judged
from .conftest import SIZE, notifications, pane_text, settle, wait_until


def header(app) -> str:  # noqa: ANN001
    return str(app.screen.query_one("#header").render_text())


async def start_session(pilot, keys: str = "ctrl+s", wait: bool = True) -> None:  # noqa: ANN001
    await pilot.press("n")
    await pilot.pause()
    assert isinstance(pilot.app.screen, NewSessionScreen)
    await pilot.press(keys)
    if wait:
        await settle(pilot)
    else:
        await pilot.pause()
    assert isinstance(pilot.app.screen, MainScreen)


async def test_new_session_then_step_by_step(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot)
        session = store.sessions()[0]
        assert session.status == "running" and not session.messages
        assert f"Session #{session.id}" in header(app) and "turn 0/3" in header(app)
        assert "customer: fake-user" in header(app) and "judge: fake-judge" in header(app)

        await pilot.press("s")
        await settle(pilot)
        assert session.question in pane_text(app, "user")
        assert [m.role for m in store.session(session.id).messages] == ["user"]
        assert pane_text(app, "bot") == ""

        await pilot.press("s")
        await settle(pilot)
        assert "Go to Settings > Account > Linked services." in pane_text(app, "bot")
        assert store.session(session.id).judgments == []

        await pilot.press("s")
        await settle(pilot)
        assert "Turn 1 · rubric v1 · 0.80" in pane_text(app, "judge")
        assert "turn 1/3 · score 0.80" in header(app)
        assert len(store.session(session.id).judgments) == 1


async def test_auto_run_to_the_end_shows_scores_red_and_unscored(make_app, store: Store, server):
    server.set_default(JUDGE, turns_judged(5, 2, None))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot, "ctrl+r")  # start and auto-run
        judge = pane_text(app, "judge")
        assert "Turn 1 · rubric v1 · 1.00" in judge
        assert "Turn 2 · rubric v1 · 0.40  fails: below 0.70" in judge
        assert "Turn 3 · rubric v1 · unscored" in judge
        assert "Turn 3 · rubric v1 · 0.00" not in judge  # an unscored turn is never shown as 0
        # The dialogue verdict block under the last turn: the default judge reply suits only the
        # rubric, so resolution is unscored (never 0); the bot said the same thing three times.
        assert "resolution v1 · unscored" in judge
        assert "repetition v1 · 0.00" in judge
        # The scenario's expectations, one line each; a reply that cannot be read is unscored, never ✗.
        assert "expectations v1 · unscored" in judge
        assert "? useless-blame unscored: blames the customer" in judge
        assert "✗" not in judge
        assert "finished: max_turns" in header(app)
        session = store.sessions()[0]
        assert (session.status, session.stop_reason, session.unscored_turns) == ("finished", "max_turns", 1)
        assert session.score == pytest.approx(0.7)
        assert "Session #1 ended: max_turns" in notifications(app)


async def test_pause_stops_after_the_step_and_auto_run_resumes(make_app, store: Store, server):
    thinking = Gate()  # the bot answers once p has landed, however slow the machine
    server.script(BOT, Reply("A slow answer.", gate=thinking))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot)
        await pilot.press("a")
        assert await asyncio.to_thread(thinking.wait_reached)
        await pilot.press("p")  # pause: the step in progress (the bot's) still completes
        thinking.open()
        await settle(pilot)
        session = store.sessions()[0]
        assert [m.role for m in store.session(session.id).messages] == ["user", "bot"]
        assert "paused" in header(app)
        assert "Next: verdict" in str(app.screen.query_one("#status").render())

        await pilot.press("a")
        await settle(pilot)
        assert store.session(session.id).stop_reason == "max_turns"
        assert "finished: max_turns" in header(app)


async def test_cancel_during_a_step_records_a_cancelled_session(make_app, store: Store, server):
    server.script(BOT, Reply(hang=True))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("s")  # the bot never answers
        await pilot.pause()
        assert app.screen.running
        await pilot.press("c")
        await settle(pilot)
        session = store.sessions()[0]
        assert (session.status, session.stop_reason) == ("finished", "cancelled")
        assert "Dialogue ended: cancelled" in pane_text(app, "judge")
        assert "cancelled · s/a continue" in header(app)


async def test_operator_types_the_next_customer_message(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot)
        for _ in range(3):  # scenario question, bot answer, verdict
            await pilot.press("s")
            await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        assert app.focused is not None and app.focused.id == "customer-input"
        await pilot.press(*"My own [b]question[/b]?", "enter")
        await settle(pilot)
        messages = store.session(store.sessions()[0].id).messages
        assert (messages[2].turn, messages[2].source, messages[2].text) == (2, "operator", "My own [b]question[/b]?")
        assert "Turn 2 · typed by operator\nMy own [b]question[/b]?" in pane_text(app, "user")


async def test_a_failed_step_pauses_and_a_retries_once_the_server_is_back(make_app, store: Store, server):
    server.script(BOT, Reply(status=500, error_message="[bold red]overloaded[/]"))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot, "ctrl+r")
        bot = pane_text(app, "bot")
        assert "bot failed in turn 1" in bot and "[bold red]overloaded[/]" in bot
        assert any("answered 500" in n for n in notifications(app))
        session = store.session(store.sessions()[0].id)
        assert session.status == "running" and "500" in (session.error or "")
        assert [m.role for m in session.messages] == ["user"]
        assert "paused: step failed" in header(app) and "Dialogue ended" not in pane_text(app, "judge")
        assert "retry" in str(app.screen.query_one("#status").render())
        await pilot.press("a")  # the server answers again: the session goes on to the end
        await settle(pilot)
        session = store.session(session.id)
        assert (session.status, session.stop_reason, session.error) == ("finished", "max_turns", None)
        await pilot.press("o")  # still responsive: the sessions browser opens
        await pilot.pause()
        assert type(app.screen).__name__ == "SessionsScreen"


async def test_quitting_mid_run_cancels_cleanly_and_the_session_continues(make_app, store: Store, server):
    server.script(BOT, Reply(hang=True))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot, "ctrl+r", wait=False)
        assert app.screen.running
        await app.action_quit()
    session = store.sessions()[0]
    assert (session.status, session.stop_reason) == ("finished", "cancelled")

    app = make_app()  # reopen it and run it to the end
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert f"Session #{session.id}" in header(app)
        await pilot.press("a")
        await settle(pilot)
    session = store.session(session.id)
    assert (session.status, session.stop_reason) == ("finished", "max_turns")
    assert [m.role for m in session.messages] == ["user", "bot"] * 3


async def test_the_header_names_the_dialogue_verdict_being_judged(make_app, store: Store, server):
    """After the last turn the dialogue verdicts can take a minute on a small model: the header
    says which one is running from its start, as it does for a turn's steps."""
    rubric = check_answers(4)

    def judge(body: dict) -> Reply:
        title = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
        return Reply(hang=True) if title == "intents" else rubric(body)  # resolution's first step never ends

    server.set_default(JUDGE, judge)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot, "ctrl+r", wait=False)  # start and auto-run to the end
        # Wait for the hung step, not for a fixed time; resolution, repetition and expectations
        # (the scenario has expectations).
        judging = "judging the dialogue: resolution (1/3)"
        await wait_until(pilot, lambda: judging in header(app), "the header names the hung dialogue verdict", 300)
        session = store.sessions()[0]
        assert len({j.turn for j in store.session(session.id).judgments}) == 3  # every turn was judged
        assert "judging the dialogue" not in pane_text(app, "judge")  # progress, not part of the record
        await pilot.press("c")
        await settle(pilot)
        assert "judging the dialogue" not in header(app)
        assert "finished" in header(app)  # cancelled while concluding: its turns are all judged
