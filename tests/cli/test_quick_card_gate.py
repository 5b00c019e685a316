"""A small measurement never moves a gate: after ``ragtui judge-card --measure --quick`` the same
run gates exactly as before, and a full measurement that does move it is named by the run it
affects. Against the fake server with a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.prompts import load_prompt
from ragtui.core.judge_quality.card_entry import CardEntry
from ragtui.core.judge_quality.card_store import save_entry
from ragtui.core.judge_quality.fit import prompt_fingerprint
from ragtui.core.metrics.rubric import CheckedRubricJudge
from ragtui.core.store.store import Store

from ..card_table import card_cells
from ..conftest import JUDGE, check_answers
from .test_low_agreement import run, write_config


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 220)


def rubric_fingerprint() -> str:
    judge = CheckedRubricJudge(None, load_prompt(bundled_dir("prompts"), "en", "judge_probes"))  # type: ignore[arg-type]
    return prompt_fingerprint(judge)


def test_a_quick_measurement_leaves_the_gate_as_it_was_and_a_full_one_that_moves_it_is_named(
    server, tmp_path: Path, capsys
):
    config = write_config(tmp_path, server.base_url)
    server.set_default(JUDGE, check_answers(2.0))  # every turn 0.40, under the threshold 0.7
    assert run(config) == 1  # unmeasured: gated
    capsys.readouterr()

    measured = ["judge-card", "--config", str(config), "--measure", "--quick", "--metric", "rubric", "--language", "en"]
    assert main(measured) == 0
    assert "quick" in capsys.readouterr().out
    assert main(["judge-card", "--config", str(config), "--metric", "rubric", "--language", "en"]) == 0
    rows = card_cells(capsys.readouterr().out)
    assert rows[("rubric", "en")][0] == "unmeasured"  # what decides the gate did not change
    assert rows[("rubric", "en/quick")][0].startswith("quick Spearman")  # the quick figure, shown

    assert run(config) == 1  # the same run gates exactly as before
    out = capsys.readouterr().out
    assert "rubric scores: unmeasured" in out and "exit status decided by: rubric" in out
    assert "since run" not in out  # nothing moved

    store = Store.open(tmp_path / "runs.db")
    try:  # a full measurement (30 items) under the floor: the gate moves, and the run says so
        full = CardEntry("rubric", "en", JUDGE, rubric_fingerprint(), "spearman", 0.2, 30, "labels", "measured",
                         -0.17, 0.52)  # fmt: skip
        save_entry(store, full)
    finally:
        store.close()
    assert run(config) == 0
    out = capsys.readouterr().out
    assert "rubric (en) no longer gates (low agreement) since run " in out
    assert "no verdict decides this exit status — shown only: rubric (low agreement)" in out
