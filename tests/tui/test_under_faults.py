"""The main screen under endpoint faults, and the state lines saying what is true: the retry
keys never under an error's toast, the header's state after a step, the messages' wording."""

from __future__ import annotations

import asyncio
import re

import pytest
from rich.text import Text
from textual.widget import Widget

from ragtui.tui.app import RagtuiApp
from stand_ins.fake_openai import FakeOpenAIServer, Gate, Reply

from ..conftest import BOT, JUDGE, check_answers
from .conftest import SIZE, notifications, open_recorded, pane_text, settle, wait_until
from .test_dialogue_flows import header, start_session

# The TUI against a server that fails in every way, end to end: the slow tier (`pytest -m slow`).
pytestmark = pytest.mark.slow

SMALL = (80, 24)


def covered_cells(app: RagtuiApp, widget: Widget, pattern: str) -> list[tuple[int, int]]:
    """The screen cells of ``pattern`` (a regular expression) in ``widget``'s text, as wrapped on
    screen, that another widget (a toast) covers; fails when the text is not on one line."""
    lines = Text(str(widget.render())).wrap(app.console, widget.content_size.width)
    for row, line in enumerate(lines):
        found = re.search(pattern, line.plain)
        if found:
            x0, y = widget.content_region.x, widget.content_region.y + row
            cells = [(x0 + x, y) for x in range(found.start(), found.end())]
            return [cell for cell in cells if app.screen.get_widget_at(*cell)[0] is not widget]
    raise AssertionError(f"{pattern!r} is not on one line of {str(widget.render())!r}")


async def test_the_retry_keys_stay_visible_beside_the_failures_toast(make_app, server):
    server.script(BOT, Reply(status=500, error_message="overloaded " * 8))
    app = make_app()
    app.NOTIFICATION_TIMEOUT = 3600  # the toast stays up however slow the machine is
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await start_session(pilot, "ctrl+r")
        await pilot.pause()
        assert app.screen.query("Toast"), "the failure's toast is up"
        status = app.screen.query_one("#status")
        assert covered_cells(app, status, r"s / a:? retry · c: cancel") == []


async def test_a_step_run_with_s_leaves_the_dialogue_ready_not_paused(make_app, server):
    thinking = Gate()  # the bot answers once p has landed, however slow the machine
    server.script(BOT, Reply("A slow answer.", gate=thinking))
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await start_session(pilot)
        await pilot.press("s")
        await settle(pilot)
        assert "\nready" in header(app) and "paused" not in header(app)
        await pilot.press("a")
        assert await asyncio.to_thread(thinking.wait_reached)
        await pilot.press("p")  # auto-run paused by the operator: that is paused
        thinking.open()
        await settle(pilot)
        assert "\npaused" in header(app)
        await pilot.press("s")
        await settle(pilot)
        assert "\nready" in header(app) and "paused" not in header(app)


async def test_typing_as_the_customer_before_the_verdicts_says_so_in_plain_english(make_app):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await start_session(pilot)
        await pilot.press("s")
        await settle(pilot)
        await pilot.press("s")  # the bot answered: the verdicts are next
        await settle(pilot)
        await pilot.press("m")
        await pilot.pause()
        assert "The verdicts come first: press s to step to the customer." in notifications(app)
        assert "Turn 1 · bot" in pane_text(app, "bot")


async def test_a_reopened_session_shows_a_failed_attempt_before_the_reply_that_replaced_it(make_app, store, server):
    server.script(BOT, Reply("Go to Settings and then to the linked accounts page.", cut_after_chunks=2))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot, "ctrl+r")  # the bot's stream breaks in turn 1: paused on it
        await pilot.press("a")  # retried: the dialogue runs to its end
        await settle(pilot)
        live = pane_text(app, "bot")
        assert live.index("bot failed in turn 1") < live.index("Turn 1 · bot")
        await open_recorded(pilot)
        bot = pane_text(app, "bot")
        assert store.session(store.sessions()[0].id).partials and "PARTIAL, never completed" in bot
        assert bot.index("turn 1 · bot · PARTIAL") < bot.index("Turn 1 · bot") < bot.index("Turn 3 · bot")


async def test_the_dialogue_verdict_streaming_is_headed_as_the_dialogues_not_a_turns(make_app, store, server):
    rubric = check_answers(4)

    def judge(body: dict) -> Reply:
        title = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
        if title == "intents":  # resolution's first step streams a little, then stalls
            return Reply('{"intents": ["link my account"', chunk_chars=6, stall_after_chunks=4)
        return rubric(body)

    server.set_default(JUDGE, judge)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot, "ctrl+r", wait=False)
        assert await asyncio.to_thread(server.wait_for_stalls)
        # Wait for the streamed text to be drawn (a 100 ms flush), not for a fixed time.
        await wait_until(pilot, lambda: "link" in pane_text(app, "judge"), "the stalled stream's text is drawn")
        judge_pane = pane_text(app, "judge")
        streaming = judge_pane[judge_pane.rindex("Turn 3 score") :]
        assert "Dialogue · resolution (1/3) …" in streaming and "link" in streaming
        assert "Turn 3 …" not in streaming
        await pilot.press("c")
        await settle(pilot)


async def test_a_rate_limit_tells_the_person_at_the_tui_what_they_can_do(make_app, server):
    server.script(BOT, Reply(status=429, headers={"retry-after-ms": "1"}))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot, "ctrl+r")
        told = "\n".join([pane_text(app, "bot"), *notifications(app)])
        assert "rate limiting (429)" in told
        assert "--concurrency" not in told  # a flag of `ragtui run`, not of this screen
        assert "wait a moment, then retry the step" in told and "max_retries" in told


async def test_an_endpoint_unreachable_at_start_is_named_before_any_step(make_app, tui_config, server):
    tui_config.roles["bot"].base_url = "http://127.0.0.1:9/v1"  # nothing listens on the discard port
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)  # the check at start runs in the background
        assert "bot: fake-bot ⚠ unreachable" in header(app) and "judge: fake-judge ⚠" not in header(app)
        status = str(app.screen.query_one("#status").render())
        assert status.startswith("⚠ Not reachable at start: bot endpoint (cannot reach the bot endpoint")
        assert "127.0.0.1:9" in status
        await start_session(pilot)
        assert "\nready" in header(app) and "⚠ unreachable" in header(app)
        await pilot.press("s")  # the scenario's question: no endpoint called, nothing to say
        await settle(pilot)
        assert not [n for n in notifications(app) if "did not answer at start" in n]
        await pilot.press("s")  # the bot's answer: said before it is sent, then the failure
        await settle(pilot)
        told = notifications(app)
        warned = next(i for i, n in enumerate(told) if n.startswith("The bot endpoint did not answer at start ("))
        failed = next(i for i, n in enumerate(told) if n.startswith("cannot reach bot endpoint"))
        assert warned < failed and not server.chat_requests(BOT)


async def test_an_endpoint_that_answers_after_all_is_no_longer_marked(make_app, tui_config, server):
    judge_server = FakeOpenAIServer(default=check_answers(4)).start()
    port = judge_server.port
    judge_server.stop()  # down when the TUI starts…
    tui_config.roles["judge"].base_url = f"http://127.0.0.1:{port}/v1"
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert "judge: fake-judge ⚠ unreachable" in header(app)
        await start_session(pilot)
        with FakeOpenAIServer(port=port, default=check_answers(4)):  # …and back before its turn
            for _ in range(3):
                await pilot.press("s")
                await settle(pilot)
        assert "Turn 1 · rubric v1 · 0.80" in pane_text(app, "judge")
        assert "⚠ unreachable" not in header(app)
        assert "Not reachable" not in str(app.screen.query_one("#status").render())
