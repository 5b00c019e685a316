"""Complete means complete: a streamed reply is a message only when its stream ended properly.
Cut, malformed and unfinished streams are retried; when they keep failing the dialogue ends
``error`` naming the role, and what arrived is kept only as a visibly partial record that is
never judged, never fed on and never exported as an answer."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

import ragtui.core.models.llm as llm
from ragtui.cli.main import main
from ragtui.core.dialogue.engine import Engine
from ragtui.core.dialogue.events import DialogueDone, Failure, MessageDone, StreamRestarted
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.store.export import sessions_to_csv
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, USER, endpoint_toml

BROKEN = {
    "cut": dict(cut_after_chunks=2),
    "malformed": dict(malformed_after_chunks=2),
    "unfinished": dict(unfinished=True),
}


@pytest.fixture(autouse=True)
def _quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(llm, "STREAM_RETRY_BACKOFF_S", 0.01)


async def run(engine: Engine, scenario, persona) -> list:
    return [e async for e in engine.new_dialogue(scenario, persona).run()]


@pytest.mark.parametrize("fault", sorted(BROKEN))
async def test_a_broken_bot_stream_is_never_a_message(engine: Engine, scenario, persona, server, fault):
    text = "Please open Settings, then Account, and choose Reset."
    server.script(BOT, Reply(text, chunk_chars=8, **BROKEN[fault]))
    events = await run(engine, scenario, persona)
    failure = next(e for e in events if isinstance(e, Failure))
    assert failure.role == "bot" and "bot endpoint" in failure.message and "partial" in failure.message
    done = events[-1]
    assert isinstance(done, DialogueDone) and done.stop_reason == "error"
    session = engine.store.session(done.session_id)
    # Not a message, not judged, not fed to anyone: only the customer's question is stored.
    assert [m.role for m in session.messages] == ["user"]
    assert session.judgments == [] and server.chat_requests(JUDGE) == []
    assert server.chat_requests(USER) == []
    (partial,) = session.partials
    assert partial.role == "bot" and partial.turn == 1 and text.startswith(partial.text)
    # An unfinished stream may have carried every character: still no message without its end.
    assert partial.text != text or fault == "unfinished"
    # The CSV has no answer for it.
    assert partial.text not in sessions_to_csv([session])


async def test_a_broken_stream_is_retried_and_the_retry_is_the_message(config, store, scenario, persona, server):
    config.endpoint.max_retries = 2
    server.script(BOT, Reply("half of it", chunk_chars=3, cut_after_chunks=1), Reply("the whole answer"))
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        dialogue = engine.new_dialogue(scenario, persona)
        events = [e async for e in dialogue.step()] + [e async for e in dialogue.step()]
    finally:
        await engine.aclose()
    restart = next(e for e in events if isinstance(e, StreamRestarted))
    assert restart.role == "bot" and restart.attempt == 2 and "broke off" in restart.reason
    answer = next(e for e in events if isinstance(e, MessageDone) and e.role == "bot")
    assert answer.text == "the whole answer"
    stored = store.session(answer.session_id).messages[-1]
    assert stored.text == "the whole answer" and stored.attempts == 2 and stored.finish_reason == "stop"


async def test_a_cut_done_is_not_done(config, store, scenario, persona, server):
    """The customer's "DONE" cut to "DO" must neither end the dialogue as done nor be stored."""
    server.script(USER, Reply("DONE", chunk_chars=2, cut_after_chunks=1))
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        events = await run(engine, scenario, persona)
    finally:
        await engine.aclose()
    done = events[-1]
    assert done.stop_reason == "error" and "user endpoint" in (done.error or "")
    session = store.session(done.session_id)
    assert [m.text for m in session.messages if m.role == "user"] == [session.question]
    assert [(p.role, p.text) for p in session.partials] == [("user", "DO")]


async def test_a_failed_judge_stream_leaves_an_unscored_verdict_row(engine: Engine, scenario, persona, server):
    server.script(JUDGE, Reply('{"overall": 4, "und', chunk_chars=4, cut_after_chunks=2))
    events = await run(engine, scenario, persona)
    session = engine.store.session(events[-1].session_id)
    (verdict,) = session.judgments
    assert verdict.score is None and "judge endpoint" in (verdict.error or "")
    assert session.unscored_turns == 1 and session.stop_reason == "error"
    assert [p.role for p in session.partials] == ["judge"]


async def test_length_finish_is_kept_but_marked(engine: Engine, scenario, persona, server):
    server.script(BOT, Reply("An answer the token limit cut", finish_reason="length"))
    events = await run(engine, scenario, persona)
    session = engine.store.session(events[-1].session_id)
    first_bot = next(m for m in session.messages if m.role == "bot")
    assert first_bot.finish_reason == "length" and first_bot.cut_by_limit
    assert len(session.judgments) == 3  # kept, and judged as the answer it is
    rows = list(csv.DictReader(sessions_to_csv([session]).splitlines()))
    assert rows[0]["cut_by_token_limit"] == "assistant1"


def test_show_marks_partial_and_cut_replies(server, tmp_path: Path, capsys):
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\nmax_turns = 2\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url))
    server.script(BOT, Reply("cut by the limit", finish_reason="length"), Reply("never finished", cut_after_chunks=1))
    assert main(["run", "--config", str(config), "-s", "id-linking", "-p", "calm"]) == 2
    capsys.readouterr()
    assert main(["show", "1", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "cut by the token limit" in out
    assert "PARTIAL, never completed" in out and "never fi" in out


async def test_lone_surrogate_reply_is_stored(engine: Engine, scenario, persona, server):
    server.script(BOT, Reply("Open \ud800 Settings"))
    events = await run(engine, scenario, persona)
    assert events[-1].stop_reason == "max_turns"
    session = engine.store.session(events[-1].session_id)
    assert session.messages[1].text == "Open \ufffd Settings"


async def test_an_http_bot_stream_that_breaks_is_a_partial_record(config, store, scenario, persona, faulty):
    from ragtui.core.config.bot_config import parse_bot

    config.bot = parse_bot(
        {"type": "http", "url": faulty.url("reset"), "stream": "sse", "max_retries": 1, "backoff": 0},
        "t.toml: [bot]",
        Path("."),
    )
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        events = await run(engine, scenario, persona)
    finally:
        await engine.aclose()
    assert any(isinstance(e, StreamRestarted) and e.role == "bot" for e in events)
    done = events[-1]
    assert done.stop_reason == "error" and "broke off" in (done.error or "")
    session = store.session(done.session_id)
    assert [m.role for m in session.messages] == ["user"]
    assert [(p.role, p.text, p.attempts) for p in session.partials] == [("bot", "Half", 2)]
