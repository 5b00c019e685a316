"""With trials on both sides, compare judges a pair's resolution and each expectation over all
its trials, as it does the pair's passes: one trial that flipped is noise and is called "lower",
never "regression"; an expectation met in every trial before and in none now fails the
comparison; a rise is never listed among the drops."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.metrics.base import Judgment
from ragtui.core.runs.compare import compare_runs
from ragtui.core.runs.compare_report import comparison_markdown, summary_lines
from ragtui.core.runs.html_report.build import compare_report_html
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue


@pytest.fixture
def db(tmp_path: Path):
    store = Store.open(tmp_path / "runs.db")
    yield store
    store.close()


def trials(db: Store, run: str, scenario: str, outcomes: str, met: str = "") -> None:
    """A trial per character of ``outcomes`` (P passes, F fails); ``met``: per trial, whether
    expectation E1 was met (m) or missed (x)."""
    for trial, o in enumerate(outcomes, start=1):
        session = write_dialogue(db, run, scenario, "calm", [0.9 if o == "P" else 0.3], trial=trial)
        if met:
            status = "met" if met[trial - 1] == "m" else "missed"
            result = {"expectation": {"id": "E1", "text": "gives the refund window", "origin": "scenario"}}
            details = {"threshold": 1.0, "results": [{**result, "status": status, "turn": 1}]}
            db.add_dialogue_judgment(session, Judgment("expectations", float(status == "met"), details, raw_reply="x"))


def config(db: Store, tmp_path: Path) -> Path:
    path = tmp_path / "c.toml"
    path.write_text(f'database = "{db.path}"\n', encoding="utf-8")
    return path


def test_an_expectation_met_in_every_trial_before_and_in_none_now_fails_the_comparison(db, tmp_path, capsys):
    trials(db, "r1", "refund", "PPPP", met="mmmm")
    trials(db, "r2", "refund", "PPPP", met="xxxx")
    c = compare_runs(db, "r1", "r2")
    assert c.noise is not None and not c.noise.significant  # the scores did not move
    (change,) = c.expectation_regressions
    assert "over its trials: met in 4/4 → 0/4 trials (p=0.014)" in change.line
    assert c.exit_status == 1
    assert main(["compare", "--config", str(config(db, tmp_path)), "r1", "r2"]) == 1
    assert "expectation E1 regressed in refund × calm over its trials" in capsys.readouterr().out


def test_one_trial_that_missed_an_expectation_is_noise(db, tmp_path):
    trials(db, "r1", "refund", "PPPP", met="mmmm")
    trials(db, "r2", "refund", "PPPP", met="mmmx")
    c = compare_runs(db, "r1", "r2")
    assert c.expectation_regressions == [] and c.exit_status == 0
    assert c.strict_exit_status == 1  # --strict: any drop
    assert any(
        "expectations over each pair's trials: 0 regression(s) beyond noise, 1 lower" in line
        for line in summary_lines(c)
    )


def test_trial_rows_say_lower_and_a_rise_is_never_a_drop(db):
    trials(db, "r1", "refund", "PPP")
    trials(db, "r1", "outage", "PFF")
    trials(db, "r2", "refund", "PPF")
    trials(db, "r2", "outage", "PPP")
    c = compare_runs(db, "r1", "r2")
    assert c.noise is not None
    assert {p.label: p.verdict for p in c.noise.pairs} == {
        "outage × calm": "higher, within noise",
        "refund × calm": "lower, within noise",
    }
    lines = summary_lines(c)
    assert any("0 regression(s) beyond noise, 1 lower and 1 higher within noise, 0 better" in line for line in lines)
    trial_rows = comparison_markdown(c).split("Trial by trial:")[1]
    assert "regression" not in trial_rows and "lower" in trial_rows and "higher" in trial_rows
    page = re.sub(r"<[^>]+>", " ", compare_report_html(c, db, db, {}))
    drops = page.split("lower within noise (1)")[1].split("Higher")[0]
    assert "refund × calm" in drops and "outage × calm" not in drops  # the rise is listed apart
    assert "outage × calm" in page.split("Higher")[1]
