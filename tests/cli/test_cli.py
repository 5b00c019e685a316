"""The headless CLI: exit statuses, one-line errors, and the run → show → export path."""

from __future__ import annotations

import csv
import hashlib
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.store.schema import LATEST_VERSION
from ragtui.core.store.store import Store
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, check_answers, copy_of, endpoint_toml


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        """
language = "en"
max_turns = 2
concurrency = 3
database = "runs.db"
"""
        + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def run_cli(*args: str) -> int:
    return main(list(args))


def test_run_stores_dialogues_and_prints_the_table(config_file: Path, capsys):
    status = run_cli(
        "run", "--config", str(config_file), "-s", "id-linking", "-s", "refund-partial", "-p", "calm", "-p", "angry"
    )
    out = capsys.readouterr().out
    assert status == 0
    assert "Results" in out and "id-linking" in out and "refund-partial" in out
    assert out.count("max_turns") >= 4
    db = sqlite3.connect(config_file.parent / "runs.db")
    assert db.execute("SELECT COUNT(*) FROM sessions WHERE stop_reason = 'max_turns'").fetchone()[0] == 4
    assert db.execute("SELECT COUNT(*) FROM judgments").fetchone()[0] == 8


def test_run_exits_1_when_a_dialogue_scores_under_the_threshold(config_file: Path, server, capsys):
    server.set_default(JUDGE, check_answers(2))
    assert run_cli("run", "--config", str(config_file), "-s", "outage", "-p", "calm") == 1
    assert "0.40" in capsys.readouterr().out


def test_run_exits_1_when_nothing_could_be_scored(config_file: Path, server, capsys):
    server.set_default(JUDGE, Reply("no json here"))
    assert run_cli("run", "--config", str(config_file), "-s", "outage", "-p", "calm") == 1
    assert "unscored" in capsys.readouterr().out


def test_run_exits_2_when_a_dialogue_fails(config_file: Path, server, capsys):
    server.set_default(BOT, Reply(status=500, error_message="bot exploded"))
    assert run_cli("run", "--config", str(config_file), "-s", "outage", "-p", "calm") == 2
    captured = capsys.readouterr()
    assert "500" in captured.out and "Traceback" not in captured.out + captured.err


def test_dead_endpoint_is_one_clear_line_and_creates_nothing(tmp_path: Path, capsys, monkeypatch):
    with socket_closed_port() as port:
        monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
        status = run_cli("run", "--model", "m", "--db", str(tmp_path / "x.db"), "-s", "outage", "-p", "calm")
    err = capsys.readouterr().err
    assert status == 2
    assert err.count("\n") == 1 and f"127.0.0.1:{port}" in err and "cannot reach" in err
    db = sqlite3.connect(tmp_path / "x.db")
    assert db.execute("SELECT COUNT(*) FROM sessions").fetchone()[0] == 0


def test_unknown_persona_lists_the_known_ones(config_file: Path, capsys):
    assert run_cli("run", "--config", str(config_file), "-p", "grumpy") == 2
    err = capsys.readouterr().err
    assert "unknown persona 'grumpy'" in err and "calm" in err


def test_broken_persona_file_names_the_file(config_file: Path, tmp_path: Path, capsys):
    personas = tmp_path / "my_personas" / "en"
    personas.mkdir(parents=True)
    (personas / "calm.toml").write_text('name = "calm"\nlanguage = "en"\npersona = """unterminated\n', encoding="utf-8")
    # Top-level keys must precede the [tables] in TOML, so the setting goes first.
    config_file.write_text('personas = "my_personas"\n' + config_file.read_text(), encoding="utf-8")
    assert run_cli("run", "--config", str(config_file)) == 2
    err = capsys.readouterr().err
    assert str(personas / "calm.toml") in err and "not valid TOML" in err


def test_malformed_config_names_file_and_key(tmp_path: Path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("max_turns = 3\nthreshhold = 0.5\n", encoding="utf-8")
    assert run_cli("run", "--config", str(bad)) == 2
    err = capsys.readouterr().err
    assert str(bad) in err and "threshhold" in err


def test_missing_api_key_variable_is_named(config_file: Path, capsys):
    config_file.write_text(
        config_file.read_text().replace("max_retries = 0", 'max_retries = 0\napi_key_env = "TEAM_GATEWAY_KEY"')
    )
    assert run_cli("run", "--config", str(config_file)) == 2
    assert "TEAM_GATEWAY_KEY" in capsys.readouterr().err


def test_newer_database_is_refused_and_left_untouched(config_file: Path, tmp_path: Path, capsys):
    db_path = tmp_path / "future.db"
    conn = sqlite3.connect(db_path)
    conn.execute("CREATE TABLE sessions (id INTEGER PRIMARY KEY, note TEXT)")
    conn.execute("INSERT INTO sessions (note) VALUES ('precious')")
    conn.execute(f"PRAGMA user_version = {LATEST_VERSION + 1}")
    conn.commit()
    conn.close()
    before = hashlib.sha256(db_path.read_bytes()).hexdigest()
    assert run_cli("run", "--config", str(config_file), "--db", str(db_path)) == 2
    assert "newer" in capsys.readouterr().err
    assert hashlib.sha256(db_path.read_bytes()).hexdigest() == before


def test_unwritable_database_path_is_reported(config_file: Path, tmp_path: Path, capsys):
    blocker = tmp_path / "not_a_folder"
    blocker.write_text("x")
    assert run_cli("run", "--config", str(config_file), "--db", str(blocker / "ragtui.db")) == 2
    assert str(blocker / "ragtui.db") in capsys.readouterr().err


def test_sessions_show_and_export_after_a_run(config_file: Path, tmp_path: Path, recorded_outage: Path, capsys):
    copy_of(recorded_outage, config_file.parent / "runs.db")  # outage × calm, the bot's first answer a formula

    assert run_cli("sessions", "--config", str(config_file)) == 0
    assert "outage" in capsys.readouterr().out

    assert run_cli("show", "1", "--config", str(config_file)) == 0
    shown = capsys.readouterr().out
    assert "[bold red]not markup[/]" in shown  # shown as typed, not interpreted
    assert "overall 4" in shown
    # Each of the rubric's yes/no checks is listed once per verdict, with its P(yes).
    question = "Is the RESPONSE polite and respectful?"
    assert shown.count(question) == shown.count("rubric v1") == 2

    out_csv = tmp_path / "out.csv"
    assert run_cli("export", "--run", "last", "--csv", str(out_csv), "--config", str(config_file)) == 0
    rows = list(csv.reader(out_csv.read_text(encoding="utf-8-sig").splitlines()))
    header, row = rows[0], rows[1]
    assert header[:4] == ["config", "user1", "assistant1", "check1"]
    assert row[header.index("assistant1")].startswith("'=cmd")
    assert row[header.index("stop_reason")] == "max_turns"


def test_show_unknown_session_is_a_clear_error(config_file: Path, capsys):
    Store.open(config_file.parent / "runs.db").close()  # `show` reads a database, never makes one
    assert run_cli("show", "42", "--config", str(config_file)) == 2
    assert "no session 42" in capsys.readouterr().err


def test_config_command_never_prints_the_key(config_file: Path, monkeypatch, capsys):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-very-secret-value")
    assert run_cli("config", "--config", str(config_file)) == 0
    out = capsys.readouterr().out
    assert "sk-very-secret-value" not in out and '"key_set": true' in out


def test_no_traceback_reaches_the_terminal_from_a_real_process(tmp_path: Path):
    """A subprocess, so nothing of pytest's capture can hide a traceback."""
    bad = tmp_path / "bad.toml"
    bad.write_text("language = [", encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "ragtui", "run", "--config", str(bad)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 2
    assert "Traceback" not in result.stderr + result.stdout
    assert str(bad) in result.stderr


class socket_closed_port:
    """A port on 127.0.0.1 that nothing listens on (bound, then released)."""

    def __enter__(self) -> int:
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            return s.getsockname()[1]

    def __exit__(self, *exc: object) -> None:
        return None


def test_doctor_reports_each_role_and_that_it_answers(config_file: Path, capsys):
    assert run_cli("doctor", "--config", str(config_file)) == 0
    out = capsys.readouterr().out
    for role in ("user", "bot", "judge"):
        assert f"{role}: answers" in out
    assert "All good." in out


def test_doctor_fails_with_the_fix_for_a_dead_endpoint(tmp_path: Path, capsys, monkeypatch):
    with socket_closed_port() as port:
        monkeypatch.setenv("OPENAI_BASE_URL", f"http://127.0.0.1:{port}/v1")
        assert run_cli("doctor", "--model", "m") == 2
    out = capsys.readouterr().out
    assert "FAIL" in out and f"127.0.0.1:{port}" in out and "cannot reach" in out
