"""Every output of `ragtui compare` carries each side's judge agreement — with trials as without
(JUnit properties, CSV columns) — and writes a score whose judge agrees with people under the
floor as ``≈0.29``, as `ragtui runs`, `ragtui show` and the TUI do (``score_text``)."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.runs.compare import compare_runs
from ragtui.core.runs.compare_report import comparison_csv, comparison_junit, comparison_markdown
from ragtui.core.runs.html_report.build import compare_report_html
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue


def entry(value: float, n: int = 30) -> dict[str, Any]:
    return {"metric": "rubric", "language": "en", "model": "j", "fingerprint": "f", "figure": "spearman",
            "value": value, "low": value - 0.1, "high": value + 0.1, "n": n, "on": "turns.jsonl",
            "source": "calibrate"}  # fmt: skip


LOW, TRUSTED = {"rubric": entry(0.1)}, {"rubric": entry(0.8)}


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 200)


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def trials(db: Store, run: str, outcomes: str, agreement: dict[str, dict]) -> None:
    for trial, o in enumerate(outcomes, start=1):
        write_dialogue(db, run, "refund", "calm", [0.9 if o == "P" else 0.29], trial=trial, agreement=agreement)


def test_with_trials_junit_and_csv_carry_each_side_s_judge_agreement(db: Store):
    trials(db, "r1", "PPPP", TRUSTED)
    trials(db, "r2", "PPFF", LOW)
    c = compare_runs(db, "r1", "r2")
    assert c.noise is not None
    suite = ET.fromstring(comparison_junit(c).split("\n", 1)[1]).find("testsuite")
    assert suite is not None
    props = {p.get("name"): p.get("value", "") for p in suite.iter("property")}
    assert props["base_rubric_judge_agreement"] == "Spearman 0.80 [0.70–0.90] (n=30)"
    assert props["new_rubric_judge_agreement"] == "Spearman 0.10 [0.00–0.20] (n=30) · low agreement"
    (row,) = csv.DictReader(io.StringIO(comparison_csv(c)))
    assert row["base_judge_agreement"] == "Spearman 0.80 [0.70–0.90] (n=30)"
    assert row["new_judge_agreement"] == "Spearman 0.10 [0.00–0.20] (n=30) · low agreement"


def test_a_low_agreement_score_reads_with_the_mark_in_every_view_dialogue_against_dialogue(db, tmp_path, capsys):
    write_dialogue(db, "r1", "refund", "calm", [0.9], agreement=LOW)
    write_dialogue(db, "r2", "refund", "calm", [0.29], agreement=LOW)
    c = compare_runs(db, "r1", "r2")
    assert "| ≈0.90 | ≈0.29 |" in comparison_markdown(c)
    junit = comparison_junit(c)
    assert "score ≈0.90 → ≈0.29" in junit and " 0.29" not in junit
    page = compare_report_html(c, db, db, {})
    assert '<td class="n">≈0.29</td>' in page
    config = tmp_path / "c.toml"
    config.write_text(f'database = "{db.path}"\n', encoding="utf-8")
    assert main(["compare", "--config", str(config), "r1", "r2", "--turns"]) == 0  # low agreement: not gated
    out = capsys.readouterr().out
    row = next(line for line in out.splitlines() if "refund × calm" in line)
    assert "≈0.90" in row and "≈0.29" in row and "1:≈0.90→≈0.29" in row
    assert "run score ≈0.90 → ≈0.29" in out
    assert "1 pair(s): 1 regression(s) not gated (low agreement), 0 fixed" in out  # as the verdict says


def test_a_low_agreement_score_reads_with_the_mark_over_trials(db, tmp_path, capsys):
    trials(db, "r1", "PPPP", LOW)
    trials(db, "r2", "FFFF", LOW)
    c = compare_runs(db, "r1", "r2")
    assert "| 4/4 | 0/4 | ≈0.90 | ≈0.29 |" in comparison_markdown(c)
    config = tmp_path / "c.toml"
    config.write_text(f'database = "{db.path}"\n', encoding="utf-8")
    main(["compare", "--config", str(config), "r1", "r2"])
    row = next(line for line in capsys.readouterr().out.splitlines() if "refund × calm" in line)
    assert "≈0.90 → ≈0.29" in row


def test_a_trusted_judge_s_score_has_no_mark(db: Store):
    write_dialogue(db, "r1", "refund", "calm", [0.9], agreement=TRUSTED)
    write_dialogue(db, "r2", "refund", "calm", [0.29], agreement=TRUSTED)
    markdown = comparison_markdown(compare_runs(db, "r1", "r2"))
    assert "| 0.90 | 0.29 |" in markdown and "≈" not in markdown
