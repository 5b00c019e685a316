"""The record is shown safely and never destroyed: terminal-safe `show`/`doctor`/`sessions`,
control-free CSV cells, export that refuses to overwrite a database, ids never reused, key-like
`api_key_env` refused unprinted, top-level flags honoured, `--metric` gating the exit status."""

from __future__ import annotations

import contextlib
import csv
import hashlib
import io
import sqlite3
from pathlib import Path

import pytest
from rich.text import Text

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.cli.output import SafeConsole
from ragtui.cli.transcript_view import verdict_border
from ragtui.core.config.settings import load_config
from ragtui.core.store import schema
from ragtui.core.store.store import Store
from ragtui.core.text.text_safety import csv_text, visible
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.personas import Persona
from stand_ins.fake_openai import Reply, level_reply

from ..conftest import BOT, JUDGE, check_answers, endpoint_toml

HOSTILE = "Open \x1b]0;pwned\x07Settings\x1b[2J, then \x9b31mAccount\x1b[0m.\rdone"


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables wide enough that no cell is cut to fit."""
    monkeypatch.setattr(output.console, "_width", 220)


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url), encoding="utf-8"
    )
    return path


def cli(*args: str) -> int:
    return main(list(args))


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# -- terminal-safe output -------------------------------------------------------------------


def test_visible_draws_every_control():
    assert visible("a\x1b[31mb\x07\x9b2J\u202e\tc\nd") == "a␛[31mb␇␛[2J<U+202E>\tc\nd"
    assert csv_text("x\ry\x00") == "x\ny␀"


def test_safe_console_never_sends_a_control_of_the_text():
    out = io.StringIO()
    SafeConsole(file=out, force_terminal=True, width=120).print(Text(HOSTILE, style="bold red"))
    shown = out.getvalue()
    assert "␛]0;pwned" in shown and "␛[2J" in shown and "\x9b" not in shown and "\x07" not in shown
    # Rich's own styling still reaches the terminal; the text's escapes never do.
    assert "\x1b[1;31m" in shown
    assert "\x1b]0;" not in shown and "\x1b[2J" not in shown


def test_show_of_a_reply_with_escape_sequences_prints_no_escape(config_file: Path, server, tmp_path: Path, capsys):
    server.script(BOT, Reply(HOSTILE))
    cli("run", "--config", str(config_file), "-s", "id-linking", "-p", "calm")
    capsys.readouterr()
    assert cli("show", "1", "--config", str(config_file)) == 0
    assert cli("sessions", "--config", str(config_file)) == 0
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x9b" not in out and "\x07" not in out
    assert "␛]0;pwned" in out
    # The database keeps what the bot really sent.
    raw = sqlite3.connect(tmp_path / "runs.db").execute("SELECT text FROM messages WHERE role = 'bot'").fetchone()[0]
    assert raw == HOSTILE


def test_doctor_prints_no_escape_of_a_reply(config_file: Path, server, capsys):
    server.set_default(BOT, Reply("\x1b]0;pwned\x07OK"))
    cli("doctor", "--config", str(config_file))
    out = capsys.readouterr().out
    assert "\x1b" not in out and "␛]0;pwned" in out


def test_csv_cells_carry_no_controls_but_tab_and_newline(config_file: Path, server, tmp_path: Path, capsys):
    server.script(BOT, Reply(HOSTILE + "\tand a tab\nand a line"))
    cli("run", "--config", str(config_file), "-s", "id-linking", "-p", "calm")
    out = tmp_path / "out.csv"
    assert cli("export", "1", "--config", str(config_file), "--csv", str(out)) == 0
    text = out.read_text(encoding="utf-8-sig")
    cells = [cell for row in csv.reader(io.StringIO(text, newline="")) for cell in row]
    controls = {ch for cell in cells for ch in cell if (ord(ch) < 32 and ch not in "\t\n") or 0x7F <= ord(ch) <= 0x9F}
    assert controls == set()
    assert any("␛]0;pwned" in cell and "\tand a tab\nand a line" in cell for cell in cells)


def test_unscored_is_never_drawn_as_a_failing_score():
    class J:
        score = None
        details: dict = {}

    assert verdict_border(J(), 0.7) == "yellow"  # type: ignore[arg-type]


def test_a_session_with_no_turns_is_not_unscored(config_file: Path, tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    store.create_session(
        scenario={"id": "id-linking", "question": "q"},
        persona=Persona("calm", "en", "p"),
        config={},
        language="en",
        max_turns=1,
        threshold=0.7,
        metrics=["rubric"],
    )
    store.close()
    assert cli("sessions", "--config", str(config_file)) == 0
    assert "unscored" not in capsys.readouterr().out


# -- export never destroys ------------------------------------------------------------------


def test_export_onto_the_database_fails_and_leaves_it_intact(config_file: Path, tmp_path: Path, capsys):
    db = tmp_path / "x.db"
    cli("run", "--config", str(config_file), "--db", str(db), "-s", "id-linking", "-p", "calm")
    before = sha256(db)
    assert cli("export", "1", "--db", str(db), "--csv", str(db)) == 2
    err = capsys.readouterr().err
    assert "refusing to write --csv to" in err and str(db) in err
    assert sha256(db) == before and Store.open(db).session(1).turns == 1


def test_export_onto_any_sqlite_file_is_refused(config_file: Path, tmp_path: Path, capsys):
    cli("run", "--config", str(config_file), "-s", "id-linking", "-p", "calm")
    other = tmp_path / "other.sqlite"
    with contextlib.closing(sqlite3.connect(other)) as conn:
        conn.execute("CREATE TABLE keep (x)")
        conn.commit()
    before = sha256(other)
    assert cli("export", "1", "--config", str(config_file), "--csv", str(other)) == 2
    assert "is a SQLite database" in capsys.readouterr().err
    assert sha256(other) == before


# -- ids, keys, flags -----------------------------------------------------------------------


def test_session_ids_are_never_reused_after_a_delete(tmp_path: Path):
    store = Store.open(tmp_path / "t.db")
    make = dict(
        scenario={"id": "s", "question": "q"},
        persona=Persona("calm", "en", "p"),
        config={},
        language="en",
        max_turns=1,
        threshold=0.7,
        metrics=[],
    )
    first = store.create_session(**make)  # type: ignore[arg-type]
    second = store.create_session(**make)  # type: ignore[arg-type]
    store.delete_session(second)
    assert store.create_session(**make) == second + 1 > first  # type: ignore[arg-type]


def test_migration_to_autoincrement_keeps_every_row(tmp_path: Path):
    path = tmp_path / "v2.db"
    with contextlib.closing(sqlite3.connect(path)) as conn:
        conn.executescript(schema.MIGRATIONS[0] + schema.MIGRATIONS[1] + "PRAGMA user_version = 2;")  # type: ignore[operator]
        conn.execute(
            "INSERT INTO sessions (id, created_at, updated_at, language, scenario_id, question, scenario, persona_name,"
            " persona, config, max_turns, threshold, metrics, status, stop_reason) VALUES"
            " (1, 't', 't', 'en', 's', 'q', '{}', 'calm', '{}', '{}', 3, 0.7, '[]', 'finished', 'done'),"
            " (5, 't', 't', 'en', 's', 'q', '{}', 'calm', '{}', '{}', 3, 0.7, '[]', 'finished', 'done')"
        )
        conn.execute(
            "INSERT INTO messages (id, session_id, turn, role, source, text, created_at) VALUES"
            " (1, 5, 1, 'user', 'scenario', 'hello', 't')"
        )
        conn.commit()
    store = Store.open(path)
    assert [s.id for s in store.sessions()] == [5, 1]
    assert store.session(5).messages[0].text == "hello"
    store.delete_session(5)  # cascades as before
    assert store._db.execute("SELECT COUNT(*) FROM messages").fetchone()[0] == 0
    assert "AUTOINCREMENT" in store._db.execute("SELECT sql FROM sqlite_master WHERE name = 'sessions'").fetchone()[0]
    assert store._db.execute("PRAGMA foreign_key_check").fetchall() == []
    make = dict(scenario={"id": "s", "question": "q"}, persona=Persona("calm", "en", "p"), config={}, language="en")
    assert store.create_session(**make, max_turns=1, threshold=0.7, metrics=[]) == 6  # type: ignore[arg-type]


@pytest.mark.parametrize("table", ["[endpoint]", '[bot]\ntype = "openai"\nbase_url = "http://x/v1"\nmodel = "m"'])
def test_a_key_like_api_key_env_is_refused_without_printing_it(tmp_path: Path, table: str, capsys):
    key = "sk-proj-AbCdEf0123456789XyZ"
    path = tmp_path / "ragtui.toml"
    path.write_text(f'{table}\napi_key_env = "{key}"\n', encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_config(path)
    assert "api_key_env" in str(info.value) and key not in str(info.value)
    assert cli("config", "--config", str(path)) == 2
    captured = capsys.readouterr()
    assert key not in captured.out + captured.err and "api_key_env" in captured.err


def test_top_level_flags_reach_the_subcommand(config_file: Path, tmp_path: Path, capsys):
    other = tmp_path / "elsewhere.db"
    assert cli("--config", str(config_file), "--db", str(other), "run", "-s", "id-linking", "-p", "calm") == 0
    assert Store.open(other).sessions()[0].scenario_id == "id-linking"
    assert not (tmp_path / "runs.db").exists()
    capsys.readouterr()
    assert cli("--db", str(other), "--config", str(config_file), "sessions") == 0
    assert "id-linking" in capsys.readouterr().out


def test_metric_results_show_in_the_table_and_gate_the_exit_status(config_file: Path, server, capsys):
    rubric = check_answers(5)

    def judge(body: dict) -> Reply:
        if body["messages"][-1]["content"].strip().endswith("Rating:"):  # answer_correctness
            return level_reply({"0": 1.0})
        return rubric(body)

    server.set_default(JUDGE, judge)
    args = ["run", "--config", str(config_file), "-s", "id-linking", "-p", "calm"]
    assert cli(*args, "--metric", "rubric", "--metric", "answer_correctness") == 1
    out = capsys.readouterr().out
    assert "answer_correctness" in out  # its own column in the table
    assert cli(*args) == 0  # the rubric alone passes
