"""A run never drops a planned dialogue: its plan is stored before any dialogue starts, a kill
at any moment (of a worker or of the whole run) leaves the rest resumable, a database that
cannot be written stops the run cleanly, and `--resume` finishes exactly what was planned."""

from __future__ import annotations

import dataclasses
import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.store import store as store_module
from stand_ins.fake_openai import FakeOpenAIServer, Reply

from ..conftest import BOT, JUDGE, check_answers, endpoint_toml

SCENARIOS = ["-s", "outage", "-s", "refund-partial"]
PERSONAS = ["-p", "calm", "-p", "angry", "-p", "beginner"]
PLANNED = {(s, p) for s in ("outage", "refund-partial") for p in ("calm", "angry", "beginner")}
# Rows a dialogue of one turn leaves when it is done: its session, 2 messages, 1 verdict, the
# finish. Kill moments are drawn on this count, so each lands while there is work left.
STEPS_PER_DIALOGUE = 5


def write_config(tmp_path: Path, server: FakeOpenAIServer, concurrency: int = 2) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        f'language = "en"\nmax_turns = 1\nconcurrency = {concurrency}\ndatabase = "runs.db"\n'
        'dialogue_metrics = []\nsimulator_check = "off"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def rows(db: Path, sql: str, args: tuple = ()) -> list[tuple]:
    if not db.exists():
        return []
    conn = sqlite3.connect(db, timeout=30)
    try:
        return conn.execute(sql, args).fetchall()
    except sqlite3.OperationalError:  # a table not made yet: the process is still starting
        return []
    finally:
        conn.close()


def progress(db: Path) -> int:
    """How far the run's record has got (see STEPS_PER_DIALOGUE)."""
    found = rows(
        db,
        "SELECT (SELECT COUNT(*) FROM sessions) + (SELECT COUNT(*) FROM messages) + "
        "(SELECT COUNT(*) FROM judgments) + (SELECT COUNT(*) FROM sessions WHERE status = 'finished')",
    )
    return found[0][0] if found else 0


def spawn(*args: str) -> subprocess.Popen[str]:
    """`ragtui` in a session of its own, so the whole run (workers too) can be killed at once."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    return subprocess.Popen(
        [sys.executable, "-m", "ragtui", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,
    )


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (Linux /proc), oldest first."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if int(fields[1]) == pid and fields[0] not in ("Z", "X"):
            found.append(int(entry.name))
    return sorted(found)


def poll_until(check, what: str, deadline_s: float = 60.0):
    started = time.monotonic()
    while time.monotonic() - started < deadline_s:
        found = check()
        if found:
            return found
        time.sleep(0.01)
    raise AssertionError(f"not within {deadline_s} s: {what}")


def run_killing_a_worker(*args: str, before_kill: Callable[[], object] = lambda: None) -> tuple[int, str, str]:
    """`ragtui run --workers 2 ARGS` with its first worker SIGKILLed as soon as both exist (before
    they make their sessions), ``before_kill`` called just before; the exit status and output."""
    parent = spawn("run", "--workers", "2", *args)
    try:
        workers = poll_until(lambda: len(children(parent.pid)) == 2 and children(parent.pid), "2 workers")
        before_kill()
        os.kill(workers[0], signal.SIGKILL)
        out, err = parent.communicate(timeout=120)
    finally:
        if parent.poll() is None:
            os.killpg(parent.pid, signal.SIGKILL)
            parent.communicate()
    return parent.returncode, out, err


def kill_at_progress(process: subprocess.Popen[str], db: Path, target: int) -> bool:
    """SIGKILL the whole process group once the record reaches ``target``; False when the
    process had ended on its own first."""
    poll_until(lambda: process.poll() is not None or progress(db) >= target, f"progress {target}")
    if process.poll() is not None:
        process.communicate()
        return False
    os.killpg(process.pid, signal.SIGKILL)
    process.communicate(timeout=60)
    return True


def assert_every_planned_dialogue_finished_once(db: Path) -> None:
    sessions = rows(db, "SELECT id, scenario_id, persona_name, status, stop_reason FROM sessions")
    pairs = Counter((r[1], r[2]) for r in sessions)
    assert set(pairs) == PLANNED and set(pairs.values()) == {1}, pairs  # none lost, none twice
    assert {(r[3], r[4]) for r in sessions} == {("finished", "max_turns")}
    plan = rows(db, "SELECT scenario_id, persona_name, session_id FROM run_plan")
    assert len(plan) == len(PLANNED) and {p[2] for p in plan} == {r[0] for r in sessions}
    assert rows(db, "SELECT COUNT(*) FROM messages WHERE role = 'bot'")[0][0] == len(PLANNED)
    assert rows(db, "SELECT COUNT(*) FROM judgments")[0][0] == len(PLANNED)


@pytest.mark.slow  # real processes killed at random points, five times: the slow tier
@pytest.mark.parametrize("seed", range(5))
def test_random_kills_then_resume_finish_every_planned_dialogue_once(server, tmp_path: Path, seed: int):
    """Per seed: a `--workers 2` run whose worker is killed as soon as it exists (before it
    made its sessions), maybe the whole run killed later, then `--resume` runs killed at
    random points of their record until 4 kills are done; the last `--resume` then finishes
    every planned dialogue, each exactly once. 5 seeds: 20 kills and more."""
    rng = random.Random(seed)
    config = write_config(tmp_path, server)
    db = tmp_path / "runs.db"
    server.set_default(BOT, Reply("Go to Settings > Account.", delay_first=0.15))
    server.set_default(JUDGE, lambda body: dataclasses.replace(check_answers(4)(body), delay_first=0.01))
    total = len(PLANNED) * STEPS_PER_DIALOGUE
    kills_wanted = 4

    parent = spawn("run", "--config", str(config), "--workers", "2", "--no-check", *SCENARIOS, *PERSONAS)
    try:
        workers = poll_until(lambda: len(children(parent.pid)) == 2 and children(parent.pid), "2 workers")
        assert rows(db, "SELECT COUNT(*) FROM run_plan")[0][0] == len(PLANNED)  # stored before they start
        os.kill(workers[rng.randrange(2)], signal.SIGKILL)
        kills = 1
        if rng.random() < 0.5:  # the whole run too, at a random point of what is left
            kills += kill_at_progress(parent, db, progress(db) + rng.randint(0, total // 2))
        else:
            out, err = parent.communicate(timeout=120)
            assert parent.returncode == 2, out + err
            assert re.findall(r"^exit (\d+):", out, re.MULTILINE)[-1] == "2"
            assert "missing" in out and "Continue with: ragtui run --resume" in out
    finally:
        if parent.poll() is None:
            os.killpg(parent.pid, signal.SIGKILL)
            parent.communicate()

    while kills < kills_wanted:
        done = progress(db)
        left = total - done - 2  # the last writes come back to back: stop short of them
        assert left >= 0, f"seed {seed}: the run finished before {kills_wanted} kills"
        # Spread over the kills still to do, so each one finds work left to interrupt.
        target = done + rng.randint(0, left // (kills_wanted - kills + 1))
        resumed = spawn("run", "--config", str(config), "--resume", "last", "--no-check")
        try:
            kills += kill_at_progress(resumed, db, target)
        finally:
            if resumed.poll() is None:
                os.killpg(resumed.pid, signal.SIGKILL)
                resumed.communicate()

    server.set_default(BOT, Reply("Go to Settings > Account."))
    server.set_default(JUDGE, check_answers(4))
    final = spawn("run", "--config", str(config), "--resume", "last", "--no-check")
    out, err = final.communicate(timeout=300)
    assert final.returncode == 0, out + err
    assert f"planned {len(PLANNED)}, finished {len(PLANNED)}, missing 0" in out
    assert_every_planned_dialogue_finished_once(db)


def test_disk_full_stops_the_run_says_so_once_and_resume_finishes(
    server, tmp_path: Path, capsys, monkeypatch: pytest.MonkeyPatch
):
    """Every write after the 6th fails as a full disk does (the plan, 4 sessions, the first
    customer message went in): the run starts no other dialogue, says so in one line naming
    the database, shows every unfinished dialogue as interrupted (none "running"), exits 2 as
    its last line says; `--resume` later finishes all of them."""
    config = write_config(tmp_path, server, concurrency=1)
    db = tmp_path / "runs.db"
    real = store_module.in_write_transaction
    writes = []

    def full_disk(conn, fn, **kwargs):
        writes.append(fn)
        if len(writes) > 6:
            raise sqlite3.OperationalError("database or disk is full")
        return real(conn, fn, **kwargs)

    monkeypatch.setattr(store_module, "in_write_transaction", full_disk)
    picks = ["-s", "outage", "-s", "refund-partial", "-p", "calm", "-p", "angry"]
    assert main(["run", "--config", str(config), *picks]) == 2
    out, err = capsys.readouterr()
    assert len(server.chat_requests(BOT)) == 1  # the dialogue that met the full disk; no other started
    full = [line for line in (out + err).splitlines() if "disk is full" in line]
    assert len(full) == 1 and str(db) in full[0] and "Stopped starting dialogues" in full[0], out + err
    table = [line for line in out.splitlines() if "outage" in line or "refund-partial" in line]
    assert len(table) == 4 and all("interrupted" in line for line in table), out
    assert "running" not in out
    assert re.findall(r"^exit (\d+):", out, re.MULTILINE) == ["2"]
    assert "Continue with: ragtui run --resume" in out

    monkeypatch.setattr(store_module, "in_write_transaction", real)
    assert main(["run", "--config", str(config), "--resume", "last"]) == 0
    out = capsys.readouterr().out
    assert "Continuing 4 dialogue(s)" in out and "planned 4, finished 4, missing 0" in out
    sessions = rows(db, "SELECT scenario_id, persona_name, status, stop_reason FROM sessions")
    assert len(sessions) == 4 and {(r[2], r[3]) for r in sessions} == {("finished", "max_turns")}
    assert len(set(sessions)) == 4


def test_a_plan_that_could_not_be_started_at_all_is_resumed(server, tmp_path: Path, capsys, monkeypatch):
    """The disk fills while the sessions are being made: the plan is stored, the rest never
    started; `--resume last` finds the run by its plan and starts every missing dialogue."""
    config = write_config(tmp_path, server)
    real = store_module.in_write_transaction
    writes = []

    def full_disk(conn, fn, **kwargs):
        writes.append(fn)
        if len(writes) > 2:  # the plan and one session
            raise sqlite3.OperationalError("database or disk is full")
        return real(conn, fn, **kwargs)

    monkeypatch.setattr(store_module, "in_write_transaction", full_disk)
    assert main(["run", "--config", str(config), *SCENARIOS, *PERSONAS]) == 2
    out = capsys.readouterr().out
    assert "missing 6 (5 never started)" in out and server.chat_requests(BOT) == []
    monkeypatch.setattr(store_module, "in_write_transaction", real)
    assert main(["run", "--config", str(config), "--resume", "last"]) == 0
    assert_every_planned_dialogue_finished_once(tmp_path / "runs.db")


def test_resume_uses_the_recorded_models_when_the_server_lists_several(server, tmp_path: Path, capsys):
    """A run made with `--model shared` against a server listing several models, stopped, then
    continued with `--resume` alone: it goes on with the model its sessions recorded."""
    config = tmp_path / "ragtui.toml"
    config.write_text(
        f'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\ndialogue_metrics = []\n'
        f'[endpoint]\nbase_url = "{server.base_url}"\nmax_retries = 0\ntimeout = 10\n',
        encoding="utf-8",
    )
    server.set_default("shared", Reply(hang=True))
    run = spawn("run", "--config", str(config), "--model", "shared", *SCENARIOS, "-p", "calm")
    try:
        db = tmp_path / "runs.db"
        poll_until(lambda: server.chat_requests("shared"), "a request to the model")
        os.killpg(run.pid, signal.SIGTERM)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()
    assert run.returncode == 143, out + err
    assert len(server._model_ids()) > 1  # without a model named, the server leaves the choice open

    # One model for every role: the judge's yes/no checks ask for logprobs, the others do not.
    server.set_default(
        "shared", lambda body: check_answers(4)(body) if body.get("logprobs") else Reply("See Settings.")
    )
    before = len(server.chat_requests())
    assert main(["run", "--config", str(config), "--resume", "last", "--no-check"]) == 0, capsys.readouterr()
    out = capsys.readouterr().out
    assert "Continuing 2 dialogue(s)" in out
    after = server.chat_requests()[before:]
    assert after and {body["model"] for body in after} == {"shared"}
    assert {r[0] for r in rows(db, "SELECT stop_reason FROM sessions")} == {"max_turns"}


def test_the_exit_line_and_the_exit_status_agree_when_a_worker_dies(server, tmp_path: Path):
    """A worker killed as soon as it starts, the other's dialogues under the threshold (a
    fail, exit 1, on their own): the run is incomplete, exits 2, and its last line says exit 2."""
    config = write_config(tmp_path, server)
    server.set_default(BOT, Reply("Go to Settings > Account.", delay_first=0.1))
    server.set_default(JUDGE, check_answers(2))
    code, out, err = run_killing_a_worker("--config", str(config), "--no-check", *SCENARIOS, *PERSONAS)
    assert code == 2, out + err
    assert re.findall(r"^exit (\d+):", out, re.MULTILINE) == ["2"], out
    assert "worker 0 exited with status -9" in out


def test_a_run_from_before_plans_resumes_from_its_sessions(server, tmp_path: Path, capsys):
    """A database whose run has no stored plan (made by an older ragtui, schema 9) still opens,
    and `--resume` continues the run's sessions as it always did."""
    config = write_config(tmp_path, server)
    server.set_default(BOT, Reply(hang=True))
    run = spawn("run", "--config", str(config), "--no-check", "-s", "outage", "-p", "calm", "-p", "angry")
    db = tmp_path / "runs.db"
    try:
        poll_until(lambda: len(server.chat_requests(BOT)) == 2, "both dialogues at the bot")
        os.killpg(run.pid, signal.SIGKILL)
        run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            os.killpg(run.pid, signal.SIGKILL)
            run.communicate()
    with sqlite3.connect(db) as conn:  # back to how an older ragtui left it
        conn.execute("DROP TABLE run_plan")
        conn.execute("PRAGMA user_version = 10")
    server.set_default(BOT, Reply("Go to Settings > Account."))
    assert main(["run", "--config", str(config), "--resume", "last", "--no-check"]) == 0
    out = capsys.readouterr().out
    assert "Continuing 2 dialogue(s)" in out and "planned" not in out
    assert {(r[0], r[1]) for r in rows(db, "SELECT status, stop_reason FROM sessions")} == {("finished", "max_turns")}
    assert rows(db, "SELECT COUNT(*) FROM run_plan") == [(0,)]  # migrated again: the table is back, empty


def test_a_pair_named_twice_is_planned_as_two_trials(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server)
    assert main(["run", "--config", str(config), "-s", "outage", "-s", "outage", "-p", "calm"]) == 0
    assert "planned 2, finished 2, missing 0" in capsys.readouterr().out
    plan = rows(tmp_path / "runs.db", "SELECT scenario_id, persona_name, trial, session_id FROM run_plan")
    assert [p[:3] for p in plan] == [("outage", "calm", 1), ("outage", "calm", 2)] and plan[0][3] != plan[1][3]
