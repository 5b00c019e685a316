"""Dialogue verdicts in a comparison: flags per pair, the resolution rates and their paired
interval, the reports, and runs that have no dialogue verdicts at all."""

from __future__ import annotations

import csv
import io
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ragtui.core.runs.compare import compare_runs
from ragtui.core.runs.compare_report import comparison_csv, comparison_junit, comparison_markdown, summary_lines
from ragtui.core.runs.dialogue_compare import verdict_flag
from ragtui.core.runs.dialogues import VerdictScore
from ragtui.core.runs.listing import list_runs
from ragtui.core.store.store import Store
from ragtui.core.types.judgments import Judgment
from stand_ins.synthetic_runs import write_dialogue

from .test_compare import assert_junit_shape

RESOLVED = {"resolution": (1.0, "resolved"), "retention": (1.0, None), "repetition": (1.0, None)}


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def runs_with_verdicts(db: Store) -> None:
    # Turn scores equal in both runs: every difference below is the dialogue verdicts'.
    write_dialogue(db, "a", "refund", "calm", [0.8], verdicts=RESOLVED)  # resolved → unresolved
    write_dialogue(db, "a", "refund", "angry", [0.8], verdicts={"resolution": (0.5, "partly_resolved")})
    write_dialogue(db, "a", "outage", "calm", [0.8], verdicts=RESOLVED)  # resolved → unscored
    write_dialogue(db, "a", "outage", "angry", [0.8], verdicts={"resolution": (0.0, "unresolved")})
    write_dialogue(db, "b", "refund", "calm", [0.8], verdicts={**RESOLVED, "resolution": (0.5, "unresolved")})
    write_dialogue(db, "b", "refund", "angry", [0.8], verdicts={"resolution": (0.5, "handed_over")})
    write_dialogue(db, "b", "outage", "calm", [0.8], verdicts={**RESOLVED, "resolution": (None, None)})
    write_dialogue(db, "b", "outage", "angry", [0.8], verdicts={"resolution": (0.0, "unresolved")})


def test_flags_of_one_verdict():
    ok, bad = VerdictScore("resolution", 1.0, "resolved"), VerdictScore("resolution", 0.5, "partly_resolved")
    unscored = VerdictScore("resolution", None, None)
    assert verdict_flag(ok, bad) == "regression" and verdict_flag(bad, ok) == "fixed"
    assert verdict_flag(ok, unscored) == "unscored in new"  # never a regression, never 0
    assert verdict_flag(unscored, unscored) == "unscored in both"
    assert verdict_flag(None, ok) == "missing in base" and verdict_flag(None, None) == "missing in both"
    # A correct handover is a success, like in the run's resolution rate.
    assert verdict_flag(bad, VerdictScore("resolution", 0.0, "handed_over")) == "fixed"
    # Retention and repetition pass at their stored mark.
    assert (
        verdict_flag(
            VerdictScore("retention", 1.0, None, threshold=1.0), VerdictScore("retention", 0.5, None, threshold=1.0)
        )
        == "regression"
    )
    assert (
        verdict_flag(VerdictScore("repetition", None, None, skipped=True), VerdictScore("repetition", 1.0, None))
        == "skipped"
    )


def test_pairs_get_dialogue_flags_and_the_rates_a_paired_interval(db: Store):
    runs_with_verdicts(db)
    c = compare_runs(db, "a", "b")
    flags = {p.label: p.verdict_flag("resolution") for p in c.pairs}
    assert flags == {
        "refund × calm": "regression",
        "refund × angry": "fixed",
        "outage × calm": "unscored in new",
        "outage × angry": "same",
    }
    assert {p.label: p.flag for p in c.pairs} == dict.fromkeys(flags, "same")  # turn scores did not move
    assert c.resolution_regressions == 1 and c.exit_status == 1  # a resolution regression fails the comparison
    r = c.resolution
    assert r is not None and not r.base_missing and not r.new_missing
    assert (r.base.successes, r.base.scored, r.base.unscored) == (2, 4, 0)
    assert (r.new.successes, r.new.scored, r.new.unscored) == (1, 3, 1)
    # Paired over the three pairs scored in both: -1, +1, 0.
    assert r.interval is not None and r.interval.n == 3 and r.interval.mean == pytest.approx(0.0)
    again = compare_runs(db, "a", "b").resolution
    assert again is not None and again.interval == r.interval  # fixed seed: the same interval every time
    pair = next(p for p in c.pairs if p.label == "refund × calm")
    assert pair.dialogue_flag == "resolution regression" and pair.verdict_flag("retention") == "same"
    assert next(p for p in c.pairs if p.label == "outage × calm").dialogue_flag == "unscored in new"
    lines = summary_lines(c)
    assert any(line.startswith("resolution rate 50% (2/4) → 33% (1/3), 1 unscored; mean Δ +0.000") for line in lines)


def test_reports_carry_the_dialogue_verdicts(db: Store):
    runs_with_verdicts(db)
    c = compare_runs(db, "a", "b")
    md = comparison_markdown(c)
    assert "| resolution | retention | repetition | dialogue flag |" in md
    assert "resolved 1.00 → unresolved 0.50" in md and "🔴 resolution regression" in md
    assert "resolved 1.00 → unscored" in md and "🟢 resolution fixed" in md
    rows = {r["scenario"] + " × " + r["persona"]: r for r in csv.DictReader(io.StringIO(comparison_csv(c)))}
    row = rows["outage × calm"]
    assert row["base_resolution"] == "1.0" and row["new_resolution"] == "" and row["new_outcome"] == "unscored"
    assert row["resolution_flag"] == "unscored in new"
    assert (
        rows["refund × angry"]["base_retention"] == "" and rows["refund × angry"]["retention_flag"] == "missing in both"
    )
    root = ET.fromstring(comparison_junit(c))
    assert_junit_shape(root)
    suite = root.find("testsuite")
    assert suite is not None and suite.get("tests") == "4" and suite.get("failures") == "1"
    failed = [case.get("name") for case in suite.iter("testcase") if case.find("failure") is not None]
    assert failed == ["refund × calm"]
    failure = next(case for case in suite.iter("testcase") if case.get("name") == "refund × calm").find("failure")
    assert failure is not None and "resolution regression resolved 1.00 → unresolved 0.50" in (
        failure.get("message") or ""
    )


def test_a_run_without_dialogue_verdicts_is_missing_not_zero(db: Store):
    write_dialogue(db, "old", "refund", "calm", [0.8])  # recorded before dialogue verdicts existed
    write_dialogue(db, "new", "refund", "calm", [0.8], verdicts={"resolution": (0.0, "unresolved")})
    c = compare_runs(db, "old", "new")
    assert c.exit_status == 0 and c.resolution_regressions == 0
    assert c.pairs[0].verdict_flag("resolution") == "missing in base"
    lines = [line for line in summary_lines(c) if line.startswith("resolution") and "judge agreement" not in line]
    assert lines == [
        "resolution: run old has no dialogue verdicts, so its resolution is missing "
        "(judge them with `ragtui judge-dialogue --run old`)"
    ]
    assert "missing → unresolved 0.00" in comparison_markdown(c)
    # Neither run has any: one line, and no dialogue columns in the reports.
    write_dialogue(db, "older", "refund", "calm", [0.8])
    c = compare_runs(db, "older", "old")
    assert [line for line in summary_lines(c) if line.startswith("resolution") and "agreement" not in line] == [
        "resolution: neither run has dialogue verdicts (dialogue_metrics off, or runs older than them)"
    ]
    assert "dialogue flag" not in comparison_markdown(c)


def test_runs_listing_has_the_resolution_rate_and_its_trend(db: Store):
    write_dialogue(db, "old", "refund", "calm", [0.8])  # no dialogue verdicts: missing, not 0
    runs_with_verdicts(db)
    write_dialogue(db, "c", "refund", "calm", [0.8], verdicts={"resolution": (None, None)})
    rows = {r.run_id: r for r in list_runs(db)}
    assert rows["old"].resolution is None and rows["old"].resolution_rate is None
    assert rows["a"].resolution_rate == pytest.approx(0.5)
    b = rows["b"].resolution
    assert b is not None and (b.successes, b.scored, b.unscored) == (1, 3, 1)
    c = rows["c"].resolution
    assert c is not None and c.rate is None and c.unscored == 1  # unscored, never 0
    assert rows["b"].resolution_trend == [pytest.approx(0.5), pytest.approx(1 / 3)]  # a, b: the same set
    # A newer verdict of the same dialogue replaces the older one in the rate.
    session = next(s for s in db.sessions(run_id="c"))
    db.add_dialogue_judgment(session.id, Judgment("resolution", 1.0, {"outcome": "resolved"}, raw_reply="x"))
    c = {r.run_id: r for r in list_runs(db)}["c"].resolution
    assert c is not None and (c.successes, c.scored, c.unscored) == (1, 1, 0)
