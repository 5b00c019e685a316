"""The rubric judge: tolerant parsing, one retry, unscored (never 0) on garbage, and the
structured-output request with its fallback for endpoints that reject it."""

from __future__ import annotations

import json

import pytest

from ragtui.core.content.prompts import load_prompt
from ragtui.core.metrics.base import TurnContext
from ragtui.core.metrics.json_reply import ReplyParseError
from ragtui.core.metrics.rubric import SCHEMA, RubricJudge, parse_verdict
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.types.passages import Passage
from ragtui.core.types.turns import Utterance
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE, verdict

SCORES = {"understanding": 4, "relevance": 5, "completeness": 3, "correctness": 4, "coherence": 5, "overall": 4}


def test_parses_the_projects_shape():
    parsed = parse_verdict(json.dumps({"steps": ["a", "b"], "conclusion": "ok", **SCORES}))
    assert parsed["scores"] == SCORES and parsed["steps"] == ["a", "b"] and parsed["conclusion"] == "ok"


def test_parses_the_seed_shape_with_fences_doubled_braces_and_string_scores():
    seed_like = {
        "Comment": {"Step1": "read", "Step2": "compared", "Conclusion": "good"},
        **{k.capitalize(): str(v) for k, v in SCORES.items()},
    }
    reply = "Here you go:\n```json\n" + json.dumps(seed_like).replace("{", "{{").replace("}", "}}") + "\n```"
    parsed = parse_verdict(reply)
    assert parsed["scores"] == SCORES
    assert parsed["steps"] == ["read", "compared"] and parsed["conclusion"] == "good"


@pytest.mark.parametrize(
    ("reply", "message"),
    [
        ("The answer is great, 5/5.", "no JSON object"),
        ('{"steps": ["a"], "overall": 4', "no JSON object"),
        (json.dumps({**SCORES, "overall": 7}), "outside 1–5"),
        (json.dumps({**SCORES, "overall": 3.5}), "not a whole number"),
        (json.dumps({**SCORES, "overall": True}), "boolean"),
        (json.dumps({k: v for k, v in SCORES.items() if k != "coherence"}), "coherence is missing"),
        (json.dumps({**SCORES, "relevance": "high"}), "not a number"),
    ],
)
def test_rejects_what_it_cannot_trust(reply: str, message: str):
    with pytest.raises(ReplyParseError, match=message):
        parse_verdict(reply)


def test_schema_bounds_every_string_and_enumerates_scores():
    props = SCHEMA["properties"]
    assert props["overall"]["enum"] == [1, 2, 3, 4, 5]
    assert props["steps"]["items"]["maxLength"] > 0 and props["conclusion"]["maxLength"] > 0
    assert set(SCHEMA["required"]) == set(props)


@pytest.fixture
async def judge(config):
    pool = ClientPool()
    endpoint = resolve_endpoints(config)["judge"]
    yield RubricJudge(pool.client_for(endpoint), load_prompt(config.prompts, "en", "judge_rubric"))
    await pool.aclose()


CONTEXT = TurnContext(
    turn=2,
    question="And for Apple?",
    response="Open Settings > Account > Linked services and choose Apple.",
    passages=[Passage("09.md", "Linked services", "Link Google, Apple, X or LINE in Settings.")],
    history=[Utterance("user", "How do I link Google?"), Utterance("bot", "Use Settings.")],
    language="en",
)


async def test_sends_structured_request_with_all_four_blocks(judge, server):
    judgment = await judge.judge(CONTEXT)
    assert judgment.score == pytest.approx(0.8) and judgment.attempts == 1
    body = server.chat_requests(JUDGE)[0]
    assert body["response_format"]["type"] == "json_schema"
    assert body["response_format"]["json_schema"]["schema"]["properties"]["overall"]["enum"] == [1, 2, 3, 4, 5]
    user = body["messages"][1]["content"]
    for text in ("And for Apple?", "Linked services", "How do I link Google?", "choose Apple"):
        assert text in user
    # The fixed instructions come first and carry no per-turn text (prompt-cache friendly).
    assert "Apple" not in body["messages"][0]["content"]


async def test_retries_once_then_scores(judge, server):
    server.script(JUDGE, Reply("Sure! Overall it is a 4."), Reply(verdict(5)))
    judgment = await judge.judge(CONTEXT)
    assert judgment.score == pytest.approx(1.0) and judgment.attempts == 2
    retry = server.chat_requests(JUDGE)[1]["messages"]
    assert retry[-2] == {"role": "assistant", "content": "Sure! Overall it is a 4."}
    assert "JSON" in retry[-1]["content"]


async def test_garbage_twice_is_unscored_with_the_raw_reply(judge, server):
    server.script(JUDGE, Reply("nope"), Reply('{"overall": "excellent"}'))
    judgment = await judge.judge(CONTEXT)
    assert judgment.score is None and not judgment.scored
    assert judgment.raw_reply == '{"overall": "excellent"}'
    assert "could not be parsed" in (judgment.error or "")


async def test_endpoint_rejecting_json_schema_gets_a_plain_request(judge, server):
    """Some gateways answer 400 to response_format; the judge still works, by prompt alone."""

    def picky(body: dict) -> Reply:
        if "response_format" in body:
            return Reply(status=400, error_message="response_format is not supported")
        return Reply(verdict(3))

    server.set_default(JUDGE, picky)
    first = await judge.judge(CONTEXT)
    second = await judge.judge(CONTEXT)
    assert first.score == pytest.approx(0.6) and second.score == pytest.approx(0.6)
    bodies = server.chat_requests(JUDGE)
    assert "response_format" in bodies[0] and all("response_format" not in b for b in bodies[1:])
    assert len(bodies) == 3  # the option is remembered as unsupported: no second 400
