"""Prompt tokens a server reused from its prompt cache, through the real client over real HTTP:
OpenAI's ``usage.prompt_tokens_details.cached_tokens`` and llama.cpp's ``timings`` (``cache_n``
reused, ``prompt_n`` computed); a server that says nothing leaves them unknown (None), never 0."""

from __future__ import annotations

import pytest

from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool, prompt_usage
from ragtui.core.types.calls import CallUsage

SYSTEM = {"role": "system", "content": "You answer questions about Tsumugi accounts. " * 20}


@pytest.fixture
async def pool():
    pool = ClientPool()
    yield pool
    await pool.aclose()


@pytest.mark.parametrize("form", ["openai", "llamacpp"])
async def test_reused_prompt_tokens_are_read_in_either_form(pool, config, server, form):
    server.report_prompt_cache(form)
    client = pool.client_for(resolve_endpoints(config)["bot"])
    first = await client.complete([SYSTEM, {"role": "user", "content": "How do I link my ID?"}])
    again = await client.complete([SYSTEM, {"role": "user", "content": "And how do I unlink it?"}])
    # The first prompt finds nothing cached; the second shares the long system prompt.
    assert first.cached_tokens == 0 and first.usage.computed_tokens == first.prompt_tokens
    assert again.prompt_tokens is not None and again.cached_tokens is not None
    assert 0 < again.cached_tokens < again.prompt_tokens
    usage = again.usage
    assert usage.cached_tokens == again.cached_tokens
    assert usage.computed_tokens == again.prompt_tokens - again.cached_tokens


async def test_a_server_that_says_nothing_leaves_reuse_unknown(pool, config, server):
    client = pool.client_for(resolve_endpoints(config)["bot"])
    await client.complete([SYSTEM, {"role": "user", "content": "How?"}])
    again = await client.complete([SYSTEM, {"role": "user", "content": "How?"}])
    assert again.prompt_tokens is not None  # usage is reported …
    assert again.cached_tokens is None and again.usage.computed_tokens is None  # … the cache is not


def test_prompt_usage_reads_each_form_and_trusts_no_contradiction():
    details = {"prompt_tokens": 100, "prompt_tokens_details": {"cached_tokens": 60}}
    assert prompt_usage(details, {}) == (100, 60)
    # llama.cpp's own figures win, and give the sent count when usage is missing.
    assert prompt_usage({}, {"cache_n": 30, "prompt_n": 12}) == (42, 30)
    assert prompt_usage({"prompt_tokens": 42}, {"cache_n": 30, "prompt_n": 12}) == (42, 30)
    assert prompt_usage({"prompt_tokens": 42}, {}) == (42, None)
    assert prompt_usage({}, {}) == (None, None)
    assert prompt_usage({"prompt_tokens": 10, "prompt_tokens_details": {"cached_tokens": 11}}, {}) == (10, None)
    assert prompt_usage({"prompt_tokens": 10, "prompt_tokens_details": {"cached_tokens": True}}, {}) == (10, None)
    assert prompt_usage({"prompt_tokens": 10, "prompt_tokens_details": None}, {}) == (10, None)


def test_a_verdicts_reused_tokens_are_known_only_when_every_call_said():
    known = CallUsage.of_calls(
        [CallUsage(prompt_tokens=10, cached_tokens=4), CallUsage(prompt_tokens=5, cached_tokens=5)]
    )
    assert (known.prompt_tokens, known.cached_tokens, known.computed_tokens) == (15, 9, 6)
    partly = CallUsage.of_calls([CallUsage(prompt_tokens=10, cached_tokens=4), CallUsage(prompt_tokens=5)])
    assert partly.cached_tokens is None and partly.computed_tokens is None
