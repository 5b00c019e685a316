"""What only a wide terminal (220×60) shows, asserted directly instead of by a second SVG of every
screen: the three panes and a pair's two sides at full width, the runs and compare tables with
every column in view. The snapshots are taken at 80×24 (``test_snapshots*``)."""

from __future__ import annotations

from textual.widgets import DataTable, Static

from ragtui.core.store.store import Store
from ragtui.tui.screens.compare_screen import CompareScreen, PairScreen
from ragtui.tui.screens.runs_screen import RunsScreen
from ragtui.tui.widgets.panes import RolePane
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, turns_judged
from .conftest import pane_text, settle
from .test_day_at_80 import screen_text
from .test_snapshots import run_dialogue
from .test_snapshots_runs import three_runs

WIDE = (220, 60)


def table_fits(table: DataTable) -> bool:
    """Every column of ``table`` is in view without scrolling right."""
    return table.virtual_size.width <= table.scrollable_content_region.width


async def test_the_three_panes_share_the_width_and_the_judge_lines_are_not_wrapped(make_app, server):
    server.script(BOT, Reply("Open Settings > Account > Linked services."))
    server.set_default(JUDGE, turns_judged(5, 2, None))
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await run_dialogue(pilot)
        await settle(pilot)
        panes = [app.screen.query_one(f"#pane-{role}", RolePane).region for role in ("user", "bot", "judge")]
        assert len({pane.y for pane in panes}) == 1  # side by side, not stacked
        assert panes[0].right <= panes[1].x and panes[1].right <= panes[2].x
        assert all(pane.width >= 70 for pane in panes), panes
        shown = screen_text(app)
        assert "Und 5.0  Rel 5.0  Cmp 5.0  Cor 5.0  Coh 5.0  Ovr 5.0" in shown  # one line, as scored
        assert "Dialogue · repetition v1 · 0.00" in shown
        judge = pane_text(app, "judge")  # each dialogue verdict says how far its judge agrees with people
        assert judge.split("Dialogue · repetition v1")[1].split("\n")[1].strip() == "agreement unmeasured"


async def test_the_runs_table_shows_its_last_columns(make_app, store: Store):
    three_runs(store)
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("R")
        await settle(pilot)
        assert isinstance(app.screen, RunsScreen)
        table = app.screen.query_one(DataTable)
        assert table_fits(table)
        shown = screen_text(app)
        for heading in ("started", "lang", "bot · models"):
            assert heading in shown, heading
        assert shown.count("builtin · synthetic") == 3  # one per run, nothing cut


async def test_the_compare_table_shows_the_dialogue_columns(make_app, store: Store):
    three_runs(store)
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("down", "enter")  # b compared with a
        await settle(pilot)
        assert isinstance(app.screen, CompareScreen)
        shown = screen_text(app)
        assert "resolution base → new" in shown and "dialogue flag" in shown
        assert "resolved 1.00 → unresolved 0.00" in shown and "resolution regression" in shown
        assert "unscored in new" in shown
        assert all(table_fits(table) for table in app.screen.query(DataTable))


async def test_a_pair_s_two_sides_are_side_by_side_at_half_the_width_each(make_app, store: Store):
    three_runs(store)
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("down", "enter")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, PairScreen)
        rows = list(app.screen.query(".turn-row"))
        assert len(rows) == 3  # two turns and the dialogue as a whole
        for row in rows:
            base, new = (row.query_one(f".{side}", Static).region for side in ("base", "new"))
            assert base.y == new.y and base.right <= new.x
            assert base.width >= 100 and new.width >= 100, (base, new)
        shown = screen_text(app)
        assert "resolution resolved 1.00" in shown and "resolution unscored" in shown
