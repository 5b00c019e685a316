"""A judge reply that comes back whole but cannot be read is asked for once more; the Judge pane
then drops the first reply's text and heads the second with why, as for a broken stream,
instead of gluing the second reply to the first ("Let me think{"intents": …"). The verdict
replaces both, so the pane then reads as the reopened session does."""

from __future__ import annotations

import asyncio
import time

from stand_ins.fake_openai import Reply

from ..conftest import JUDGE, check_answers
from .conftest import SIZE, pane_text, settle
from .test_dialogue_flows import start_session

UNREADABLE = "Let me think about the customer's intents first"


async def test_the_judge_pane_drops_an_unreadable_reply_before_the_second(make_app, server):
    rubric = check_answers(4)
    intents_calls: list[int] = []

    def judge(body: dict) -> Reply:
        title = ((body.get("response_format") or {}).get("json_schema") or {}).get("name", "")
        if title != "intents":
            return rubric(body)
        intents_calls.append(1)
        if len(intents_calls) == 1:  # resolution's first step: prose, no JSON
            return Reply(UNREADABLE, chunk_chars=8)
        return Reply('{"intents": ["link my account"', chunk_chars=6, stall_after_chunks=4)  # asked again

    server.set_default(JUDGE, judge)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_session(pilot, "ctrl+r", wait=False)
        assert await asyncio.to_thread(server.wait_for_stalls)
        deadline = time.monotonic() + 60
        while "link" not in pane_text(app, "judge") and time.monotonic() < deadline:
            await pilot.pause(0.05)  # the second reply drawn (a 100 ms flush), not a fixed wait
        judge_pane = pane_text(app, "judge")
        streaming = judge_pane[judge_pane.rindex("Turn 3 score") :]
        assert "Dialogue · resolution (1/3) … · the judge's reply could not be read" in streaming
        assert "asked again (attempt 2)" in streaming
        assert '{"intents": ["link' in streaming and UNREADABLE[:12] not in streaming
        await pilot.press("c")
        await settle(pilot)
