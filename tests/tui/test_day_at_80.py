"""A day at 80×24: nothing a person needs is cut, panes do not jump, every key does what Help
says, and the screens say what they show."""

from __future__ import annotations

import dataclasses
import re

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, DataTable, Input, TextArea
from textual.widgets._toast import Toast

from ragtui.core.runs.bootstrap import Overrides
from ragtui.core.store.store import Store
from ragtui.tui.app import RagtuiApp
from ragtui.tui.dialogs.new_session import NewSessionScreen
from ragtui.tui.screens.compare_screen import PairScreen
from ragtui.tui.widgets.header import SessionHeader
from ragtui.tui.widgets.panes import HARD_CHUNK_CHARS, MessageView
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, check_answers
from .conftest import open_recorded, pane_text, settle
from .test_snapshots import pin_time
from .test_snapshots_runs import three_runs

# A whole day of use at two terminal sizes: the slow tier (`pytest -m slow`).
pytestmark = pytest.mark.slow

SMALL = (80, 24)


def screen_text(app) -> str:  # noqa: ANN001
    """What the terminal shows, as plain lines."""
    return "\n".join(strip.text.rstrip() for strip in app.screen._compositor.render_strips())


async def run_session(pilot: Pilot, question: str = "") -> None:
    await pilot.press("n")
    await pilot.pause()
    if question:
        pilot.app.screen.query_one("#free-question", Input).value = question
    await pilot.press("ctrl+r")
    await settle(pilot)


async def test_a_long_single_paragraph_is_split_between_words(make_app, server):
    words = " ".join(f"word{n:05d}" for n in range(3 * HARD_CHUNK_CHARS // 10))  # no newline at all
    server.script(BOT, Reply(words))
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await run_session(pilot)
        view = next(v for v in app.screen.query(MessageView) if v.text.startswith("word00000"))
        chunks = view._chunks
        assert len(chunks) >= 3 and "".join(chunks) == words
        for before, after in zip(chunks, chunks[1:], strict=False):
            assert before.endswith(" "), (before[-12:], after[:12])  # never inside a word


async def test_the_header_keeps_its_height_while_a_reply_streams(make_app):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await run_session(pilot)
        header = app.screen.query_one(SessionHeader)
        before = header.size.height
        view = app.screen.query_one("#panes")
        live = "bot answering · 12345 tok · 99.9 tok/s · and a long tail of words that would wrap the line"
        view.info = dataclasses.replace(view.info, live=live)
        await pilot.pause()
        assert header.size.height == before
        assert "finished: max_turns" in str(header.render_text())


async def test_a_toast_does_not_cover_a_dialogs_buttons(make_app):
    app = make_app()
    async with app.run_test(size=SMALL, notifications=True) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)
        app.notify(  # up however slow the machine is: its default 5 s could pass before the check
            "A notification long enough to take two lines of a toast at eighty columns wide.", timeout=3600
        )
        await pilot.pause()
        await pilot.pause()
        toasts = [t.region for t in app.screen.query(Toast)]
        buttons = [b.region for b in app.screen.query(Button)]
        assert toasts and buttons
        assert not any(t.overlaps(b) for t in toasts for b in buttons)


async def test_n_while_connecting_opens_the_dialog_and_starts_once_connected(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        engine, app.engine = app.engine, None  # as while the start-up thread connects
        app.connecting = "Connecting to the model endpoints…"
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)  # choosing needs no model
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert "as soon as ragtui is connected" in str(app.screen.query_one("#status").render())
        assert store.sessions() == []
        app.engine, app.connecting = engine, None
        app.main_screen.connected()
        await settle(pilot)
        assert len(store.sessions()) == 1


async def test_a_free_questions_first_turn_is_not_labelled_scenario(make_app):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await run_session(pilot, "Where is my invoice?")
        customer = pane_text(app, "user")
        assert "Turn 1 · your question" in customer and "Turn 1 · scenario" not in customer


async def test_end_and_home_move_through_the_sessions_list(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        for _ in range(3):
            await run_session(pilot)
        await pilot.press("o")
        await pilot.pause()
        table = app.screen.query_one(DataTable)
        assert table.cursor_row == 0
        await pilot.press("end")
        await pilot.pause()
        assert table.cursor_row == 2
        await pilot.press("home")
        await pilot.pause()
        assert table.cursor_row == 0


async def test_the_sessions_list_shows_how_each_stopped_at_80_columns(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await run_session(pilot)
        pin_time(store)
        await pilot.press("o")
        await pilot.pause()
        shown = screen_text(app)
        assert "max_turns" in shown and "0.80" in shown


async def test_compare_keeps_the_pair_column_when_scrolled_right_and_boxes_say_base_and_new(make_app, store: Store):
    three_runs(store)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        table = app.screen.query_one("#pairs", DataTable)
        table.scroll_x = table.max_scroll_x
        await pilot.pause()
        assert table.max_scroll_x > 0 and "outage × calm" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PairScreen)
        titles = [str(box.border_title) for box in app.screen.query(".turn-row > Static")]
        assert titles[0].startswith("base · 20250401-0930-a") and titles[1].startswith("new · 20250402-0930-b")


@pytest.mark.recorded
async def test_the_raw_reply_tab_shows_every_checks_reply(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_recorded(pilot)
        judgment = store.session(store.sessions()[0].id).latest_judgments()[(3, "rubric")]
        checks = judgment.details["probes"]
        assert len(checks) > 1
        await pilot.press("v")
        await pilot.pause()
        raw = app.screen.query_one("#raw", TextArea).text
        for number, check in enumerate(checks, start=1):
            assert f"── {number}. {check['check']} ──" in raw
            assert check["reply"]  # the judge's own words for each check, stored with it
        assert raw.count("\n→ ") == len(checks)


@pytest.mark.recorded
@pytest.mark.parametrize(("size", "per_row"), [(SMALL, [2, 2]), ((220, 60), [4])], ids=["80x24", "220x60"])
async def test_four_versions_are_readable(make_app, store: Store, server, size, per_row):
    """Side by side as many as fit: two rows of two at 80 columns, all four in one row when wide."""
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await open_recorded(pilot)
        server.set_default(JUDGE, check_answers(2))
        await pilot.press("v")
        await pilot.pause()
        for _ in range(3):
            await pilot.press("r")
            await pilot.pause()
            await pilot.press("ctrl+s")
            await settle(pilot)
        pin_time(store)
        app.screen.load(keep_turn=3)
        app.screen.query_one("TabbedContent").active = "tab-versions"
        await settle(pilot)
        shown = screen_text(app)
        # A criterion's name and value on one line (the newest first: re-judged at 2, not v1's 5).
        assert re.search(r"understanding \d\.\d", shown) and "2025-04-01 09:31" in shown
        assert "v4 (newest)" in shown and "v3" in shown  # newest first
        lines = shown.splitlines()
        assert not any(line.rstrip("│ ").endswith("understandi") for line in lines)
        rows = app.screen.query(".version-row")
        assert [len(row.query(".version")) for row in rows] == per_row


async def test_once_connected_the_header_no_longer_says_connecting(tui_config, store: Store, monkeypatch):
    """The engine's imports after the endpoints answered are no longer "connecting"."""
    shown: list[str] = []
    original = RagtuiApp._set_connecting

    def spy(app: RagtuiApp, what: str) -> None:
        shown.append(what)
        original(app, what)

    monkeypatch.setattr(RagtuiApp, "_set_connecting", spy)
    app = RagtuiApp(tui_config, None, store, overrides=Overrides())
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        assert app.engine is not None and app.connecting is None
        assert shown and all("Connecting" not in what for what in shown)
        assert shown[-1].startswith("Connected")
