"""Imported conversations replayed from the Runs screen, driven with keys: `r` replays an
imported run's real customer messages to the current bot; `n` asks which turn to test (a bad
turn is said in the dialog) and has the bot answer only that turn after the real history."""

from __future__ import annotations

import json

from textual.widgets import Input

from ragtui.cli.main import main
from ragtui.core.store.store import Store
from ragtui.tui.dialogs.next_turn_dialog import NextTurnDialog
from ragtui.tui.screens.runs_screen import RunsScreen
from tests.conversations.test_replay import CONVERSATIONS, CUSTOMER, bot_conversations

from ..conftest import BOT
from .conftest import SIZE, settle, static_text


def import_run(store: Store) -> None:
    chats = store.path.parent / "chats.jsonl"
    chats.write_text("".join(json.dumps(c) + "\n" for c in CONVERSATIONS), encoding="utf-8")
    assert main(["import", str(chats), "--db", str(store.path), "--run-id", "real"]) == 0


async def test_replay_key_replays_an_imported_run(make_app, store: Store, server):
    import_run(store)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("r")
        await settle(pilot)
        new = store.run_ids()[-1]
        assert new != "real" and "finished" in static_text(app, "#runs-status")
        replayed = {s.scenario_id: [m.text for m in s.messages if m.role == "user"] for s in store.run_sessions(new)}
        assert replayed == CUSTOMER


async def test_n_asks_the_turn_then_answers_it_after_the_real_history(make_app, store: Store, server):
    import_run(store)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NextTurnDialog)
        assert "1–3, or `all`" in static_text(app, "#next-turn-question")
        await pilot.press("0", "enter")
        await pilot.pause()
        assert isinstance(app.screen, NextTurnDialog)  # stays open, saying why
        assert "turns are numbered from 1" in static_text(app, "#next-turn-problem")
        app.screen.query_one("#next-turn-input", Input).value = ""
        await pilot.press("2", "enter")
        await settle(pilot)
        assert isinstance(app.screen, RunsScreen)
        assert "N+1" in static_text(app, "#runs-status") and "1 turn(s) answered" in static_text(app, "#runs-status")
        new = store.run_ids()[-1]
        (session,) = store.run_sessions(new)
        assert [(m.turn, m.role) for m in session.messages] == [(2, "user"), (2, "bot")]
        (sent,) = bot_conversations(server)
        assert ("assistant", "Hi, Mika here: I have resent it today.") in sent
        assert len(server.chat_requests(BOT)) == 1
