"""The run gate in the core: one decision for the exit status, JUnit and Markdown."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.runs.gate import run_gate
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def sessions(db: Store, run_id: str) -> list:
    return [db.session(s.id) for s in reversed(db.sessions(run_id=run_id))]


def test_resolution_gate(db: Store):
    write_dialogue(db, "r", "a", "calm", [0.8], verdicts={"resolution": (1.0, "resolved")})
    write_dialogue(db, "r", "b", "calm", [0.8], verdicts={"resolution": (0.0, "handed_over")})  # a success
    write_dialogue(db, "r", "c", "calm", [0.8], verdicts={"resolution": (0.5, "partly_resolved")})
    rows = sessions(db, "r")
    off = run_gate(rows, 0.7)
    assert off.status == 0 and off.reasons == [] and off.resolution is not None
    assert off.resolution.rate == pytest.approx(2 / 3)
    assert run_gate(rows, 0.7, min_resolution_rate=0.6).status == 0
    gated = run_gate(rows, 0.7, min_resolution_rate=0.8)
    assert gated.status == 1 and gated.reasons == ["resolution rate 67% (2/3) < min_resolution_rate 80%"]
    assert gated.resolution_problem == gated.reasons[0]


def test_unscored_and_missing_resolutions_never_pass_a_gate_and_never_count_as_0(db: Store):
    write_dialogue(db, "u", "a", "calm", [0.8], verdicts={"resolution": (1.0, "resolved")})
    write_dialogue(db, "u", "b", "calm", [0.8], verdicts={"resolution": (None, None)})
    rows = sessions(db, "u")
    result = run_gate(rows, 0.7)
    assert result.status == 0 and result.resolution is not None
    assert (result.resolution.rate, result.resolution.unscored) == (1.0, 1)  # 1/1 scored, not 1/2
    gated = run_gate(rows, 0.7, min_resolution_rate=0.5)
    assert gated.status == 1 and gated.reasons == [
        "1 dialogue(s) without a scored resolution verdict (min_resolution_rate 50%)"
    ]
    write_dialogue(db, "m", "a", "calm", [0.8])  # no dialogue verdicts at all
    missing = run_gate(sessions(db, "m"), 0.7, min_resolution_rate=0.5)
    assert missing.resolution is None and missing.status == 1
    assert missing.reasons[0].startswith("resolution rate unscored (no dialogue has a scored resolution verdict")


def test_every_reason_is_listed_and_an_error_is_2(db: Store):
    write_dialogue(db, "x", "a", "calm", [0.5], extra_metric="faithfulness")
    write_dialogue(db, "x", "b", "calm", [None])
    rows = sessions(db, "x")
    result = run_gate(rows, 0.7, {"faithfulness": 0.8})
    assert result.status == 1
    assert result.reasons == [
        "1 dialogue(s) scored under the threshold 0.7",
        "1 dialogue(s) could not be scored",
        "#1 a × calm: faithfulness 0.50 < 0.80",
    ]
    db.set_status(rows[1].id, "finished", "error", "the bot failed")
    assert run_gate(sessions(db, "x"), 0.7).status == 2
