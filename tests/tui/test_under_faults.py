"""The main screen under endpoint faults, and the state lines saying what is true: the retry
keys never under an error's toast, the header's state after a step, the messages' wording."""

from __future__ import annotations

import re

from rich.text import Text
from textual.widget import Widget

from ragtui.tui.app import RagtuiApp
from tests.fakes.fake_openai import Reply

from ..conftest import BOT
from .conftest import notifications, pane_text, settle
from .test_dialogue_flows import header, start_session

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
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await start_session(pilot, "ctrl+r")
        await pilot.pause()
        assert app.screen.query("Toast"), "the failure's toast is up"
        status = app.screen.query_one("#status")
        assert covered_cells(app, status, r"s / a:? retry · c: cancel") == []


async def test_a_step_run_with_s_leaves_the_dialogue_ready_not_paused(make_app, server):
    server.script(BOT, Reply("A slow answer.", delay_first=0.5))  # p lands while the bot thinks
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await start_session(pilot)
        await pilot.press("s")
        await settle(pilot)
        assert "\nready" in header(app) and "paused" not in header(app)
        await pilot.press("a", "p")  # auto-run paused by the operator: that is paused
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
