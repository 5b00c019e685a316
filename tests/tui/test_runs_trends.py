"""The Runs screen's trends, one row per scenario × persona of the highlighted run: its first and
last score, how many runs, the range of its scores and the sparkline, each in a column of its own,
so the range is never blank or run into the dots, and the sparkline stays on screen at 80
columns. The sparkline is `ragtui runs --pairs`'s — one block per run on a fixed 0–1 scale, so
equal scores draw equal bars. Pilot, real SQLite."""

from __future__ import annotations

from textual.widgets import Label, Sparkline

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.runs.listing import sparkline
from ragtui.core.store.store import Store
from ragtui.tui.screens.runs_screen import RunsScreen
from stand_ins.synthetic_runs import write_dialogue

from .conftest import settle
from .test_day_at_80 import screen_text
from .test_wide_layouts import WIDE

SMALL = (80, 24)
LONG = "refund-for-a-cancelled-annual-subscription"
RUNS = ("20261204-093012-ab12", "20261205-093012-ab12", "20261206-093012-ab12")


def three_runs_of_one_long_pair(store: Store) -> None:
    for i, run in enumerate(RUNS):
        write_dialogue(store, run, LONG, "impatient-customer", [0.5 + i / 10])


async def trend_row(pilot, span_text: str = "0.50–0.70") -> tuple[str, Label, Label]:  # noqa: ANN001
    await pilot.press("R")
    await settle(pilot)
    assert isinstance(pilot.app.screen, RunsScreen)
    trends = pilot.app.screen.query(".trend-row Label.trend").results(Label)
    (spark,) = [t for t in trends if t.parent is not None and not t.parent.has_class("trend-head")]
    assert spark.parent is not None
    (span,) = [label for label in spark.parent.query(Label) if str(label.render()) == span_text]
    return screen_text(pilot.app), span, spark


async def test_at_80_columns_the_range_and_the_sparkline_are_in_view_apart(make_app, store: Store):
    three_runs_of_one_long_pair(store)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        shown, span, spark = await trend_row(pilot)
        assert "0.50 → 0.70" in shown and "0.50–0.70" in shown
        assert span.region.right < spark.region.x  # a gap between the range and the dots
        assert spark.region.width >= 8 and spark.region.right <= SMALL[0]
        head = next(line for line in shown.splitlines() if line.startswith("scenario × persona"))
        assert head.split()[-3:] == ["runs", "range", "trend"]  # each figure under its heading


async def test_at_a_wide_size_the_long_pair_and_its_range_show(make_app, store: Store):
    three_runs_of_one_long_pair(store)
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        shown, span, spark = await trend_row(pilot)
        line = next(line for line in shown.splitlines() if "impatient-customer" in line)
        assert "0.50 → 0.70" in line and "0.50–0.70" in line and sparkline([0.5, 0.6, 0.7]) in line
        assert span.region.right < spark.region.x and spark.region.right <= WIDE[0]


async def test_equal_scores_draw_equal_bars_as_runs_pairs_draws_them(make_app, store: Store, capsys, monkeypatch):
    """0.28 then 0.28 is ``▃▃`` in the TUI as in `ragtui runs --pairs`, never a bar stretched from
    the series' own minimum to its maximum (``████…▁▁▁▁``)."""
    for run in RUNS[:2]:
        write_dialogue(store, run, "refund", "calm", [0.28])
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        _, _, spark = await trend_row(pilot, "0.28–0.28")
        assert str(spark.render()) == sparkline([0.28, 0.28]) == "▃▃"
        assert not pilot.app.screen.query(Sparkline)  # Textual's widget rescales to the series: not used
    monkeypatch.setattr(output.console, "_width", 120)
    assert main(["runs", "--db", str(store.path), "--pairs", "last"]) == 0
    row = next(line for line in capsys.readouterr().out.splitlines() if "refund × calm" in line)
    assert "▃▃" in row


PAIRS = (
    ("id-linking", "in-a-hurry"),
    ("id-linking", "beginner"),
    ("refund-partial", "skeptical"),
    ("refund-partial", "elderly"),
    ("reset-link-expired", "angry"),
    ("reset-link-expired", "calm"),
)


async def test_at_80_columns_each_pair_of_a_run_with_trials_reads_apart(make_app, store: Store):
    """Six pairs sharing three scenarios, with the trials column: each row's pair, as shown, is
    its own (shortened from the middle, never ``id-linking …`` twice), and the sparkline stays."""
    for run in RUNS[:2]:
        for scenario, persona in PAIRS:
            for trial in (1, 2, 3):
                write_dialogue(store, run, scenario, persona, [0.8, 0.6 + trial / 10], trial=trial)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("R")
        await settle(pilot)
        lines = screen_text(app).splitlines()
        cells = [label for label in app.screen.query("Label.pair") if label.region.width]
        shown = [lines[c.region.y][c.region.x : c.region.right].strip() for c in cells][1:]  # under the heading
        assert len(shown) == len(PAIRS) and len(set(shown)) == len(PAIRS), shown
        assert all("…" in s or "·" in s or "×" in s for s in shown)
        sparks = [t for t in app.screen.query(".trend-row Label.trend") if not t.parent.has_class("trend-head")]
        assert len(sparks) == len(PAIRS)
        for spark in sparks:
            assert spark.region.width >= 8 and spark.region.right <= SMALL[0]
