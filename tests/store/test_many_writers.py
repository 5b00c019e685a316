"""Many processes, one database, and processes that die: real `ragtui` processes against the
fake server on 127.0.0.1, sharing one SQLite file."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from ragtui.core.store import locking
from ragtui.core.store.store import Store
from ragtui.core.types.errors import StoreError
from ragtui.core.types.personas import Persona
from stand_ins.fake_openai import FakeOpenAIServer, Reply

from ..conftest import BOT, endpoint_toml, interruptible

# Real processes sharing one database, killed and signalled: the slow tier (`pytest -m slow`).
pytestmark = pytest.mark.slow

PERSONAS = ["-p", "calm", "-p", "angry"]


@pytest.fixture
def config_file(server: FakeOpenAIServer, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 2\nconcurrency = 3\ndatabase = "shared.db"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def ragtui(*args: str) -> subprocess.Popen[str]:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    return subprocess.Popen(
        [sys.executable, "-m", "ragtui", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        preexec_fn=interruptible,
    )


def scenario_args(config_file: Path) -> list[str]:
    from ragtui.core.config.settings import load_config
    from ragtui.core.content.scenarios import load_scenarios

    known = [s.id for s in load_scenarios(load_config(config_file).scenarios, "en")]
    return [arg for sid in known[:3] for arg in ("-s", sid)] + PERSONAS


def rows(db: Path, sql: str) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql).fetchall()


def test_two_runs_at_once_on_one_database_lose_nothing(config_file: Path, tmp_path: Path):
    picks = scenario_args(config_file)
    first = ragtui("run", "--config", str(config_file), *picks, "--no-check")
    second = ragtui("run", "--config", str(config_file), *picks, "--no-check")
    outputs = [p.communicate(timeout=300) for p in (first, second)]
    for process, (out, err) in zip((first, second), outputs, strict=True):
        assert process.returncode == 0, out + err
        assert "locked" not in out + err
    db = tmp_path / "shared.db"
    stops = Counter(r[0] for r in rows(db, "SELECT stop_reason FROM sessions"))
    dialogues = 3 * 2 * 2  # three scenarios × two personas × two runs
    assert stops == {"max_turns": dialogues}
    assert rows(db, "SELECT COUNT(*) FROM judgments")[0][0] == dialogues * 2


def test_simultaneous_first_opens_all_succeed(tmp_path: Path):
    db = tmp_path / "fresh.db"
    code = (
        "import sys; from ragtui.core.store.store import Store; from ragtui.core.types.personas import Persona\n"
        "s = Store.open(sys.argv[1])\n"
        "s.create_session(scenario={'id': 'x', 'question': 'q'}, persona=Persona('calm', 'en', 'p'), config={},"
        " language='en', max_turns=1, threshold=0.7, metrics=['rubric'])\n"
    )
    processes = [
        subprocess.Popen([sys.executable, "-c", code, str(db)], stderr=subprocess.PIPE, text=True) for _ in range(6)
    ]
    errors = [p.communicate(timeout=120)[1] for p in processes]
    assert [p.returncode for p in processes] == [0] * 6, errors
    assert rows(db, "SELECT COUNT(*) FROM sessions")[0][0] == 6


def test_a_lock_that_outlives_the_wait_names_who_holds_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    db = tmp_path / "held.db"
    store = Store.open(db)
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
            "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.read()\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
        monkeypatch.setattr(locking, "LOCK_PATIENCE_S", 0.3)
        store._db.conn.execute("PRAGMA busy_timeout = 50")
        with pytest.raises(StoreError) as info:
            store.create_session(
                scenario={"id": "x", "question": "q"},
                persona=Persona("calm", "en", "p"),
                config={},
                language="en",
                max_turns=1,
                threshold=0.7,
                metrics=[],
            )
    finally:
        holder.communicate("", timeout=30)
        store.close()
    message = str(info.value)
    assert str(db) in message and f"pid {holder.pid}" in message and "disk space" not in message


def test_a_write_told_locked_at_once_keeps_trying_until_the_holder_lets_go(tmp_path: Path):
    """Some conflicts fail without SQLite's own wait (busy timeout 0 here stands in for them):
    the write is retried on the clock, so it lands once the other process commits."""
    db = tmp_path / "held.db"
    store = Store.open(db)
    store._db.conn.execute("PRAGMA busy_timeout = 0")
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sqlite3, sys\n"
            f"c = sqlite3.connect({str(db)!r}, isolation_level=None)\n"
            "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.readline()\n"
            "c.execute('COMMIT'); print('released', flush=True)\n",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert holder.stdout is not None and holder.stdout.readline().strip() == "locked"
    begins: list[str] = []

    def on_statement(sql: str) -> None:
        if sql.startswith("BEGIN IMMEDIATE"):
            begins.append(sql)
            if len(begins) == 6:  # the other process lets go while this one is retrying
                assert holder.stdin is not None and holder.stdout is not None
                holder.stdin.write("go\n")
                holder.stdin.flush()
                assert holder.stdout.readline().strip() == "released"

    store._db.conn.set_trace_callback(on_statement)
    try:
        session_id = store.create_session(
            scenario={"id": "x", "question": "q"},
            persona=Persona("calm", "en", "p"),
            config={},
            language="en",
            max_turns=1,
            threshold=0.7,
            metrics=[],
        )
    finally:
        store._db.conn.set_trace_callback(None)
        holder.communicate("", timeout=30)
        store.close()
    assert len(begins) == 6 and rows(db, "SELECT id FROM sessions") == [(session_id,)]


def _start_slow_run(config_file: Path, server: FakeOpenAIServer) -> subprocess.Popen[str]:
    """A run whose bot is slow enough that a signal lands mid-run, after the first dialogue."""
    server.set_default(BOT, Reply("Go to Settings > Account > Linked services.", delay_first=0.4))
    picks = scenario_args(config_file)
    process = ragtui("run", "--config", str(config_file), *picks, "--no-check", "--concurrency", "2")
    assert process.stdout is not None
    for line in process.stdout:  # one line per finished dialogue (not a terminal)
        if line.startswith("[1/"):
            return process
    raise AssertionError(process.communicate(timeout=60))


def _assert_every_dialogue_finished_once(db: Path) -> None:
    assert rows(db, "SELECT COUNT(*) FROM sessions WHERE status != 'finished'") == [(0,)]
    assert Counter(r[0] for r in rows(db, "SELECT stop_reason FROM sessions")).keys() == {"max_turns"}
    duplicated = rows(db, "SELECT session_id, turn, role, COUNT(*) FROM messages GROUP BY 1, 2, 3 HAVING COUNT(*) > 1")
    assert duplicated == []
    verdicts = rows(db, "SELECT message_id, metric, COUNT(*) FROM judgments GROUP BY 1, 2 HAVING COUNT(*) > 1")
    assert verdicts == []
    assert rows(db, "SELECT COUNT(*) FROM messages WHERE role = 'bot'") == rows(db, "SELECT COUNT(*) FROM judgments")


def test_kill_9_mid_run_then_resume_last_finishes_everything(config_file: Path, server, tmp_path: Path):
    process = _start_slow_run(config_file, server)
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=60)
    db = tmp_path / "shared.db"
    assert rows(db, "SELECT COUNT(*) FROM sessions WHERE status = 'running'")[0][0] > 0  # as the kill left them

    listing = ragtui("sessions", "--config", str(config_file))
    out, err = listing.communicate(timeout=60)
    assert listing.returncode == 0, err
    assert "interrupted" in out and "running" not in out

    server.set_default(BOT, Reply("Go to Settings > Account > Linked services."))
    resumed = ragtui("run", "--config", str(config_file), "--resume", "last", "--no-check")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, out + err
    assert "Continuing" in out
    _assert_every_dialogue_finished_once(db)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_sigterm_and_ctrl_c_cancel_print_the_table_and_how_to_continue(config_file: Path, server, tmp_path, sig):
    process = _start_slow_run(config_file, server)
    process.send_signal(sig)
    out, err = process.communicate(timeout=120)
    assert process.returncode == (143 if sig == signal.SIGTERM else 130), out + err
    assert "Traceback" not in out + err
    assert "Results" in out and "ragtui run --resume" in out
    db = tmp_path / "shared.db"
    statuses = Counter(r[0] for r in rows(db, "SELECT COALESCE(stop_reason, status) FROM sessions"))
    assert "running" not in statuses and statuses["cancelled"] > 0

    server.set_default(BOT, Reply("Go to Settings > Account > Linked services."))
    resumed = ragtui("run", "--config", str(config_file), "--resume", "last", "--no-check")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, out + err
    _assert_every_dialogue_finished_once(db)
