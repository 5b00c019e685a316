"""The limits on a reply, and what is kept when one stops it. ``timeout`` is the longest wait for
data; ``reply_timeout`` bounds the whole reply, so a server trickling one piece just inside
``timeout`` cannot hold a dialogue for minutes. Whatever stops a reply — either limit, a cancel,
SIGTERM — the text that had arrived is kept in partial_replies, never as a message, and the
message names what stopped it; except a bot's answer ``reply_timeout`` stopped while it was still
answering, which is the turn's answer as far as it got, marked and judged
(tests/dialogue/test_cut_off_answer.py)."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from ragtui.core.config.bot_config import parse_bot
from ragtui.core.config.settings import parse_config
from ragtui.core.dialogue.engine import Engine
from ragtui.core.dialogue.events import DialogueDone, Failure, TextDelta
from ragtui.core.models.endpoints import resolve_endpoints
from stand_ins.fake_openai import FakeOpenAIServer, Reply

from ..conftest import BOT, JUDGE, endpoint_toml, interruptible

TEXT = "Open Settings, then Account, and choose Reset to unlink the old account."
STALLED = "Open Set"  # the two chunks of four characters sent before the stream stalls


async def run(engine: Engine, scenario, persona) -> list:
    return [e async for e in engine.new_dialogue(scenario, persona).run()]


def trickle() -> Reply:
    """Every piece well inside ``timeout``, the whole reply far beyond ``reply_timeout``."""
    return Reply(TEXT * 4, chunk_chars=4, delay_per_chunk=0.1)


def test_reply_timeout_is_set_per_role(tmp_path: Path):
    table = {"endpoint": {"reply_timeout": 100}, "roles": {"judge": {"reply_timeout": 60, "base_url": "http://x/v1"}}}
    config = parse_config(table, tmp_path / "ragtui.toml")
    assert config.role("judge").reply_timeout == 60.0 and config.role("user").reply_timeout == 100.0
    bot = parse_bot({"type": "openai", "base_url": "http://x/v1", "model": "m", "reply_timeout": 9}, "[bot]", tmp_path)
    assert bot.openai is not None and bot.openai.reply_timeout == 9.0


async def test_a_trickling_judge_reply_is_stopped_by_reply_timeout(config, store, scenario, persona, server):
    config.endpoint.max_retries = 2  # the reply's time is spent: not retried
    config.roles["judge"].reply_timeout = 0.5
    server.script(JUDGE, trickle())
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        events = await run(engine, scenario, persona)
    finally:
        await engine.aclose()
    failure = next(e for e in events if isinstance(e, Failure))
    assert failure.role == "judge" and "judge endpoint" in failure.message
    assert "reply_timeout 0.5 s" in failure.message and "broke off" not in failure.message
    assert len(server.chat_requests(JUDGE)) == 1
    session = store.session(events[-1].session_id)
    assert session.stop_reason == "error" and [m.role for m in session.messages] == ["user", "bot"]
    (partial,) = session.partials
    assert partial.role == "judge" and (TEXT * 4).startswith(partial.text) and partial.text != TEXT * 4
    assert f"({len(partial.text)} characters received)" in partial.error


async def test_a_trickling_bot_answer_stopped_by_reply_timeout_is_its_answer_cut_off(
    config, store, scenario, persona, server
):
    config.endpoint.max_retries = 2  # the reply's time is spent: not retried
    # 2 s: the first pieces arrive well within it on a loaded machine; the whole reply takes 7.4 s
    config.roles["bot"].reply_timeout = 2.0
    config.max_turns = 1
    server.script(BOT, trickle())
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        events = await run(engine, scenario, persona)
    finally:
        await engine.aclose()
    assert not [e for e in events if isinstance(e, Failure)]
    assert len(server.chat_requests(BOT)) == 1
    session = store.session(events[-1].session_id)
    assert session.stop_reason == "max_turns" and session.partials == []
    bot = next(m for m in session.messages if m.role == "bot")
    assert bot.cut_at_reply_timeout and (TEXT * 4).startswith(bot.text) and bot.text != TEXT * 4
    assert session.judgments and session.score is not None


async def test_a_stall_is_stopped_by_timeout_and_says_so(config, store, scenario, persona, server):
    config.roles["bot"].timeout = 2.0  # a bound a loaded machine connects within; the stall outlasts it
    server.script(BOT, Reply(TEXT, chunk_chars=4, stall_after_chunks=2))
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        events = await run(engine, scenario, persona)
    finally:
        await engine.aclose()
    done = events[-1]
    assert isinstance(done, DialogueDone) and done.stop_reason == "error"
    message = done.error or ""
    assert "bot endpoint" in message and "no data for timeout 2 s after 8 characters" in message
    assert "broke off" not in message and "\n" not in message
    session = store.session(done.session_id)
    assert [(p.role, p.text) for p in session.partials] == [("bot", STALLED)]
    assert [m.role for m in session.messages] == ["user"]


def _http_bot(server: FakeOpenAIServer, **table: object) -> dict[str, object]:
    """An HTTP bot streaming SSE: the fake server's chat stream, read with delta paths."""
    body = {"model": BOT, "stream": True, "messages": "{{messages}}"}
    url = server.base_url + "/chat/completions"
    return {
        "type": "http",
        "url": url,
        "stream": "sse",
        "delta_path": "choices[0].delta.content",
        "body": body,
        **table,
    }


@pytest.mark.parametrize("limit", ["timeout", "reply_timeout"])
async def test_an_http_bot_stopped_by_a_limit_keeps_what_arrived(config, store, scenario, persona, server, limit):
    if limit == "timeout":
        table, reply, named = {"timeout": 2.0}, Reply(TEXT, chunk_chars=4, stall_after_chunks=2), "timeout 2 s"
    else:
        table, reply, named = {"reply_timeout": 2.0}, trickle(), "reply_timeout 2 s"  # see above
    config.bot = parse_bot(_http_bot(server, max_retries=0, **table), "t.toml: [bot]", Path("."))
    server.script(BOT, reply)
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        events = await run(engine, scenario, persona)
    finally:
        await engine.aclose()
    done = events[-1]
    session = store.session(done.session_id)
    if limit == "reply_timeout":  # still answering: what it said is its answer, cut off and judged
        assert done.stop_reason != "error" and session.partials == []
        bot = next(m for m in session.messages if m.role == "bot")
        assert bot.cut_at_reply_timeout and (TEXT * 4).startswith(bot.text) and session.judgments
        return
    assert done.stop_reason == "error" and "HTTP bot at" in (done.error or "") and named in (done.error or "")
    (partial,) = session.partials
    assert partial.role == "bot" and partial.text == STALLED
    assert [m.role for m in session.messages] == ["user"]


async def test_a_cancel_mid_reply_keeps_what_arrived(engine: Engine, scenario, persona, server):
    """The TUI's cancel (``Dialogue.cancel``) while the bot streams."""
    server.script(BOT, Reply(TEXT, chunk_chars=4, stall_after_chunks=2))
    dialogue = engine.new_dialogue(scenario, persona)
    events, streamed = [], ""
    async for event in dialogue.run():
        events.append(event)
        if isinstance(event, TextDelta) and event.role == "bot":
            streamed += event.text
            if streamed == STALLED:
                assert dialogue.cancel() is None  # the running step ends with DialogueDone
    done = events[-1]
    assert isinstance(done, DialogueDone) and done.stop_reason == "cancelled"
    session = engine.store.session(done.session_id)
    (partial,) = session.partials
    assert (partial.role, partial.turn, partial.text) == ("bot", 1, STALLED)
    assert "cancelled" in partial.error and "bot" in partial.error
    assert [m.role for m in session.messages] == ["user"]


def test_sigterm_of_a_run_mid_reply_keeps_what_arrived(server: FakeOpenAIServer, tmp_path: Path):
    config = tmp_path / "ragtui.toml"
    config.write_text('language = "en"\nmax_turns = 1\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url))
    server.set_default(BOT, Reply(TEXT, chunk_chars=4, stall_after_chunks=2))
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "ragtui",
            "run",
            "--config",
            str(config),
            "-s",
            "id-linking",
            "-p",
            "calm",
            "--no-check",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"},
        preexec_fn=interruptible,
    )
    try:
        # The chunks are in the run's socket once the server stalls (loopback delivers at send).
        assert server.wait_for_stalls(1, timeout=60), process.communicate(timeout=60)
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
    assert process.returncode == 128 + signal.SIGTERM, out + err
    with sqlite3.connect(tmp_path / "runs.db") as conn:
        partials = conn.execute("SELECT role, turn, text, error FROM partial_replies").fetchall()
        stops = conn.execute("SELECT stop_reason FROM sessions").fetchall()
    assert stops == [("cancelled",)]
    [(role, turn, text, error)] = partials
    assert (role, turn, text) == ("bot", 1, STALLED) and "cancelled" in error
