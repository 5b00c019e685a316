"""The CLI around runs: `ragtui compare` exit statuses and reports, `ragtui runs`, and
`ragtui run --replay / --junit / --markdown`, against the fake server and a real database."""

from __future__ import annotations

import sqlite3
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.store.store import Store
from stand_ins.fake_openai import Reply
from stand_ins.synthetic_runs import write_dialogue

from ..conftest import BOT, JUDGE, USER, check_answers, copy_of, endpoint_toml
from ..dialogue_judge import by_schema
from .test_compare import assert_junit_shape, dialogue_cases, failures_in


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text('language = "en"\nmax_turns = 2\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url))
    return path


def cli(config_file: Path, *args: str) -> int:
    return main([args[0], "--config", str(config_file), *args[1:]])


def customers(db: Path, run_id: str) -> list[tuple[str, str, int, str]]:
    conn = sqlite3.connect(db)
    return conn.execute(
        "SELECT s.scenario_id, s.persona_name, m.turn, m.text FROM messages m JOIN sessions s ON s.id = m.session_id "
        "WHERE s.run_id = ? AND m.role = 'user' ORDER BY s.scenario_id, s.persona_name, m.turn",
        [run_id],
    ).fetchall()


def run_ids(db: Path) -> list[str]:
    conn = sqlite3.connect(db)
    return [r[0] for r in conn.execute("SELECT run_id FROM sessions GROUP BY run_id ORDER BY MIN(id)")]


def test_replay_run_then_compare_previous_last(config_file: Path, server, tmp_path: Path, capsys):
    server.script(USER, Reply("first customer follow-up"), Reply("second customer follow-up"))
    assert cli(config_file, "run", "-s", "id-linking", "-s", "outage", "-p", "calm") == 0
    server.set_default(BOT, Reply("The new bot's answer."))
    server.set_default(JUDGE, check_answers(3))  # 0.60: under the threshold
    junit, md = tmp_path / "junit.xml", tmp_path / "run.md"
    status = cli(config_file, "run", "--replay", "last", "--junit", str(junit), "--markdown", str(md))
    assert status == 1
    db = tmp_path / "runs.db"
    base, new = run_ids(db)
    assert customers(db, new) == customers(db, base)  # turn by turn, the same customer
    assert_junit_shape(ET.parse(junit).getroot())
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    cases = dialogue_cases(suite)
    assert len(cases) == 2 and failures_in(cases) == 2
    assert "0.60" in md.read_text()
    capsys.readouterr()

    report, table = tmp_path / "cmp.md", tmp_path / "cmp.csv"
    status = cli(config_file, "compare", "previous", "last", "--markdown", str(report), "--csv", str(table))
    out = capsys.readouterr().out
    assert status == 1  # both pairs passed before and fail now
    assert "id-linking × calm" in out and "outage × calm" in out and "2 regression(s)" in out
    assert report.read_text().count("| 🔴 regression | 0.") == 2 and table.exists()  # each pair's verdict

    assert cli(config_file, "compare", "last", "last") == 0  # a run against itself: nothing regressed
    assert cli(config_file, "runs") == 0
    out = capsys.readouterr().out
    assert base in out and new in out and "is a replay of" in out and "▇▅" in out  # 0.80 then 0.60
    assert cli(config_file, "runs", "--pairs", "last") == 0
    out = capsys.readouterr().out
    assert "id-linking × calm" in out and "outage × calm" in out and out.count("▇▅") == 2


def test_compare_bad_input_is_one_line_exit_2_and_writes_nothing(config_file: Path, tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    write_dialogue(store, "en-run", "refund", "calm", [0.8])
    write_dialogue(store, "ja-run", "refund", "calm", [0.8], language="ja")
    write_dialogue(store, "other-run", "outage", "angry", [0.8])
    store.close()
    report = tmp_path / "out.md"
    for args, words in (
        (("nope", "en-run"), "no run 'nope'"),
        (("en-run", "ja-run"), "different languages"),
        (("en-run", "other-run"), "no scenario × persona in common"),
    ):
        capsys.readouterr()
        assert cli(config_file, "compare", *args, "--markdown", str(report)) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and words in err and "Traceback" not in err
        assert not report.exists()


def test_replay_of_vanished_scenarios_is_refused_before_anything_runs(config_file: Path, tmp_path: Path, capsys):
    store = Store.open(tmp_path / "runs.db")
    write_dialogue(store, "old", "no-such-scenario", "calm", [0.8])
    store.close()
    assert cli(config_file, "run", "--replay", "old", "--junit", str(tmp_path / "j.xml")) == 2
    err = capsys.readouterr().err
    assert "no-such-scenario" in err and "no longer exist" in err and err.count("\n") == 1
    assert run_ids(tmp_path / "runs.db") == ["old"] and not (tmp_path / "j.xml").exists()
    assert cli(config_file, "run", "--then-simulate", "-s", "outage") == 2
    assert "only applies to a replay" in capsys.readouterr().err


def test_show_prints_the_lineage(config_file: Path, server, tmp_path: Path, recorded_outage: Path, capsys):
    copy_of(recorded_outage, tmp_path / "runs.db")  # session 1: outage × calm
    assert cli(config_file, "run", "--replay", "last") == 0
    capsys.readouterr()
    assert cli(config_file, "show", "2") == 0
    assert "replay of session 1's customer messages" in capsys.readouterr().out
    assert cli(config_file, "show", "1") == 0
    assert "replayed by: 2" in capsys.readouterr().out


def test_compare_shows_dialogue_verdicts_and_fails_on_a_resolution_regression(
    config_file: Path, server, tmp_path: Path, capsys
):
    from .test_dialogue_cli import judge_two_dialogues

    server.set_default(JUDGE, judge_two_dialogues())  # id-linking resolved, useless not
    assert cli(config_file, "run", "-s", "id-linking", "-s", "useless", "-p", "calm") == 0
    server.set_default(  # the same turn scores; now neither dialogue is resolved
        JUDGE,
        by_schema(
            intents={"intents": ["link an account"]},
            intent_check={"reason": "never answered", "satisfied": "no"},
            handover_check={"reason": "no contact", "handed_over": "no"},
            facts={"facts": []},
        ),
    )
    assert cli(config_file, "run", "--replay", "last") == 0  # the rate does not gate by default
    capsys.readouterr()
    junit, md, table = tmp_path / "cmp.xml", tmp_path / "cmp.md", tmp_path / "cmp.csv"
    args = ["--junit", str(junit), "--markdown", str(md), "--csv", str(table)]
    assert cli(config_file, "compare", "previous", "last", *args) == 1
    out = capsys.readouterr().out
    assert "Dialogue verdicts, base → new" in out
    assert "resolution rate 50% (1/2) → 0% (0/2); mean Δ -0.500" in out
    assert "0 score regression(s), 1 resolution regression(s)" in out
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("tests") == "2" and suite.get("failures") == "1"
    assert "🔴 resolution regression" in md.read_text(encoding="utf-8")
    assert "resolution_flag" in table.read_text(encoding="utf-8-sig")


def test_compare_with_a_run_without_dialogue_verdicts_says_missing(config_file: Path, server, capsys):
    text = config_file.read_text(encoding="utf-8")
    config_file.write_text(text.replace("max_turns = 2", "max_turns = 2\ndialogue_metrics = []"), encoding="utf-8")
    assert cli(config_file, "run", "-s", "id-linking", "-p", "calm") == 0
    config_file.write_text(text, encoding="utf-8")
    assert cli(config_file, "run", "--replay", "last") == 0
    capsys.readouterr()
    assert cli(config_file, "compare", "previous", "last") == 0  # missing is no regression
    captured = capsys.readouterr()
    lines = [line for line in captured.out.splitlines() if "no dialogue verdicts" in line]
    assert len(lines) == 1 and "so its resolution is missing" in lines[0]
    assert "Traceback" not in captured.out + captured.err
    assert "missing →" in captured.out  # the base's verdict cell: missing, not 0
