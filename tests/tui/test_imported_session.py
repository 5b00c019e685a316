"""An imported real conversation opens in the TUI like any session: the customer's messages in
the Customer pane, the bot's answers in the Bot pane, and a human agent's answer and a system note
shown there marked "not judged" — never drawn as the bot's own. Pilot, real SQLite."""

from __future__ import annotations

from pathlib import Path

from ragtui.core.config.settings import Config
from ragtui.core.runs.importing import ImportRequest, import_conversations
from ragtui.core.store.store import Store

from .conftest import open_recorded, pane_text, settle

SAMPLES = Path(__file__).parents[2] / "sample_data" / "conversations"


async def test_an_imported_conversation_reads_in_the_panes_with_its_agent_and_note_marked(
    make_app, store: Store, config: Config
):
    outcome = import_conversations(config.database, ImportRequest([SAMPLES / "tickets_ja.tsv"]))
    assert outcome.conversations == 2  # the newest session is J-3002: customer, bot, agent and note
    app = make_app()
    async with app.run_test() as pilot:
        await open_recorded(pilot)
        await settle(pilot)
        customer, bot = pane_text(app, "user"), pane_text(app, "bot")
        assert "パスワードを忘れました。登録した電話は<phone-1>です。" in customer
        assert "real customer" in customer
        assert "サインイン画面の「パスワードをお忘れですか」から再設定できます。" in bot
        assert "human agent · not judged" in bot and "オペレーターの鈴木です" in bot
        assert "note · not judged" in bot and "本人確認済み。" in bot
        assert "Dialogue ended: imported" in pane_text(app, "judge")
