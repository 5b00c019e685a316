"""The Verdicts screen's Versions tab lists a turn's verdicts newest first, as every other list:
at 80 columns (two boxes a row) the newest is at the top left, not wrapped to the bottom; wide,
the row reads v4 v3 v2 v1. Pilot against the fake server, real SQLite."""

from __future__ import annotations

import pytest
from textual.widgets import Static

from ragtui.core.store.store import Store

from ..conftest import JUDGE, check_answers
from .conftest import open_recorded, settle

SMALL = (80, 24)


@pytest.mark.recorded
@pytest.mark.parametrize("size", [SMALL, (220, 60)], ids=["80x24", "220x60"])
async def test_the_newest_version_comes_first(make_app, store: Store, server, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await open_recorded(pilot)
        server.set_default(JUDGE, check_answers(2))
        await pilot.press("v")
        await pilot.pause()
        for _ in range(3):
            await pilot.press("r")
            await pilot.pause()
            await pilot.press("ctrl+s")
            await settle(pilot)
        app.screen.query_one("TabbedContent").active = "tab-versions"
        await settle(pilot)
        boxes = list(app.screen.query(".version").results(Static))
        titles = [str(box.border_title) for box in boxes]
        assert titles == ["v4 (newest)", "v3", "v2", "v1"]
        first = boxes[0].region
        assert all((first.y, first.x) <= (box.region.y, box.region.x) for box in boxes)  # top left
