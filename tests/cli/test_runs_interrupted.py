"""`ragtui runs` counts the dialogues of a killed run that never finished — killed mid-dialogue or
planned and never started — as interrupted, never as unscored ("unsc 10"); a run still going has
none."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.runs.listing import list_runs
from ragtui.core.store import run_plan
from ragtui.core.store.run_plan import PlannedPair
from ragtui.core.store.store import Store
from ragtui.core.types.personas import Persona
from stand_ins.fake_openai import Reply

from ..conftest import BOT, endpoint_toml
from .test_cli_robustness import child_env
from .test_run_workers import wait_for_running_owners


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 200)
    monkeypatch.setattr(output.console, "_force_terminal", True)  # the boxed table, its heads parsed below


def runs_row(out: str, run_id: str) -> dict[str, str]:
    """`ragtui runs`' row of ``run_id`` by its column heads."""
    lines = out.splitlines()
    head = next(line for line in lines if "unsc" in line)
    row = next(line for line in lines if run_id in line)
    names = [c.strip() for c in head.strip().split("┃")[1:-1]]
    cells = [c.strip() for c in row.strip().split("│")[1:-1]]
    return dict(zip(names, cells, strict=True))


def test_a_killed_runs_dialogues_read_as_interrupted_not_unscored(server, tmp_path: Path, capsys):
    config = tmp_path / "ragtui.toml"
    config.write_text(
        'language = "en"\nmax_turns = 1\nconcurrency = 1\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    server.set_default(BOT, Reply(hang=True))  # the first dialogue waits on the bot; the rest never start
    picks = ["-s", "outage", "-s", "refund-partial", "-p", "calm", "-p", "angry"]
    command = [sys.executable, "-m", "ragtui", "run", "--config", str(config), *picks]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=child_env())
    try:
        (pid,) = wait_for_running_owners(tmp_path / "runs.db", count=1)
        os.kill(pid, signal.SIGKILL)
        process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
    assert main(["runs", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    store = Store.open(tmp_path / "runs.db")
    try:
        (run_id,) = store.run_ids()
        row = runs_row(out, run_id)
        assert (row["n"], row["unsc"], row.get("int.")) == ("4", "0", "4"), out  # was: unsc 4, no int.
        (summary,) = list_runs(store)
        assert (summary.dialogues, summary.unscored, summary.interrupted) == (4, 0, 4)
    finally:
        store.close()
    assert "int.: did not finish and no process runs it" in " ".join(out.split())


def dead_pid() -> int:
    """The pid of a process that has exited (and been reaped)."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def planned_run(store: Store, owner_pid: int) -> str:
    """A run of three planned dialogues of which only the first got a session (run by
    ``owner_pid``), as when the process running it is killed before the others start."""
    pairs = [PlannedPair({"id": s, "question": f"{s}?", "language": "en"}, Persona("calm", "en", "p"))
             for s in ("a", "b", "c")]  # fmt: skip
    run_plan.store_plan(store, "r", pairs, max_turns=1, threshold=0.7, metrics=["rubric"], models={})
    first = run_plan.entries(store, "r")[0]
    sid = store.create_session(
        scenario=first.scenario, persona=first.persona, config={}, language="en", max_turns=1,
        threshold=0.7, metrics=["rubric"], run_id="r", plan_entry=first.id,
    )  # fmt: skip
    store.write(
        "own it", lambda: store._db.conn.execute("UPDATE sessions SET owner_pid = ? WHERE id = ?", [owner_pid, sid])
    )
    return "r"


def test_planned_dialogues_that_never_started_are_interrupted_once_nobody_runs_the_run(tmp_path: Path):
    store = Store.open(tmp_path / "killed.db")
    try:
        planned_run(store, dead_pid())
        (summary,) = list_runs(store)
        assert (summary.dialogues, summary.unscored, summary.interrupted) == (3, 0, 3)
    finally:
        store.close()
    # The same plan while its process still runs it: nothing is interrupted, nothing unscored.
    store = Store.open(tmp_path / "going.db")
    try:
        planned_run(store, os.getpid())
        (summary,) = list_runs(store)
        assert (summary.dialogues, summary.unscored, summary.interrupted) == (3, 0, 0)
    finally:
        store.close()
