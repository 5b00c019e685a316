"""The OpenAI-compatible bot against the fake OpenAI server: the dialogue as chat messages,
passages from the response when it carries them, none (judged without context) otherwise."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.core.bots.openai_bot import OpenAIBot, openai_endpoint
from ragtui.core.config.bot_config import parse_bot
from ragtui.core.models.llm import ClientPool
from ragtui.core.types.errors import ConfigError, EndpointError
from ragtui.core.types.turns import Utterance
from stand_ins.fake_openai import FakeOpenAIServer, Reply

TEAM = "team-bot"
HISTORY = [Utterance("user", "Refund?"), Utterance("bot", "Within 30 days."), Utterance("user", "And for Apple?")]


def openai_bot(server: FakeOpenAIServer, pool: ClientPool, **table: object) -> OpenAIBot:
    values = {"type": "openai", "base_url": server.base_url, "model": TEAM, "max_retries": 0, **table}
    settings = parse_bot(values, "t.toml: [bot]", Path("."))
    assert settings.openai is not None
    return OpenAIBot(settings.openai, pool.client_for(openai_endpoint(settings.openai)))


@pytest.fixture
async def pool():
    p = ClientPool()
    yield p
    await p.aclose()


async def test_dialogue_goes_out_as_chat_messages(server: FakeOpenAIServer, pool: ClientPool):
    server.script(TEAM, Reply("Ask Apple for App Store refunds.", chunk_chars=5))
    bot = openai_bot(server, pool, system_prompt="You are Tsumugi support.")
    deltas: list[str] = []
    answer = await bot.answer(HISTORY, on_delta=deltas.append)
    assert answer.text == "Ask Apple for App Store refunds." == "".join(deltas) and len(deltas) > 3
    assert answer.passages == [] and answer.usage.model == TEAM and answer.usage.completion_tokens
    sent = server.chat_requests(TEAM)[-1]
    assert sent["messages"] == [
        {"role": "system", "content": "You are Tsumugi support."},
        {"role": "user", "content": "Refund?"},
        {"role": "assistant", "content": "Within 30 days."},
        {"role": "user", "content": "And for Apple?"},
    ]
    assert sent["temperature"] == 0.2


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (
            {"citations": [{"title": "Refunds", "content": "30 days", "url": "kb/refunds"}]},
            [("Refunds", "30 days", "kb/refunds")],
        ),
        ({"context": {"citations": [{"title": "R", "content": "c", "filepath": "r.md"}]}}, [("R", "c", "r.md")]),
        ({"passages": ["plain text passage"]}, [("", "plain text passage", "")]),
    ],
)
async def test_passages_from_the_response(server: FakeOpenAIServer, pool: ClientPool, extra: dict, expected: list):
    server.script(TEAM, Reply("Answer.", extra=extra))
    answer = await openai_bot(server, pool).answer(HISTORY)
    assert [(p.title, p.text, p.doc_id) for p in answer.passages] == expected


async def test_a_configured_passages_path(server: FakeOpenAIServer, pool: ClientPool):
    server.script(TEAM, Reply("Answer.", extra={"retrieval": {"hits": [{"body": "hit one", "name": "H"}]}}))
    bot = openai_bot(server, pool, passages_path="retrieval.hits", passage_text="body", passage_title="name")
    answer = await bot.answer(HISTORY)
    assert [(p.title, p.text) for p in answer.passages] == [("H", "hit one")]


async def test_server_errors_are_endpoint_errors(server: FakeOpenAIServer, pool: ClientPool):
    server.script(TEAM, Reply(status=500, error_message="bot crashed"))
    with pytest.raises(EndpointError, match="500.*bot crashed"):
        await openai_bot(server, pool).answer(HISTORY)


def test_a_named_key_variable_must_be_set(server: FakeOpenAIServer):
    settings = parse_bot(
        {"type": "openai", "base_url": server.base_url, "model": TEAM, "api_key_env": "TEAM_BOT_KEY"}, "t", Path(".")
    )
    assert settings.openai is not None
    with pytest.raises(ConfigError, match="TEAM_BOT_KEY"):
        openai_endpoint(settings.openai)
