"""Token log-probabilities through the real client over real HTTP: both wire shapes (OpenAI's
``choices[].logprobs`` and older llama.cpp's ``completion_probabilities``), streamed chunk by
chunk; an endpoint that rejects ``logprobs`` is asked again without it (remembered); and what a
probability-scored judgment makes of each case."""

from __future__ import annotations

import math

import pytest

from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.prompts import load_prompt
from ragtui.core.metrics.answer_correctness import AnswerCorrectness
from ragtui.core.metrics.base import TurnContext
from ragtui.core.metrics.probability import SCALE_0_5, read_levels
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.models.token_logprobs import from_chunk
from stand_ins.fake_openai import Reply, level_reply

from ..conftest import JUDGE

CONTEXT = TurnContext(1, "", "The link is valid for a day.", [], [], "en", reference="Links expire after 24 hours.")


@pytest.fixture
async def client(config):
    pool = ClientPool()
    yield pool.client_for(resolve_endpoints(config)["judge"])
    await pool.aclose()


@pytest.mark.parametrize("shape", ["openai", "llamacpp"])
async def test_streamed_logprobs_are_parsed_in_either_shape(client, server, shape):
    tokens = [("4", {"4": math.log(0.6), "5": math.log(0.3), "The": math.log(0.1)}), (".", {".": 0.0})]
    server.script(JUDGE, Reply(logprobs=tokens, logprobs_shape=shape))
    completion = await client.complete([{"role": "user", "content": "rate"}], top_logprobs=5)
    assert completion.text == "4." and not completion.logprobs_dropped
    assert [e.token for e in completion.logprobs] == ["4", "."]
    assert completion.logprobs[0].top["5"] == pytest.approx(math.log(0.3))
    body = server.chat_requests(JUDGE)[0]
    assert body["logprobs"] is True and body["top_logprobs"] == 5


async def test_no_logprobs_are_asked_for_unless_wanted(client, server):
    server.script(JUDGE, level_reply({"4": 1.0}))
    completion = await client.complete([{"role": "user", "content": "rate"}])
    assert completion.text == "4" and completion.logprobs == []
    assert "logprobs" not in server.chat_requests(JUDGE)[0]


def test_chunk_parsing_ignores_malformed_entries():
    chunk = {
        "choices": [
            {"logprobs": {"content": [{"token": "4", "logprob": -0.1, "top_logprobs": [{"token": 5}, "x"]}, {"x": 1}]}}
        ],
        "completion_probabilities": [{"content": "5", "probs": [{"tok_str": "5", "prob": 0.0}, {"tok_str": "4"}]}],
    }
    entries = from_chunk(chunk)
    assert [(e.token, e.top) for e in entries] == [("4", {}), ("5", {})]


async def test_an_endpoint_rejecting_logprobs_is_asked_again_without_and_remembers(client, server):
    def picky(body: dict) -> Reply:
        if "logprobs" in body or "top_logprobs" in body:
            return Reply(status=400, error_message="'logprobs' is not supported by this model")
        return Reply("3")

    server.set_default(JUDGE, picky)
    first = await client.complete([{"role": "user", "content": "rate"}], max_tokens=1, top_logprobs=20)
    second = await client.complete([{"role": "user", "content": "rate"}], max_tokens=1, top_logprobs=20)
    assert first.text == second.text == "3" and first.logprobs_dropped and second.logprobs_dropped
    bodies = server.chat_requests(JUDGE)
    assert len(bodies) == 3 and "logprobs" in bodies[0]  # the rejection is not repeated
    assert all("logprobs" not in b and "top_logprobs" not in b for b in bodies[1:])


async def test_the_judgment_falls_back_to_the_sampled_level_and_says_so(client, server, config):
    server.set_default(
        JUDGE,
        lambda body: Reply(status=400, error_message="logprobs unsupported") if "logprobs" in body else Reply("4"),
    )
    metric = AnswerCorrectness(client, load_prompt(bundled_dir("prompts"), "en", "metric_answer_correctness"))
    j = await metric.judge(CONTEXT)
    assert j.score == pytest.approx(0.8) and j.details["level_question"]["source"] == "sampled"
    assert "sampled" in j.details["conclusion"]


def test_renormalised_over_allowed_levels_even_when_a_grammar_forbade_the_top_token():
    """llama.cpp reports alternatives before its grammar: the sampled "3" may not be the likeliest."""
    from ragtui.core.models.llm import Completion
    from ragtui.core.models.token_logprobs import TokenLogprob

    top = {"4": math.log(0.4), "5": math.log(0.3), "3": math.log(0.2), "Score": math.log(0.1)}
    completion = Completion("3", "m", None, None, 1.0, logprobs=[TokenLogprob("3", math.log(0.2), top)])
    graded = read_levels(completion, SCALE_0_5)
    assert graded.value == pytest.approx((4 * 0.4 + 5 * 0.3 + 3 * 0.2) / 0.9)
    assert graded.mass == pytest.approx(0.9) and graded.sampled == "3"
