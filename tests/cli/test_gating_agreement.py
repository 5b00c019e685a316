"""The floor for every verdict that gates: dialogue verdicts (resolution, expectations) from a
judge under the floor are shown, not gated, unless asked; the run's gate names what decided its
exit status; and a gate that moved since the previous run is named. Verdicts written straight into
a real SQLite store."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.runs.gate import run_gate
from ragtui.core.runs.gate_changes import gate_changes, standings
from ragtui.core.runs.gate_scope import scope_line
from ragtui.core.runs.low_agreement import left_out_line
from ragtui.core.store.store import Store
from ragtui.core.types.agreement_floor import AgreementFloor
from stand_ins.synthetic_runs import write_dialogue


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def card(value: float, low: float, high: float, figure: str = "spearman", n: int = 30) -> dict[str, object]:
    return {"metric": "m", "language": "en", "model": "j", "fingerprint": "f", "figure": figure, "value": value,
            "n": n, "on": "labels.jsonl", "source": "measured", "low": low, "high": high}  # fmt: skip


LOW_RUBRIC = card(0.10, -0.39, 0.54)
LOW_RESOLUTION = card(0.36, -0.05, 0.66)  # resolution judge: its interval reaches under the floor
MEASURED_RESOLUTION = card(0.80, 0.62, 0.90)


def rows(db: Store, run_id: str) -> list:
    return [db.session(s.id) for s in reversed(db.sessions(run_id=run_id))]


def test_a_failing_resolution_rate_from_a_low_agreement_judge_is_shown_not_gated(db: Store):
    write_dialogue(db, "r", "a", "calm", [0.9], verdicts={"resolution": (0.2, "unresolved")},
                   agreement={"resolution": LOW_RESOLUTION})  # fmt: skip
    result = run_gate(rows(db, "r"), 0.7, min_resolution_rate=0.6)
    assert result.status == 0 and result.reasons == [] and result.resolution_problem is None
    line = left_out_line(result.left_out)
    assert "resolution Spearman 0.36 < floor 0.5 (resolution rate 0% (0/1) < min_resolution_rate 60%)" in line
    gated = run_gate(rows(db, "r"), 0.7, min_resolution_rate=0.6, gate_low_agreement=True)
    assert gated.status == 1 and "resolution rate 0%" in gated.reasons[0]


def test_a_point_figure_over_the_floor_whose_interval_is_not_is_low_for_a_dialogue_verdict_too(db: Store):
    wide = card(0.56, -0.07, 0.87, n=12)  # faithfulness ja on the old card: over 0.5, interval from -0.07
    write_dialogue(db, "r", "a", "calm", [0.9], verdicts={"resolution": (0.2, "unresolved")},
                   agreement={"resolution": wide})  # fmt: skip
    result = run_gate(rows(db, "r"), 0.7, min_resolution_rate=0.6)
    assert result.status == 0
    assert "resolution Spearman 0.56, but its 95% CI starts at -0.07 < floor 0.5" in left_out_line(result.left_out)


def test_a_measured_resolution_judge_still_fails_the_run_and_is_named_as_deciding(db: Store):
    write_dialogue(db, "r", "a", "calm", [0.9], verdicts={"resolution": (0.2, "unresolved")},
                   agreement={"resolution": MEASURED_RESOLUTION})  # fmt: skip
    result = run_gate(rows(db, "r"), 0.7, min_resolution_rate=0.6)
    assert result.status == 1 and result.left_out == []
    assert scope_line(result.scope).startswith("exit status decided by: rubric, resolution")


def test_broken_policies_from_a_low_agreement_expectation_judge_do_not_fail_the_run(db: Store):
    session_id = write_dialogue(db, "r", "a", "calm", [0.9])
    from ragtui.core.types.judgments import Judgment

    broken = {"expectation": {"id": "p1", "text": "asks for the password", "polarity": "must_not",
                              "origin": "policy", "form": "judged"}, "status": "broken", "passed": False}  # fmt: skip
    details = {"results": [broken], "agreement": card(0.47, 0.21, 0.70, "kappa", 30)}
    db.add_dialogue_judgment(session_id, Judgment("expectations", 0.0, details))
    result = run_gate(rows(db, "r"), 0.7, fail_on_policy=True)
    assert result.status == 0, result.reasons
    assert "expectations κ 0.47, but its 95% CI starts at 0.21 < floor 0.4" in left_out_line(result.left_out)
    assert run_gate(rows(db, "r"), 0.7, fail_on_policy=True, gate_low_agreement=True).status == 1


def test_when_nothing_judged_can_fail_the_run_the_gate_says_so_plainly(db: Store):
    # The README's first command on the embedded judge: the rubric under the floor, resolution and
    # expectations judged but their gates off by default.
    write_dialogue(db, "r", "a", "calm", [0.3], verdicts={"resolution": (0.2, "unresolved")},
                   agreement={"rubric": LOW_RUBRIC, "resolution": LOW_RESOLUTION})  # fmt: skip
    result = run_gate(rows(db, "r"), 0.7, floor=AgreementFloor())
    assert result.status == 0
    line = scope_line(result.scope)
    assert line.startswith("no verdict decides this exit status — shown only: rubric (low agreement), ")
    assert "resolution (min_resolution_rate 0: off)" in line
    asked = run_gate(rows(db, "r"), 0.7, gate_low_agreement=True)
    assert asked.status == 1 and scope_line(asked.scope).startswith("exit status decided by: rubric ·")


def test_a_gate_that_moved_since_the_previous_run_is_named(db: Store):
    write_dialogue(db, "one", "a", "calm", [0.3])  # the rubric unmeasured: it gates
    write_dialogue(db, "two", "a", "calm", [0.3], agreement={"rubric": LOW_RUBRIC})  # now low: it does not
    floor = AgreementFloor()
    lines = gate_changes(standings(rows(db, "one"), floor), standings(rows(db, "two"), floor), "one")
    assert lines == [
        "rubric (en) no longer gates (low agreement) since run one: judge Spearman 0.10 [-0.39–0.54] (n=30), "
        "was unmeasured"
    ]
    same = gate_changes(standings(rows(db, "two"), floor), standings(rows(db, "two"), floor), "two")
    assert same == []
    # With --gate-low-agreement both gate: nothing moved.
    asked = gate_changes(standings(rows(db, "one"), floor, True), standings(rows(db, "two"), floor, True), "one")
    assert asked == []


def test_show_prints_each_dialogue_verdicts_agreement_under_it(server, tmp_path: Path, capsys, monkeypatch):
    from ragtui.cli import output
    from ragtui.cli.main import main

    from .test_low_agreement import write_config

    monkeypatch.setattr(output.console, "_width", 220)
    config = write_config(tmp_path, server.base_url)
    store = Store.open(tmp_path / "runs.db")
    try:
        session_id = write_dialogue(store, "r", "a", "calm", [0.9], verdicts={"resolution": (0.2, "unresolved"),
                                    "repetition": (1.0, None)}, agreement={"resolution": LOW_RESOLUTION})  # fmt: skip
    finally:
        store.close()
    assert main(["show", str(session_id), "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "agreement with people: Spearman 0.36 (n=30, 95% CI -0.05–0.66, labels.jsonl)" in out
    assert "unmeasured — ragtui judge-card" in out  # repetition: its judge is unmeasured here


def test_no_gate_change_is_named_for_a_verdict_that_gated_in_neither_run(db: Store):
    """A run said "repetition (not a gate)" and then "repetition (en) no longer gates (low
    agreement) since run …": a verdict that is shown only whatever its judge never moves."""
    from ragtui.cli.run_command import _gate_changes

    low_repetition = card(0.2, -0.1, 0.5)
    verdicts = {"resolution": (1.0, "resolved"), "repetition": (1.0, None)}
    write_dialogue(db, "one", "a", "calm", [0.9], verdicts=verdicts)  # every judge unmeasured
    write_dialogue(db, "two", "a", "calm", [0.9], verdicts=verdicts,
                   agreement={"rubric": LOW_RUBRIC, "resolution": LOW_RESOLUTION, "repetition": low_repetition})  # fmt: skip
    gate = run_gate(rows(db, "two"), 0.7, floor=AgreementFloor())
    line = scope_line(gate.scope)
    assert "repetition (not a gate)" in line and "resolution (min_resolution_rate 0: off)" in line
    changes = _gate_changes(db, "two", rows(db, "two"), gate)
    # The rubric gates by default: its move is named; resolution and repetition gated in neither run.
    assert [c.split(" since")[0] for c in changes] == ["rubric (en) no longer gates (low agreement)"], changes
    # With the resolution gate on, its move is named too.
    on = run_gate(rows(db, "two"), 0.7, min_resolution_rate=0.5, floor=AgreementFloor())
    moved = [c.split(" since")[0] for c in _gate_changes(db, "two", rows(db, "two"), on)]
    assert moved == ["resolution (en) no longer gates (low agreement)", "rubric (en) no longer gates (low agreement)"]
