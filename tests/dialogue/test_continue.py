"""Continuing stopped sessions: a cancel in the middle of judging keeps what finished and the
session score, continuing runs only the missing metrics, and a failed step can pause the
dialogue instead of ending it."""

from __future__ import annotations

import pytest

from ragtui.core.dialogue.engine import Engine
from ragtui.core.dialogue.events import DialogueDone, Failure, VerdictReady
from ragtui.core.models.endpoints import resolve_endpoints
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE
from ..metrics.test_metrics_dialogue import step_responder


async def collect(stream) -> list:
    return [event async for event in stream]


@pytest.fixture
async def two_metric_engine(config, store):
    config.metrics = ["answer_correctness", "answerability"]
    engine = Engine(config, resolve_endpoints(config), store)
    yield engine
    await engine.aclose()


def schemas(server) -> list[str]:
    """What each judge request asked: a JSON schema's name, or which one-token question."""
    names = []
    for body in server.chat_requests(JUDGE):
        if "response_format" in body:
            names.append(body["response_format"]["json_schema"]["name"])
            continue
        user = body["messages"][-1]["content"].strip()
        names.append(
            "rubric_check"
            if user.endswith("Answer yes or no:")
            else ("correctness" if "Rating:" in user else "answerability")
        )
    return names


async def test_cancel_while_judging_keeps_finished_metrics_and_the_score(two_metric_engine, scenario, persona, server):
    server.set_default(JUDGE, step_responder())
    dialogue = two_metric_engine.new_dialogue(scenario, persona)
    await collect(dialogue.step())  # customer
    await collect(dialogue.step())  # bot
    events = []
    async for event in dialogue.step():  # the verdicts: cancel once the rubric is in
        events.append(event)
        if isinstance(event, VerdictReady) and event.judgment.metric == "rubric":
            dialogue.cancel()
    done = events[-1]
    assert isinstance(done, DialogueDone) and done.stop_reason == "cancelled"
    assert done.score is not None  # the rubric's score, not "unscored"
    session = two_metric_engine.store.session(dialogue.session_id)
    assert session.score == pytest.approx(done.score) and session.stop_reason == "cancelled"
    assert {j.metric for j in session.judgments} == {"rubric"}

    before = schemas(server)
    resumed = two_metric_engine.resume_dialogue(dialogue.session_id)
    assert resumed.phase.value == "judge"  # metrics are missing on the last turn
    events = await collect(resumed.step())
    new = schemas(server)[len(before) :]
    assert "rubric_check" not in new and "rubric_verdict" not in new
    assert {"correctness", "answerability"} <= set(new)
    session = two_metric_engine.store.session(dialogue.session_id)
    metrics = sorted((j.metric, j.version) for j in session.judgments)
    assert metrics == [("answer_correctness", 1), ("answerability", 1), ("rubric", 1)]
    assert resumed.phase.value == "user" and session.status == "running"


async def test_a_failed_step_pauses_when_asked_and_a_retry_goes_on(engine: Engine, scenario, persona, server):
    server.script(BOT, Reply(status=500, error_message="kaboom"), Reply("second try works"))
    dialogue = engine.new_dialogue(scenario, persona)
    dialogue.pause_on_failure = True
    events = await collect(dialogue.run())
    assert isinstance(events[-1], Failure) and not any(isinstance(e, DialogueDone) for e in events)
    assert not dialogue.finished and dialogue.phase.value == "bot" and "500" in (dialogue.failed or "")
    session = engine.store.session(dialogue.session_id)
    assert session.status == "running" and "500" in (session.error or "")

    events = await collect(dialogue.run())  # the retry
    assert events[-1].stop_reason == "max_turns" and dialogue.failed is None
    session = engine.store.session(dialogue.session_id)
    assert session.error is None and session.messages[1].text == "second try works"


async def test_without_pausing_a_failed_step_still_ends_in_error(engine: Engine, scenario, persona, server):
    server.script(BOT, Reply(status=500, error_message="kaboom"))
    events = await collect(engine.new_dialogue(scenario, persona).run())
    assert events[-1].stop_reason == "error"


def test_stored_judgment_round_trips_to_a_judgment(engine: Engine, scenario, persona):
    sid = engine.store.create_session(
        scenario=scenario.to_dict(),
        persona=persona,
        config={},
        language="en",
        max_turns=3,
        threshold=0.7,
        metrics=["rubric"],
    )
    mid = engine.store.add_message(sid, 1, "bot", "bot", "hi")
    from ragtui.core.types.judgments import Judgment

    engine.store.add_judgment(sid, mid, 1, Judgment("rubric", 0.6, {"scores": {"overall": 3}}, raw_reply="r"))
    engine.store.add_judgment(sid, mid, 1, Judgment("rubric", 0.8, {"scores": {"overall": 4}}, raw_reply="r2"))
    latest = engine.store.latest_judgments_of(mid)
    assert latest["rubric"].version == 2 and latest["rubric"].to_judgment().score == 0.8
