"""Expectations and policies through the command line, against the fake server: a run stores the
expectations verdict, shows it (`show`, the run summary, CSV, JUnit, Markdown), gates on it
(`--fail-on-policy`, `--min-expectation-rate`), `compare` names an expectation that regressed,
`ragtui expect` answers on a stored session without storing anything, and `scenarios --check`
names every problem."""

from __future__ import annotations

import csv
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.store.store import Store
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE, check_answers, endpoint_toml, yes_no_reply
from .test_compare import assert_junit_shape

SCENARIOS = """
[[scenario]]
id = "linking"
question = "How do I link my account?"
tags = ["account"]
expect = [
  { id = "where", contains = "ＬＩＮＫＥＤ services" },
  { id = "steps", text = "gives the steps to link an account" },
]
expect_not = [{ id = "refund", text = "promises a refund" }]
"""


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 220)


def config_text(server, policies: str = '[[policy]]\nid = "password"\ntext = "asks for the customer\'s password"\n'):
    head = 'language = "en"\nmax_turns = 1\nconcurrency = 1\ndatabase = "runs.db"\nscenarios = "scenarios.toml"\n'
    return head + policies + endpoint_toml(server.base_url)


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    (tmp_path / "scenarios.toml").write_text(SCENARIOS, encoding="utf-8")
    path = tmp_path / "ragtui.toml"
    path.write_text(config_text(server), encoding="utf-8")
    return path


def judge_saying_yes_to(*statements: str):
    """The rubric's checks as the shared fake judge answers them; an expectation check is yes
    when its statement names one of ``statements``."""
    rubric = check_answers(4)

    def respond(body: dict) -> Reply:
        content = str(body["messages"][-1].get("content", ""))
        if "### STATEMENT ###" not in content:
            return rubric(body)
        statement = content.split("### STATEMENT ###")[-1]
        return yes_no_reply(1.0 if any(s in statement for s in statements) else 0.0)

    return respond


def run(config_file: Path, *extra: str) -> int:
    return main(["run", "--config", str(config_file), "-p", "calm", *extra])


def test_a_run_stores_shows_exports_and_gates_on_expectations(config_file: Path, server, tmp_path, capsys):
    server.set_default(JUDGE, judge_saying_yes_to("steps", "password"))
    junit, md = tmp_path / "junit.xml", tmp_path / "run.md"
    assert run(config_file, "--junit", str(junit), "--markdown", str(md)) == 0  # gates off by default
    out = capsys.readouterr().out
    assert "expectations 3/4 (75%) met or kept, 1 policy broken" in out

    store = Store.open(tmp_path / "runs.db")
    (verdict,) = [j for j in store.session(1).dialogue_judgments if j.metric == "expectations"]
    assert verdict.score == pytest.approx(0.75) and verdict.version == 1
    assert (verdict.details["met"], verdict.details["total"], verdict.details["policies_broken"]) == (3, 4, 1)
    store.close()

    assert main(["show", "1", "--config", str(config_file)]) == 0
    shown = capsys.readouterr().out
    assert "✓ where met at turn 1: contains ＬＩＮＫＥＤ services" in shown
    assert "✓ steps met at turn 1: gives the steps to link an account" in shown
    assert "✓ refund kept: promises a refund" in shown
    assert "✗ policy password broken at turn 1: asks for the customer's password" in shown

    root = ET.parse(junit).getroot()
    assert_junit_shape(root)
    suite = root.find("testsuite")
    assert suite is not None
    cases = {c.get("name", "").split(" · ")[0]: c for c in suite.iter("testcase") if " · " in c.get("name", "")}
    assert set(cases) == {"where", "steps", "refund", "password"}
    assert cases["password"].find("failure") is not None and cases["steps"].find("failure") is None
    assert suite.get("failures") == "1"
    text = md.read_text(encoding="utf-8")
    assert "expectations 3/4 (75%) met or kept, 1 policy broken" in text and "password (policy broken" in text

    csv_path = tmp_path / "out.csv"
    assert main(["export", "--run", "last", "--csv", str(csv_path), "--config", str(config_file)]) == 0
    (row,) = list(csv.DictReader(csv_path.read_text(encoding="utf-8-sig").splitlines()))
    assert (row["expectations_met"], row["expectations_total"], row["policies_broken"]) == ("3", "4", "1")
    assert row["expectations_missed"] == "password (broken at turn 1): asks for the customer's password"

    html = tmp_path / "report.html"
    assert main(["report", "last", "--html", str(html), "--config", str(config_file)]) == 0
    page = html.read_text(encoding="utf-8")
    assert "<b>Expectations:</b> expectations 3/4 (75%) met or kept, 1 policy broken" in page
    assert "✗ policy password broken at turn 1: asks for the customer&#x27;s password" in page

    capsys.readouterr()
    assert run(config_file, "--fail-on-policy") == 1
    assert "linking × calm: password (policy broken at turn 1)" in capsys.readouterr().out
    assert run(config_file, "--min-expectation-rate", "0.8") == 1
    assert "expectation rate 75% (3/4) < min_expectation_rate 80%" in capsys.readouterr().out
    assert run(config_file, "--min-expectation-rate", "0.75") == 0
    config_file.write_text(
        config_file.read_text().replace("max_turns = 1\n", "max_turns = 1\nmin_expectation_rate = 0.9\n")
    )
    assert run(config_file) == 1  # the same gate from the config


def test_an_unreadable_check_is_unscored_and_no_gate_passes_on_it(config_file: Path, server, capsys):
    rubric = check_answers(4)
    server.set_default(
        JUDGE, lambda body: Reply("(garbage)") if "### STATEMENT ###" in str(body["messages"]) else rubric(body)
    )
    assert run(config_file, "--min-expectation-rate", "0.5") == 0  # the code check is met: 1/1 scored
    out = capsys.readouterr().out
    assert "expectations 1/1 (100%) met or kept, 3 unscored, 0 policies broken" in out
    assert main(["show", "1", "--config", str(config_file)]) == 0
    shown = capsys.readouterr().out
    assert "? steps unscored" in shown and "? policy password unscored" in shown


def test_compare_names_an_expectation_met_in_base_and_missed_in_new(config_file: Path, server, tmp_path, capsys):
    server.set_default(JUDGE, judge_saying_yes_to("steps"))
    assert run(config_file, "--run-id", "base") == 0
    server.set_default(JUDGE, judge_saying_yes_to("nothing"))
    assert run(config_file, "--run-id", "new") == 0
    capsys.readouterr()
    junit = tmp_path / "compare.xml"
    assert main(["compare", "base", "new", "--config", str(config_file), "--junit", str(junit)]) == 1
    out = capsys.readouterr().out
    assert "expectations: 1 regression(s), 0 fixed" in out
    assert "expectation steps regressed in linking × calm: met → missed" in out
    assert "1 expectation regression(s)" in out
    root = ET.parse(junit).getroot()
    failing = [c for c in root.iter("testcase") if c.find("failure") is not None]
    assert any(c.get("name", "").startswith("steps · ") for c in failing)
    # The other way round it is a fix, not a regression.
    assert main(["compare", "new", "base", "--config", str(config_file)]) == 0
    assert "expectations: 0 regression(s), 1 fixed" in capsys.readouterr().out


def test_ragtui_expect_prints_p_met_per_answer_and_stores_nothing(config_file: Path, server, tmp_path, capsys):
    server.set_default(JUDGE, judge_saying_yes_to("steps"))
    assert run(config_file) == 0
    store = Store.open(tmp_path / "runs.db")
    before = len(store.session(1).dialogue_judgments)
    store.close()
    # Judging the dialogue again adds a version beside the first.
    assert main(["judge-dialogue", "1", "--metric", "expectations", "--config", str(config_file)]) == 0
    assert "✓ steps met at turn 1" in capsys.readouterr().out
    store = Store.open(tmp_path / "runs.db")
    versions = [j.version for j in store.session(1).dialogue_judgments if j.metric == "expectations"]
    assert versions == [1, 2]
    before = len(store.session(1).dialogue_judgments)
    store.close()
    capsys.readouterr()
    server.clear()
    server.set_default(JUDGE, judge_saying_yes_to("the steps"))
    assert main(["expect", "gives the steps", "--session", "1", "--config", str(config_file)]) == 0
    out = capsys.readouterr().out
    assert "turn 1: P(met) 1.00 met" in out
    assert (
        main(["expect", "asks for a password", "--not", "--session", "1", "--turn", "1", "--config", str(config_file)])
        == 0
    )
    assert "turn 1: P(does it) 0.00 kept" in capsys.readouterr().out
    assert len(server.chat_requests(JUDGE)) == 2  # one question per answer asked about
    assert (
        main(["expect", "linked SERVICES", "--form", "contains", "--session", "1", "--config", str(config_file)]) == 0
    )
    assert "turn 1: P(met) 1.00 met (code)" in capsys.readouterr().out
    assert len(server.chat_requests(JUDGE)) == 2  # decided in code
    assert main(["expect", "x", "--session", "1", "--turn", "9", "--config", str(config_file)]) == 2
    assert "turn 9 of session 1 has no bot answer" in capsys.readouterr().err
    store = Store.open(tmp_path / "runs.db")
    assert len(store.session(1).dialogue_judgments) == before
    store.close()


def test_a_policy_whose_tags_match_nothing_stops_the_run_before_any_call(config_file: Path, server, capsys):
    config_file.write_text(
        config_text(server, '[[policy]]\nid = "card"\ntext = "asks for a card"\ntags = ["billing"]\n')
    )
    assert run(config_file) == 2
    err = capsys.readouterr().err
    assert "policy 'card' tags billing match no scenario" in err and err.count("\n") == 1
    assert server.chat_requests() == []


def test_scenarios_check_lists_every_problem_or_says_all_valid(config_file: Path, server, tmp_path, capsys):
    assert main(["scenarios", "--check", "--config", str(config_file)]) == 0
    assert "1 scenarios, 3 expectations, 1 policies: all valid" in capsys.readouterr().out  # the project's own file
    bad = tmp_path / "en.toml"
    bad.write_text(
        '[[scenario]]\nid = "a"\nquestion = "Q?"\nexpect = [""]\n'
        '[[scenario]]\nid = "b"\nquestion = "Q?"\nexpect = [{ regex = "(" }]\n'
        '[[scenario]]\nid = "c"\nquestion = "Q?"\nexpect = ["fine"]\n',
        encoding="utf-8",
    )
    assert main(["scenarios", "--check", str(bad), "--config", str(config_file)]) == 2
    err = capsys.readouterr().err
    assert f"{bad}: scenario 'a' expect[1]: the expectation is empty" in err
    assert f"{bad}: scenario 'b' expect[1] regex: '(' does not compile" in err
    assert "policy 'password'" not in err  # a policy without tags applies everywhere
    assert "2 problem(s)" in err


def test_scenarios_check_reads_the_languages_the_project_uses(tmp_path, capsys):
    assert main(["scenarios", "--check"]) == 0  # the bundled sample: both of its languages
    assert "24 scenarios, 71 expectations" in capsys.readouterr().out
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "en.toml").write_text('[[scenario]]\nid = "a"\nquestion = "Where is my parcel?"\n', encoding="utf-8")
    config = tmp_path / "ragtui.toml"
    config.write_text(f'language = "en"\nscenarios = "{folder}"\n', encoding="utf-8")
    assert main(["scenarios", "--check", "--config", str(config)]) == 0  # an English-only folder: no ja.toml asked for
    assert "1 scenarios, 0 expectations" in capsys.readouterr().out
    assert main(["scenarios", "--check", "--config", str(config), "--language", "ja"]) == 2  # the language in use
    assert "ja.toml" in capsys.readouterr().err


def test_scenarios_check_counts_what_it_read(tmp_path, capsys):
    """The totals are the sums of the files read, each named with its counts: a folder given is
    its language files (not only en.toml), a file named twice is read once."""
    folder = tmp_path / "scenarios"
    folder.mkdir()
    (folder / "en.toml").write_text('[[scenario]]\nid = "a"\nquestion = "Where is my parcel?"\n', encoding="utf-8")
    (folder / "ja.toml").write_text(
        '[[scenario]]\nid = "b"\nquestion = "荷物はどこ？"\nexpect = ["謝る"]\n'
        '[[scenario]]\nid = "c"\nquestion = "返金は？"\n',
        encoding="utf-8",
    )
    assert main(["scenarios", "--check", str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"{folder / 'en.toml'}: 1 scenarios, 0 expectations" in out
    assert f"{folder / 'ja.toml'}: 2 scenarios, 1 expectations" in out
    assert "3 scenarios, 1 expectations, 0 policies: all valid" in out
    en = folder / "en.toml"
    assert main(["scenarios", "--check", str(en), str(folder / ".." / "scenarios" / "en.toml")]) == 0
    out = capsys.readouterr().out
    assert out.count("en.toml: 1 scenarios") == 1 and "1 scenarios, 0 expectations, 0 policies: all valid" in out


def test_scenarios_check_of_a_folder_without_scenario_files_names_it(tmp_path, capsys):
    empty = tmp_path / "drafts"
    empty.mkdir()
    assert main(["scenarios", "--check", str(empty)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert f"scenario folder {empty} has no ja.toml or en.toml — name the scenario files, or a folder holding" in err
