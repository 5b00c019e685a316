"""A dialogue verdict's regression fails a comparison as the rubric's does: only when its judge
is not under the agreement floor (or the team gates low-agreement verdicts anyway). Compare shows
each dialogue verdict's agreement beside the rubric's, and says when a regression decided nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from ragtui.core.metrics.base import Judgment
from ragtui.core.runs.compare import compare_runs
from ragtui.core.runs.compare_report import comparison_junit, outcome_line, summary_lines
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue


def entry(value: float, n: int = 30) -> dict[str, Any]:
    return {"metric": "resolution", "language": "en", "model": "j", "fingerprint": "f", "figure": "spearman",
            "value": value, "low": value - 0.1, "high": value + 0.1, "n": n, "on": "dialogues.jsonl",
            "source": "calibrate"}  # fmt: skip


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def resolved(db: Store, run: str, outcome: str, agreement: dict[str, Any]) -> None:
    session = write_dialogue(db, run, "refund", "calm", [0.9])
    details = {"threshold": 1.0, "outcome": outcome, "agreement": agreement}
    db.add_dialogue_judgment(session, Judgment("resolution", float(outcome == "resolved"), details, raw_reply="x"))


def test_a_low_agreement_resolution_regression_is_shown_not_gated(db: Store):
    resolved(db, "r1", "resolved", entry(0.25))
    resolved(db, "r2", "unresolved", entry(0.25))
    c = compare_runs(db, "r1", "r2")
    assert c.resolution_regressions == 1 and c.exit_status == 0
    assert outcome_line(c) == "no gated regression"
    line = next(line for line in summary_lines(c) if line.startswith("resolution judge agreement"))
    assert "low agreement" in line and "shown, not gated" in line
    junit = comparison_junit(c)
    assert 'failures="0"' in junit and "not gated" in junit
    assert 'name="new_resolution_judge_agreement" value="Spearman 0.25 [0.15–0.35] (n=30) · low agreement"' in junit
    c.gate_low_agreement = True
    assert c.exit_status == 1 and outcome_line(c).startswith("0 score regression(s), 1 resolution regression(s)")


def test_a_trusted_resolution_regression_fails_the_comparison(db: Store):
    resolved(db, "r1", "resolved", entry(0.8))
    resolved(db, "r2", "unresolved", entry(0.8))
    c = compare_runs(db, "r1", "r2")
    assert c.exit_status == 1 and 'failures="1"' in comparison_junit(c)
    line = next(line for line in summary_lines(c) if line.startswith("resolution judge agreement"))
    assert "low agreement" not in line and "not gated" not in line


def test_the_csv_export_gives_each_dialogue_verdict_s_judge_agreement(db: Store):
    import csv
    import io

    from ragtui.core.store.export import sessions_to_csv

    resolved(db, "r1", "resolved", entry(0.25))
    (row,) = csv.DictReader(io.StringIO(sessions_to_csv(db.run_sessions("r1"))))
    assert row["resolution_judge_agreement"].startswith("Spearman 0.25") and "n=30" in row["resolution_judge_agreement"]
    assert row["repetition_judge_agreement"] == ""  # no verdict of it: nothing to measure
