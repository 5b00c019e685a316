"""Answer relevancy and faithfulness scored per statement from the judge's probabilities: P(yes)
read from either server's logprob shape, the mean computed in code, every check recorded, the
sampled yes/no (marked) when the endpoint sends no probabilities, and a garbage or off-level
reply leaving the judgment unscored with the reason — never 0."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from ragtui.core.content.prompts import PromptSet
from ragtui.core.metrics import MetricSettings, build_metrics
from ragtui.core.metrics.answer_relevancy import RelevancyOptions
from ragtui.core.metrics.base import TurnContext
from ragtui.core.metrics.examples import load_examples
from ragtui.core.metrics.explain import explain_lines
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.types.passages import Passage
from stand_ins.fake_openai import Reply, level_reply

from ..conftest import JUDGE

PASSAGE = Passage("09.md", "Linked services", "Go to Settings > Account > Linked services and tap Link.")
CONTEXT = TurnContext(
    turn=1,
    question="How do I link Google?",
    response="Open Settings > Account > Linked services and tap Link. We also love cats.",
    passages=[PASSAGE],
    history=[],
    language="en",
)


def statements(*items: str) -> Reply:
    return Reply(json.dumps({"statements": list(items)}))


def p_yes(p: float, shape: str = "openai") -> Reply:
    """A one-token check reply whose alternatives put ``p`` on "yes" and the rest on "no"."""
    return level_reply({"yes": p, "no": 1.0 - p}, shape=shape)


REASON = Reply(json.dumps({"reason": "Two statements help, one is off topic."}))


@pytest.fixture
async def metric(config):
    """metric(name, language="en", settings=None, examples_dir=None) → that metric on the fake judge."""
    pool = ClientPool()
    client = pool.client_for(resolve_endpoints(config)["judge"])

    def make(name: str, language: str = "en", settings: MetricSettings | None = None):
        prompts = PromptSet.load(config.prompts, language)
        return build_metrics([name], client, prompts, settings=settings, include_primary=False)[-1]

    yield make
    await pool.aclose()


# -- answer relevancy ------------------------------------------------------------------------


async def test_relevancy_is_the_mean_p_yes_of_its_statements(metric, server):
    server.script(
        JUDGE,
        statements("Open Settings > Account > Linked services.", "Tap Link.", "We love cats."),
        p_yes(0.9),
        p_yes(0.6),
        p_yes(0.06),
        REASON,
    )
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score == pytest.approx((0.9 + 0.6 + 0.06) / 3)
    assert [v["p_yes"] for v in j.details["verdicts"]] == pytest.approx([0.9, 0.6, 0.06])
    assert [v["verdict"] for v in j.details["verdicts"]] == ["yes", "yes", "no"]
    assert j.details["scoring"] == "probability"
    assert [s["step"] for s in j.details["trace"]] == ["statements", "check 1", "check 2", "check 3", "reason"]
    requests = server.chat_requests(JUDGE)
    check = requests[1]
    # One token, temperature 0, with the alternatives asked for; question and statement shown.
    assert check["max_tokens"] == 1 and check["temperature"] == 0 and check["logprobs"] is True
    assert check["top_logprobs"] >= 2 and "response_format" not in check
    assert "How do I link Google?" in check["messages"][-1]["content"]
    assert "Tap Link." in requests[2]["messages"][-1]["content"]
    assert j.details["trace"][2]["prompt"] == requests[2]["messages"]
    # The code's score and each statement's probability go to the reason step.
    reason_prompt = requests[4]["messages"][-1]["content"]
    assert "0.52" in reason_prompt and "P(yes) 0.06 — We love cats." in reason_prompt
    assert j.attempts == 5 and j.details["reason"] == "Two statements help, one is off topic."
    lines = explain_lines("answer_relevancy", j.details)
    assert lines[0].startswith("P(yes) █████████") and lines[0].endswith("Open Settings > Account > Linked services.")
    assert lines[-1] == "score = mean P(yes) of 3 statement(s) = 0.52"


async def test_relevancy_scale_scales_the_shown_score_only(metric, server):
    server.script(JUDGE, statements("a", "b"), p_yes(0.5), p_yes(1.0), REASON)
    settings = MetricSettings(relevancy=RelevancyOptions(scale=10))
    j = await metric("answer_relevancy", settings=settings).judge(CONTEXT)
    assert j.score == pytest.approx(0.75) and j.details["scaled_score"] == pytest.approx(7.5)


async def test_relevancy_without_probabilities_uses_the_sampled_answer_and_says_so(metric, server):
    server.script(JUDGE, statements("a", "b"), Reply("Yes"), Reply("no."), REASON)
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score == pytest.approx(0.5) and j.error is None
    assert j.details["scoring"] == "sampled"
    assert [v["source"] for v in j.details["verdicts"]] == ["sampled", "sampled"]
    assert all("(sampled)" in line for line in explain_lines("answer_relevancy", j.details)[:2])


async def test_relevancy_garbage_check_is_retried_then_unscored_never_zero(metric, server):
    server.script(JUDGE, statements("a", "b"), p_yes(0.9), Reply("Well, partly"), Reply("It depends"))
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score is None
    assert "statement 2" in (j.error or "") and "names no allowed level" in (j.error or "")
    assert j.details["failed_step"] == "check 2"
    trace = j.details["trace"][-1]
    assert trace["step"] == "check 2" and trace["replies"] == ["Well, partly", "It depends"]
    # The retry asks for one word, after the first reply.
    retry = server.chat_requests(JUDGE)[-1]["messages"]
    assert retry[-2] == {"role": "assistant", "content": "Well, partly"} and "yes or no" in retry[-1]["content"]
    assert len(server.chat_requests(JUDGE)) == 4  # no reason step for an unscored judgment
    assert any(line.startswith("unscored:") for line in explain_lines("answer_relevancy", j.details))


async def test_relevancy_with_no_mass_on_yes_or_no_is_unscored_with_the_reason(metric, server):
    server.script(
        JUDGE, statements("a"), level_reply({"The": 0.97, "yes": 0.01}), level_reply({"Sure": 0.99, "no": 0.001})
    )
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score is None and "leaned to" in (j.error or "") and "'Sure'" in (j.error or "")


async def test_relevancy_empty_answer_is_zero_without_a_call(metric, server):
    j = await metric("answer_relevancy").judge(TurnContext(1, "q?", "   ", [], [], "en"))
    assert j.score == 0.0 and j.details["empty_answer"] and server.chat_requests(JUDGE) == []


async def test_relevancy_no_statements_checks_the_whole_answer(metric, server):
    server.script(JUDGE, statements(), p_yes(0.8), Reply(json.dumps({"reason": "direct"})))
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score == pytest.approx(0.8) and j.details["statements"] == [CONTEXT.response]
    assert "statements_fallback" in j.details
    assert CONTEXT.response in server.chat_requests(JUDGE)[1]["messages"][-1]["content"]


async def test_relevancy_keeps_the_score_when_only_the_reason_fails(metric, server):
    server.script(JUDGE, statements("a"), p_yes(1.0), Reply("nope"), Reply("still nope"))
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score == 1.0 and j.error is None and "could not be parsed" in j.details["reason"]


async def test_relevancy_statements_step_failing_is_unscored(metric, server):
    server.script(JUDGE, Reply("not json"), Reply("still not json"))
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score is None and j.details["failed_step"] == "statements"


async def test_japanese_checks_read_the_first_tokens_of_hai_and_iie(metric, server):
    """Qwen splits はい / いいえ into は+い / いい+え: their first tokens carry the probability."""
    server.script(JUDGE, statements("設定を開きます。"), level_reply({"は": 0.7, "いい": 0.3}), REASON)
    j = await metric("answer_relevancy", "ja").judge(replace(CONTEXT, language="ja", question="連携方法は？"))
    assert j.score == pytest.approx(0.7)
    assert j.details["verdicts"][0]["distribution"] == pytest.approx({"yes": 0.7, "no": 0.3})
    check = server.chat_requests(JUDGE)[1]["messages"]
    assert "「はい」か「いいえ」" in check[0]["content"] and "連携方法は？" in check[-1]["content"]


async def test_check_examples_become_earlier_one_word_turns(config, server, tmp_path: Path):
    path = tmp_path / "answer_relevancy.jsonl"
    example = {"step": "check", "input": {"question": "How do I pay?", "statement": "We like cats."}}
    path.write_text(json.dumps({**example, "output": {"answer": "no"}}) + "\n", encoding="utf-8")
    examples = load_examples(path, "metric_answer_relevancy")
    pool = ClientPool()
    try:
        client = pool.client_for(resolve_endpoints(config)["judge"])
        prompts = PromptSet.load(config.prompts, "en")
        [relevancy] = build_metrics(["answer_relevancy"], client, prompts, include_primary=False)
        relevancy.examples = examples
        server.script(JUDGE, statements("a"), p_yes(0.9), REASON)
        await relevancy.judge(CONTEXT)
    finally:
        await pool.aclose()
    messages = server.chat_requests(JUDGE)[1]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert "We like cats." in messages[1]["content"] and messages[2]["content"] == "no"


# -- faithfulness ----------------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["openai", "llamacpp"])
async def test_faithfulness_is_the_mean_p_supported_in_either_servers_shape(metric, server, shape):
    server.script(
        JUDGE,
        statements("Linked services is under Settings > Account.", "Tap Link.", "Tsumugi loves cats."),
        p_yes(0.95, shape),
        p_yes(0.7, shape),
        p_yes(0.1, shape),
    )
    j = await metric("faithfulness").judge(CONTEXT)
    assert j.score == pytest.approx((0.95 + 0.7 + 0.1) / 3)
    assert j.details["unsupported"] == ["Tsumugi loves cats."]
    assert j.details["supported"] == ["Linked services is under Settings > Account.", "Tap Link."]
    assert [v["verdict"] for v in j.details["verdicts"]] == ["supported", "supported", "unsupported"]
    assert "mean P(supported) 0.58" in j.details["conclusion"] and "Tsumugi loves cats." in j.details["conclusion"]
    check = server.chat_requests(JUDGE)[3]["messages"][-1]["content"]
    # The passages come first (a shared prefix for the prompt cache), then the claim.
    assert check.index(PASSAGE.text) < check.index("Tsumugi loves cats.")
    assert j.attempts == 4 and j.prompt == server.chat_requests(JUDGE)[3]["messages"]


async def test_faithfulness_garbage_check_is_unscored_not_zero(metric, server):
    server.script(JUDGE, statements("a claim", "another"), Reply("maybe"), Reply("perhaps"))
    j = await metric("faithfulness").judge(CONTEXT)
    assert j.score is None and "statement 1" in (j.error or "") and j.details["failed_step"] == "check 1"


async def test_faithfulness_without_probabilities_is_the_sampled_share(metric, server):
    server.script(JUDGE, statements("a claim", "another"), Reply("yes"), Reply("No"))
    j = await metric("faithfulness").judge(CONTEXT)
    assert j.score == pytest.approx(0.5) and j.details["scoring"] == "sampled"
    assert j.details["unsupported"] == ["another"]


async def test_an_endpoint_rejecting_logprobs_gives_sampled_verdicts(metric, server):
    def picky(body: dict) -> Reply:
        if "logprobs" in body:
            return Reply(status=400, error_message="'logprobs' is not supported by this model")
        return Reply("yes")

    server.script(JUDGE, statements("a claim"))
    server.set_default(JUDGE, picky)
    j = await metric("faithfulness").judge(CONTEXT)
    assert j.score == 1.0 and j.details["scoring"] == "sampled"


async def test_faithfulness_no_claims_is_one(metric, server):
    server.script(JUDGE, statements())
    j = await metric("faithfulness").judge(CONTEXT)
    assert j.score == 1.0 and j.details["no_claims"] and len(server.chat_requests(JUDGE)) == 1


async def test_faithfulness_claims_without_passages_are_unsupported_without_a_check(metric, server):
    server.script(JUDGE, statements("a claim"))
    j = await metric("faithfulness").judge(replace(CONTEXT, passages=[]))
    assert j.score == 0.0 and j.details["unsupported"] == ["a claim"]
    assert len(server.chat_requests(JUDGE)) == 1  # nothing to ground them in


def test_verdicts_stored_before_probabilities_still_explain_themselves():
    old = {"verdicts": [{"statement": "s", "verdict": "yes", "reason": "r"}], "counts": {"yes": 1}}
    assert explain_lines("answer_relevancy", old) == ["[yes] s — r", "score = (yes 1 + 0.3 × unsure 0) / 1"]
