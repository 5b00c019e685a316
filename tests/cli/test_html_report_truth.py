"""The HTML report states what the run's verdicts say and nothing more: a run whose scores all come
from a low-agreement judge passes the gate, and the report says as plainly that those under the
threshold were not gated — the box amber, not green, every score with ≈, no bar or cell drawn red; a
score just under its mark reads as under it; control bytes of a reply are drawn, never written."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragtui.core.metrics import PRIMARY_METRIC
from ragtui.core.metrics.base import Judgment
from ragtui.core.runs.html_report.build import run_report_html
from ragtui.core.runs.html_report.charts import LOW_FILL
from ragtui.core.store.store import Store
from ragtui.core.text.score_text import under_mark
from stand_ins.synthetic_runs import write_dialogue

LOW = {"metric": PRIMARY_METRIC, "language": "en", "model": "j", "fingerprint": "f", "figure": "spearman",
       "value": 0.1, "n": 30, "on": "labels.jsonl", "source": "calibrate"}  # fmt: skip


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def low_dialogue(db: Store, scenario: str, score: float, customer: str = "") -> None:
    session_id = write_dialogue(
        db, "r", scenario, "calm", [score], customer=(lambda _t: customer) if customer else None
    )
    bot = db.session(session_id).messages[1]
    details = {"conclusion": "judged again", "agreement": LOW}
    db.add_judgment(session_id, bot.id, 1, Judgment(PRIMARY_METRIC, score, details, raw_reply="x"))
    db.refresh_score(session_id, PRIMARY_METRIC)


def test_a_pass_resting_on_a_low_agreement_judge_says_what_was_not_gated(db: Store):
    low_dialogue(db, "refund", 0.2999)
    low_dialogue(db, "outage", 0.9)
    page = run_report_html(db, "r", {})
    assert '<div class="gate warn"><b>Gate:</b> holds (exit 0)' in page
    assert "1 dialogue(s) scored under the threshold were not gated" in page
    assert "≈0.30" in page and "score 0.30" not in page  # every score carries the mark
    assert 'fill="#d93025"' not in page  # no bar red: the pass or fail is not trusted
    # The heat map too: each cell ≈ on the low-agreement grey, neither red nor green.
    cells = dict((tip, fill) for fill, tip in re.findall(r'fill="(#[0-9a-f]{6})"><title>([^<]*)</title>', page))
    assert cells["refund × calm: ≈0.30 over 1 dialogue(s) (low agreement judge)"] == LOW_FILL
    assert cells["outage × calm: ≈0.90 over 1 dialogue(s) (low agreement judge)"] == LOW_FILL


def test_a_score_just_under_its_mark_reads_as_under_it():
    assert under_mark(0.2999, 0.3) == "0.2999 < 0.30"
    assert under_mark(0.28, 0.7, low=True) == "≈0.28 < 0.70"


def test_control_bytes_of_a_message_are_drawn_not_written(db: Store):
    low_dialogue(db, "refund", 0.9, customer="ring \x07 the bell \x1b[31m red")
    page = run_report_html(db, "r", {})
    assert "\x1b" not in page and "\x07" not in page
    assert "ring ␇ the bell ␛[31m red" in page
