"""The seeds' metrics with scripted judge replies: score arithmetic done in code, every step
recorded, one retry then unscored (never 0), skipped without a reference, defined results for
empty answers and passages, and the trust verdict derived from the others."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragtui.core.content.knowledge import Passage
from ragtui.core.content.prompts import PromptSet
from ragtui.core.errors import ConfigError
from ragtui.core.metrics import MetricSettings, build_metrics, resolve_names
from ragtui.core.metrics.answer_relevancy import RelevancyOptions, relevancy_score
from ragtui.core.metrics.base import Judgment, TurnContext
from ragtui.core.metrics.examples import load_examples
from ragtui.core.metrics.trust import Trust
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.testing.fake_openai import Reply, level_reply

from .conftest import JUDGE

PASSAGE = Passage("09.md", "Linked services", "Go to Settings > Account > Linked services and tap Link.")
CONTEXT = TurnContext(
    turn=1,
    question="How do I link Google?",
    response="Open Settings > Account > Linked services and tap Link. We also love cats.",
    passages=[PASSAGE],
    history=[],
    language="en",
    reference="Settings > Account > Linked services, then Link.",
)


def statements(*items: str) -> Reply:
    return Reply(json.dumps({"statements": list(items)}))


def verdicts(*pairs: str) -> Reply:
    return Reply(json.dumps({"verdicts": [{"reason": f"because {v}", "verdict": v} for v in pairs]}))


@pytest.fixture
async def metric(config):
    """A factory: metric(name, **settings) → that metric on the fake judge, English prompts."""
    pool = ClientPool()
    client = pool.client_for(resolve_endpoints(config)["judge"])
    prompts = PromptSet.load(config.prompts, "en")

    def make(name: str, settings: MetricSettings | None = None):
        return build_metrics([name], client, prompts, settings=settings, include_primary=False)[-1]

    yield make
    await pool.aclose()


# -- answer relevancy ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("labels", "weight", "expected"),
    [(["yes", "yes", "no"], 0.3, 2 / 3), (["yes", "unsure", "no", "no"], 0.3, 1.3 / 4), (["unsure"], 0.5, 0.5)],
)
def test_relevancy_arithmetic(labels, weight, expected):
    assert relevancy_score(labels, weight) == pytest.approx(expected)


async def test_relevancy_runs_three_steps_and_scores_in_code(metric, server):
    server.script(
        JUDGE,
        statements("Open Settings > Account > Linked services.", "Tap Link.", "We love cats."),
        verdicts("yes", "unsure", "no"),
        Reply(json.dumps({"reason": "Two statements help, one is off topic."})),
    )
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score == pytest.approx((1 + 0.3) / 3)
    assert j.details["counts"] == {"yes": 1, "unsure": 1, "no": 1}
    assert j.details["reason"] == j.details["conclusion"] == "Two statements help, one is off topic."
    assert [s["step"] for s in j.details["trace"]] == ["statements", "verdicts", "reason"]
    # Every prompt sent is stored; the verdict schema pins one verdict per statement.
    requests = server.chat_requests(JUDGE)
    assert j.details["trace"][1]["prompt"] == requests[1]["messages"]
    schema = requests[1]["response_format"]["json_schema"]["schema"]
    assert schema["properties"]["verdicts"]["minItems"] == schema["properties"]["verdicts"]["maxItems"] == 3
    assert "3. We love cats." in requests[1]["messages"][-1]["content"]
    assert requests[2]["messages"][-1]["content"].count("0.43") == 1  # the code's score is given to the reason step
    assert j.prompt == requests[2]["messages"] and j.attempts == 3


async def test_relevancy_options_weight_and_scale(metric, server):
    server.script(JUDGE, statements("a", "b"), verdicts("unsure", "yes"), Reply(json.dumps({"reason": "ok"})))
    settings = MetricSettings(relevancy=RelevancyOptions(uncertainty_weight=0.5, scale=10))
    j = await metric("answer_relevancy", settings).judge(CONTEXT)
    assert j.score == pytest.approx(0.75) and j.details["scaled_score"] == pytest.approx(7.5)


async def test_relevancy_wrong_verdict_count_retries_then_unscored(metric, server):
    server.script(JUDGE, statements("a", "b"), verdicts("yes"), verdicts("yes", "maybe"))
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score is None and "verdicts step" in (j.error or "")
    assert j.details["failed_step"] == "verdicts"
    assert j.raw_reply == json.dumps(
        {"verdicts": [{"reason": "because yes", "verdict": "yes"}, {"reason": "because maybe", "verdict": "maybe"}]}
    )
    assert len(j.details["trace"][1]["replies"]) == 2


async def test_relevancy_empty_answer_is_zero_without_a_call(metric, server):
    j = await metric("answer_relevancy").judge(TurnContext(1, "q?", "   ", [], [], "en"))
    assert j.score == 0.0 and j.details["empty_answer"] and server.chat_requests(JUDGE) == []


async def test_relevancy_no_statements_judges_the_whole_answer(metric, server):
    server.script(JUDGE, statements(), verdicts("yes"), Reply(json.dumps({"reason": "direct"})))
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score == 1.0 and j.details["statements"] == [CONTEXT.response] and "statements_fallback" in j.details


async def test_relevancy_keeps_the_score_when_only_the_reason_fails(metric, server):
    server.script(JUDGE, statements("a"), verdicts("yes"), Reply("nope"), Reply("still nope"))
    j = await metric("answer_relevancy").judge(CONTEXT)
    assert j.score == 1.0 and j.error is None and "could not be parsed" in j.details["reason"]


# -- answer correctness ----------------------------------------------------------------------


async def test_correctness_is_the_expected_level_over_five(metric, server):
    server.script(JUDGE, level_reply({"4": 0.5, "5": 0.3, "3": 0.1, "The": 0.1}))
    j = await metric("answer_correctness").judge(CONTEXT)
    # Renormalised over the digits: (4×0.5 + 5×0.3 + 3×0.1) / 0.9 = 4.222…
    assert j.score == pytest.approx(4.2222 / 5, abs=1e-3) and j.details["level_question"]["source"] == "probability"
    assert j.details["level_question"]["distribution"]["4"] == pytest.approx(0.5 / 0.9)
    request = server.chat_requests(JUDGE)[0]
    assert request["logprobs"] is True and request["top_logprobs"] == 20 and request["max_tokens"] == 1
    user = request["messages"][-1]["content"]
    assert CONTEXT.reference in user and CONTEXT.response in user and CONTEXT.question in user


@pytest.mark.parametrize("reference", [None, "", "   "])
async def test_correctness_without_reference_is_skipped_not_failed(metric, server, reference):
    from dataclasses import replace

    j = await metric("answer_correctness").judge(replace(CONTEXT, reference=reference))
    assert j.score is None and j.details["skipped"] is True
    assert j.error == "no reference answer for this scenario" and j.attempts == 0
    assert server.chat_requests(JUDGE) == []


async def test_correctness_garbage_twice_is_unscored_not_zero(metric, server):
    server.script(JUDGE, Reply("about 0.8"), Reply("nine"))
    j = await metric("answer_correctness").judge(CONTEXT)
    assert j.score is None and not j.details.get("skipped") and "names no allowed level" in (j.error or "")
    assert j.attempts == 2


async def test_no_mass_on_the_levels_is_unscored_with_the_reason(metric, server):
    server.script(JUDGE, level_reply({"The": 0.97, "4": 0.01}), level_reply({"Sure": 0.99, "5": 0.001}))
    j = await metric("answer_correctness").judge(CONTEXT)
    assert j.score is None and "1% of its probability" not in (j.error or "x")
    assert "on the allowed levels" in (j.error or "") and "'Sure'" in (j.error or "")


async def test_correctness_uses_few_shot_examples_as_turns(metric, server, tmp_path: Path):
    path = tmp_path / "ex.jsonl"
    line = {"input": {"question": "", "reference": "r", "response": "a"}, "output": {"justification": "j", "score": 2}}
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    server.script(JUDGE, level_reply({"5": 1.0}))
    await metric("answer_correctness", MetricSettings(examples={"answer_correctness": path})).judge(CONTEXT)
    messages = server.chat_requests(JUDGE)[0]["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"] and messages[2]["content"] == "2"


# -- answerability ---------------------------------------------------------------------------


@pytest.mark.parametrize("shape", ["openai", "llamacpp"])
async def test_answerability_is_p_yes_in_either_servers_shape(metric, server, shape):
    server.script(JUDGE, level_reply({"yes": 0.6, "Yes": 0.1, " no": 0.2, "Maybe": 0.1}, shape=shape))
    j = await metric("answerability").judge(CONTEXT)
    assert j.score == pytest.approx(0.7 / 0.9) and j.details["level_question"]["distribution"]["no"] == pytest.approx(
        0.2 / 0.9
    )
    assert "PASSAGE:" in server.chat_requests(JUDGE)[0]["messages"][-1]["content"]


async def test_answerability_without_passages_is_zero_without_a_call(metric, server):
    from dataclasses import replace

    j = await metric("answerability").judge(replace(CONTEXT, passages=[]))
    assert j.score == 0.0 and j.details["no_passages"] and server.chat_requests(JUDGE) == []


# -- faithfulness ----------------------------------------------------------------------------


async def test_faithfulness_counts_supported_claims_and_lists_the_rest(metric, server):
    server.script(
        JUDGE,
        statements("Linked services is under Settings > Account.", "Tap Link.", "Tsumugi loves cats."),
        verdicts("supported", "supported", "unsupported"),
    )
    j = await metric("faithfulness").judge(CONTEXT)
    assert j.score == pytest.approx(2 / 3)
    assert j.details["unsupported"] == ["Tsumugi loves cats."]
    assert "Tsumugi loves cats." in j.details["conclusion"]


async def test_faithfulness_no_claims_is_one(metric, server):
    server.script(JUDGE, statements())
    j = await metric("faithfulness").judge(CONTEXT)
    assert j.score == 1.0 and j.details["no_claims"]


async def test_faithfulness_claims_without_passages_are_unsupported(metric, server):
    from dataclasses import replace

    server.script(JUDGE, statements("a claim"))
    j = await metric("faithfulness").judge(replace(CONTEXT, passages=[]))
    assert j.score == 0.0 and j.details["unsupported"] == ["a claim"]
    assert len(server.chat_requests(JUDGE)) == 1  # no verdict call: nothing to ground them in


# -- trust -----------------------------------------------------------------------------------


def judged(metric: str, score: float | None, threshold: float, **details) -> Judgment:
    return Judgment(
        metric, score, details={"threshold": threshold, **details}, error=None if score is not None else "x"
    )


@pytest.mark.parametrize(
    ("earlier", "score", "word"),
    [
        (
            {"faithfulness": (0.9, 0.8), "answerability": (1.0, 1.0), "answer_correctness": (0.8, 0.7)},
            1.0,
            "can be trusted",
        ),
        (
            {"faithfulness": (0.5, 0.8), "answerability": (1.0, 1.0), "answer_correctness": (0.8, 0.7)},
            0.0,
            "faithfulness 0.50 < 0.80",
        ),
        ({"faithfulness": (0.9, 0.8), "answerability": (0.0, 1.0)}, 0.0, "answerability"),
        ({"faithfulness": (None, 0.8), "answerability": (1.0, 1.0)}, None, "faithfulness unscored"),
        ({"faithfulness": (None, 0.8), "answerability": (0.0, 1.0)}, 0.0, "cannot be trusted"),
        ({}, None, "none of"),
    ],
)
async def test_trust_is_derived_in_code(earlier, score, word):
    context = TurnContext(1, "q", "a", [], [], "en", earlier={n: judged(n, s, t) for n, (s, t) in earlier.items()})
    j = await Trust().judge(context)
    assert j.score == score and word in j.details["conclusion"]


async def test_trust_treats_no_reference_as_not_applicable():
    earlier = {
        "faithfulness": judged("faithfulness", 1.0, 0.8),
        "answerability": judged("answerability", 1.0, 1.0),
        "answer_correctness": Judgment(
            "answer_correctness", None, {"skipped": True}, error="no reference answer for this scenario"
        ),
    }
    j = await Trust().judge(TurnContext(1, "q", "a", [], [], "ja", earlier=earlier))
    assert j.score == 1.0 and "信頼できます" in j.details["conclusion"] and "スキップ" in j.details["conclusion"]


def test_choosing_trust_adds_its_inputs_and_runs_it_last():
    assert resolve_names(["trust", "answer_relevancy"]) == [
        "rubric",
        "answer_relevancy",
        "faithfulness",
        "answerability",
        "answer_correctness",
        "trust",
    ]
    with pytest.raises(ConfigError, match="unknown metric 'faithfulnes'"):
        resolve_names(["faithfulnes"])


# -- few-shot example files ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "not valid JSON"),
        ('{"step": "nope", "input": {}, "output": {}}', "unknown step"),
        ('{"input": {"question": "q"}, "output": {}}', "exactly the keys"),
        ('{"input": {"question": "q", "reference": "r", "response": "a"}, "output": "5"}', "'output' must be"),
    ],
)
def test_bad_example_lines_name_file_and_line(tmp_path: Path, line: str, message: str):
    path = tmp_path / "answer_correctness.jsonl"
    path.write_text("# comment\n\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as error:
        load_examples(path, "metric_answer_correctness")
    assert f"{path}:3" in str(error.value)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_bundled_metric_prompts_and_examples_load(config, language):
    pool = ClientPool()
    client = pool.client_for(resolve_endpoints(config)["judge"])
    names = ["answer_relevancy", "answer_correctness", "answerability", "faithfulness", "trust"]
    metrics = build_metrics(names, client, PromptSet.load(config.prompts, language))
    assert [m.name for m in metrics] == ["rubric", *names]
    # Few-shot examples ship only for the statement-based metrics: measured to be copied, not
    # compared, by a small judge on the one-token questions (README, judge calibration).
    with_examples = [m.name for m in metrics[1:-1] if getattr(m, "examples", None)]
    assert with_examples == ["answer_relevancy", "faithfulness"]
