"""The new-session dialog shows the chosen dialogue's token estimate, for all its trials, without
calling a model."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from textual.widgets import Input

from ragtui.core.config.settings import Config
from ragtui.core.content.personas import load_personas
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.types.personas import Persona
from ragtui.core.types.scenarios import Scenario
from ragtui.tui.dialogs.new_session import NewSessionScreen
from ragtui.tui.estimate_text import session_estimator

from ..conftest import BOT, JUDGE, USER
from .conftest import SIZE, notifications, static_text


async def test_the_new_session_dialog_shows_an_estimate_that_follows_the_choice(make_app, server):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        before = len(server.chat_requests())
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)
        first = static_text(app, "#new-estimate")
        assert first.startswith("Estimate (3.0 turns): user ") and "judge " in first and "set [prices]" in first
        await pilot.press("down")  # another scenario: another estimate
        await pilot.pause()
        assert static_text(app, "#new-estimate") != first
        assert len(server.chat_requests()) == before  # no model was asked


async def test_a_broken_persona_file_is_named_and_the_others_offered(make_app, tui_config):
    broken = tui_config.personas / "en" / "angry.toml"
    broken.write_text('name = "angry"\nlanguage = "en"\npersona = """half-writ', encoding="utf-8")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewSessionScreen)  # the other personas can still be chosen
        warned = [n for n in notifications(app) if str(broken) in n]
        assert len(warned) == 1 and "not valid TOML" in warned[0]


def chosen(config: Config, scenario: str, persona: str = "calm") -> tuple[Scenario, Persona]:
    return (
        next(s for s in load_scenarios(config.scenarios, "en") if s.id == scenario),
        next(p for p in load_personas(config.personas, "en") if p.name == persona),
    )


async def test_the_estimate_line_gives_the_turns_and_each_role_without_asking_a_model(engine, store, config, server):
    estimate = session_estimator(SimpleNamespace(engine=engine, store=store))
    assert estimate is not None
    before = len(server.requests)
    line = estimate(*chosen(config, "id-linking"), ("rubric",))
    assert line.startswith("Estimate (3.0 turns): user ") and " in / " in line
    assert " · bot " in line and " · judge " in line
    assert line.endswith(" · set [prices] for a cost")
    assert estimate(*chosen(config, "outage", "angry"), ("rubric",)) != line  # another dialogue, another count
    assert len(server.requests) == before


async def test_with_prices_the_estimate_line_gives_a_cost(engine, store, config):
    for model in (USER, BOT, JUDGE):
        engine.config.prices[model] = (1.0, 2.0)
    estimate = session_estimator(SimpleNamespace(engine=engine, store=store))
    assert estimate is not None
    line = estimate(*chosen(config, "id-linking"), ("rubric",))
    assert " · about $" in line and "set [prices]" not in line


def test_without_an_engine_there_is_no_estimate_line(store):
    assert session_estimator(SimpleNamespace(engine=None, store=store)) is None


def tokens(line: str) -> list[int]:
    """Every token count of an estimate line ("user 1,234 in / 56 out · …"), in order."""
    return [int(n.replace(",", "")) for n in re.findall(r"([\d,]+) (?:in|out)\b", line)]


async def test_the_estimate_line_changes_with_the_trials(make_app):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("n")
        await pilot.pause()
        lines = {}
        for trials in ("1", "3", "10"):
            app.screen.query_one("#trials", Input).value = trials
            await pilot.pause()
            lines[trials] = static_text(app, "#new-estimate")
        assert lines["1"].startswith("Estimate (3.0 turns): ")
        assert lines["3"].startswith("Estimate (3 trials of 3.0 turns): ")
        assert lines["10"].startswith("Estimate (10 trials of 3.0 turns): ")
        one = tokens(lines["1"])
        assert one and all(n > 0 for n in one)
        for trials in (3, 10):
            assert tokens(lines[str(trials)]) == pytest.approx([trials * n for n in one], abs=trials)
        app.screen.query_one("#trials", Input).value = "0"
        await pilot.pause()
        assert static_text(app, "#new-estimate") == "Estimate: Trials must be a whole number from 1 to 20, got '0'."


async def test_the_estimate_of_k_trials_costs_k_times_one(engine, store, config: Config):
    for model in {e.model for e in engine.endpoints.values()}:
        engine.config.prices[model] = (1.0, 2.0)
    estimate = session_estimator(SimpleNamespace(engine=engine, store=store))
    assert estimate is not None
    scenario, persona = chosen(config, "id-linking")

    def cost(trials: int) -> float:
        line = estimate(scenario, persona, ("rubric",), trials)
        match = re.search(r"about \$([\d,.]+)", line)
        assert match, line
        return float(match.group(1).replace(",", ""))

    one = cost(1)
    assert one > 0
    for trials in (3, 10):  # the line rounds to $0.0001
        assert cost(trials) == pytest.approx(trials * one, abs=0.0001 * trials)
