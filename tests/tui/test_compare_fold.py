"""Compare at 80×24 gives the screen to the pairs: the statistics above them fold to their first
line, ``s`` unfolds and folds them; on a tall terminal they show whole from the start."""

from __future__ import annotations

from textual.widgets import DataTable

from ragtui.core.store.store import Store
from ragtui.tui.screens.compare_screen import CompareScreen
from stand_ins.synthetic_runs import write_run

from .conftest import settle
from .test_day_at_80 import screen_text
from .test_wide_layouts import WIDE

SMALL = (80, 24)
LAST_LINE = "rubric judge agreement"  # the statistics' last line, folded away at 80×24


def two_runs(store: Store) -> None:
    write_run(store, "20261204-093012-ab12", 30, seed=1, dialogue_verdicts=True)
    write_run(store, "20261205-093012-cd34", 30, seed=2, shift=-0.1, dialogue_verdicts=True)


async def open_compare(pilot) -> DataTable:  # noqa: ANN001 - a textual Pilot
    await pilot.press("R")
    await settle(pilot)
    await pilot.press("enter")  # the newest run compared with the one before
    await settle(pilot)
    assert isinstance(pilot.app.screen, CompareScreen)
    return pilot.app.screen.query_one("#pairs", DataTable)


async def test_at_80x24_the_pairs_get_the_screen_and_s_shows_every_statistic(make_app, store: Store):
    two_runs(store)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        pairs = await open_compare(pilot)
        shown = screen_text(app)
        assert "11 score regression(s), 6 resolution" in shown  # the outcome stays, first
        assert "run score 0.71 → 0.63" not in shown
        assert LAST_LINE not in shown and "more line(s) of statistics — s shows them" in shown
        assert pairs.region.height >= 15, pairs.region  # rows of pairs, not 2
        assert "s Statistics" in shown.splitlines()[-1]
        await pilot.press("s")
        await settle(pilot)
        assert LAST_LINE in screen_text(app) and pairs.region.height >= 8
        assert "run score 0.71 → 0.63" in screen_text(app)
        await pilot.press("s")
        await settle(pilot)
        assert LAST_LINE not in screen_text(app)


async def test_on_a_tall_terminal_the_statistics_show_whole(make_app, store: Store):
    two_runs(store)
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        pairs = await open_compare(pilot)
        shown = screen_text(app)
        assert LAST_LINE in shown and "s shows them" not in shown
        assert pairs.region.height >= 40
