"""Help says what ≈ and the colours mean under every screen that shows scores, and the command
palette opens the judge card (what `ragtui judge-card` prints) from any screen. Pilot, real
SQLite."""

from __future__ import annotations

import pytest

from ragtui.core.content.prompts import PromptSet
from ragtui.core.judge_quality.card_entry import CardEntry
from ragtui.core.judge_quality.card_store import save_entry
from ragtui.core.judge_quality.fit import prompt_fingerprint
from ragtui.core.metrics import build_metrics
from ragtui.core.models.llm import ChatClient
from ragtui.core.store.store import Store
from ragtui.tui.dialogs.judge_card_dialog import JudgeCardScreen
from ragtui.tui.help_text import SCORE_SCREENS, help_text

from .conftest import settle
from .test_help_and_palette import palette_titles, sections
from .test_wide_layouts import WIDE

SMALL = (80, 24)


def test_help_says_what_the_mark_means_under_every_screen_with_scores():
    shown = sections(help_text())
    for heading in SCORE_SCREENS:
        assert "≈" in shown[heading] and "low agreement" in shown[heading], heading
    assert "Agreement with people (≈)" in shown


async def test_f1_on_the_sessions_screen_explains_agreement(make_app):
    app = make_app()
    async with app.run_test(size=SMALL) as pilot:
        await pilot.press("o")
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)
        text = str(app.screen.query_one("#help-text").query_one("Static").render())
        assert "≈0.42 in grey" in sections(text)["Sessions (o)"]


def rubric_fingerprint(app) -> str:  # noqa: ANN001 - the ragtui app
    judge = app.endpoints["judge"]
    (metric,) = build_metrics(["rubric"], ChatClient(judge, None), PromptSet.load(app.config.prompts, "en"))
    return prompt_fingerprint(metric)


@pytest.mark.parametrize("size", [SMALL, WIDE], ids=["80x24", "wide"])
async def test_the_palette_opens_the_judge_card(make_app, store: Store, size):
    app = make_app()
    async with app.run_test(size=size) as pilot:
        judge = app.endpoints["judge"].model
        entry = CardEntry(
            "rubric", "en", judge, rubric_fingerprint(app), "spearman", -0.08, 18, "team labels", "labels", -0.53, 0.41
        )
        save_entry(store, entry)
        assert "Judge card" in palette_titles(app)
        await pilot.press("R")  # from any screen
        await settle(pilot)
        assert "Judge card" in palette_titles(app)
        await pilot.press("ctrl+p", *"judge card")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, JudgeCardScreen)
        card = str(app.screen.query_one("#judge-card").render())
        rubric = next(line for line in card.splitlines() if line.startswith("rubric") and " en " in line)
        assert "≈ low agreement with people (Spearman -0.08, 95% CI -0.53 to 0.41, n=18; floor 0.5)" in rubric
        assert "faithfulness" in card and "unmeasured" in card
        await pilot.press("escape")
        await settle(pilot)
        assert not isinstance(app.screen, JudgeCardScreen)
