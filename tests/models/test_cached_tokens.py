"""Prompt tokens a server reused from its prompt cache, through the real client over real HTTP:
OpenAI's ``usage.prompt_tokens_details.cached_tokens`` and llama.cpp's ``timings`` (``cache_n``
reused, ``prompt_n`` computed); a server that says nothing leaves them unknown (None), never 0.
And ``id_slot``: sent to the embedded server only, each kind of call keeping slots of its own."""

from __future__ import annotations

import dataclasses

import pytest

from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool, prompt_usage
from ragtui.core.models.slots import SLOT_PLAN, SLOTS_PER_LANE, slot_lane
from ragtui.core.records.calls import CallUsage

from ..conftest import BOT, JUDGE, USER

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


def _embedded(endpoint, slots: int = SLOTS_PER_LANE):
    return dataclasses.replace(endpoint, embedded=True, slot_count=slots)


async def test_id_slot_goes_to_the_embedded_server_only(pool, config, server):
    endpoints = resolve_endpoints(config)
    slot_lane.set((0, 1))
    plain = pool.client_for(endpoints["bot"])
    await plain.complete([{"role": "user", "content": "hi"}])
    assert "id_slot" not in server.chat_requests(BOT)[-1]  # another server: never an unknown option

    embedded = {role: pool.client_for(_embedded(endpoints[role])) for role in ("user", "bot", "judge")}
    await embedded["user"].complete([{"role": "user", "content": "hi"}])
    await embedded["user"].complete([{"role": "user", "content": "check"}], step="check")
    await embedded["bot"].complete([{"role": "user", "content": "hi"}])
    await embedded["judge"].complete([{"role": "user", "content": "hi"}])
    slots = [b["id_slot"] for b in server.chat_requests(USER)] + [server.chat_requests(BOT)[-1]["id_slot"]]
    judge = server.chat_requests(JUDGE)[-1]["id_slot"]
    # Customer, check, bot and judge each on a slot of their own.
    assert slots == [0, 1, 2] and judge in range(3, 3 + SLOT_PLAN["judge"])


async def test_no_id_slot_without_a_lane_or_with_too_few_slots(pool, config, server):
    endpoints = resolve_endpoints(config)
    bot = pool.client_for(_embedded(endpoints["bot"]))
    await bot.complete([{"role": "user", "content": "hi"}])  # no lane: not run by the engine
    slot_lane.set((0, 2))  # two dialogues at once need twice the slots
    await bot.complete([{"role": "user", "content": "hi"}])
    few = pool.client_for(_embedded(endpoints["bot"], slots=SLOTS_PER_LANE - 1))
    slot_lane.set((0, 1))
    await few.complete([{"role": "user", "content": "hi"}])
    assert all("id_slot" not in body for body in server.chat_requests(BOT))


async def test_the_judges_prompt_families_keep_slots_of_their_own(pool, config, server):
    """Each judge call goes to the judge's slot whose last prompt it shares the most with: two
    kinds of judge prompt alternating never evict each other, and a second lane uses its own."""
    judge = pool.client_for(_embedded(resolve_endpoints(config)["judge"], slots=2 * SLOTS_PER_LANE))
    rubric = {"role": "system", "content": "Rubric check. Read the passages and the answer. " * 10}
    steps = {"role": "system", "content": "List the statements of the answer, one per line. " * 10}
    slot_lane.set((0, 1))
    for n in range(3):
        await judge.complete([rubric, {"role": "user", "content": f"check {n}"}])
        await judge.complete([steps, {"role": "user", "content": f"answer {n}"}])
    slots = [b["id_slot"] for b in server.chat_requests(JUDGE)]
    assert slots[0::2] == [slots[0]] * 3 and slots[1::2] == [slots[1]] * 3 and slots[0] != slots[1]
    slot_lane.set((1, 2))
    await judge.complete([rubric, {"role": "user", "content": "check"}])
    assert server.chat_requests(JUDGE)[-1]["id_slot"] >= SLOTS_PER_LANE
