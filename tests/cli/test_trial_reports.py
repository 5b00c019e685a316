"""Runs with repeated trials (`ragtui run --repeat K`) in the run's log and CI reports: every
progress line, JUnit test case and Markdown row names the dialogue's trial, and the Markdown
summary gives pass^1 / pass^K; a run of one trial a pair reads as before."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.dialogue.progress import StepDone, dialogue_label
from ragtui.core.runs.run_report import junit_xml, run_markdown
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue

from ..store.test_run_plan import write_config


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 200)


def test_a_step_line_names_the_trial_when_a_pair_runs_more_than_once():
    line = StepDone(3, 1, "bot", 12, 2.0).line(dialogue_label("outage", "calm", 2, 3), 3)
    assert line.startswith("#3 outage × calm · trial 2/3 · turn 1/3 · bot · 12 tokens")
    assert dialogue_label("outage", "calm", 1, 1) == "outage × calm"


def test_the_run_log_names_each_dialogues_trial(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server, concurrency=1)
    assert main(["run", "--config", str(config), "--repeat", "2", "-s", "outage", "-p", "calm"]) == 0
    out = capsys.readouterr().out  # no terminal: one plain line per step and per dialogue
    for trial in (1, 2):
        assert f" outage × calm · trial {trial}/2 · turn 1/1 · bot · " in out, out
        assert f" outage × calm · trial {trial}/2: " in out  # the dialogue's finished line
    assert main(["run", "--config", str(config), "-s", "outage", "-p", "calm"]) == 0
    out = capsys.readouterr().out
    assert " outage × calm · turn 1/1 · bot · " in out and "trial" not in out


def trial_run(db: Store) -> list:
    for trial, scores in enumerate(([0.8], [0.8], [0.4]), start=1):
        write_dialogue(db, "r", "outage", "calm", scores, trial=trial)
        write_dialogue(db, "r", "refund", "calm", [0.9], trial=trial)
    return [db.session(s.id) for s in reversed(db.sessions(run_id="r"))]


def test_junit_names_each_case_with_its_trial(db: Store):
    sessions = trial_run(db)
    suite = ET.fromstring(junit_xml("r", sessions)).find("testsuite")
    names = [c.get("name") for c in suite.findall("testcase")]
    assert [n.rsplit(" (session", 1)[0] for n in names] == [
        f"{scenario} × calm · trial {t}/3" for t in (1, 2, 3) for scenario in ("outage", "refund")
    ]
    assert len(set(names)) == 6


def test_markdown_gives_pass_k_and_each_rows_trial(db: Store):
    text = run_markdown("r", trial_run(db), 0.7)
    # outage passes 2 of 3 (pass^1 2/3, pass^3 0), refund 3 of 3: the means over the two pairs.
    assert (
        "\npass^1 0.83 [" in text
        and " · pass^2 0.67 [" in text
        and " · pass^3 0.50 [" in text
        and "(2 pairs × 3 trials)" in text
    )
    assert "| outage × calm · trial 3/3 | 1 | 0.40 |" in text


def test_a_run_of_one_trial_a_pair_reports_as_before(db: Store):
    write_dialogue(db, "one", "outage", "calm", [0.8])
    sessions = [db.session(s.id) for s in db.sessions(run_id="one")]
    name = ET.fromstring(junit_xml("one", sessions)).find("testsuite/testcase").get("name")
    assert name == f"outage × calm (session {sessions[0].id})"
    text = run_markdown("one", sessions, 0.7)
    assert "pass^" not in text and "trial" not in text and "| outage × calm | 1 | 0.80 |" in text
