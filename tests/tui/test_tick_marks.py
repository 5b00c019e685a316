"""A box that is not ticked shows no mark, a ticked one ✓ (Textual draws X in both and leaves the
difference to colour): the new-session dialog's metrics and the try-an-expectation dialog's
prohibition box, at 80×24; a radio button draws ● chosen and ○ not. Pilot."""

from __future__ import annotations

import pytest
from textual.widgets import Checkbox, RadioButton, SelectionList

from .conftest import settle
from .test_day_at_80 import screen_text
from .test_try_expectation import open_dialog

SMALL = (80, 24)


def box_of(shown: str, name: str) -> str:
    """The three cells of the box drawn before ``name`` (``▐ ▌``, ``▐✓▌``)."""
    line = next(line for line in shown.splitlines() if f" {name} " in line)
    at = line.index(f" {name} ")
    return line[at - 3 : at]


async def test_the_metrics_list_marks_only_the_ticked_metric(make_app):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("n")
        await settle(pilot)
        metrics = app.screen.query_one("#metric-list", SelectionList)
        assert metrics.selected == []
        shown = screen_text(app)
        assert box_of(shown, "faithfulness") == "▐ ▌" and "X" not in box_of(shown, "trust")
        metrics.select("faithfulness")
        await settle(pilot)
        shown = screen_text(app)
        assert box_of(shown, "faithfulness") == "▐✓▌" and box_of(shown, "trust") == "▐ ▌"


@pytest.mark.recorded
async def test_the_prohibition_box_is_empty_until_ticked(make_app):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_dialog(pilot)
        box = app.screen.query_one("#try-not", Checkbox)
        assert not box.value and "X" not in str(box.render()) and "✓" not in str(box.render())
        box.value = True
        await settle(pilot)
        assert "✓" in str(box.render())
        box.value = False
        await settle(pilot)
        assert "✓" not in str(box.render())


@pytest.mark.recorded
async def test_a_radio_button_draws_whether_it_is_chosen_not_only_its_colour(make_app):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await open_dialog(pilot)
        judged, contains = (app.screen.query_one(f"#form-{f}", RadioButton) for f in ("judged", "contains"))
        assert "●" in str(judged.render()) and "○" in str(contains.render()) and "●" not in str(contains.render())
        contains.value = True  # the set unchooses the other
        await settle(pilot)
        assert "●" in str(contains.render()) and "○" in str(judged.render())
