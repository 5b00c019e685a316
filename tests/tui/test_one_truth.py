"""One pair of runs with trials, every view: the terminal compare, its Markdown, JUnit, CSV and
HTML, the Runs table of the CLI and of the TUI and the TUI's compare screen all state the same
regressions, changes within noise, pass rates, expectation counts and outcome — computed once
(``compare_runs`` and ``list_runs``), rendered by each."""

from __future__ import annotations

import csv
import io
import re
import xml.etree.ElementTree as ET
from html import unescape
from pathlib import Path

import pytest
from textual.widgets import DataTable

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.metrics.base import Judgment
from ragtui.core.runs.compare import compare_runs
from ragtui.core.runs.compare_report import comparison_junit, comparison_markdown, summary_lines, trials_csv
from ragtui.core.runs.html_report.build import compare_report_html
from ragtui.core.runs.listing import list_runs
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue

from .conftest import SIZE, static_text
from .test_runs_compare_fork import cell_texts, open_compare

BASE, NEW = "20260101-base", "20260102-new"


def trials(store: Store, run: str, scenario: str, outcomes: str, met: str) -> None:
    """P / F per trial (score 0.9 / 0.3, resolved / unresolved); m / x: expectation E1 met / missed."""
    for trial, (o, m) in enumerate(zip(outcomes, met, strict=True), start=1):
        resolution = (1.0, "resolved") if o == "P" else (0.0, "unresolved")
        session = write_dialogue(
            store, run, scenario, "calm", [0.9 if o == "P" else 0.3], trial=trial, verdicts={"resolution": resolution}
        )
        status = "met" if m == "m" else "missed"
        result = {"expectation": {"id": "E1", "text": "names the form", "origin": "scenario"}, "status": status}
        details = {"threshold": 1.0, "results": [{**result, "turn": 1}]}
        store.add_dialogue_judgment(session, Judgment("expectations", float(m == "m"), details, raw_reply="x"))


@pytest.fixture
def two_runs(store: Store) -> Store:
    trials(store, BASE, "refund", "PPPP", "mmmm")  # 4/4 → 3/4: lower, within noise
    trials(store, BASE, "outage", "PFFF", "mmmm")  # 1/4 → 3/4: higher, within noise; E1 4/4 → 0/4: regression
    trials(store, BASE, "linking", "PPPP", "mmmm")  # the same
    trials(store, NEW, "refund", "PPPF", "mmmm")
    trials(store, NEW, "outage", "PPPF", "xxxx")
    trials(store, NEW, "linking", "PPPP", "mmmm")
    return store


COUNTS = "3 pair(s) over their trials: 0 regression(s) beyond noise, 1 lower and 1 higher within noise, 0 better"
EXPECTATIONS = "expectations over each pair's trials: 1 regression(s) beyond noise, 0 lower and 0 higher within noise"
OUTCOME = "regression beyond run-to-run noise: 1 expectation regression(s)"
PASS_RATES = ("75%", "83%")  # base (4 + 1 + 4) / 12 per pair averaged: (1 + .25 + 1) / 3; new (.75 + .75 + 1) / 3


def plain(html: str) -> str:
    return re.sub(r"\s+", " ", unescape(re.sub(r"<[^>]+>", " ", html)))


async def test_every_view_states_the_same_figures(two_runs: Store, make_app, tmp_path: Path, capsys, monkeypatch):
    c = compare_runs(two_runs, BASE, NEW)
    assert c.noise is not None and c.exit_status == 1  # the expectation's regression decides
    lines = summary_lines(c)
    assert COUNTS in " ".join(lines) and EXPECTATIONS in " ".join(lines)
    assert f"pass rate (pass^1, as in Runs) {PASS_RATES[0]} → {PASS_RATES[1]}" in " ".join(lines)

    # Runs, computed once for both front ends: the same pass rates.
    runs = {r.run_id: r for r in list_runs(two_runs)}
    assert (f"{runs[BASE].pass_rate:.0%}", f"{runs[NEW].pass_rate:.0%}") == PASS_RATES

    # The terminal, then each report file.
    monkeypatch.setattr(output.console, "_width", 250)
    config = tmp_path / "c.toml"
    config.write_text(f'database = "{two_runs.path}"\n', encoding="utf-8")
    assert main(["compare", "--config", str(config), BASE, NEW]) == 1
    terminal = capsys.readouterr().out
    assert COUNTS in terminal and EXPECTATIONS in terminal and f"{PASS_RATES[0]} → {PASS_RATES[1]}" in terminal
    assert OUTCOME in terminal
    assert main(["runs", "--config", str(config)]) == 0
    listed = capsys.readouterr().out
    assert re.search(rf"{BASE}.*\s{PASS_RATES[0]}\s", listed) and re.search(rf"{NEW}.*\s{PASS_RATES[1]}\s", listed)

    markdown = comparison_markdown(c)
    assert COUNTS in markdown and EXPECTATIONS in markdown and f"**{OUTCOME}**" in markdown
    suite = ET.fromstring(comparison_junit(c).split("\n", 1)[1])
    failing = [t.get("name") for t in suite.iter("testcase") if t.find("failure") is not None]
    assert failing == ["E1 · outage × calm"]  # no pair beyond noise; the one expectation regression
    rows = {row["scenario"]: (row["verdict"], row["change"]) for row in csv.DictReader(io.StringIO(trials_csv(c)))}
    assert rows == {  # each pair's verdict — outage's decided by its expectation — and its passes' change
        "outage": ("regression", "higher, within noise"),
        "refund": ("within noise", "lower, within noise"),
        "linking": ("same", "same"),
    }
    page = plain(compare_report_html(c, two_runs, two_runs, {}))
    assert (
        COUNTS in page
        and EXPECTATIONS in page
        and "Regressions beyond run-to-run noise (1); lower within noise (1)" in page
    )

    # The TUI: Runs shows the same pass rates; its compare screen the same summary.
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        rows = cell_texts(app.screen.query_one("#runs", DataTable))
        assert f" {PASS_RATES[1]} " in rows[0] and f" {PASS_RATES[0]} " in rows[1]
        await pilot.press("escape")
        await pilot.pause()
        await open_compare(pilot)
        assert static_text(app, "#compare-summary").startswith(OUTCOME)  # folded at 80×24: the outcome stays
        await pilot.press("s")  # every line of the statistics
        await pilot.pause()
        shown = " ".join(static_text(app, "#compare-summary").split())
        assert COUNTS in shown and EXPECTATIONS in shown
