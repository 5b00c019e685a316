"""A reply cancelled while it streamed (c in the TUI) is recorded as a partial reply. Watched
live, its text leaves the pane; reopened in the TUI, and in `ragtui show`, it is one marked
line — cancelled, not an answer, never judged — not the text, which read like the next answer."""

from __future__ import annotations

import asyncio
import time

from ragtui.cli.main import main
from ragtui.core.store.store import Store
from stand_ins.fake_openai import Reply

from ..conftest import BOT
from .conftest import SIZE, open_recorded, pane_text, settle
from .test_dialogue_flows import start_session

ANSWER = "Sure! First open the settings, then choose the linked accounts page."
LINE = "turn 1 · bot: cancelled while streaming ({} characters received) — not an answer, never judged"


async def test_a_reply_cancelled_mid_stream_is_said_to_be_cancelled_not_shown_as_an_answer(
    make_app, store: Store, server, capsys
):
    server.script(BOT, Reply(ANSWER, chunk_chars=5, stall_after_chunks=3))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot)
        await pilot.press("s")  # the customer's question
        await settle(pilot)
        await pilot.press("s")  # the bot streams a little, then stalls
        assert await asyncio.to_thread(server.wait_for_stalls)
        deadline = time.monotonic() + 60
        while "Sure!" not in pane_text(app, "bot") and time.monotonic() < deadline:
            await pilot.pause(0.05)  # the streamed text drawn (a 100 ms flush), not a fixed wait
        await pilot.press("c")
        await settle(pilot)
        assert "Sure!" not in pane_text(app, "bot")  # live: the streamed text is gone
        (partial,) = store.session(store.sessions()[0].id).partials
        assert partial.cancelled and partial.text.startswith("Sure!")
        line = LINE.format(len(partial.text))

        await open_recorded(pilot)  # reopened: said the same way, the text still not shown
        bot = pane_text(app, "bot")
        assert line in bot and "Sure!" not in bot

    assert main(["show", str(partial.session_id), "--db", str(store.path)]) == 0
    shown = " ".join(capsys.readouterr().out.split())  # the line wraps at 80 columns
    assert line in shown and "Sure!" not in shown and "PARTIAL" not in shown
