"""The TUI's compare screen gives each pair its verdict — regression / improved / within noise /
same, the words of `ragtui compare` and its reports — in a column beside the pair's name that
stays on screen at 80 columns, and writes a low-agreement score as ``≈0.29``. Pilot, real SQLite."""

from __future__ import annotations

import re

from textual.widgets import DataTable

from ragtui.core.runs.compare import compare_runs
from ragtui.core.store.store import Store
from ragtui.tui.screens.compare_screen import CompareScreen
from stand_ins.synthetic_runs import write_dialogue

from ..cli.test_compare_agreement_everywhere import LOW
from .conftest import settle
from .test_day_at_80 import screen_text
from .test_runs_compare_fork import cell_texts, open_compare

SMALL = (80, 24)
BASE, NEW = "20260101-run-a", "20260102-run-b"


def shown_rows(app) -> dict[str, str]:  # noqa: ANN001
    """Each pair's line as the 80-column terminal shows it."""
    lines = screen_text(app).splitlines()
    return {name: next(line for line in lines if line.lstrip().startswith(name)) for name in NAMES}


NAMES = ("refund × calm", "outage × calm", "linking × calm")


async def test_each_pair_has_its_verdict_on_screen_at_80_columns(make_app, store: Store):
    for run, scores in ((BASE, (0.9, 0.5, 0.8)), (NEW, (0.3, 0.9, 0.8))):
        for scenario, score in zip(("refund", "outage", "linking"), scores, strict=True):
            write_dialogue(store, run, scenario, "calm", [score])
    verdict = compare_runs(store, BASE, NEW).verdict  # what `ragtui compare` says of each pair
    assert {name: verdict.of(name).word for name in NAMES} == {
        "refund × calm": "regression",
        "outage × calm": "improved",
        "linking × calm": "same",
    }
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_compare(pilot)
        await settle(pilot)
        assert isinstance(app.screen, CompareScreen)
        head = next(line for line in screen_text(app).splitlines() if "scenario × persona" in line)
        assert head.split()[:5] == ["scenario", "×", "persona", "verdict", "base"]
        rows = shown_rows(app)
        for name in NAMES:
            assert re.search(rf"{name}\s+{verdict.of(name).word}\s", rows[name]), rows[name]


async def test_over_trials_every_trial_row_shows_its_pair_s_verdict(make_app, store: Store):
    for run, outcomes in ((BASE, "PPPP"), (NEW, "PPPF")):  # one trial fewer: within noise
        for trial, o in enumerate(outcomes, start=1):
            write_dialogue(store, run, "refund", "calm", [0.9 if o == "P" else 0.3], trial=trial)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_compare(pilot)
        await settle(pilot)
        rows = cell_texts(app.screen.query_one("#pairs", DataTable))
        assert len(rows) == 4 and all(row.startswith("refund × calm") for row in rows)
        assert all(" within noise " in row for row in rows), rows  # trial 4 is "lower", the pair within noise
        assert any(row.endswith("lower") or " lower " in row for row in rows)


async def test_a_low_agreement_score_reads_with_the_mark(make_app, store: Store):
    write_dialogue(store, BASE, "refund", "calm", [0.9], agreement=LOW)
    write_dialogue(store, NEW, "refund", "calm", [0.29], agreement=LOW)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_compare(pilot)
        await settle(pilot)
        (row,) = cell_texts(app.screen.query_one("#pairs", DataTable))
        assert row.startswith("refund × calm regression, not gated ≈0.90 ≈0.29"), row
