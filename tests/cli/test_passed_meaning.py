""" "passed" has one meaning in every output (docs/glossary.md): a dialogue passed when it ended
normally, scored at or above the threshold, held every --metric at its pass mark and, when its
resolution was judged, was resolved or handed over. The Markdown count, the JUnit test cases, the
HTML report's cards, badges and trial marks, pass^1, `ragtui runs`' pass rate, compare's passes
and the results table's pass column all read it from one function — checked here on one run
whose dialogues each fail the definition in a different way."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from rich.console import Console

from ragtui.core.metrics.base import Judgment
from ragtui.core.runs.dialogues import load_run
from ragtui.core.runs.gate import run_gate
from ragtui.core.runs.html_report.build import run_report_html
from ragtui.core.runs.listing import list_runs
from ragtui.core.runs.pass_k import run_pass_k
from ragtui.core.runs.passing import read_pass
from ragtui.core.runs.run_report import junit_xml, run_markdown
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue

THRESHOLD = 0.7


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def with_metric(db: Store, session_id: int, metric: str, score: float, mark: float) -> None:
    """A `--metric` verdict on the dialogue's one turn, judged against its own pass mark."""
    bot = db.session(session_id).messages[1]
    db.add_judgment(session_id, bot.id, 1, Judgment(metric, score, {"threshold": mark}, raw_reply="x"))
    db.write("add the metric", lambda: db._db.conn.execute(
        "UPDATE sessions SET metrics = ? WHERE id = ?", ['["rubric", "faithfulness"]', session_id]))  # fmt: skip


def mixed_run(db: Store) -> dict[str, int]:
    """Two trials of four pairs: one passes both; one is unresolved in its second trial (its score
    passes); one scores under the threshold; one fails its --metric in its second trial."""
    ids = {}
    for trial in (1, 2):
        ids[f"good{trial}"] = write_dialogue(db, "r", "good", "calm", [0.9], trial=trial,
                                             verdicts={"resolution": (1.0, "resolved")})  # fmt: skip
        outcome = "resolved" if trial == 1 else "unresolved"
        ids[f"unres{trial}"] = write_dialogue(db, "r", "unres", "calm", [0.9], trial=trial,
                                              verdicts={"resolution": (1.0 if trial == 1 else 0.0, outcome)})  # fmt: skip
        ids[f"low{trial}"] = write_dialogue(db, "r", "low", "calm", [0.6954], trial=trial)
        ids[f"metric{trial}"] = write_dialogue(db, "r", "metric", "calm", [0.9], trial=trial)
        with_metric(db, ids[f"metric{trial}"], "faithfulness", 0.9 if trial == 1 else 0.4, 0.8)
    return ids


def sessions(db: Store) -> list:
    return [db.session(s.id) for s in reversed(db.sessions(run_id="r"))]


# Passed: good ×2, unres trial 1, metric trial 1.
PASSED = {"good1", "good2", "unres1", "metric1"}


def test_every_output_counts_the_same_dialogues_as_passed(db: Store):
    ids = mixed_run(db)
    rows = sessions(db)
    passed_ids = {ids[k] for k in PASSED}
    assert {s.id for s in rows if read_pass(s).passed} == passed_ids
    gate = run_gate(rows, THRESHOLD)

    # Markdown: the head's count, each row's result.
    md = run_markdown("r", rows, THRESHOLD, {}, gate)
    assert f"· {len(PASSED)}/{len(rows)} passed ·" in md
    assert md.count(" passed |") == len(PASSED)

    # JUnit: a dialogue's test case has no failure, error or skipped child exactly when it passed.
    root = ET.fromstring(junit_xml("r", rows, {}, gate))
    clean = set()
    for case in root.iter("testcase"):
        found = re.search(r"\(session (\d+)\)", case.get("name", ""))
        if found and case.get("classname", "").count(".") == 1 and not list(case.iterfind("./*[@message]")):
            clean.add(int(found.group(1)))
    assert clean == passed_ids

    # pass^1 (every pair has two trials): the same share.
    assert run_pass_k(rows).estimate(1) == pytest.approx(len(PASSED) / len(rows))
    # `ragtui runs` and the TUI's Runs: the same figure, read with SQL.
    (summary,) = list_runs(db)
    assert summary.pass_rate == pytest.approx(len(PASSED) / len(rows))
    # compare's dialogues (a trial's passes over all its trials): the same dialogues.
    assert {d.session_id for d in load_run(db, "r") if d.passed} == passed_ids

    # HTML: the card, each dialogue's badge and the trial marks.
    page = run_report_html(db, "r", {})
    assert f'<div class="card"><b>{len(PASSED)}</b><span>dialogues passed</span></div>' in page
    badges = {int(sid): word for word, sid in re.findall(r'<span class="badge \w+">([^<]+)</span>#(\d+) ', page)}
    assert {sid for sid, word in badges.items() if word == "passed"} == passed_ids
    marks = dict(re.findall(r'<a href="#d(\d+)" title="[^"]*">([●○])</a>', page))
    assert {int(sid) for sid, mark in marks.items() if mark == "●"} == passed_ids


def test_an_unresolved_dialogue_with_a_passing_score_is_not_listed_as_passed(db: Store):
    """The HTML listed `passed #35 … score 0.42 · unresolved` while its trial table marked #35 ○."""
    ids = mixed_run(db)
    rows = sessions(db)
    page = run_report_html(db, "r", {})
    badge = re.search(rf'<span class="badge (\w+)">([^<]+)</span>#{ids["unres2"]} [^<]*', page)
    assert badge is not None and badge.group(2) == "not passed", badge
    assert "unresolved (resolution gates the run by its resolution rate" in page
    md = run_markdown("r", rows, THRESHOLD, {}, run_gate(rows, THRESHOLD))
    line = next(x for x in md.splitlines() if x.startswith("| unres × calm · trial 2/2"))
    assert "did not pass: unresolved" in line


def test_the_results_table_has_a_pass_column_by_the_same_definition(db: Store):
    from ragtui.cli.run_results import results_table

    ids = mixed_run(db)
    rows = sessions(db)
    console = Console(width=200, record=True, color_system=None)
    console.print(results_table(rows, {}))
    text = console.export_text()
    head = next(line for line in text.splitlines() if " id " in line or "┃ id" in line or line.strip().startswith("id"))
    assert "pass" in head
    for key, sid in ids.items():
        line = next(x for x in text.splitlines() if re.match(rf"^\W*{sid}\W", x))
        assert ("✓" in line) == (key in PASSED), (key, line)
        assert ("✗" in line) == (key not in PASSED), (key, line)


def test_a_failing_score_the_rounding_would_lift_to_the_threshold_shows_its_digits(db: Store):
    """`0.70` beside a ✗ (0.6954 under 0.70) hid why it failed: it reads 0.695."""
    from ragtui.cli.run_results import results_table

    ids = mixed_run(db)
    rows = sessions(db)
    console = Console(width=200, record=True, color_system=None)
    console.print(results_table(rows, {}))
    line = next(x for x in console.export_text().splitlines() if re.match(rf"^\W*{ids['low1']}\W", x))
    assert " 0.695 " in line and "0.70" not in line, line
    md = run_markdown("r", rows, THRESHOLD, {}, run_gate(rows, THRESHOLD))
    row = next(x for x in md.splitlines() if x.startswith("| low × calm · trial 1/2"))
    assert "| 0.695 |" in row and "score 0.695 &lt; 0.70" in row, row
