"""SVG snapshots of what the other snapshot files do not reach: a pair side by side, the label
dialog over Verdicts, four versions of a verdict, every check's raw reply, the main screen
paused on a failed step. Same conventions as ``test_snapshots`` (80×24, pinned times, no
notifications)."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.pilot import Pilot

from ragtui.core.store.store import Store
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, check_answers
from .test_snapshots import SMALL, after_a_dialogue, pin_time, run_dialogue, steady
from .test_snapshots_runs import three_runs

# The day's walkthrough as snapshots: the slow tier (`pytest -m slow`).
pytestmark = pytest.mark.slow


def test_pair_side_by_side(snap_compare, make_app, store: Store):
    three_runs(store)

    async def run_before(pilot: Pilot) -> None:
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        await pilot.press("enter")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_label_dialog_over_verdicts(snap_compare, make_app, store: Store):
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=after_a_dialogue(store, "v", "l"))


def test_four_versions(snap_compare, make_app, store: Store, server):
    async def run_before(pilot: Pilot) -> None:
        await run_dialogue(pilot)
        await pilot.press("v")
        await pilot.pause()
        for answers in (2, 3, 5):
            server.set_default(JUDGE, check_answers(answers))
            await pilot.press("r")
            await pilot.pause()
            await pilot.press("ctrl+s")
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
        pin_time(store)
        pilot.app.screen.load(keep_turn=3)
        pilot.app.screen.query_one("TabbedContent").active = "tab-versions"
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_raw_reply_of_every_check(snap_compare, make_app, store: Store):
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=after_a_dialogue(store, "v", "4"))


def test_main_screen_paused_on_a_failed_step(snap_compare, make_app, server):
    server.script(BOT, Reply(status=500, error_message="overloaded"))

    async def run_before(pilot: Pilot) -> None:
        await run_dialogue(pilot)
        # The error names the fake server's address, whose port changes every run: pin it.
        for widget in pilot.app.screen.query("#pane-bot Static"):
            shown = str(widget.render())
            if server.base_url in shown:
                widget.update(Text(shown.replace(server.base_url, "http://127.0.0.1:PORT/v1")))
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)
