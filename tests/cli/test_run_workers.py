"""`ragtui run --workers N`: worker processes share one run and one database."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from ragtui.cli.main import main
from stand_ins.fake_openai import Reply, schema_responder

from ..conftest import BOT, endpoint_toml


def test_workers_share_one_run_and_database(server, tmp_path: Path, capsys):
    config = tmp_path / "ragtui.toml"
    config.write_text(
        'language = "en"\nmax_turns = 2\nconcurrency = 4\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    picks = ["-s", "outage", "-s", "refund-partial", "-p", "calm", "-p", "angry", "-p", "beginner"]
    assert main(["run", "--config", str(config), "--workers", "2", *picks]) == 0
    out = capsys.readouterr().out
    assert "2 worker processes, concurrency 2 each" in out and "w0 " in out and "w1 " in out
    assert "6 dialogue(s), run score 0.80" in out and "Tokens spent" in out
    db = sqlite3.connect(tmp_path / "runs.db")
    rows = db.execute("SELECT run_id, stop_reason, turns FROM sessions").fetchall()
    assert len(rows) == 6 and len({r[0] for r in rows}) == 1
    assert {(r[1], r[2]) for r in rows} == {("max_turns", 2)}
    pairs = db.execute("SELECT scenario_id, persona_name FROM sessions").fetchall()
    assert len(set(pairs)) == 6  # every planned dialogue exactly once
    assert db.execute("SELECT COUNT(*) FROM judgments").fetchone()[0] == 12


def test_workers_need_an_endpoint(tmp_path: Path, capsys):
    assert main(["run", "--db", str(tmp_path / "x.db"), "--workers", "2", "-s", "outage", "-p", "calm"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--workers needs a configured endpoint" in err


def test_workers_refuse_resume(server, tmp_path: Path, capsys):
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url), encoding="utf-8")
    assert main(["run", "--config", str(config), "--workers", "2", "--resume", "last"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--workers cannot be combined with --resume" in err


def test_killed_workers_leave_interrupted_sessions_that_resume(server, tmp_path: Path):
    """kill -9 of every worker mid-run: the run's table shows their dialogues as interrupted
    (owned by the dead workers, never "running"), the exit status is an error, and
    `ragtui run --resume` finishes every one of them."""
    config = tmp_path / "ragtui.toml"
    config.write_text(
        'language = "en"\nmax_turns = 1\nconcurrency = 4\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    server.set_default(BOT, Reply(hang=True))
    picks = ["-s", "outage", "-s", "refund-partial", "-p", "calm", "-p", "angry"]
    command = [sys.executable, "-m", "ragtui", "run", "--config", str(config), "--workers", "2", *picks]
    parent = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        owners = wait_for_running_owners(tmp_path / "runs.db", count=2)
        for pid in owners:
            os.kill(pid, signal.SIGKILL)
        out, err = parent.communicate(timeout=60)
    finally:
        if parent.poll() is None:
            parent.kill()
    assert parent.returncode == 2, (out, err)
    assert "interrupted" in out and "Continue with: ragtui run --resume" in out
    assert err.count("exited with status -9") == 2

    server.set_default(BOT, schema_responder)
    assert main(["run", "--config", str(config), "--resume", "last"]) == 0
    db = sqlite3.connect(tmp_path / "runs.db")
    rows = db.execute("SELECT status, stop_reason, owner_pid FROM sessions").fetchall()
    assert len(rows) == 4 and {(r[0], r[1]) for r in rows} == {("finished", "max_turns")}
    assert not set(owners) & {r[2] for r in rows}  # this process took them over


def wait_for_running_owners(path: Path, count: int, deadline_s: float = 60.0) -> set[int]:
    """The pids of the processes running sessions, once ``count`` distinct ones have started."""
    started = time.monotonic()
    while time.monotonic() - started < deadline_s:
        if path.exists():
            try:
                db = sqlite3.connect(path)
                owners = {r[0] for r in db.execute("SELECT owner_pid FROM sessions WHERE status = 'running'")}
                db.close()
            except sqlite3.OperationalError:  # not created yet
                owners = set()
            if len(owners) >= count:
                return owners
        time.sleep(0.05)
    raise AssertionError(f"no {count} workers running sessions within {deadline_s} s")
