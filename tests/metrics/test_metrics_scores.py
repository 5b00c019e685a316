"""The seeds' metrics with scripted judge replies: score arithmetic done in code, every step
recorded, one retry then unscored (never 0), skipped without a reference, defined results for
empty answers and passages, and the trust verdict derived from the others."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragtui.core.content.prompts import PromptSet
from ragtui.core.metrics import MetricSettings, build_metrics, resolve_names
from ragtui.core.metrics.base import TurnContext
from ragtui.core.metrics.examples import load_examples
from ragtui.core.metrics.trust import Trust
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.types.errors import ConfigError
from ragtui.core.types.judgments import Judgment
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
    reference="Settings > Account > Linked services, then Link.",
)


def statements(*items: str) -> Reply:
    return Reply(json.dumps({"statements": list(items)}))


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
