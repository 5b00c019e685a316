"""The dialogue engine against the fake server: event stream, stop reasons, stepping,
cancelling, failures, resuming and concurrency."""

from __future__ import annotations

import asyncio

import pytest

from ragtui.core.dialogue.engine import Engine
from ragtui.core.dialogue.events import (
    DialogueDone,
    DialogueStarted,
    DialogueVerdictStarted,
    Failure,
    MessageDone,
    TextDelta,
    TurnDone,
    VerdictReady,
)
from ragtui.core.models.endpoints import resolve_endpoints
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, USER, check_answers


async def collect(stream) -> list:
    return [event async for event in stream]


def kinds(events: list) -> list[str]:
    return [type(e).__name__ for e in events if not isinstance(e, TextDelta)]


async def test_full_dialogue_runs_three_turns_and_stores_everything(engine: Engine, scenario, persona, server):
    dialogue = engine.new_dialogue(scenario, persona)
    events = await collect(dialogue.run())

    per_turn = ["MessageDone", "MessageDone", "VerdictReady", "TurnDone"]
    # The simulated customer messages of turns 2 and 3 are checked by the model: a step of its own.
    later_turn = ["SimulatorChecked", *per_turn]
    # resolution, repetition and expectations (the scenario has some; retention is off by
    # default): each a step that starts and ends; the fake judge's reply to resolution's first
    # step cannot be read, and it is asked for again (views drop the first reply's text)
    dialogue_verdicts = [
        "DialogueVerdictStarted",
        "StreamRestarted",
        "DialogueVerdictReady",
        *["DialogueVerdictStarted", "DialogueVerdictReady"] * 2,
    ]
    assert kinds(events) == ["DialogueStarted", *per_turn, *later_turn * 2, *dialogue_verdicts, "DialogueDone"]
    started = [e for e in events if isinstance(e, DialogueVerdictStarted)]
    assert [(e.metric, e.index, e.total, e.turn) for e in started] == [
        ("resolution", 1, 3, 3),
        ("repetition", 2, 3, 3),
        ("expectations", 3, 3, 3),
    ]
    assert {e.label for e in started} == {f"{scenario.id} × {persona.name}"}
    done = events[-1]
    assert isinstance(done, DialogueDone)
    assert (done.stop_reason, done.turns, done.score) == ("max_turns", 3, pytest.approx(0.8))

    session = engine.store.session(dialogue.session_id)
    assert [m.role for m in session.messages] == ["user", "bot"] * 3
    assert session.messages[0].text == scenario.question and session.messages[0].source == "scenario"
    assert session.messages[2].source == "simulator"
    assert session.status == "finished" and session.stop_reason == "max_turns"
    assert len(session.judgments) == 3 and all(j.score == pytest.approx(0.8) for j in session.judgments)
    # The bot's passages are stored with its message and were the judge's context.
    assert session.messages[1].passages and "linked-services" in session.messages[1].passages[0].doc_id
    judge_prompt = session.judgments[0].prompt[-1]["content"]
    assert session.messages[1].passages[0].text[:40] in judge_prompt


async def test_text_streams_as_deltas_that_add_up_to_the_message(engine: Engine, scenario, persona, server):
    server.script(BOT, Reply("A fairly long answer, streamed in small chunks.", chunk_chars=3))
    events = await collect(engine.new_dialogue(scenario, persona).run())
    deltas = [e.text for e in events if isinstance(e, TextDelta) and e.role == "bot" and e.turn == 1]
    bot_done = next(e for e in events if isinstance(e, MessageDone) and e.role == "bot")
    assert len(deltas) > 5
    assert "".join(deltas) == bot_done.text == "A fairly long answer, streamed in small chunks."


async def test_customer_saying_done_ends_the_dialogue(engine: Engine, scenario, persona, server):
    server.script(USER, Reply("**DONE**"))
    events = await collect(engine.new_dialogue(scenario, persona).run())
    done = events[-1]
    assert done.stop_reason == "done"
    assert done.turns == 2
    # The DONE message is recorded, as in the seed, and no bot answer follows it.
    session = engine.store.session(done.session_id)
    assert [m.role for m in session.messages] == ["user", "bot", "user"]


async def test_simulator_sees_the_conversation_mirrored(engine: Engine, scenario, persona, server):
    await collect(engine.new_dialogue(scenario, persona).run())
    first_simulator_call = server.chat_requests(USER)[0]
    roles = [m["role"] for m in first_simulator_call["messages"]]
    assert roles == ["system", "user", "assistant", "user"]  # greeting, customer, bot
    assert persona.persona.strip()[:30] in first_simulator_call["messages"][0]["content"]
    assert first_simulator_call["temperature"] == pytest.approx(persona.temperature)


async def test_step_mode_advances_one_step_at_a_time(engine: Engine, scenario, persona):
    dialogue = engine.new_dialogue(scenario, persona)
    assert kinds(await collect(dialogue.step())) == ["DialogueStarted", "MessageDone"]
    assert kinds(await collect(dialogue.step())) == ["MessageDone"]
    assert kinds(await collect(dialogue.step())) == ["VerdictReady", "TurnDone"]
    assert dialogue.turn == 1 and not dialogue.finished


async def test_operator_can_type_the_customer_message(engine: Engine, scenario, persona, server):
    dialogue = engine.new_dialogue(scenario, persona)
    for _ in range(3):  # turn 1: question, answer, verdict
        await collect(dialogue.step())
    events = await collect(dialogue.step(user_text="I typed this myself"))
    message = next(e for e in events if isinstance(e, MessageDone))
    assert (message.text, message.source, message.turn) == ("I typed this myself", "operator", 2)
    assert server.chat_requests(USER) == []  # the simulator was not asked


async def test_unparsable_verdict_is_unscored_never_zero(engine: Engine, scenario, persona, server):
    server.script(JUDGE, Reply("I think it is good!"))
    events = await collect(engine.new_dialogue(scenario, persona).run())
    first_turn = next(e for e in events if isinstance(e, TurnDone) and e.turn == 1)
    assert first_turn.score is None and not first_turn.below_threshold
    verdict_event = next(e for e in events if isinstance(e, VerdictReady) and e.turn == 1)
    # The first yes/no check got no yes/no: the verdict stops there, unscored, reply kept.
    assert verdict_event.judgment.raw_reply == "I think it is good!"
    assert verdict_event.judgment.attempts == 1
    assert "context_answers check is unscored" in (verdict_event.judgment.error or "")
    # The dialogue went on and the other turns were scored; the mean ignores the unscored one.
    done = events[-1]
    assert done.stop_reason == "max_turns" and done.unscored_turns == 1
    assert done.score == pytest.approx(0.8)


async def test_low_score_marks_turn_below_threshold(engine: Engine, scenario, persona, server):
    server.set_default(JUDGE, check_answers(2))
    events = await collect(engine.new_dialogue(scenario, persona).run())
    turns = [e for e in events if isinstance(e, TurnDone)]
    assert all(t.below_threshold and t.score == pytest.approx(0.4) for t in turns)


async def test_bot_server_error_stops_with_error_and_keeps_what_was_recorded(engine: Engine, scenario, persona, server):
    server.script(BOT, Reply("first answer"), Reply(status=500, error_message="kaboom"))
    events = await collect(engine.new_dialogue(scenario, persona).run())
    failure = next(e for e in events if isinstance(e, Failure))
    assert failure.role == "bot" and failure.turn == 2
    assert "500" in failure.message and BOT in failure.message
    done = events[-1]
    assert done.stop_reason == "error" and "500" in (done.error or "")
    session = engine.store.session(done.session_id)
    assert [m.text for m in session.messages][:2] == [session.question, "first answer"]
    assert len(session.judgments) == 1  # turn 1's verdict survives
    assert session.status == "finished" and session.stop_reason == "error"


async def test_stream_cut_midway_is_an_error_naming_the_endpoint(engine: Engine, scenario, persona, server):
    server.script(BOT, Reply("this reply will never finish", chunk_chars=4, cut_after_chunks=2))
    events = await collect(engine.new_dialogue(scenario, persona).run())
    failure = next(e for e in events if isinstance(e, Failure))
    assert failure.role == "bot" and "bot endpoint" in failure.message
    assert events[-1].stop_reason == "error"


async def test_rate_limit_is_retried_by_the_client(config, store, scenario, persona, server):
    config.endpoint.max_retries = 2
    server.script(BOT, Reply(status=429, headers={"retry-after-ms": "1"}), Reply("after the retry"))
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        dialogue = engine.new_dialogue(scenario, persona)
        await collect(dialogue.step())
        events = await collect(dialogue.step())
    finally:
        await engine.aclose()
    assert next(e for e in events if isinstance(e, MessageDone)).text == "after the retry"
    assert len(server.chat_requests(BOT)) == 2


async def test_a_rate_limit_left_after_the_retries_advises_the_batch_and_the_person_each_their_own(
    engine: Engine, scenario, persona, server
):
    for paused in (False, True):  # a batch ends the dialogue; the TUI pauses it for a person to retry
        server.script(BOT, Reply(status=429, headers={"retry-after-ms": "1"}))
        dialogue = engine.new_dialogue(scenario, persona)
        dialogue.pause_on_failure = paused
        await collect(dialogue.step())
        failure = next(e for e in await collect(dialogue.step()) if isinstance(e, Failure))
        assert "rate limiting (429)" in failure.message
        if paused:
            assert "--concurrency" not in failure.message and "retry the step" in failure.message
            assert "max_retries" in failure.message
        else:
            assert "lower --concurrency or raise max_retries" in failure.message


async def test_judge_timeout_is_reported_as_error(config, store, scenario, persona, server):
    config.roles["judge"].timeout = 0.3
    server.script(JUDGE, Reply(hang=True))
    engine = Engine(config, resolve_endpoints(config), store)
    try:
        events = await collect(engine.new_dialogue(scenario, persona).run())
    finally:
        await engine.aclose()
    failure = next(e for e in events if isinstance(e, Failure))
    assert failure.role == "judge" and "did not answer within 0.3 s" in failure.message
    assert events[-1].stop_reason == "error"


async def test_cancel_mid_stream_records_cancelled_and_keeps_messages(engine: Engine, scenario, persona, server):
    server.script(BOT, Reply("slow " * 50, chunk_chars=5, delay_per_chunk=0.05))
    dialogue = engine.new_dialogue(scenario, persona)
    events = []
    async for event in dialogue.run():
        events.append(event)
        if isinstance(event, TextDelta) and event.role == "bot":
            dialogue.cancel()
    done = events[-1]
    assert isinstance(done, DialogueDone) and done.stop_reason == "cancelled"
    session = engine.store.session(dialogue.session_id)
    assert session.stop_reason == "cancelled"
    assert [m.role for m in session.messages] == ["user"]  # the half-streamed answer is not stored


async def test_cancel_between_steps_closes_the_session(engine: Engine, scenario, persona):
    dialogue = engine.new_dialogue(scenario, persona)
    await collect(dialogue.step())
    done = dialogue.cancel()
    assert done is not None and done.stop_reason == "cancelled"
    assert engine.store.session(dialogue.session_id).stop_reason == "cancelled"


async def test_pause_stops_after_the_current_step_and_run_resumes(engine: Engine, scenario, persona):
    dialogue = engine.new_dialogue(scenario, persona)
    events = []
    async for event in dialogue.run():
        events.append(event)
        if isinstance(event, MessageDone) and event.role == "bot":
            dialogue.pause()
    # The engine may already be judging when the consumer asks, so it stops at the end of
    # turn 1 at the latest: never in the middle of a step, never further on.
    assert not dialogue.finished and dialogue.turn == 1
    assert kinds(events)[-1] in ("MessageDone", "TurnDone")
    rest = await collect(dialogue.run())
    assert rest[-1].stop_reason == "max_turns"


async def test_a_cancelled_session_can_be_resumed_where_it_stopped(engine: Engine, scenario, persona):
    dialogue = engine.new_dialogue(scenario, persona)
    await collect(dialogue.step())  # customer
    await collect(dialogue.step())  # bot
    dialogue.cancel()

    resumed = engine.resume_dialogue(dialogue.session_id)
    assert resumed.turn == 1 and resumed.phase.value == "judge"
    events = await collect(resumed.run())
    assert events[-1].stop_reason == "max_turns"
    session = engine.store.session(dialogue.session_id)
    assert [m.role for m in session.messages] == ["user", "bot"] * 3
    assert session.status == "finished"


async def test_run_many_respects_the_concurrency_limit(engine: Engine, scenario, persona, server):
    server.set_default(BOT, Reply("steady answer", delay_first=0.02))
    dialogues = [engine.new_dialogue(scenario, persona, max_turns=1) for _ in range(6)]
    running: set[int] = set()
    peak = 0
    async for event in engine.run_many(dialogues, concurrency=2):
        if isinstance(event, DialogueStarted):
            running.add(event.session_id)
            peak = max(peak, len(running))
        elif isinstance(event, DialogueDone):
            running.discard(event.session_id)
    assert peak == 2
    assert all(engine.store.session(d.session_id).stop_reason == "max_turns" for d in dialogues)


async def test_abandoning_run_many_cancels_every_dialogue(engine: Engine, scenario, persona, server):
    server.set_default(BOT, Reply("slow answer", delay_first=0.2))
    dialogues = [engine.new_dialogue(scenario, persona) for _ in range(4)]
    stream = engine.run_many(dialogues, concurrency=2)
    async for event in stream:
        if isinstance(event, MessageDone):
            break
    await stream.aclose()
    reasons = {engine.store.session(d.session_id).stop_reason for d in dialogues}
    assert reasons == {"cancelled"}


async def test_cancelling_the_consumer_task_marks_the_session_cancelled(engine: Engine, scenario, persona, server):
    server.set_default(BOT, Reply(hang=True))  # the bot never answers: cancelled while it waits
    dialogue = engine.new_dialogue(scenario, persona)
    started = asyncio.Event()

    async def consume() -> None:
        async for event in dialogue.run():
            if isinstance(event, MessageDone):
                started.set()

    task = asyncio.create_task(consume())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert engine.store.session(dialogue.session_id).stop_reason == "cancelled"
