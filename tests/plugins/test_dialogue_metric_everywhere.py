"""A dialogue metric that only a plugin knows (tests/plugins/signoff.py, registered through the
``ragtui.metrics`` entry point) shows in every view, by its label and its cell, with no view
naming it: the run table, the Markdown summary, JUnit, the HTML report, the CSV export,
``show``, ``compare`` on the terminal, and the TUI's compare and verdict screens.

Two runs of one dialogue: in the first every bot answer ends with a full stop (``signed off
1.00``), in the second none does (``not signed off 0.00``) — a regression of the plugin's
metric that compare reports under its label."""

from __future__ import annotations

import csv
import sqlite3
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from rich.console import Console
from textual.widgets import DataTable, Static

from ragtui.cli.main import main
from ragtui.cli.runs_command import runs_table
from ragtui.core.config.settings import Config
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.registry import metrics as registry
from ragtui.core.runs.listing import list_runs
from ragtui.core.store.store import Store
from ragtui.tui.app import RagtuiApp
from ragtui.tui.screens.compare_screen import CompareScreen, PairScreen
from ragtui.tui.screens.verdict_screen import VerdictScreen
from stand_ins.fake_openai import Reply

from ..conftest import BOT, endpoint_toml
from ..metrics.test_plugins import write_dist_info
from .signoff import EXPLANATION, LABEL, NAME

SIGNED, NOT_SIGNED = "signed off 1.00", "not signed off 0.00"


@pytest.fixture
def signoff_plugin(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The plugin installed as a distribution (a dist-info with its entry point on sys.path),
    and the registry made to load its plugins afresh; both undone afterwards."""
    site = tmp_path / "site"
    write_dist_info(site, "ragtui-test-signoff", "1.0", {"ragtui.metrics": {NAME: "tests.plugins.signoff:SignOff"}})
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(registry._ensure_loaded, "_state", "new")
    assert registry.find_metric(NAME) is not None  # loaded through its entry point, not imported here
    yield
    registry._classes.pop(NAME, None)


@dataclass
class Runs:
    config: Path  # the config file (sharing the TUI's database)
    first: str
    second: str
    out: str  # what the first `ragtui run` printed
    markdown: Path  # its --markdown summary
    junit: Path  # its --junit XML
    database: Path


@pytest.fixture
def two_runs(signoff_plugin: None, server, config: Config, tmp_path: Path, capsys) -> Runs:
    """The first run signs off, the second does not; the first writes its Markdown and JUnit."""
    path = tmp_path / "ragtui.toml"
    path.write_text(
        f'language = "en"\nmax_turns = 2\nconcurrency = 1\ndatabase = "{config.database}"\n'
        f'dialogue_metrics = ["repetition", "{NAME}"]\n' + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    args = ["--config", str(path), "-s", "id-linking", "-p", "calm"]
    md, junit = tmp_path / "run.md", tmp_path / "junit.xml"
    server.set_default(BOT, Reply("Go to Settings > Account > Linked services."))
    assert main(["run", *args, "--markdown", str(md), "--junit", str(junit)]) == 0
    out = capsys.readouterr().out
    server.set_default(BOT, Reply("Go to Settings > Account > Linked services"))  # no full stop
    assert main(["run", *args]) == 0
    capsys.readouterr()
    with sqlite3.connect(config.database) as db:
        first, second = (r[0] for r in db.execute("SELECT run_id FROM sessions ORDER BY id"))
    return Runs(path, first, second, out, md, junit, config.database)


def test_the_cli_views_show_the_plugin_metric(two_runs, tmp_path: Path, capsys):
    first, second = two_runs.first, two_runs.second
    config = ["--config", str(two_runs.config)]

    # The run table: a column headed by the label, the dialogue's cell in it; Markdown and JUnit.
    lines = two_runs.out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("id ") and "scenario" in line)
    assert lines[head].split()[-1] == LABEL and lines[head + 2].endswith(SIGNED)
    markdown = two_runs.markdown.read_text(encoding="utf-8")
    assert f"| {LABEL} |" in markdown and f"| {SIGNED} |" in markdown
    outs = [c.findtext("system-out") or "" for c in ET.parse(two_runs.junit).getroot().iter("testcase")]
    assert any(f"{LABEL} {SIGNED}" in o for o in outs)

    # `ragtui runs --verdicts`: a column under the label with each run's mean score of the metric
    # (the table drawn wide: on the test's 80 columns Rich shortens every cell).
    assert main(["runs", *config, "--verdicts"]) == 0
    capsys.readouterr()
    store = Store.open_read_only(two_runs.database)
    wide = Console(width=250, record=True)
    wide.print(runs_table(list_runs(store), verdicts=True))
    store.close()
    listed = wide.export_text().splitlines()
    heads = [c.strip() for c in next(line for line in listed if " started " in line).split("┃")]
    column = heads.index(LABEL)
    cells = {
        run: [c.strip() for c in next(line for line in listed if run in line).split("│")] for run in (first, second)
    }
    assert (cells[first][column], cells[second][column]) == ("1.00", "0.00")

    # The HTML report: the verdict kinds table (label, its explanation as the title) and the dialogue.
    html = tmp_path / "report.html"
    assert main(["report", *config, first, "--html", str(html)]) == 0
    page = html.read_text(encoding="utf-8")
    assert f">{LABEL}</td>" in page and f'title="{EXPLANATION}"' in page
    assert f"<b>{LABEL}</b> {SIGNED}" in page and "2 of 2 answer(s) end with a full stop" in page

    # The CSV export: the metric's own columns and cells.
    out = tmp_path / "export.csv"
    assert main(["export", *config, "--run", first, "--csv", str(out)]) == 0
    (row,) = list(csv.DictReader(out.open(encoding="utf-8")))
    assert (row["signoff"], row["signoff_outcome"]) == ("1", "signed_off")

    # `show`: label, cell, what the verdict means, and how it was reached.
    assert main(["show", "1", *config]) == 0
    shown = capsys.readouterr().out
    assert f"{LABEL} v1: {SIGNED}" in shown and EXPLANATION in " ".join(shown.split())
    assert "2 of 2 answer(s) end with a full stop" in shown

    # `compare`: the verdicts table under the label, both cells, and the regression named by it.
    cmp_md = tmp_path / "compare.md"
    assert main(["compare", *config, first, second, "--markdown", str(cmp_md)]) in (0, 1)
    compared = capsys.readouterr().out
    heads = next(line for line in compared.splitlines() if "dialogue flag" in line)
    assert LABEL in heads  # the terminal wraps the cell in its column: base on one line, new on the next
    assert f"{SIGNED} →" in compared and NOT_SIGNED in compared and f"{LABEL} regression" in compared
    assert f"{LABEL} 1 regression(s)" in compared
    compare_md = cmp_md.read_text(encoding="utf-8")
    assert f"| {LABEL} |" in compare_md and f"{SIGNED} → {NOT_SIGNED}" in compare_md


async def test_the_tui_compare_and_verdict_screens_show_the_plugin_metric(two_runs, config: Config, store: Store):
    first, second = two_runs.first, two_runs.second
    app = RagtuiApp(config, resolve_endpoints(config), store)
    async with app.run_test(size=(200, 50)) as pilot:
        await app.push_screen(CompareScreen(first, second))
        await pilot.pause()
        table = app.screen.query_one("#pairs", DataTable)
        heads = [str(c.label) for c in table.columns.values()]
        assert f"{LABEL} base → new" in heads
        row = " ".join(str(c) for c in table.get_row_at(0))
        assert f"{SIGNED} → {NOT_SIGNED}" in row and f"{LABEL} regression" in row
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, PairScreen)
        base_side, new_side = (str(s.render()) for s in app.screen.query_one("#pair-verdicts").query(Static))
        assert f"{LABEL} {SIGNED}" in base_side and f"{LABEL} {NOT_SIGNED}" in new_side
        await pilot.press("escape", "escape")
        await pilot.pause()

        await app.push_screen(VerdictScreen(1))
        await pilot.pause()
        detail = str(app.screen.query_one("#verdict-detail", Static).render())
        assert f"{LABEL} v1 · {SIGNED}" in detail
        assert EXPLANATION in detail and "2 of 2 answer(s) end with a full stop" in detail
