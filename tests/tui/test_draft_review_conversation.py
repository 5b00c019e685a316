"""The Drafts screen (D) for a draft mined from a real conversation: the conversation is shown
beside it instead of a passage — every message, redacted and cleaned of terminal control
sequences, the answer its reference comes from marked — and it can be accepted; a draft whose
conversation is not in the open database says so."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.config.settings import Config
from ragtui.core.content.scenarios import load_scenarios
from ragtui.core.generate.conversation_read import run_conversations
from ragtui.core.generate.drafts import Draft
from ragtui.core.generate.mining import conversation_source
from ragtui.core.generate.toml_out import scenario_file_text
from ragtui.core.store.store import Store
from ragtui.tui.screens.draft_review import QUOTE_STYLE, DraftReviewScreen, conversation_text

from .conftest import SIZE, settle, static_text

ANSWER = "Verification e-mails can take up to 10 minutes."
CHAT = {
    "id": "c1",
    "messages": [
        {"role": "user", "content": "No verification e-mail. I am hana.mori@example.com \x1b[31mHELP\x1b[0m"},
        {"role": "assistant", "content": ANSWER},
        {"role": "agent", "content": "Sam here: it is on its way."},
    ],
}


@pytest.fixture
def mined_file(tui_config: Config, store: Store, tmp_path: Path, capsys) -> Path:
    chats = tmp_path / "chats.jsonl"
    chats.write_text(json.dumps(CHAT) + "\n", encoding="utf-8")
    assert main(["import", str(chats), "--db", str(tui_config.database), "--run-id", "real-1"]) == 0
    capsys.readouterr()
    (conversation,) = run_conversations(store, "real-1")
    source = conversation_source(conversation, ANSWER)
    draft = Draft(
        "conv-1", "conversation", "I got no e-mail to verify my account.", ANSWER, (), (), ("10 minutes",), source
    )
    gone = replace(draft, id="conv-2", question="Why was I charged twice?", source=replace(source, session=999))
    path = tmp_path / "mined.toml"
    path.write_text(scenario_file_text([draft, gone], "en"), encoding="utf-8")
    tui_config.scenarios = path
    return path


async def test_a_mined_draft_is_shown_beside_its_conversation(make_app, mined_file: Path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("D")
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, DraftReviewScreen)
        shown = static_text(app, "#drafts-source-text")
        assert "chats.jsonl line 1 · conversation c1" in shown and "run real-1" in shown
        assert "customer" in shown and "No verification e-mail. I am <email-1>" in shown
        assert "hana.mori@example.com" not in shown and "\x1b" not in shown
        assert "human agent" in shown and "Sam here: it is on its way." in shown
        source = screen.items[0].scenario.source
        assert source is not None
        marked = conversation_text(source, screen.conversations[source.session or 0])
        assert [marked.plain[s.start : s.end].strip() for s in marked.spans if s.style == QUOTE_STYLE] == [ANSWER]
        assert "contains: 10 minutes" in static_text(app, "#drafts-case-text")
        await pilot.press("a")  # no passage, and none needed: its source is the conversation
        await settle(pilot)
        assert {s.id: s.status for s in load_scenarios(mined_file, "en")}["conv-1"] == "accepted"
        await pilot.press("n")
        await settle(pilot)
        assert "not in the database open now" in static_text(app, "#drafts-source-text")
