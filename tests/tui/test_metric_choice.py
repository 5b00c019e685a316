"""Metrics are chosen per session in the TUI: the new-session dialog lists them, pre-ticked
from the config, and the session runs (and records) exactly the ones ticked plus the rubric."""

from __future__ import annotations

from textual.widgets import SelectionList

from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.tui.dialogs.new_session import NewSessionScreen
from ragtui.tui.screens.verdict_screen import VerdictScreen

from .conftest import SIZE


async def test_new_session_runs_the_metrics_ticked(make_app, store):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)
        metrics = app.screen.query_one("#metric-list", SelectionList)
        assert metrics.selected == []  # the config runs the rubric only
        metrics.select("faithfulness")
        await pilot.press("ctrl+s")
        await pilot.pause()
        await app.workers.wait_for_complete()
        session = store.sessions()[0]
        assert session.metrics == ["rubric", "faithfulness"]


async def test_verdict_detail_shows_every_metric_of_the_turn(make_app, store):
    """Other metrics appear under the rubric's verdict with their own score and what went wrong
    (here the fake judge answers every call with a rubric verdict, so faithfulness is unscored)."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        engine = app.engine
        assert engine is not None
        scenario = next(s for s in load_scenarios(app.config.scenarios, "en") if s.id == "id-linking")
        persona = load_personas(app.config.personas, "en")[0]
        dialogue = engine.new_dialogue(scenario, persona, max_turns=1, metrics=["faithfulness"])
        async for _event in dialogue.run():
            pass
        app.push_screen(VerdictScreen(dialogue.session_id))
        await pilot.pause()
        detail = str(app.screen.query_one("#verdict-detail").render())
        assert "Other metrics" in detail and "faithfulness v1" in detail and "unscored" in detail
