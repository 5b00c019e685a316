"""The sessions browser a support engineer reads at 80×24 in a split terminal, with hundreds of
sessions: the title and keys stay put, every column fits (long names shortened with …, never cut
by the edge), each row names its run, the date reads as a date, forks are marked, and ``/``
filters by scenario, persona, run or status. Pilot, real SQLite."""

from __future__ import annotations

import re
from datetime import date

from textual.widgets import DataTable, Input

from ragtui.core.store.store import Store
from ragtui.tui.help_text import help_text
from ragtui.tui.screens.main_screen import MainScreen
from ragtui.tui.screens.sessions_screen import SessionsScreen
from stand_ins.synthetic_runs import write_dialogue, write_run

from .conftest import settle
from .test_day_at_80 import screen_text
from .test_help_and_palette import sections
from .test_wide_layouts import WIDE, table_fits

SMALL = (80, 24)
RUN = "20261204-093012-ab12"
LONG = "refund-for-a-cancelled-annual-subscription"


def many_sessions(store: Store) -> None:
    """270 sessions of one run, then one of another run with a long scenario name, forked from #1;
    all started on 5 December of this year at 15:30."""
    write_run(store, RUN, 270, seed=3, turns=1, personas=6)
    write_dialogue(store, "20261205-101010-cd34", LONG, "impatient-customer", [0.5])
    store._db.execute("UPDATE sessions SET parent_session_id = 1, fork_turn = 1 WHERE id = 271")
    store._db.execute("UPDATE sessions SET created_at = ?", [f"{date.today().year}-12-05T15:30:00+00:00"])
    store._db.conn.commit()


async def open_sessions(pilot) -> DataTable:  # noqa: ANN001 - a textual Pilot
    await pilot.press("o")
    await settle(pilot)
    assert isinstance(pilot.app.screen, SessionsScreen)
    return pilot.app.screen.query_one(DataTable)


async def test_at_80_columns_the_title_keys_and_every_column_stay_in_view(make_app, store: Store):
    many_sessions(store)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        table = await open_sessions(pilot)
        await pilot.press("end")  # the oldest: the title and keys must not scroll away with the list
        await settle(pilot)
        lines = screen_text(app).splitlines()
        assert lines[0].startswith(" Sessions — Enter: open")
        assert "/ Filter" in lines[-1] and "d Delete" in lines[-1]
        assert table_fits(table), "a column runs off the right edge"
        header = next(line for line in lines if line.lstrip().startswith("id"))
        assert header.split() == ["id", "stop", "score", "turns", "scenario", "persona", "run", "started"]
        await pilot.press("home")
        await settle(pilot)
        newest = screen_text(app)
        assert "271⑂" in newest  # the fork, marked beside its id
        assert "Dec 5 15:30" in newest  # a date, not "2026-12-"
        assert "…1010-cd34" in newest  # the run's distinguishing end, shortened at its start
        # a long scenario shortened in its cell from the middle (its start and end both tell), with …
        assert re.search(r" refu\S*…\S*tion ", newest)


async def test_at_a_wide_size_the_names_and_runs_show_whole(make_app, store: Store):
    many_sessions(store)
    app = make_app()
    async with app.run_test(size=WIDE) as pilot:
        table = await open_sessions(pilot)
        shown = screen_text(app)
        assert LONG in shown and "impatient-customer" in shown and "20261205-101010-cd34" in shown
        assert table_fits(table)


async def test_slash_filters_by_words_and_escape_clears_then_leaves(make_app, store: Store):
    many_sessions(store)
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        table = await open_sessions(pilot)
        assert table.row_count == 271
        await pilot.press("slash", *"s44 p5")
        await settle(pilot)
        assert isinstance(app.focused, Input)
        ids = [table.get_row_at(i)[0].plain for i in range(table.row_count)]
        assert len(ids) == 1, ids  # s44 × p5, the only one
        assert "Filter: 1 of 271 sessions · Escape clears it" in screen_text(app)
        await pilot.press("enter")  # back to the list it filtered, not opening anything
        await settle(pilot)
        assert app.focused is table and isinstance(app.screen, SessionsScreen)
        await pilot.press("slash", "ctrl+u", *"cd34")  # by run
        await settle(pilot)
        assert table.row_count == 1 and "271⑂" in screen_text(app)
        await pilot.press("escape")  # clears the filter, stays
        await settle(pilot)
        assert isinstance(app.screen, SessionsScreen) and table.row_count == 271
        assert "Filter:" not in screen_text(app)
        await pilot.press("escape")  # then leaves
        await settle(pilot)
        assert isinstance(app.screen, MainScreen)


async def test_the_filter_matches_the_status(make_app, store: Store):
    many_sessions(store)
    store._db.execute("UPDATE sessions SET stop_reason = 'gave_up' WHERE id IN (3, 4)")
    store._db.conn.commit()
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        table = await open_sessions(pilot)
        await pilot.press("slash", *"GAVE_UP", "enter")
        await settle(pilot)
        assert sorted(table.get_row_at(i)[0].plain for i in range(table.row_count)) == ["3", "4"]


def test_help_says_how_to_filter_and_what_the_marks_mean():
    sessions = sections(help_text())["Sessions (o)"]
    assert "  /          Filter the list" in sessions and "Escape clears the filter" in sessions
    assert "⑂ beside an id: a fork" in sessions and "↻: a replay" in sessions
