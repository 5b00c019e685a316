"""SVG snapshots at a fixed size, from deterministic fake-server content.

Nothing time-dependent is on screen: the header has no clock, stored timestamps and latencies
are pinned before the shot, notifications are cleared and text cursors do not blink.
Update with ``pytest tests/tui --snapshot-update`` after checking the change by eye.
"""

from __future__ import annotations

from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from ragtui.core.record.store import Store
from ragtui.testing.fake_openai import Reply

from ..conftest import BOT, JUDGE, check_answers, turns_judged

SIZE = (140, 40)


def pin_time(store: Store) -> None:
    store.db.execute("UPDATE sessions SET created_at = '2025-04-01T09:30:00+00:00', updated_at = created_at")
    store.db.execute("UPDATE judgments SET created_at = '2025-04-01T09:31:00+00:00', latency_ms = 1250")
    store.db.conn.commit()


async def steady(pilot: Pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    for widget in pilot.app.screen.query("Input, TextArea"):
        if isinstance(widget, Input | TextArea):
            widget.cursor_blink = False
    pilot.app.clear_notifications()
    await pilot.pause()


async def run_dialogue(pilot: Pilot) -> None:
    await pilot.press("n")
    await pilot.pause()
    await pilot.press("ctrl+r")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def test_main_screen_after_a_run(snap_compare, make_app, server):
    server.script(BOT, Reply("Open [bold]Settings[/] > Account > Linked services. \x1b[31mDone.\x1b[0m"))
    server.set_default(JUDGE, turns_judged(5, 2, None))

    async def run_before(pilot: Pilot) -> None:
        await run_dialogue(pilot)
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_new_session_dialog(snap_compare, make_app):
    async def run_before(pilot: Pilot) -> None:
        await pilot.press("n")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_sessions_browser(snap_compare, make_app, store: Store):
    async def run_before(pilot: Pilot) -> None:
        await run_dialogue(pilot)
        await run_dialogue(pilot)
        pin_time(store)
        await pilot.press("o")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)


def test_verdict_versions_side_by_side(snap_compare, make_app, store: Store, server):
    async def run_before(pilot: Pilot) -> None:
        await run_dialogue(pilot)
        server.set_default(JUDGE, check_answers(2))
        await pilot.press("v")
        await pilot.pause()
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.app.workers.wait_for_complete()
        pin_time(store)
        pilot.app.screen.load(keep_turn=3)
        pilot.app.screen.query_one("TabbedContent").active = "tab-versions"
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SIZE, run_before=run_before)
