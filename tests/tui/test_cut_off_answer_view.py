"""A bot answer cut off at reply_timeout reads as such in the TUI: its heading says so, live and
when the session is opened again, and its verdict is beside it (the answer was judged)."""

from __future__ import annotations

from ragtui.core.dialogue.engine import Engine
from ragtui.core.models.endpoints import resolve_endpoints
from stand_ins.fake_openai import Reply

from ..conftest import BOT
from .conftest import SIZE, open_recorded, pane_text, settle
from .test_dialogue_flows import start_session

INVENTED = "Gift cards are sold in the app: open Settings > Wallet > Gift cards and tap Buy."
SENT = INVENTED[:30]  # three pieces of ten, then the stream stalls


async def test_a_cut_off_answer_is_marked_live_and_when_reopened(
    make_app, tui_config, store, scenario, persona, server
):
    tui_config.roles["bot"].reply_timeout = 1.5
    tui_config.max_turns = 1
    server.script(BOT, Reply(INVENTED, chunk_chars=10, stall_after_chunks=3))
    engine = Engine(tui_config, resolve_endpoints(tui_config), store)
    try:
        [e async for e in engine.new_dialogue(scenario, persona).run()]
    finally:
        await engine.aclose()
    server.script(BOT, Reply(INVENTED, chunk_chars=10, stall_after_chunks=3))
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot, "ctrl+r")
        await settle(pilot)
        live = pane_text(app, "bot")
        assert "Turn 1 · bot · cut off at reply_timeout, judged as it stands" in live and SENT in live
        assert "failed" not in live
        await open_recorded(pilot)
        reopened = pane_text(app, "bot")
        assert "Turn 1 · bot · cut off at reply_timeout" in reopened and SENT in reopened
        assert "Turn 1 score" in pane_text(app, "judge")
