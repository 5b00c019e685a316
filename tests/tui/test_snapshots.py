"""SVG snapshots of every screen and dialog at the smallest supported terminal (80×24), from
deterministic fake-server content. What only a wide terminal shows (panes and versions side by
side, the runs table's last columns) is asserted by Pilot tests at 220×60 in
``test_wide_layouts``.

Nothing time-dependent is on screen: the header has no clock, stored timestamps and latencies
are pinned before the shot, toasts are not drawn (``snap_compare`` in ``conftest``; what they
say is checked in ``app.notices``), text cursors do not blink, and paths that contain the
temporary folder are shown relative to it.
Update with ``pytest tests/tui/test_snapshots.py --snapshot-update`` after checking by eye.
"""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, TextArea

from ragtui.core.store.store import Store
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, check_answers, turns_judged

SMALL = (80, 24)  # the smallest terminal ragtui promises to work in


@pytest.fixture(autouse=True)
def _in_tmp(monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)  # the personas folder shows as personas/en


def pin_time(store: Store) -> None:
    store._db.execute("UPDATE sessions SET created_at = '2025-04-01T09:30:00+00:00', updated_at = created_at")
    store._db.execute("UPDATE judgments SET created_at = '2025-04-01T09:31:00+00:00', latency_ms = 1250")
    store._db.conn.commit()


async def steady(pilot: Pilot) -> None:
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    for widget in pilot.app.screen.query("Input, TextArea"):
        if isinstance(widget, Input | TextArea):
            widget.cursor_blink = False
    await pilot.pause()
    await pilot.pause()


async def run_dialogue(pilot: Pilot) -> None:
    await pilot.press("n")
    await pilot.pause()
    await pilot.press("ctrl+r")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


def after_a_dialogue(store: Store, *keys: str):
    """``run_before`` for a shot taken after one auto-run dialogue (times pinned) and ``keys``."""

    async def run_before(pilot: Pilot) -> None:
        await run_dialogue(pilot)
        pin_time(store)
        for n, key in enumerate(keys):
            if n:
                await pilot.pause()
            await pilot.press(key)
        await steady(pilot)

    return run_before


def test_main_screen_after_a_run(snap_compare, make_app, server):
    server.script(BOT, Reply("Open [bold]Settings[/] > Account > Linked services. \x1b[31mDone.\x1b[0m"))
    server.set_default(JUDGE, turns_judged(5, 2, None))

    async def run_before(pilot: Pilot) -> None:
        await run_dialogue(pilot)
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_new_session_dialog(snap_compare, make_app):
    async def run_before(pilot: Pilot) -> None:
        await pilot.press("n")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_sessions_browser(snap_compare, make_app, store: Store):
    async def run_before(pilot: Pilot) -> None:
        await run_dialogue(pilot)
        await run_dialogue(pilot)
        pin_time(store)
        await pilot.press("o")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


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

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_verdict_detail(snap_compare, make_app, store: Store):
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=after_a_dialogue(store, "v"))


def test_rejudge_dialog_with_the_model_field(snap_compare, make_app, store: Store):
    # "down": "Another model", whose field shows without Enter
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=after_a_dialogue(store, "r", "down"))


def test_persona_editor(snap_compare, make_app):
    async def run_before(pilot: Pilot) -> None:
        await pilot.press("e")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_persona_unsaved_changes_prompt(snap_compare, make_app):
    async def run_before(pilot: Pilot) -> None:
        await pilot.press("e")
        await pilot.pause()
        pilot.app.screen.query_one("#p-description", Input).value = "Edited, not saved"
        await pilot.press("escape")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_help(snap_compare, make_app):
    async def run_before(pilot: Pilot) -> None:
        await pilot.press("f1")
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_export_dialog_of_an_unfinished_session(snap_compare, make_app):
    async def run_before(pilot: Pilot) -> None:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await pilot.pause()
        await pilot.press("s")
        await pilot.app.workers.wait_for_complete()
        await pilot.press("x")
        await pilot.pause()
        pilot.app.screen.query_one("#export-path", Input).value = "exports/ragtui-session-1.csv"
        await steady(pilot)

    assert snap_compare(make_app(), terminal_size=SMALL, run_before=run_before)


def test_delete_confirmation(snap_compare, make_app, store: Store):
    assert snap_compare(make_app(), terminal_size=SMALL, run_before=after_a_dialogue(store, "o", "d"))


def test_too_small_a_terminal_says_so(snap_compare, make_app):
    assert snap_compare(make_app(), terminal_size=(60, 20))
