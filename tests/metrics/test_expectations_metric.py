"""The expectations dialogue verdict: deterministic forms decided in code (full- and half-width
alike), judged ones one yes/no question per answer with early stop, unreadable replies unscored
(never met, never missed), and policies selected by the scenario's tags. Real HTTP against the
fake server; its requests are counted."""

from __future__ import annotations

import pytest

from ragtui.core.metrics import MetricSettings
from ragtui.core.metrics.dialogue import DialogueContext, DialogueTurn, metric_applies
from ragtui.core.metrics.dialogue.expectations import Expectations
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.types.expectations import Expectation, results_from_details
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE, yes_no_reply

TURNS = [
    DialogueTurn(
        1, "Can I get a refund?", "Please write to ｂｉｌｌｉｎｇ＠ｔｓｕｍｕｇｉ．ｅｘａｍｐｌｅ for billing."
    ),
    DialogueTurn(2, "And the unused days?", "Unused days are not refunded after cancelling."),
    DialogueTurn(3, "OK, thanks.", "You are welcome. Anything else?"),
]


def context(*expectations: Expectation, tags: tuple[str, ...] = ()) -> DialogueContext:
    return DialogueContext(TURNS, "en", "max_turns", expectations=expectations, tags=tags)


@pytest.fixture
async def metric(config):
    """metric(policies=()) → the expectations metric on the fake judge."""
    pool = ClientPool()
    client = pool.client_for(resolve_endpoints(config)["judge"])

    def make(policies: tuple[Expectation, ...] = ()) -> Expectations:
        return Expectations.build(client, None, "en", MetricSettings(policies=policies))

    yield make
    await pool.aclose()


def judge_saying_yes_to(*answers: str):
    """A judge answering yes when the checked answer contains one of ``answers``, else no."""

    def respond(body: dict) -> Reply:
        asked = body["messages"][-1]["content"].split("### ANSWER ###")[-1].split("### STATEMENT ###")[0]
        return yes_no_reply(1.0 if any(a in asked for a in answers) else 0.0)

    return respond


async def test_deterministic_forms_need_no_model_call_and_match_full_width(metric, server):
    judgment = await metric().judge(
        context(
            Expectation("mail", "billing@tsumugi.example", form="contains"),
            Expectation("days", r"unused\s+days", form="regex"),
            Expectation("fax", "fax", form="contains"),
            Expectation("no-guarantee", "GUARANTEED", form="not_contains", polarity="must_not"),
            Expectation("no-welcome", "welcome", form="not_contains", polarity="must_not"),
        )
    )
    results = {r.expectation.id: r for r in results_from_details(judgment.details)}
    assert (results["mail"].status, results["mail"].turn) == ("met", 1)  # full-width answer, half-width file
    assert (results["days"].status, results["days"].turn) == ("met", 2)
    assert results["fax"].status == "missed" and len(results["fax"].checks) == 3
    assert results["no-guarantee"].status == "kept"
    assert (results["no-welcome"].status, results["no-welcome"].turn) == ("broken", 3)
    assert all(c.read == "code" for r in results.values() for c in r.checks)
    assert server.chat_requests(JUDGE) == []
    assert judgment.score == pytest.approx(3 / 5)
    assert (judgment.details["met"], judgment.details["total"], judgment.details["policies_broken"]) == (3, 5, 0)


async def test_a_met_expectation_stops_being_asked_about(metric, server):
    server.set_default(JUDGE, judge_saying_yes_to("not refunded"))
    judgment = await metric().judge(context(Expectation("no-refund", "says unused time is not refunded")))
    (result,) = results_from_details(judgment.details)
    assert (result.status, result.turn) == ("met", 2)
    assert len(server.chat_requests(JUDGE)) == 2  # turns 1 and 2; turn 3 never asked (early stop)
    assert [c.turn for c in result.checks] == [1, 2] and result.checks[1].p_yes == 1.0
    asked = server.chat_requests(JUDGE)[0]["messages"][-1]["content"]
    assert "THE CHAT SO FAR" in asked and TURNS[2].bot in asked  # the dialogue as a shared prefix
    assert judgment.score == 1.0


async def test_a_prohibition_is_broken_at_the_first_answer_doing_it_and_kept_after_all(metric, server):
    server.set_default(JUDGE, judge_saying_yes_to("billing"))
    judgment = await metric().judge(context(Expectation("mail", "refers the customer to email", polarity="must_not")))
    (result,) = results_from_details(judgment.details)
    assert (result.status, result.turn) == ("broken", 1) and len(server.chat_requests(JUDGE)) == 1
    server.clear()
    server.set_default(JUDGE, judge_saying_yes_to("nothing like this"))
    judgment = await metric().judge(context(Expectation("promise", "promises a refund", polarity="must_not")))
    (result,) = results_from_details(judgment.details)
    assert result.status == "kept" and len(server.chat_requests(JUDGE)) == 3  # every answer asked
    assert judgment.score == 1.0


async def test_an_unreadable_reply_is_unscored_never_met_or_missed(metric, server):
    server.set_default(JUDGE, Reply("(garbage)"))
    judgment = await metric().judge(
        context(
            Expectation("no-refund", "says unused time is not refunded"),
            Expectation("promise", "promises a refund", polarity="must_not"),
        )
    )
    results = results_from_details(judgment.details)
    assert [r.status for r in results] == ["unscored", "unscored"]
    assert all(r.passed is None and r.error for r in results)
    assert judgment.score is None and judgment.error  # no evidence: never a 0
    assert judgment.details["met"] == 0 and judgment.details["scored"] == 0


async def test_one_unreadable_check_leaves_only_that_expectation_unscored(metric, server):
    no = judge_saying_yes_to("nothing like this")

    def respond(body: dict) -> Reply:  # turn 1's answer (about billing) gets a reply naming neither
        return (
            Reply("(garbage)")
            if "ｂｉｌｌｉｎｇ" in body["messages"][1]["content"].split("### ANSWER ###")[-1]
            else no(body)
        )

    server.set_default(JUDGE, respond)
    judgment = await metric().judge(
        context(Expectation("x", "says something"), Expectation("mail", "billing@tsumugi.example", form="contains"))
    )
    judged, coded = results_from_details(judgment.details)
    assert judged.status == "unscored" and "turn 1" in (judged.error or "")
    assert coded.status == "met"
    assert judgment.score == 1.0 and judgment.details["scored"] == 1


async def test_policies_apply_by_tags_and_count_as_broken_policies(metric, server):
    server.set_default(JUDGE, judge_saying_yes_to("billing"))
    everywhere = Expectation("email", "asks the customer to email", "judged", "must_not", "policy")
    billing_only = Expectation("card", "card number", "contains", "must_not", "policy", ("billing",))
    m = metric((everywhere, billing_only))
    assert not metric_applies(metric(), context())  # nothing to check: no verdict at all
    assert metric_applies(m, context())
    judgment = await m.judge(context(tags=("account",)))
    (result,) = results_from_details(judgment.details)
    assert result.expectation.id == "email" and result.status == "broken"
    assert judgment.details["policies_broken"] == 1 and judgment.score == 0.0
    judgment = await m.judge(context(tags=("billing",)))
    assert [r.expectation.id for r in results_from_details(judgment.details)] == ["email", "card"]
