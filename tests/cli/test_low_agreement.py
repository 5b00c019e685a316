"""Scores from a judge whose measured agreement with people is under ``[min_judge_agreement]``:
shown as low agreement beside the score, and left out of `ragtui run`'s exit status unless
``--gate-low-agreement`` (or ``gate_low_agreement = true``) asks. Against the fake server with a
real SQLite file; the low figure comes from a fit stored for the fake judge."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main

from ..conftest import JUDGE, check_answers, endpoint_toml
from ..low_agreement_judge import store_rubric_fit
from .test_compare import assert_junit_shape, dialogue_cases


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 220)


def write_config(tmp_path: Path, base_url: str, extra: str = "") -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\ndialogue_metrics = []\n'
        + extra
        + endpoint_toml(base_url),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def low_judge(server, tmp_path: Path) -> Path:
    """A config whose judge scores 0.40 (under the threshold 0.7) at Spearman 0.10 (n=18)."""
    config = write_config(tmp_path, server.base_url)
    store_rubric_fit(tmp_path / "runs.db", 0.10)
    server.set_default(JUDGE, check_answers(2.0))
    return config


def run(config: Path, *extra: str) -> int:
    return main(["run", "--config", str(config), "-s", "id-linking", "-p", "calm", *extra])


def test_a_low_agreement_score_under_the_threshold_does_not_fail_the_run_and_the_summary_says_so(low_judge, capsys):
    assert run(low_judge) == 0
    out = capsys.readouterr().out
    assert "rubric scores: agreement with people: Spearman 0.10 (n=18" in out
    assert "≈ low agreement (Spearman 0.10 < floor 0.5)" in out
    line = next(x for x in out.splitlines() if x.startswith("not gated"))
    assert "rubric Spearman 0.10 < floor 0.5" in line and "--gate-low-agreement" in line
    assert "≈0.40" in out  # the score itself carries the marker, readable without colour
    assert main(["show", "1", "--config", str(low_judge)]) == 0
    shown = capsys.readouterr().out
    assert "≈0.40" in shown and "≈ low agreement (Spearman 0.10 < floor 0.5)" in shown
    assert main(["sessions", "--config", str(low_judge)]) == 0
    assert "≈0.40" in capsys.readouterr().out


def test_gate_low_agreement_fails_the_run_as_before(low_judge, capsys):
    assert run(low_judge, "--gate-low-agreement") == 1
    out = capsys.readouterr().out
    assert "exit 1: 1 dialogue(s) scored under the threshold 0.7" in out
    assert "not gated" not in out


def test_gate_low_agreement_in_the_config_fails_the_run(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server.base_url, "gate_low_agreement = true\n")
    store_rubric_fit(tmp_path / "runs.db", 0.10)
    server.set_default(JUDGE, check_answers(2.0))
    assert run(config) == 1


def test_a_lower_floor_makes_the_same_judge_measured_and_gated(server, tmp_path: Path, capsys):
    # The floor reads the interval: Spearman 0.10 on 18 items reaches down to -0.39.
    config = write_config(tmp_path, server.base_url, "[min_judge_agreement]\nspearman = -0.4\n")
    store_rubric_fit(tmp_path / "runs.db", 0.10)  # its interval clears the floor: measured, not low
    server.set_default(JUDGE, check_answers(2.0))
    assert run(config) == 1
    out = capsys.readouterr().out
    assert "low agreement" not in out and "not gated" not in out


def test_an_unmeasured_judge_is_gated_as_before(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server.base_url)
    server.set_default(JUDGE, check_answers(2.0))
    assert run(config) == 1
    assert "rubric scores: unmeasured — ragtui judge-card" in capsys.readouterr().out


def test_junit_skips_a_low_agreement_failure_with_the_reason_and_markdown_shows_the_agreement(
    low_judge, tmp_path: Path, capsys
):
    junit, md = tmp_path / "junit.xml", tmp_path / "run.md"
    assert run(low_judge, "--junit", str(junit), "--markdown", str(md)) == 0
    root = ET.parse(junit).getroot()
    assert_junit_shape(root)
    suite = root.find("testsuite")
    assert suite is not None and suite.get("failures") == "0" and suite.get("skipped") == "1"
    (case,) = dialogue_cases(suite)
    skipped = case.find("skipped")
    assert skipped is not None and case.find("failure") is None
    assert "low judge agreement, not gated: rubric ≈0.40 < 0.70 (Spearman 0.10 < floor 0.5)" in skipped.get(
        "message", ""
    )
    text = md.read_text(encoding="utf-8")
    assert "rubric judge: Spearman 0.10 [-0.39–0.54] (n=18) · low agreement" in text
    assert "| ≈0.40 |" in text and "not gated (low judge agreement)" in text

    assert run(low_judge, "--gate-low-agreement", "--junit", str(junit)) == 1
    (case,) = dialogue_cases(ET.parse(junit).getroot().find("testsuite"))  # type: ignore[arg-type]
    assert case.find("failure") is not None and case.find("skipped") is None


def test_compare_shows_each_side_s_judge_agreement_and_marks_a_low_agreement_regression(
    low_judge, server, tmp_path: Path, capsys
):
    server.set_default(JUDGE, check_answers(4.0))
    assert run(low_judge) == 0
    server.set_default(JUDGE, check_answers(2.0))
    assert run(low_judge) == 0  # a low-agreement score under the threshold: not gated
    capsys.readouterr()
    md, junit, table = tmp_path / "compare.md", tmp_path / "compare.xml", tmp_path / "compare.csv"
    args = ["compare", "previous", "last", "--config", str(low_judge), "--markdown", str(md), "--junit", str(junit)]
    args += ["--csv", str(table)]
    assert main(args) == 0  # the drop is shown as a regression, but a low-agreement judge's is not gated
    out = capsys.readouterr().out
    assert "no gated regression" in out and "score regressions not gated (low agreement: " in out
    agreement = "rubric judge agreement: base Spearman 0.10 [-0.39–0.54] (n=18) · low agreement → new Spearman 0.10 [-0.39–0.54] (n=18) · low agreement"
    assert agreement in out and "regression ≈ low agreement" in out
    text = md.read_text(encoding="utf-8")
    assert agreement in text and "⚪ regression ≈ low agreement" in text and "🔴 regression" not in text
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    props = {p.get("name"): p.get("value") for p in suite.iter("property")}
    assert props["new_rubric_judge_agreement"] == "Spearman 0.10 [-0.39–0.54] (n=18) · low agreement"
    assert list(suite.iter("failure")) == [] and suite.get("skipped") == "1"
    (skipped,) = suite.iter("skipped")
    assert skipped.get("message", "").startswith("not gated: score regression")
    assert "(low agreement: Spearman 0.10 < floor 0.5)" in skipped.get("message", "")

    (row,) = csv.DictReader(io.StringIO(table.read_text(encoding="utf-8-sig")))
    assert (
        row["base_judge_agreement"] == row["new_judge_agreement"] == "Spearman 0.10 [-0.39–0.54] (n=18) · low agreement"
    )

    # Gated on request: the same comparison fails, and JUnit says failure.
    assert main([*args, "--gate-low-agreement"]) == 1
    suite = ET.parse(junit).getroot().find("testsuite")
    assert suite is not None
    (failure,) = suite.iter("failure")
    assert "score regression" in failure.get("message", "") and suite.get("skipped") == "0"


def test_compare_of_an_unmeasured_judge_says_unmeasured_and_keeps_the_red_regression(server, tmp_path: Path, capsys):
    config = write_config(tmp_path, server.base_url)
    server.set_default(JUDGE, check_answers(4.0))
    run(config)
    server.set_default(JUDGE, check_answers(2.0))
    run(config)
    md = tmp_path / "compare.md"
    capsys.readouterr()
    assert main(["compare", "previous", "last", "--config", str(config), "--markdown", str(md)]) == 1
    assert "rubric judge agreement: base unmeasured → new unmeasured" in capsys.readouterr().out
    assert "🔴 regression" in md.read_text(encoding="utf-8")
