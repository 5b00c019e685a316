"""`ragtui run`'s gate on the run's resolution rate (`min_resolution_rate`), and the same
verdicts in every report: the table, the exit line, JUnit and Markdown, for a run and a replay.
Against the fake server, with a scripted judge."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from stand_ins.fake_openai import Reply, level_reply

from ..conftest import JUDGE, check_answers, endpoint_toml
from ..dialogue_judge import by_schema
from .test_compare import assert_junit_shape, dialogue_cases, failures_in
from .test_dialogue_cli import judge_two_dialogues


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 220)


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 2\nconcurrency = 1\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def run(config_file: Path, *extra: str, server=None) -> int:
    if server is not None:  # the scripted judge serves its replies in order: a fresh one per run
        server.set_default(JUDGE, judge_two_dialogues())
    return main(["run", "--config", str(config_file), "-s", "id-linking", "-s", "useless", "-p", "calm", *extra])


def test_the_gate_is_off_by_default_and_fails_a_run_under_the_minimum(config_file: Path, server, tmp_path, capsys):
    # One dialogue resolved, one not: 50%.
    assert run(config_file, server=server) == 0  # off by default: the rate is reported, it does not gate
    out = capsys.readouterr().out
    assert "resolution rate 50% (1/2 resolved or handed over)" in out and "(min " not in out

    junit, md = tmp_path / "junit.xml", tmp_path / "run.md"
    assert (
        run(config_file, "--min-resolution-rate", "0.8", "--junit", str(junit), "--markdown", str(md), server=server)
        == 1
    )
    out = capsys.readouterr().out
    assert "resolution rate 50% (1/2 resolved or handed over) (min 80%)" in out
    assert "exit 1: resolution rate 50% (1/2) < min_resolution_rate 80%" in out
    root = ET.parse(junit).getroot()
    assert_junit_shape(root)
    suite = root.find("testsuite")
    assert suite is not None
    cases = dialogue_cases(suite)
    assert len(cases) == 3 and failures_in(cases) == 1
    rate_case = next(c for c in suite.iter("testcase") if c.get("classname") == "ragtui.run")
    failure = rate_case.find("failure")
    assert failure is not None and "< min_resolution_rate 80%" in (failure.get("message") or "")
    outs = [c.findtext("system-out") or "" for c in suite.iter("testcase") if c.get("classname") != "ragtui.run"]
    assert any("dialogue verdicts: resolution resolved 1.00" in o for o in outs)
    assert any("resolution unresolved 0.00" in o for o in outs)
    text = md.read_text(encoding="utf-8")
    assert "resolution rate 50% (1/2 resolved or handed over) (min 80%)" in text
    assert "🔴 resolution rate 50% (1/2) &lt; min_resolution_rate 80%" in text  # "<" escaped for HTML
    assert "| resolution | repetition | expectations |" in text and "| unresolved 0.00 |" in text

    assert run(config_file, "--min-resolution-rate", "0.5", server=server) == 0  # at the minimum: passes


def test_the_gate_from_the_config_and_its_bad_values(config_file: Path, server, capsys):
    original = config_file.read_text(encoding="utf-8")
    top = "max_turns = 2\n"  # top-level keys go before the [endpoint] tables

    def with_keys(keys: str) -> str:
        return original.replace(top, top + keys)

    config_file.write_text(with_keys("min_resolution_rate = 0.75\n"), encoding="utf-8")
    assert run(config_file, server=server) == 1
    assert "exit 1: resolution rate 50% (1/2) < min_resolution_rate 75%" in capsys.readouterr().out
    assert main(["config", "--config", str(config_file)]) == 0
    assert '"min_resolution_rate": 0.75' in capsys.readouterr().out  # `ragtui config` shows the gate

    config_file.write_text(with_keys("min_resolution_rate = 1.5\n"), encoding="utf-8")
    assert run(config_file) == 2
    err = capsys.readouterr().err
    assert "min_resolution_rate must be between 0 and 1, got 1.5" in err and "Traceback" not in err
    config_file.write_text(with_keys('min_resolution_rate = 0.5\ndialogue_metrics = ["retention"]\n'), encoding="utf-8")
    assert run(config_file) == 2
    assert "min_resolution_rate needs the resolution verdict" in capsys.readouterr().err
    config_file.write_text(original, encoding="utf-8")
    assert run(config_file, "--min-resolution-rate", "2") == 2
    assert "--min-resolution-rate must be between 0 and 1, got 2" in capsys.readouterr().err


def test_an_unscored_resolution_is_never_0_and_never_passes_the_gate(config_file: Path, server, capsys):
    server.set_default(JUDGE, by_schema(intents=["not json"]))  # the intents step cannot be parsed
    assert run(config_file) == 0  # the gate is off: reported as unscored, nothing fails on it
    out = capsys.readouterr().out
    assert "resolution rate unscored, 2 unscored" in out and "0%" not in out
    assert run(config_file, "--min-resolution-rate", "0.5") == 1
    assert "exit 1: resolution rate unscored (no dialogue has a scored resolution verdict" in capsys.readouterr().out


def test_metric_failures_are_in_the_junit_and_markdown_like_in_the_exit_status(
    config_file: Path, server, tmp_path: Path, capsys
):
    rubric = check_answers(5)

    def judge(body: dict) -> Reply:
        if body["messages"][-1]["content"].strip().endswith("Rating:"):  # answer_correctness
            return level_reply({"0": 1.0})
        return rubric(body)

    server.set_default(JUDGE, judge)
    junit, md = tmp_path / "junit.xml", tmp_path / "run.md"
    args = ["--metric", "rubric", "--metric", "answer_correctness", "--junit", str(junit), "--markdown", str(md)]
    assert main(["run", "--config", str(config_file), "-s", "id-linking", "-p", "calm", *args]) == 1
    out = capsys.readouterr().out
    assert "exit 1: #1 id-linking × calm: answer_correctness 0.00 < 0.70" in out
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None and suite.get("failures") == "1"
    failure = next(suite.iter("testcase")).find("failure")
    assert failure is not None and failure.get("message") == "answer_correctness 0.00 < 0.70"
    text = md.read_text(encoding="utf-8")
    assert "failure: answer_correctness 0.00 &lt; 0.7" in text
    # Its own column, as in the terminal's table.
    assert "| scenario × persona | turns | score | answer_correctness | stop |" in text
    assert "| id-linking × calm | 2 | 1.00 | 0.00 | max_turns |" in text


def test_a_replay_reports_its_dialogue_verdicts(config_file: Path, server, tmp_path: Path, capsys):
    assert run(config_file, server=server) == 0
    server.set_default(JUDGE, judge_two_dialogues())
    junit, md = tmp_path / "junit.xml", tmp_path / "replay.md"
    replay = ["run", "--config", str(config_file), "--replay", "last", "--junit", str(junit), "--markdown", str(md)]
    assert main([*replay, "--min-resolution-rate", "0.9"]) == 1
    out = capsys.readouterr().out
    assert "resolved 1.00" in out and "resolution rate" in out and "< min_resolution_rate 90%" in out
    assert "| resolution | repetition | expectations |" in md.read_text(encoding="utf-8")
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    assert all(
        "dialogue verdicts: resolution" in (c.findtext("system-out") or "")
        for c in dialogue_cases(suite)
        if c.get("classname") != "ragtui.run"
    )
