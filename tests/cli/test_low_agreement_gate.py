"""The run gate in the core with low-agreement verdicts written straight into a real SQLite
store: which failing scores it leaves out, what it still fails on, and JUnit's reading."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.runs.gate import run_gate
from ragtui.core.runs.low_agreement import left_out_line
from ragtui.core.runs.run_report import outcome
from ragtui.core.store.store import Store
from ragtui.core.types.agreement_floor import AgreementFloor
from ragtui.core.types.judgments import Judgment
from stand_ins.synthetic_runs import write_dialogue


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def entry(value: float | None, figure: str = "spearman") -> dict[str, object]:
    return {"metric": "m", "language": "en", "model": "j", "fingerprint": "f", "figure": figure, "value": value,
            "n": 12, "on": "labels.jsonl", "source": "calibrate"}  # fmt: skip


def judged(db: Store, run_id: str, scenario: str, metric: str, score: float | None, agreement: dict | None) -> int:
    """A one-turn dialogue whose rubric scores 0.9 (passing, unmeasured) and whose ``metric``
    (threshold 0.8) scores ``score``, measured at ``agreement``."""
    session_id = write_dialogue(db, run_id, scenario, "calm", [0.9], extra_metric=metric)
    session = db.session(session_id)
    details = {"threshold": 0.8, **({"agreement": agreement} if agreement else {})}
    error = None if score is not None else "judge reply was not JSON"
    db.add_judgment(session_id, session.messages[1].id, 1, Judgment(metric, score, details, error=error))
    return session_id


def rows(db: Store, run_id: str) -> list:
    return [db.session(s.id) for s in reversed(db.sessions(run_id=run_id))]


def test_a_low_agreement_metric_under_its_mark_is_left_out_and_named(db: Store):
    judged(db, "r", "a", "faithfulness", 0.3, entry(0.2))
    result = run_gate(rows(db, "r"), 0.7, {"faithfulness": 0.8})
    assert result.status == 0 and result.reasons == []
    assert left_out_line(result.left_out).startswith(
        "not gated (low judge agreement): faithfulness Spearman 0.20 < floor 0.5 (1 dialogue(s) under its pass mark)"
    )
    gated = run_gate(rows(db, "r"), 0.7, {"faithfulness": 0.8}, gate_low_agreement=True)
    assert gated.status == 1 and gated.left_out == [] and "faithfulness 0.30 < 0.8" in gated.reasons[0]
    (session,) = rows(db, "r")
    skipped = outcome(session, {"faithfulness": 0.8}, result)
    assert skipped.kind == "skipped" and "faithfulness ≈0.30 < 0.80 (Spearman 0.20 < floor 0.5)" in skipped.message
    assert outcome(session, {"faithfulness": 0.8}, gated).kind == "failure"


def test_measured_κ_at_the_floor_and_unmeasured_scores_still_fail(db: Store):
    judged(db, "k", "a", "answerability", 0.0, entry(0.4, "kappa"))  # at κ's floor: measured
    judged(db, "k", "b", "answerability", 0.0, None)  # unmeasured is not low
    result = run_gate(rows(db, "k"), 0.7, {"answerability": 0.8})
    assert result.status == 1 and len(result.reasons) == 2 and result.left_out == []


def test_an_unscored_verdict_fails_whatever_the_judge_s_agreement(db: Store):
    judged(db, "u", "a", "faithfulness", None, entry(0.1))
    result = run_gate(rows(db, "u"), 0.7, {"faithfulness": 0.8})
    assert result.status == 1 and result.reasons[-1].endswith("faithfulness unscored")


def test_a_higher_floor_makes_a_judge_low(db: Store):
    judged(db, "f", "a", "faithfulness", 0.3, entry(0.6))
    assert run_gate(rows(db, "f"), 0.7, {"faithfulness": 0.8}).status == 1
    higher = run_gate(rows(db, "f"), 0.7, {"faithfulness": 0.8}, floor=AgreementFloor(spearman=0.7))
    assert higher.status == 0 and higher.left_out[0].why == "Spearman 0.60 < floor 0.7"
