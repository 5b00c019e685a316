"""Contextual calibration of the rubric's yes/no checks (metrics/check_bias.py): the judge's
content-free P(yes) per check, and answers read against it."""

from __future__ import annotations

import pytest

from ragtui.core.content.prompts import load_prompt
from ragtui.core.metrics.base import TurnContext
from ragtui.core.metrics.check_bias import CONTENT_FREE, CheckBias, debias
from ragtui.core.metrics.rubric import CheckedRubricJudge
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.types.passages import Passage
from stand_ins.fake_openai import level_reply
from tests.fakes.rubric_checks import check_name

from ..conftest import JUDGE


def test_a_prior_of_one_half_changes_nothing_and_the_prior_itself_reads_one_half():
    assert debias(0.8, 0.5) == pytest.approx(0.8)
    assert debias(0.1, 0.1) == pytest.approx(0.5)
    # A judge that says no to everything: a hesitant yes is evidence.
    assert debias(0.3, 0.1) > 0.7


def test_order_within_a_check_is_kept_and_extreme_priors_are_clamped():
    values = [0.05, 0.2, 0.5, 0.9]
    shifted = [debias(v, 0.15) for v in values]
    assert shifted == sorted(shifted)
    assert 0.0 < debias(0.5, 0.0) < 1.0 and 0.0 < debias(0.5, 1.0) < 1.0


def test_a_check_without_a_prior_keeps_its_answer():
    assert CheckBias("en", {"polite": 0.2}).apply("complete", 0.3) == 0.3


TURN = TurnContext(
    turn=1,
    question="How do I link Google?",
    response="Open Settings > Account > Linked services and choose Google to link it.",
    passages=[Passage("09.md", "Linked services", "Link Google, Apple, X or LINE in Settings.")],
    history=[],
    language="en",
)


@pytest.fixture
async def checked(config):
    pool = ClientPool()
    yield CheckedRubricJudge(
        pool.client_for(resolve_endpoints(config)["judge"]), load_prompt(config.prompts, "en", "judge_probes")
    )
    await pool.aclose()


async def test_the_prior_is_asked_once_per_check_on_a_turn_without_content(checked, server):
    server.set_default(JUDGE, lambda body: level_reply({"yes": 0.2, "no": 0.8}))
    bias = await checked.measure_bias("en")
    asked = server.chat_requests(JUDGE)
    assert sorted(check_name(b) for b in asked) == sorted(
        ["context_answers", "says_unknown", "addresses", "complete", "other_company", "polite", "claim"]
    )
    assert all(CONTENT_FREE in b["messages"][-1]["content"] for b in asked)
    assert "Google" not in str(asked)
    assert bias.priors == pytest.approx(dict.fromkeys(bias.priors, 0.2)) and len(bias.priors) == 7


async def test_answers_equal_to_the_prior_read_as_undecided_and_the_verdict_keeps_both(checked, server):
    server.set_default(JUDGE, lambda body: level_reply({"yes": 0.2, "no": 0.8}))
    checked.bias = await checked.measure_bias("en")
    judgment = await checked.judge(TURN)
    assert judgment.score is not None
    probes = judgment.details["probes"]
    assert all(p["value"] == pytest.approx(0.5) for p in probes)
    assert all(p["raw"] == pytest.approx(0.2) and p["prior"] == pytest.approx(0.2) for p in probes)
