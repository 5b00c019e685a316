"""Dialogue verdicts end to end through the CLI: `ragtui run` (table and resolution rate),
`show`, `export` (one column each), and `judge-dialogue` adding a version on demand."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ragtui.cli.main import main

from ..conftest import JUDGE, endpoint_toml
from ..dialogue_judge import by_schema


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 2\nconcurrency = 1\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def judge_two_dialogues() -> object:
    """The first dialogue's one intent is met, the second's is not (and not handed over)."""
    return by_schema(
        intents={"intents": ["link an account"]},
        intent_check=[{"reason": "steps given", "satisfied": "yes"}, {"reason": "never answered", "satisfied": "no"}],
        handover_check={"reason": "no contact", "handed_over": "no"},
        facts={"facts": [{"turn": 1, "fact": "uses the app"}]},
        fact_check={"reason": "fine", "verdict": "kept"},
    )


def test_run_show_export_and_judge_again(config_file: Path, tmp_path: Path, server, capsys):
    server.set_default(JUDGE, judge_two_dialogues())
    # Retention is off by default; this run asks for all three verdicts.
    config_file.write_text('dialogue_metrics = ["resolution", "retention", "repetition"]\n' + config_file.read_text())
    args = ["--config", str(config_file)]
    assert main(["run", *args, "-s", "id-linking", "-s", "useless", "-p", "calm"]) == 0
    out = capsys.readouterr().out
    assert "resolution rate 50% (1/2 resolved or handed over)" in out
    assert "#1 id-linking × calm: max_turns, score 0.80, resolved" in out
    assert "#2 useless × calm: max_turns, score 0.80, unresolved" in out

    assert main(["show", "1", *args]) == 0
    shown = capsys.readouterr().out
    assert "Dialogue verdicts" in shown
    assert "resolution v1: resolved 1.00" in shown and "[met] P █████ 100% link an account" in shown
    assert "retention v1: 1.00" in shown and "[kept] turn 1: uses the app" in shown
    # The default bot says the same thing every turn: a repeat found by similarity alone.
    assert "repetition v1: 0.00" in shown and "REPEATS (by similarity)" in shown

    path = tmp_path / "out.csv"
    assert main(["export", "--run", "last", "--csv", str(path), *args]) == 0
    rows = list(csv.DictReader(path.read_text(encoding="utf-8-sig").splitlines()))
    assert [(r["resolution"], r["outcome"], r["retention"], r["repetition"]) for r in rows] == [
        ("1.00", "resolved", "1.00", "0.00"),
        ("0.00", "unresolved", "1.00", "0.00"),
    ]
    capsys.readouterr()

    server.set_default(JUDGE, by_schema(intents=["not json", "still not json"]))
    assert main(["judge-dialogue", "1", "--metric", "resolution", *args]) == 0
    again = capsys.readouterr().out
    assert "resolution v2: unscored" in again and "intents step" in again
    assert main(["show", "1", "--all-versions", *args]) == 0
    shown = capsys.readouterr().out
    assert "resolution v1: resolved 1.00" in shown and "resolution v2: unscored" in shown


def test_judge_dialogue_needs_sessions(config_file: Path, capsys):
    assert main(["judge-dialogue", "--config", str(config_file)]) == 2
    assert "no sessions to judge" in capsys.readouterr().err


def test_dialogue_metrics_can_be_turned_off(config_file: Path, server, capsys):
    text = config_file.read_text(encoding="utf-8").replace("max_turns = 2", "max_turns = 1\ndialogue_metrics = []")
    config_file.write_text(text, encoding="utf-8")
    assert main(["run", "--config", str(config_file), "-s", "id-linking", "-p", "calm"]) == 0
    assert "resolution rate" not in capsys.readouterr().out
    # Only the rubric's yes/no checks went to the judge: no dialogue step (they send a JSON schema).
    assert server.chat_requests(JUDGE) and all("response_format" not in b for b in server.chat_requests(JUDGE))


def test_unknown_dialogue_metric_in_config_is_named(config_file: Path, capsys):
    config_file.write_text(config_file.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    text = config_file.read_text(encoding="utf-8").replace(
        "max_turns = 2", 'max_turns = 2\ndialogue_metrics = ["resolve"]'
    )
    config_file.write_text(text, encoding="utf-8")
    assert main(["run", "--config", str(config_file)]) == 2
    assert "dialogue_metrics has unknown metric 'resolve'" in capsys.readouterr().err
