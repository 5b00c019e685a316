"""Screens follow the record: what another process writes to the same SQLite file shows up in
an open read-only session, the sessions list and the runs list; a session paused here is
neither listed as running nor, after a clean quit, taken for interrupted.

The second writer is a real second connection to the file (``Store.open``) on behalf of a live
subprocess; the app's once-a-second check is called directly instead of waiting for its timer.
"""

from __future__ import annotations

import socket
import subprocess
import sys
from collections.abc import Iterator

import pytest
from textual.widgets import DataTable

from ragtui.core.store.ownership import process_started
from ragtui.core.store.store import Store
from ragtui.tui import store_watch
from ragtui.tui.screens.main_screen import MainScreen
from ragtui.tui.screens.runs_screen import RunsScreen
from ragtui.tui.screens.sessions_screen import SessionsScreen

from .conftest import SIZE, pane_text, settle, static_text


@pytest.fixture
def other(store: Store) -> Iterator[tuple[Store, subprocess.Popen[bytes]]]:
    """Another process's connection to the same database, and that live process."""
    process = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    writer = Store.open(store.path)
    try:
        yield writer, process
    finally:
        writer.close()
        process.communicate(b"", timeout=30)


def new_session(store: Store, scenario, persona, run_id: str | None = None) -> int:  # noqa: ANN001
    return store.create_session(
        scenario=scenario.to_dict(),
        persona=persona,
        config={},
        language="en",
        max_turns=3,
        threshold=0.7,
        metrics=["rubric"],
        run_id=run_id,
    )


def tick(app) -> bool:  # noqa: ANN001 - the app's timer, one tick
    main = app.screen_stack[0]
    assert isinstance(main, MainScreen)
    return main.store_watch.check()


def cell_texts(table: DataTable) -> list[str]:
    return [" ".join(str(c) for c in table.get_row_at(i)) for i in range(table.row_count)]


async def test_an_open_session_run_elsewhere_updates_and_becomes_continuable(make_app, other, scenario, persona):
    writer, process = other
    session_id = new_session(writer, scenario, persona)
    writer._db.execute(
        "UPDATE sessions SET owner_pid = ?, owner_host = ?, owner_started = NULL WHERE id = ?",
        [process.pid, socket.gethostname(), session_id],
    )
    writer._db.conn.commit()
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        assert store_watch.POLL_S <= 1.0
        assert not tick(app)  # nothing written since the app opened: nothing to redraw
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert f"being run by process {process.pid}" in static_text(app, "#status")

        writer.add_message(session_id, 1, "user", "simulator", "Where is my invoice, other process?")
        writer.add_message(session_id, 1, "bot", "bot", "Under Billing, from the other process.")
        assert tick(app)
        await pilot.pause()
        assert "Where is my invoice, other process?" in pane_text(app, "user")
        assert "Under Billing, from the other process." in pane_text(app, "bot")
        assert f"being run by process {process.pid}" in static_text(app, "#status")

        writer.finish(session_id, "rubric", "max_turns")
        assert tick(app)
        await pilot.pause()
        assert "being run by process" not in static_text(app, "#status")
        assert "finished" in str(app.screen.query_one("#header").render_text())
        assert not tick(app)  # and quiet again


async def test_an_open_session_whose_process_is_killed_becomes_continuable(make_app, store: Store, scenario, persona):
    """kill -9 writes nothing to the database: the open session learns its owner died from the
    same liveness check the sessions list makes, on the watcher's next look, and offers s / a."""
    process = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    writer = Store.open(store.path)
    try:
        session_id = new_session(writer, scenario, persona)
        writer._db.execute(
            "UPDATE sessions SET owner_pid = ?, owner_host = ?, owner_started = ? WHERE id = ?",
            [process.pid, socket.gethostname(), process_started(process.pid), session_id],
        )
        writer._db.conn.commit()
        writer.add_message(session_id, 1, "user", "simulator", "Where is my invoice?")
    finally:
        writer.close()
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert f"being run by process {process.pid}" in static_text(app, "#status")
        assert not tick(app)  # its process lives and writes nothing: nothing to redraw

        process.kill()  # SIGKILL: no chance to write anything
        process.wait(timeout=30)
        assert tick(app)
        for _ in range(20):  # the redraw follows the message; bounded, no sleep
            if "being run by" not in static_text(app, "#status"):
                break
            await pilot.pause()
        assert "being run by" not in static_text(app, "#status")
        assert "interrupted · s/a continue" in str(app.screen.query_one("#header").render_text())
        assert store.sessions()[0].status == "interrupted"  # as the sessions list reads it
        assert not tick(app)  # and quiet again

        await pilot.press("a")  # continued here, to the end
        await settle(pilot)
    session = store.session(session_id)
    assert (session.status, session.stop_reason) == ("finished", "max_turns")


async def test_the_sessions_and_runs_lists_follow_another_process(make_app, other, scenario, persona):
    writer, _process = other
    first = new_session(writer, scenario, persona, run_id="20260101-run-a")
    writer.finish(first, "rubric", "max_turns")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await pilot.pause()
        assert isinstance(app.screen, SessionsScreen)
        table = app.screen.query_one(DataTable)
        assert table.row_count == 1
        second = new_session(writer, scenario, persona, run_id="20260102-run-b")
        writer.finish(second, "rubric", "cancelled")
        assert tick(app)
        await pilot.pause()
        assert table.row_count == 2 and "cancelled" in cell_texts(table)[0]
        await pilot.press("escape")
        await pilot.pause()

        await pilot.press("R")
        await pilot.pause()
        assert isinstance(app.screen, RunsScreen)
        runs = app.screen.query_one("#runs", DataTable)
        assert runs.row_count == 2
        third = new_session(writer, scenario, persona, run_id="20260103-run-c")
        writer.finish(third, "rubric", "max_turns")
        assert tick(app)
        await pilot.pause()
        assert runs.row_count == 3 and "20260103-run-c" in cell_texts(runs)[0]


async def test_a_session_paused_here_is_listed_paused_and_after_ctrl_q_not_interrupted(make_app, store: Store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+s")  # start, no auto-run
        await settle(pilot)
        await pilot.press("s")  # one step, then paused here
        await settle(pilot)
        session_id = store.sessions()[0].id
        await pilot.press("o")
        await pilot.pause()
        stop = cell_texts(app.screen.query_one(DataTable))[0]
        assert "paused" in stop and "running" not in stop
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("ctrl+q")
        await pilot.pause()
    later = Store.open(store.path)  # as another process sees it afterwards
    try:
        assert later.session(session_id).status == "paused"
    finally:
        later.close()

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("o")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert "Interrupted" not in pane_text(app, "judge")
        assert "paused · s/a continue" in str(app.screen.query_one("#header").render_text())
        await pilot.press("a")
        await settle(pilot)
    session = store.session(session_id)
    assert (session.status, session.stop_reason) == ("finished", "max_turns")
