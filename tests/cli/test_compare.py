"""Comparing runs in the core: matching, flags, the paired bootstrap, and the reports."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from ragtui.core.runs.compare import compare_runs
from ragtui.core.runs.compare_report import comparison_csv, comparison_markdown
from ragtui.core.runs.listing import list_runs, pair_trends, sparkline
from ragtui.core.runs.paired_bootstrap import paired_bootstrap
from ragtui.core.runs.resolve import resolve_run
from ragtui.core.runs.run_report import junit_xml, run_markdown
from ragtui.core.store.store import Store
from ragtui.core.types.errors import RagtuiError
from stand_ins.synthetic_runs import write_dialogue, write_run


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def two_runs(db: Store) -> None:
    write_dialogue(db, "r1", "refund", "calm", [0.8, 0.8])  # pass → fail: regression
    write_dialogue(db, "r1", "refund", "angry", [0.4, 0.6])  # fail → pass: fixed
    write_dialogue(db, "r1", "outage", "calm", [0.9, 0.9])  # pass → unscored: regression
    write_dialogue(db, "r1", "outage", "angry", [None, None])  # unscored → fail
    write_dialogue(db, "r1", "login", "calm", [0.8])  # only in base
    write_dialogue(db, "r2", "refund", "calm", [0.8, 0.4])
    write_dialogue(db, "r2", "refund", "angry", [0.9, 0.9])
    write_dialogue(db, "r2", "outage", "calm", [None, None])
    write_dialogue(db, "r2", "outage", "angry", [0.5, 0.5])
    write_dialogue(db, "r2", "signup", "calm", [1.0], customer=lambda t: "different")  # only in new


def test_pairs_are_matched_and_flagged(db: Store):
    two_runs(db)
    c = compare_runs(db, "r1", "r2")
    flags = {p.label: p.flag for p in c.pairs}
    assert flags == {
        "refund × calm": "regression",
        "refund × angry": "fixed",
        "outage × calm": "regression",
        "outage × angry": "unscored in base",
    }
    assert c.regressions == 2 and c.fixes == 1 and c.unscored == 1 and c.exit_status == 1
    assert [d.scenario_id for d in c.only_in_base] == ["login"]
    assert [d.scenario_id for d in c.only_in_new] == ["signup"]
    pair = next(p for p in c.pairs if p.label == "refund × calm")
    assert pair.delta == pytest.approx(-0.2)
    assert [(r.turn, r.base_score, r.new_score) for r in pair.turn_rows()] == [(1, 0.8, 0.8), (2, 0.8, 0.4)]
    assert pair.diverges_at is None  # the same customer messages in both
    # Only pairs scored in both count towards the interval: refund × calm and refund × angry.
    assert c.interval is not None and c.interval.n == 2
    assert c.interval.mean == pytest.approx((-0.2 + 0.4) / 2)


def test_no_regression_exits_0_and_divergence_is_found(db: Store):
    write_dialogue(db, "a", "refund", "calm", [0.8, 0.8])
    write_dialogue(db, "b", "refund", "calm", [0.9, 0.8], customer=lambda t: "same" if t == 1 else "other")
    c = compare_runs(db, "a", "b")
    assert c.exit_status == 0 and c.pairs[0].flag == "same"
    assert c.pairs[0].diverges_at == 1  # synthetic customers say "… turn 1" vs "same"


def test_metrics_other_than_the_rubric_get_their_own_delta(db: Store):
    write_dialogue(db, "a", "refund", "calm", [0.6, 0.6], extra_metric="faithfulness")
    write_dialogue(db, "b", "refund", "calm", [0.8, 0.8], extra_metric="faithfulness")
    c = compare_runs(db, "a", "b")
    assert list(c.metric_deltas) == ["faithfulness"]
    assert c.metric_deltas["faithfulness"].mean == pytest.approx(0.2)


def test_bootstrap_is_reproducible_and_brackets_the_mean():
    deltas = [0.1, 0.2, -0.05, 0.3, 0.0, 0.15, 0.05, 0.2]
    first, second = paired_bootstrap(deltas), paired_bootstrap(deltas)
    assert first == second
    assert first.low < first.mean < first.high and first.verdict == "better"
    assert paired_bootstrap([-0.3, -0.2, -0.25, -0.1]).verdict == "worse"
    assert paired_bootstrap([0.1, -0.1, 0.2, -0.2]).verdict == "no clear difference"
    assert paired_bootstrap([]) is None
    assert paired_bootstrap([0.3]).low == 0.3


def test_a_real_shift_is_detected_on_many_dialogues(db: Store):
    write_run(db, "base", 200, seed=1)
    write_run(db, "better", 200, seed=2, shift=0.1)
    c = compare_runs(db, "base", "better")
    assert len(c.pairs) == 200 and c.interval is not None
    assert c.interval.verdict == "better" and 0.05 < c.interval.mean < 0.15


def test_bad_inputs_are_one_clear_error(db: Store):
    write_dialogue(db, "en-run", "refund", "calm", [0.8])
    write_dialogue(db, "ja-run", "refund", "calm", [0.8], language="ja")
    write_dialogue(db, "other", "outage", "angry", [0.8])
    with pytest.raises(RagtuiError, match="different languages"):
        compare_runs(db, "en-run", "ja-run")
    with pytest.raises(RagtuiError, match="no scenario × persona in common"):
        compare_runs(db, "en-run", "other")
    with pytest.raises(RagtuiError, match="no run 'missing'"):
        resolve_run(db, "missing")


def test_run_references(db: Store):
    for run in ("20260101-a", "20260102-b", "20260103-c"):
        write_dialogue(db, run, "refund", "calm", [0.8])
    assert resolve_run(db, "last") == "20260103-c"
    assert resolve_run(db, "previous") == "20260102-b"
    assert resolve_run(db, "20260101") == "20260101-a"
    with pytest.raises(RagtuiError, match="ambiguous"):
        resolve_run(db, "2026")


def test_markdown_and_csv_reports(db: Store):
    two_runs(db)
    write_dialogue(db, "r1", "=cmd|x", "calm", [0.8])
    write_dialogue(db, "r2", "=cmd|x", "calm", [0.8])
    c = compare_runs(db, "r1", "r2")
    md = comparison_markdown(c)
    assert "| refund × calm | 🔴 regression | 0.80 | 0.60 | -0.20 | – | 🔴 regression |" in md  # verdict, score flag
    assert "=cmd\\|x × calm" in md  # a pipe in a scenario id does not break the table
    assert "Only in base: login × calm" in md and "95% CI" in md
    rows = list(csv.DictReader(io.StringIO(comparison_csv(c))))
    regression = next(r for r in rows if r["scenario"] == "refund" and r["persona"] == "calm")
    assert regression["flag"] == "regression" and float(regression["delta"]) == pytest.approx(-0.2)
    assert regression["new_turn2"] == "0.4"
    assert next(r for r in rows if r["persona"] == "calm" and r["scenario"].endswith("x"))["scenario"] == "'=cmd|x"
    assert any(r["flag"] == "only in new" and r["scenario"] == "signup" for r in rows)


# The JUnit shape Jenkins' junit plugin schema (junit-10), GitLab and the GitHub test-report
# actions accept: which attributes each element may carry, which it must, which children.
JUNIT_SHAPE = {
    "testsuites": ({"name", "time", "tests", "failures", "disabled", "errors", "skipped"}, set(), {"testsuite"}),
    "testsuite": (
        {"name", "tests", "failures", "errors", "time", "disabled", "skipped", "timestamp", "hostname", "id"},
        {"name", "tests"},
        {"properties", "testcase", "system-out", "system-err"},
    ),
    "properties": (set(), set(), {"property"}),
    "property": ({"name", "value"}, {"name", "value"}, set()),
    "testcase": (
        {"name", "classname", "time", "assertions", "status", "file", "line"},
        {"name"},
        {"skipped", "error", "failure", "system-out", "system-err"},
    ),
    "failure": ({"message", "type"}, set(), set()),
    "error": ({"message", "type"}, set(), set()),
    "skipped": ({"message"}, set(), set()),
    "system-out": (set(), set(), set()),
    "system-err": (set(), set(), set()),
}


def dialogue_cases(suite: ET.Element) -> list[ET.Element]:
    """A run report's test cases but the one per expectation (``ragtui.<scenario>.expectation``
    / ``.policy``), which a run over scenarios with expectations adds."""
    return [c for c in suite.iter("testcase") if not c.get("classname", "").endswith((".expectation", ".policy"))]


def failures_in(cases: list[ET.Element]) -> int:
    return sum(1 for c in cases if c.find("failure") is not None)


def assert_junit_shape(element: ET.Element) -> None:
    allowed, required, children = JUNIT_SHAPE[element.tag]
    assert set(element.attrib) <= allowed, (element.tag, set(element.attrib) - allowed)
    assert required <= set(element.attrib), (element.tag, required - set(element.attrib))
    for name in ("tests", "failures", "errors", "skipped"):
        if name in element.attrib:
            assert element.get(name, "").isdigit()
    if "time" in element.attrib:
        float(element.get("time", ""))
    if element.tag == "testsuite":
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", element.get("timestamp", ""))
        order = [c.tag for c in element]  # properties, then test cases, then output
        assert order == sorted(order, key=["properties", "testcase", "system-out", "system-err"].index)
    if element.tag == "testcase":
        outcomes = [c.tag for c in element if c.tag in ("skipped", "error", "failure")]
        assert len(outcomes) <= 1
    for child in element:
        assert child.tag in children, (element.tag, child.tag)
        assert_junit_shape(child)


def test_junit_has_the_shape_ci_systems_read(db: Store):
    write_dialogue(db, "r", "refund", "calm", [0.8, 0.9])
    write_dialogue(db, "r", "outage", "calm", [0.8, 0.3])
    write_dialogue(db, "r", "login", "calm", [None])
    errored = write_dialogue(db, "r", "signup", "calm", [0.9])
    db.set_status(errored, "finished", "error", "bot returned 500")
    cancelled = write_dialogue(db, "r", "refund", "angry", [0.9])
    db.set_status(cancelled, "finished", "cancelled")
    sessions = [db.session(s.id) for s in reversed(db.sessions(run_id="r"))]
    root = ET.fromstring(junit_xml("r", sessions))
    assert root.tag == "testsuites"
    assert_junit_shape(root)
    (suite,) = root.findall("testsuite")
    assert {k: suite.get(k) for k in ("tests", "failures", "errors", "skipped")} == {
        "tests": "5",
        "failures": "2",
        "errors": "1",
        "skipped": "1",
    }
    for case in suite.findall("testcase"):
        assert case.get("classname") and case.get("name") and float(case.get("time")) >= 0
    cases = {c.get("classname"): c for c in suite.findall("testcase") if "angry" not in c.get("name")}
    failure = cases["ragtui.outage"].find("failure")
    assert failure is not None and "turn 2: 0.30 < 0.70: synthetic" in failure.get("message")
    assert cases["ragtui.login"].find("failure").get("message") == "no turn could be scored"
    assert cases["ragtui.signup"].find("error").text == "bot returned 500"
    assert cases["ragtui.refund"].find("failure") is None
    assert "| outage × calm | 2 | 0.55 | max_turns | failure:" in run_markdown("r", sessions, 0.7)


def test_junit_strips_characters_xml_cannot_hold(db: Store):
    sid = write_dialogue(db, "r", "refund", "calm", [0.2])
    db.set_status(sid, "finished", "error", "bad \x00\x1b byte")
    ET.fromstring(junit_xml("r", [db.session(sid)]))  # parses


def test_runs_listing_and_trends(db: Store):
    write_dialogue(db, "r1", "refund", "calm", [0.5])
    write_dialogue(db, "r1", "refund", "angry", [None])
    write_dialogue(db, "r2", "refund", "calm", [0.9])
    write_dialogue(db, "r2", "refund", "angry", [0.7])
    write_dialogue(db, "r3", "outage", "calm", [0.2])
    runs = list_runs(db)
    assert [r.run_id for r in runs] == ["r1", "r2", "r3"]
    r1, r2, r3 = runs
    assert (r1.dialogues, r1.score, r1.pass_rate, r1.unscored) == (2, 0.5, 0.0, 1)
    assert r2.pass_rate == 1.0 and r2.models == {"bot": "synthetic"} and r2.bot == "builtin"
    assert r2.scenario_set == r1.scenario_set != r3.scenario_set
    assert r2.trend == [0.5, pytest.approx(0.8)] and r3.trend == [0.2]
    trends = {(t.scenario_id, t.persona_name): t.scores for t in pair_trends(db)}
    assert trends[("refund", "calm")] == [0.5, 0.9] and trends[("refund", "angry")] == [None, 0.7]
    assert sparkline([0.0, 0.5, 1.0, None]) == "▁▅█ "
