"""The CLI at its edges: read-only databases and folders, flags out of range, a closed stdout,
broken persona files, huge estimates, and output that must not depend on the terminal width."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

import ragtui
from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.cli.run_progress import RunProgress, _Active
from ragtui.core.config.settings import Config
from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios, pick_scenarios
from ragtui.core.dialogue import estimate as estimate_module
from ragtui.core.dialogue.events import DialogueStarted, MessageDone, TextDelta
from ragtui.core.dialogue.progress import StepMeter
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.store import Store
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.personas import Persona

from ..conftest import endpoint_toml
from ..dialogue.test_run_progress import Clock, feed_turn

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 2\nconcurrency = 2\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def ragtui_process(*args: str, env: dict[str, str] | None = None, prefix: tuple[str, ...] = ()) -> list[str]:
    return [*prefix, sys.executable, "-m", "ragtui", *args]


def child_env(**extra: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(ragtui.__file__).parent.parent) + os.pathsep + env.get("PYTHONPATH", "")
    env.update(extra)
    return env


def make_db(path: Path, runs: tuple[str, ...] = ("run-a",)) -> None:
    store = Store.open(path)
    for run_id in runs:
        sid = store.create_session(
            scenario={"id": "outage", "question": "Is it down?"},
            persona=Persona("calm", "en", "p"),
            config={},
            language="en",
            max_turns=2,
            threshold=0.7,
            metrics=["rubric"],
            run_id=run_id,
        )
        store.add_message(sid, 1, "user", "scenario", "Is it down?")
        store.finish(sid, "rubric", "done")
    store.close()


def without_write_access() -> tuple[str, ...]:
    """A command prefix under which folder permissions hold: nothing for a normal user; for
    root (who may write anywhere) a user namespace of its own, where it is nobody."""
    if os.geteuid() != 0:
        return ()
    unshare = shutil.which("unshare")
    if unshare is None or subprocess.run([unshare, "--user", "true"], capture_output=True).returncode != 0:
        pytest.skip("running as root without user namespaces: a read-only folder cannot be made")
    return (unshare, "--user")


# -- item: read-only folders ---------------------------------------------------------------


READ_COMMANDS = """
import json, sys
from ragtui.cli import output
from ragtui.cli.main import main
results = []
for args in json.loads(sys.argv[1]):
    try:
        status = main(args)
    except SystemExit as exc:
        status = exc.code
    results.append(status)
print(json.dumps(results))
"""


@pytest.mark.parametrize("writer_open", [False, True], ids=["closed", "writer-open"])
def test_a_database_in_a_read_only_folder_can_be_read(tmp_path: Path, writer_open: bool):
    """One process without write access to the folder (for root: a user namespace, where it is
    nobody) runs every reading command, each as ``ragtui`` would; stderr is seen per command."""
    folder = tmp_path / "readonly"
    folder.mkdir()
    db = folder / "ragtui.db"
    make_db(db, ("run-a", "run-b"))
    holder = Store.open(db) if writer_open else None  # its -wal and -shm files stay
    before = sorted(p.name for p in folder.iterdir())
    prefix = without_write_access()
    folder.chmod(0o555)
    out_csv = tmp_path / "out.csv"
    commands = [
        [*args, "--db", str(db)]
        for args in (
            ["sessions"],
            ["show", "1"],
            ["runs"],
            ["compare", "run-a", "run-b"],
            ["labels", "list"],
            ["export", "1", "--csv", str(out_csv)],
            ["run", "--estimate", "--model", "m", "-s", "outage", "-p", "calm"],
        )
    ]
    try:
        result = subprocess.run(
            [*prefix, sys.executable, "-c", READ_COMMANDS, json.dumps(commands)],
            capture_output=True,
            text=True,
            timeout=120,
            env=child_env(),
        )
    finally:
        folder.chmod(0o755)
        if holder is not None:
            holder.close()
    assert result.returncode == 0, result.stderr
    statuses = json.loads(result.stdout.strip().splitlines()[-1])
    for args, status in zip(commands, statuses, strict=True):
        assert status in (0, 1), (args, result.stderr)  # compare: 1 = a regression
    assert "readonly" not in result.stderr and "error" not in result.stderr, result.stderr
    assert "outage" in out_csv.read_text(encoding="utf-8-sig")
    if not writer_open:
        assert sorted(p.name for p in folder.iterdir()) == before


# -- item: read-only commands create nothing ------------------------------------------------


@pytest.mark.parametrize(
    "command",
    [["sessions"], ["show", "1"], ["runs"], ["compare", "a", "b"], ["labels", "list"], ["export", "1", "--csv", "x"]],
)
def test_a_read_only_command_on_a_missing_database_creates_nothing(tmp_path: Path, capsys, command: list[str]):
    for db in (tmp_path / "typo.db", tmp_path / "no" / "such" / "dir" / "x.db"):
        assert main([*command, "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and f"no ragtui database at {db}" in err
        assert not db.exists() and not (tmp_path / "no").exists()


def test_sessions_refuses_a_limit_under_one(tmp_path: Path, capsys):
    db = tmp_path / "r.db"
    make_db(db)
    for value in ("0", "-3"):
        assert main(["sessions", "-n", value, "--db", str(db)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "-n/--limit must be 1 or more" in err
    assert main(["sessions", "-n", "1", "--db", str(db)]) == 0
    assert "outage" in capsys.readouterr().out


# -- item: numbers out of range --------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["show", "99999999999999999999999"], "session id must be from 1 to"),
        (["export", "99999999999999999999999", "--csv", "x.csv"], "session id must be from 1 to"),
        (["label", "99999999999999999999999", "1", "--score", "3"], "session id must be from 1 to"),
        (["serve-bot", "--port", "99999"], "--port must be from 0 to 65535, got 99999"),
        (["run", "--workers", "0", "--model", "m", "--no-check"], "--workers must be at least 1, got 0"),
        # Ceilings (their range is in --help): past them a count is a typo, not a plan.
        (["run", "--workers", "100000", "--model", "m", "--no-check"], "--workers must be at most 64, got 100000"),
        (
            ["run", "--max-turns", "1234567890123456789012345678901", "--model", "m", "--no-check"],
            "--max-turns must be at most 100, got 1.23457e+30 — set 100 or fewer",
        ),
        (["run", "--max-turns", "101", "--estimate", "--model", "m"], "--max-turns must be at most 100, got 101"),
        (
            ["run", "--concurrency", "1234567890123456789012345678901", "--model", "m", "--no-check"],
            "--concurrency must be at most 256, got 1.23457e+30 — set 256 or fewer",
        ),
    ],
)
def test_out_of_range_numbers_are_one_clear_line(tmp_path: Path, capsys, args: list[str], words: str):
    db = tmp_path / "r.db"
    make_db(db)
    assert main([*args, "--db", str(db)] if args[0] != "serve-bot" else args) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and words in err and "unexpected" not in err


# -- item: --estimate ------------------------------------------------------------------------


def test_estimate_of_the_most_turns_answers(tmp_path: Path):
    config = tmp_path / "c.toml"
    config.write_text('language = "en"\nmax_turns = 100\n', encoding="utf-8")
    result = subprocess.run(
        ragtui_process("run", "--estimate", "--config", str(config), "--model", "m", "-s", "outage", "-p", "calm"),
        capture_output=True,
        text=True,
        timeout=120,  # the turns past WALKED_TURNS are a closed sum, not walked one by one
        env=child_env(),
    )
    assert result.returncode == 0, result.stderr
    assert "100.0 turn(s) each" in result.stdout
    config.write_text('language = "en"\nmax_turns = 999999999\n', encoding="utf-8")
    assert main(["run", "--estimate", "--config", str(config), "--model", "m", "-s", "outage", "-p", "calm"]) == 2


def test_estimate_past_the_walked_turns_matches_walking_them_all(monkeypatch: pytest.MonkeyPatch):
    config = Config(language="en", max_turns=estimate_module.WALKED_TURNS + 5)
    endpoints = resolve_endpoints(config, "m")
    scenarios = [s for s in load_scenarios(config.scenarios, "en") if s.id == "outage"]
    personas = [p for p in load_personas(config.personas, "en") if p.name == "calm"]
    counted = estimate_module.estimate_run(config, endpoints, scenarios, personas, None, ["rubric"])
    monkeypatch.setattr(estimate_module, "WALKED_TURNS", 1000)
    walked = estimate_module.estimate_run(config, endpoints, scenarios, personas, None, ["rubric"])
    for a, b in zip(counted.roles, walked.roles, strict=True):
        assert (a.calls, round(a.tokens_out)) == (b.calls, round(b.tokens_out))
        assert abs(a.tokens_in - b.tokens_in) <= 0.01 * b.tokens_in


@pytest.mark.parametrize("flag", ["--resume", "--replay"])
def test_estimate_refuses_resume_and_replay(capsys, flag: str):
    assert main(["run", "--estimate", flag, "last", "--model", "m"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"cannot estimate {flag}" in err


# -- item: a broken persona or scenario ------------------------------------------------------


def test_a_broken_persona_file_is_skipped_unless_asked_for(config_file: Path, tmp_path: Path, capsys):
    folder = tmp_path / "my_personas" / "en"
    folder.mkdir(parents=True)
    shutil.copy(REPO / "personas" / "en" / "calm.toml", folder / "calm.toml")
    broken = folder / "angry.toml"
    broken.write_text('name = "angry"\nlanguage = "en"\npersona = """half-writ', encoding="utf-8")
    config_file.write_text('personas = "my_personas"\n' + config_file.read_text(), encoding="utf-8")

    assert main(["run", "--config", str(config_file), "-s", "outage"]) == 0
    captured = capsys.readouterr()
    warnings = [line for line in captured.err.splitlines() if "warning" in line]
    assert len(warnings) == 1 and str(broken) in warnings[0] and "not valid TOML" in warnings[0]
    db = sqlite3.connect(tmp_path / "runs.db")
    assert db.execute("SELECT persona_name FROM sessions").fetchall() == [("calm",)]

    assert main(["run", "--config", str(config_file), "-s", "outage", "-p", "angry"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err and str(broken) in err


def test_a_broken_scenario_entry_is_skipped_unless_asked_for(tmp_path: Path):
    from ragtui.core.content.picking import Skipped

    path = tmp_path / "en.toml"
    path.write_text(
        '[[scenario]]\nid = "fine"\nquestion = "Where is my order?"\n\n[[scenario]]\nid = "half"\n',
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match="scenario 'half': missing key 'question'"):
        load_scenarios(path, "en")  # without a list to note them in, the first problem raises
    skipped: list[Skipped] = []
    scenarios = load_scenarios(path, "en", skipped)
    assert [s.id for s in scenarios] == ["fine"] and [s.name for s in skipped] == ["half"]
    assert str(path) in str(skipped[0].error)
    assert [s.id for s in pick_scenarios(scenarios, [], skipped)] == ["fine"]
    with pytest.raises(ConfigError, match="scenario 'half': missing key 'question'"):
        pick_scenarios(scenarios, ["half"], skipped)


# -- item: a closed stdout -------------------------------------------------------------------


def test_a_closed_stdout_ends_quietly_and_keeps_the_record(config_file: Path, tmp_path: Path):
    child = subprocess.Popen(
        ragtui_process("run", "--config", str(config_file), "-s", "outage", "-s", "refund-partial", "-p", "calm"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=child_env(),
    )
    assert child.stdout is not None and child.stderr is not None
    for _ in range(6):  # like `| head -6`: read a few lines (the run has started), then go away
        child.stdout.readline()
    child.stdout.close()
    err = child.stderr.read().decode()
    assert child.wait(timeout=120) == 141, err
    assert "unexpected" not in err and "Traceback" not in err and "Exception ignored" not in err
    db = sqlite3.connect(tmp_path / "runs.db")
    states = db.execute("SELECT status, stop_reason, error FROM sessions").fetchall()
    # Every dialogue is finished or recorded as cancelled (resumable): none left open, none failed.
    assert states and all(status == "finished" and reason != "error" and not error for status, reason, error in states)


# -- item: commands to copy are never wrapped ------------------------------------------------


def test_the_resume_command_is_one_line_at_any_width(tmp_path: Path, capsys):
    from ragtui.cli.run_command import _report
    from ragtui.core.runs.gate import GateResult

    db = tmp_path / ("a-rather-long-folder-name-" * 3) / "ragtui.db"
    store = Store.open(db)
    sid = store.create_session(
        scenario={"id": "outage", "question": "Is it down?"},
        persona=Persona("calm", "en", "p"),
        config={},
        language="en",
        max_turns=2,
        threshold=0.7,
        metrics=["rubric"],
        run_id="run-x",
    )
    store.finish(sid, "rubric", "cancelled")
    assert _report(store, Config(language="en"), "run-x", store.run_sessions("run-x"), GateResult(0), True, []) == 130
    out = capsys.readouterr().out
    assert f"ragtui run --resume run-x --db {db}\n" in out


def test_the_run_summary_does_not_depend_on_columns(config_file: Path, monkeypatch: pytest.MonkeyPatch, capsys):
    for columns in (100, 120):
        monkeypatch.setattr(output.console, "_width", columns)  # the width Rich took from COLUMNS
        assert main(["run", "--config", str(config_file), "-s", "outage", "-p", "calm"]) == 0
        out = capsys.readouterr().out
        summary = [line for line in out.splitlines() if line.startswith("run ")]
        assert len(summary) == 1 and summary[0].endswith(str(config_file.parent / "runs.db")), out


# -- item: the ETA once the estimate has run out ---------------------------------------------


def test_the_eta_says_finishing_once_the_estimate_has_run_out():
    from ragtui.cli.run_progress import ETA_OVERDUE

    clock = Clock()
    progress = RunProgress(1, 2, 0.7, {7: "outage × calm"}, live_mode=False)
    progress.meter = meter = StepMeter(clock=clock)
    meter.observe(DialogueStarted(7, "outage", "calm"))
    progress.active[7] = _Active("outage × calm")
    feed_turn(meter, clock, 7, 1, bot_tokens=5)
    for _ in range(3):  # turn 2: the customer, then the bot; the judge is still working
        clock.now += 0.5
        meter.observe(TextDelta(7, 2, "user", "x"))
    meter.observe(MessageDone(7, 2, "user", "xxx", 1, "simulator"))
    clock.now += 1.0
    meter.observe(TextDelta(7, 2, "bot", "y"))
    meter.observe(MessageDone(7, 2, "bot", "yyy", 2, "bot"))
    assert progress.eta_text().startswith("ETA ≤ ")  # the judge's measured time is still ahead
    clock.now += 60.0  # the judge takes far longer than it did before
    assert progress.eta_text() == "ETA ≤ 1 s"  # the estimate has just run out
    clock.now += 2.0  # and the work goes on
    text = progress.eta_text()
    assert text == ETA_OVERDUE and "0 s" not in text
