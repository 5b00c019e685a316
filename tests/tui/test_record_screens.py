"""The TUI keeps the record faithful: it asks before overwriting an export, never writes over
the database, refuses to continue a session another live process runs, and shows a session
whose process died as interrupted."""

from __future__ import annotations

import socket
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Input

from ragtui.core.store.store import Store
from ragtui.tui.dialogs.common import ExportScreen

from .conftest import SIZE, open_recorded, pane_text, settle, static_text


async def export_to(pilot, path: Path) -> None:  # noqa: ANN001
    await pilot.press("x")
    await pilot.pause()
    pilot.app.screen.query_one(Input).value = str(path)
    await pilot.press("enter")
    await pilot.pause()


@pytest.mark.recorded
async def test_export_asks_before_overwriting_an_existing_file(make_app, tmp_path: Path):
    target = tmp_path / "session.csv"
    target.write_text("my notes", encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await export_to(pilot, target)
        assert isinstance(app.screen, ExportScreen)  # still asking
        assert "exists" in static_text(app, "#export-error")
        assert target.read_text(encoding="utf-8") == "my notes"
        await pilot.press("enter")  # confirmed
        await pilot.pause()
        assert not isinstance(app.screen, ExportScreen)
    assert target.read_text(encoding="utf-8-sig").startswith("config,user1")


@pytest.mark.recorded
async def test_export_never_writes_over_the_database(make_app, store: Store):
    assert store.path is not None
    before = store.path.read_bytes()[:100]
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await export_to(pilot, store.path)  # refused at once: a database is never offered for overwriting
        # Said in the dialog, which stays open with the path kept so it can be corrected; the
        # message names the dialog's field, not a command-line flag.
        error = str(app.screen.query_one("#export-error").render())
        assert error == f"{store.path}: that is the session database; choose another file."
        assert "exists" not in error and "--csv" not in error
        assert isinstance(app.screen, ExportScreen)
    assert store.path.read_bytes()[:100] == before and len(store.sessions()) == 1


def new_session(store: Store, scenario, persona) -> int:  # noqa: ANN001
    return store.create_session(
        scenario=scenario.to_dict(),
        persona=persona,
        config={},
        language="en",
        max_turns=3,
        threshold=0.7,
        metrics=["rubric"],
    )


async def open_session(pilot) -> None:  # noqa: ANN001
    await pilot.press("o")
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


async def test_a_session_another_live_process_runs_is_read_only(make_app, store: Store, scenario, persona):
    session_id = new_session(store, scenario, persona)
    other = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"], stdin=subprocess.PIPE)
    try:
        store._db.execute(
            "UPDATE sessions SET owner_pid = ?, owner_host = ?, owner_started = NULL WHERE id = ?",
            [other.pid, socket.gethostname(), session_id],
        )
        app = make_app()
        async with app.run_test(size=SIZE) as pilot:
            await open_session(pilot)
            status = static_text(app, "#status")
            assert f"being run by process {other.pid}" in status
            assert app.screen.dialogue is None
            await pilot.press("space")  # a step: refused, nothing written
            await pilot.pause()
        assert store.session(session_id).messages == []
    finally:
        other.communicate(b"", timeout=30)


async def test_a_session_whose_process_died_is_interrupted_and_continues(make_app, store: Store, scenario, persona):
    session_id = new_session(store, scenario, persona)
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    store._db.execute("UPDATE sessions SET owner_pid = ? WHERE id = ?", [gone.pid, session_id])
    assert store.session(session_id).status == "interrupted"
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_session(pilot)
        assert "Interrupted" in pane_text(app, "judge")
        await pilot.press("a")
        await settle(pilot)
    session = store.session(session_id)
    assert (session.status, session.stop_reason) == ("finished", "max_turns")
    assert [m.role for m in session.messages] == ["user", "bot"] * 3


async def test_sigterm_quits_like_ctrl_q_and_records_cancelled(make_app, store: Store, server):
    from stand_ins.fake_openai import Reply

    from ..conftest import BOT

    server.script(BOT, Reply(hang=True))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        await pilot.press("ctrl+r")
        await pilot.pause()
        app.on_sigterm()  # what the SIGTERM handler runs
        await pilot.pause()
        await app.workers.wait_for_complete()
    session = store.sessions()[0]
    assert (session.status, session.stop_reason) == ("finished", "cancelled")


def _team_database(folder: Path) -> Path:
    import contextlib
    import sqlite3

    other = folder / "team.sqlite"
    with contextlib.closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE keep (x)")
        conn.commit()
    return other


@pytest.mark.recorded
@pytest.mark.parametrize("which", ["database", "symlink to the database", "database -wal", "another SQLite file"])
async def test_export_dialog_refuses_every_database(make_app, store: Store, tmp_path: Path, which: str):
    """The dialog uses the same guard as every command-line output option."""
    assert store.path is not None
    link = tmp_path / "harmless.csv"
    link.symlink_to(store.path)
    target = {
        "database": store.path,
        "symlink to the database": link,
        "database -wal": store.path.with_name(store.path.name + "-wal"),
        "another SQLite file": _team_database(tmp_path),
    }[which]
    before = target.read_bytes() if target.exists() and not target.is_symlink() else None
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await export_to(pilot, target)
        assert isinstance(app.screen, ExportScreen)
        error = static_text(app, "#export-error")
        expected = "it is a SQLite database" if which == "another SQLite file" else "that is the session database"
        assert expected in error and "--csv" not in error and "exists" not in error
        await pilot.press("enter")  # pressing again never turns into "overwrite"
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)
    if before is not None and which == "another SQLite file":
        assert target.read_bytes() == before
    assert len(store.sessions()) == 1


@pytest.mark.recorded
async def test_export_dialog_on_a_full_disk_keeps_the_old_file(make_app, tmp_path: Path, monkeypatch):
    import errno
    import os

    from ragtui.core.files import atomic

    target = tmp_path / "session.csv"
    target.write_text("last week's export\n" * 500, encoding="utf-8")

    def full_disk(handle, data: bytes) -> None:  # noqa: ANN001
        handle.write(data[:4096])
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(atomic, "_write_all", full_disk)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await export_to(pilot, target)  # exists: asks first
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, ExportScreen)  # still open, the message says why
        assert "No space left on device" in static_text(app, "#export-error")
    assert target.read_text(encoding="utf-8") == "last week's export\n" * 500
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.endswith(".tmp")) == []
