"""The HTTP bot's happy paths: the reference server (``ragtui serve-bot``) plain and streamed,
body templates, JSON paths, SSE and plain-text streams, GET with query parameters."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from ragtui.core.bots.call import BotCall, current_call
from ragtui.core.bots.reference_server import ReferenceServer, builtin_factory
from ragtui.core.config.settings import Config
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.types.turns import Utterance
from stand_ins.fake_openai import FakeOpenAIServer, Reply

from ..bot_servers import FaultyServer, http_bot
from ..conftest import BOT

HISTORY = [
    Utterance("user", "How do I link my Google account?"),
    Utterance("bot", "Go to Settings."),
    Utterance("user", 'And "Apple"? \\ {{history}} ${HOME} </script>'),
]


@pytest.fixture
def reference(config: Config, server: FakeOpenAIServer) -> Iterator[ReferenceServer]:
    with ReferenceServer(builtin_factory(config, resolve_endpoints(config)["bot"])) as ref:
        yield ref


async def test_reference_server_answers_with_passages(reference: ReferenceServer, server: FakeOpenAIServer):
    server.script(BOT, Reply("Open Settings > Account > Linked services."))
    bot = http_bot(reference.url)
    answer = await bot.answer(HISTORY[:1])
    await bot.aclose()
    assert answer.text == "Open Settings > Account > Linked services."
    assert answer.passages and "linked-services" in answer.passages[0].doc_id
    assert answer.passages[0].title and answer.passages[0].text
    assert answer.usage.model == BOT and answer.usage.latency_ms is not None
    # The reference bot saw the whole dialogue: its system prompt plus the three messages.
    sent = server.chat_requests(BOT)[-1]["messages"]
    assert [m["role"] for m in sent[1:]] == ["user"]


async def test_reference_server_streams(reference: ReferenceServer, server: FakeOpenAIServer):
    server.script(BOT, Reply("A streamed answer in many small pieces.", chunk_chars=4))
    bot = http_bot(
        reference.url, stream="sse", body={"question": "{{question}}", "history": "{{history}}", "stream": True}
    )
    deltas: list[str] = []
    answer = await bot.answer(HISTORY, on_delta=deltas.append)
    await bot.aclose()
    assert len(deltas) > 5 and "".join(deltas) == answer.text == "A streamed answer in many small pieces."
    assert answer.passages
    sent = server.chat_requests(BOT)[-1]["messages"]
    # The history arrived intact: each customer message (sent with its passages first) and
    # each bot answer, in order.
    assert [m["role"] for m in sent[1:]] == ["user" if u.speaker == "user" else "assistant" for u in HISTORY]
    for message, utterance in zip(sent[1:], HISTORY, strict=True):
        assert message["content"].rstrip().endswith(utterance.text)


async def test_reference_server_rejects_bad_requests(reference: ReferenceServer):
    async with httpx.AsyncClient() as client:
        assert (await client.post(reference.url, content=b"not json")).status_code == 400
        assert (await client.post(reference.url, json={"history": []})).status_code == 400
        assert (await client.get(reference.url)).status_code == 405
        assert (await client.get(reference.url.replace("/chat", "/health"))).json() == {"status": "ok"}


async def test_reference_server_reports_its_model_failing(reference: ReferenceServer, server: FakeOpenAIServer):
    server.script(BOT, Reply(status=500, error_message="model exploded"))
    async with httpx.AsyncClient() as client:
        response = await client.post(reference.url, json={"question": "hi"})
    assert response.status_code == 502 and "model exploded" in response.json()["error"]


async def test_body_slots_are_filled_structurally(faulty: FaultyServer):
    """Quotes, backslashes, slot-like and variable-like text in a question stay plain text."""
    bot = http_bot(
        faulty.url("ok"),
        body={"q": "{{question}}", "prior": "{{history}}", "all": "{{messages}}", "meta": {"sid": "s-{{session_id}}"}},
        headers={"X-Session": "{{session_id}}", "X-Turn": "{{turn}}"},
        passages_path="sources",
    )
    token = current_call.set(BotCall(session_id=7, turn=2))
    try:
        answer = await bot.answer(HISTORY)
    finally:
        current_call.reset(token)
        await bot.aclose()
    assert answer.text == "Fine."
    assert [(p.title, p.text, p.doc_id) for p in answer.passages] == [("Doc 1", "Passage one.", "kb/1")]
    _, headers, raw = faulty.requests[0]
    body = json.loads(raw)
    assert body["q"] == HISTORY[-1].text
    assert body["prior"] == [
        {"role": "user", "content": HISTORY[0].text},
        {"role": "assistant", "content": "Go to Settings."},
    ]
    assert len(body["all"]) == 3 and body["all"][-1] == {"role": "user", "content": HISTORY[-1].text}
    assert body["meta"]["sid"] == f"s-{headers['X-Session']}" and headers["X-Session"].endswith("-7")
    assert headers["X-Turn"] == "2"


async def test_nested_answer_and_plain_string_passages(faulty: FaultyServer):
    bot = http_bot(faulty.url("nested"), answer_path="$.data.reply.text", passages_path="docs")
    answer = await bot.answer(HISTORY)
    await bot.aclose()
    assert answer.text == "Nested answer." and [p.text for p in answer.passages] == ["plain passage"]


async def test_passage_fields_by_path(faulty: FaultyServer):
    bot = http_bot(faulty.url("ok"), passages_path="sources[*]", passage_text="content", passage_source="url")
    answer = await bot.answer(HISTORY)
    await bot.aclose()
    assert [(p.text, p.doc_id) for p in answer.passages] == [("Passage one.", "kb/1")]


async def test_sse_with_deltas_and_passages(faulty: FaultyServer):
    bot = http_bot(faulty.url("sse"), stream="sse", passages_path="sources")
    deltas: list[str] = []
    answer = await bot.answer(HISTORY, on_delta=deltas.append)
    await bot.aclose()
    assert deltas == ["Hel", "lo"] and answer.text == "Hello"
    assert [(p.title, p.text) for p in answer.passages] == [("T", "P")]


async def test_chunked_plain_text(faulty: FaultyServer):
    bot = http_bot(faulty.url("text"), stream="text")
    deltas: list[str] = []
    answer = await bot.answer(HISTORY, on_delta=deltas.append)
    await bot.aclose()
    assert answer.text == "Plain streamed text — ok" == "".join(deltas) and answer.passages == []


async def test_get_with_query_parameters(faulty: FaultyServer):
    bot = http_bot(faulty.url("ok"), method="GET", params={"q": "{{question}}", "lang": "en"})
    await bot.answer(HISTORY)
    await bot.aclose()
    path, _, raw = faulty.requests[0]
    assert raw == b"" and path.startswith("/ok?q=And+%22Apple%22") and path.endswith("&lang=en")
