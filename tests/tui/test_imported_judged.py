"""A judged imported conversation in the TUI: opened from the Sessions list it shows the
customer and the bot (the human agent marked), its verdicts — the rubric's score, the metrics that
need passages "skipped: no passages", the dialogue verdicts — and `r` re-judges and `l` labels
its bot turn like any session's. Pilot, real SQLite, the fake judge on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.config.settings import Config
from ragtui.core.store.labels import session_labels
from ragtui.core.store.store import Store
from ragtui.tui.dialogs.label_dialog import LabelScreen
from ragtui.tui.screens.main_screen import MainScreen
from ragtui.tui.screens.verdict_screen import VerdictScreen

from ..conftest import JUDGE, check_answers, endpoint_toml
from .conftest import SIZE, notifications, open_recorded, pane_text, settle, static_text

CONVERSATION = {
    "id": "t2",
    "messages": [
        {"role": "user", "content": "Can I change my plan?"},
        {"role": "assistant", "content": "Yes: open Settings, then Plan, and choose the new plan."},
        {"role": "user", "content": "And can someone call me?"},
        {"role": "operator", "content": "This is Sam from support; I will call you today."},
    ],
}


async def import_and_judge(config: Config, server, tmp_path: Path) -> None:  # noqa: ANN001 - the fake server
    """``ragtui import`` and ``ragtui judge`` as a person runs them (their own event loop: a thread)."""
    chats = tmp_path / "chats.jsonl"
    chats.write_text(json.dumps(CONVERSATION) + "\n", encoding="utf-8")
    toml = tmp_path / "judge.toml"
    toml.write_text(
        f'language = "en"\ndatabase = "{config.database}"\nmetrics = ["faithfulness"]\n'
        + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    assert await asyncio.to_thread(main, ["import", str(chats), "--run-id", "real", "--config", str(toml)]) == 0
    judge = ["judge", "real", "--config", str(toml), "--dialogue-metric", "repetition"]
    assert await asyncio.to_thread(main, judge) == 0


async def test_a_judged_imported_session_shows_its_verdicts_rejudges_and_labels(
    make_app, store: Store, config: Config, server, tmp_path: Path
):
    await import_and_judge(config, server, tmp_path)
    app = make_app()
    app.config.labeller = "rita"
    async with app.run_test(size=SIZE) as pilot:
        await open_recorded(pilot)
        await settle(pilot)
        customer, bot, judge = pane_text(app, "user"), pane_text(app, "bot"), pane_text(app, "judge")
        assert "Turn 1 · real customer" in customer and "Can I change my plan?" in customer
        assert "Turn 1 · real bot" in bot and "open Settings, then Plan" in bot
        assert "Turn 2 · human agent · not judged" in bot and "This is Sam from support" in bot
        assert "Turn 1 · rubric v1 · 0.80" in judge and "grounding not checked: no passages" in judge
        assert "Turn 1 · faithfulness v1 · skipped" in judge
        assert judge.count("no passages: the imported conversation does not say what the bot retrieved") == 1
        assert "Dialogue · repetition v1 · skipped" in judge
        assert "Dialogue ended: imported after 2 turn(s) · score 0.80" in judge
        assert "Turn 2 ·" not in judge  # the agent's turn has no verdict

        # `r` on the Verdicts screen re-judges the bot's turn, still without the grounding checks.
        await pilot.press("v")
        await pilot.pause()
        assert isinstance(app.screen, VerdictScreen)
        server.clear()
        server.set_default(JUDGE, check_answers(2))
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert any("Turn 1 re-judged: v2 scores 0.40 (was 0.80)" in n for n in notifications(app))
        asked = " ".join(str(b["messages"][-1]["content"]) for b in server.chat_requests(JUDGE))
        assert "polite" in asked and "SENTENCE supported" not in asked
        assert store.session(1).score == pytest.approx(0.4)

        # `l` labels the bot's turn, never the agent's.
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("l")
        await pilot.pause()
        assert isinstance(app.screen, LabelScreen)
        assert "Label session #1 turn 1" in str(app.screen.query_one("Label").render())
        assert "0.40" in static_text(app, "#label-verdict")
        await pilot.press("2", "ctrl+s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        (label,) = session_labels(store, 1)
        assert (label.turn, label.score, label.labeller) == (1, 2, "rita")
