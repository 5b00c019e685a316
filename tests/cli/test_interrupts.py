"""Waits that end: `ragtui doctor` gives each endpoint a bounded time, and Ctrl-C ends `run`,
a repeated run and `doctor` as one line (exit 130, "ragtui: interrupted"), keeping what was
recorded. The interrupts are real SIGINTs sent to real processes, once the fake server shows
the process is waiting on it."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ragtui.cli.main import main
from stand_ins.fake_openai import FakeOpenAIServer, Reply

from ..conftest import BOT, JUDGE, USER, endpoint_toml, interruptible
from .test_cli_robustness import child_env


@pytest.fixture
def config_file(server: FakeOpenAIServer, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 1\nconcurrency = 2\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def ragtui(*args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "ragtui", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=child_env(),
        preexec_fn=interruptible,
    )


def interrupt(process: subprocess.Popen[str], server: FakeOpenAIServer, stalls: int) -> tuple[str, str]:
    """Ctrl-C once ``stalls`` replies are stalled (the process waits on the server); its output."""
    try:
        if not server.wait_for_stalls(stalls, timeout=60):
            process.kill()
            raise AssertionError(f"no {stalls} stalled replies within 60 s: {process.communicate(timeout=30)}")
        process.send_signal(signal.SIGINT)
        return process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            process.kill()


def test_doctor_waits_a_bounded_time_for_an_endpoint_that_never_answers(config_file: Path, server, capsys):
    """A server that takes the request and never replies: each endpoint and the bot fail after
    --timeout seconds, saying so, instead of waiting on the endpoint's own timeouts."""
    for model in (USER, BOT, JUDGE):
        server.set_default(model, Reply(hang=True))
    assert main(["doctor", "--config", str(config_file), "--timeout", "0.5"]) == 2
    out = capsys.readouterr().out
    flat = " ".join(out.split())  # the table wraps its cells
    for role, model in (("user", USER), ("bot", BOT), ("judge", JUDGE)):
        assert (
            f"the {role} endpoint {server.base_url} ({model}) did not answer within 0.5 s "
            "(ragtui doctor --timeout SECONDS waits longer)"
        ) in flat, out
    assert "error: the bot under test did not answer within 0.5 s" in flat, out
    assert "Something needs fixing" in out


@pytest.mark.parametrize("value", ["0", "-1", "601", "nan"])
def test_doctor_refuses_a_timeout_out_of_range(value: str, capsys):
    assert main(["doctor", "--timeout", value]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--timeout must be over 0 and at most 600 seconds" in err


def test_ctrl_c_ends_doctor_in_one_line(config_file: Path, server):
    server.set_default(USER, Reply(stall_after_chunks=0))
    process = ragtui("doctor", "--config", str(config_file))
    out, err = interrupt(process, server, stalls=1)
    assert process.returncode == 130, out + err
    assert err == "ragtui: interrupted\n", err


def test_ctrl_c_ends_a_repeated_run_and_keeps_its_plan(config_file: Path, server, tmp_path: Path):
    """`--repeat 30 --yes`: the whole plan is stored first; Ctrl-C while two dialogues wait on the
    bot records them as cancelled, keeps every planned trial, and says how to continue."""
    server.set_default(BOT, Reply(stall_after_chunks=0))
    process = ragtui("run", "--config", str(config_file), "-s", "outage", "-p", "calm", "--repeat", "30", "--yes")
    out, err = interrupt(process, server, stalls=2)
    assert process.returncode == 130, out + err
    assert "Traceback" not in err and err.rstrip().endswith("ragtui: interrupted"), err
    assert "Continue with: ragtui run --resume" in out
    db = sqlite3.connect(tmp_path / "runs.db")
    try:
        assert db.execute("SELECT COUNT(*), MAX(trial) FROM run_plan").fetchone() == (30, 30)
        states = db.execute("SELECT status, stop_reason FROM sessions").fetchall()
    finally:
        db.close()
    assert len(states) >= 2 and all(state == ("finished", "cancelled") for state in states), states


# Ctrl-C lands wherever Python is: while `ragtui` still imports the command line, or the modules
# of the command it runs. Raised there by an import hook (as the SIGINT handler raises it), so the
# moment is exact rather than a race.
INTERRUPTED_IMPORT = """
import sys

class Interrupt:
    def find_spec(self, name, path=None, target=None):
        if name == sys.argv[1]:
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
from ragtui.cli import main
sys.exit(main(sys.argv[2:]))
"""


@pytest.mark.parametrize("module", ["ragtui.cli.main", "ragtui.core.runs.bootstrap", "ragtui.cli.doctor"])
def test_ctrl_c_while_ragtui_starts_is_one_line(module: str, config_file: Path):
    result = subprocess.run(
        [sys.executable, "-c", INTERRUPTED_IMPORT, module, "doctor", "--config", str(config_file)],
        capture_output=True,
        text=True,
        timeout=120,
        env=child_env(),
    )
    assert result.returncode == 130, result.stderr
    assert result.stderr == "ragtui: interrupted\n"
