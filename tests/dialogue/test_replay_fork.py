"""Replay (the recorded customer, verbatim) and fork (copy turns 1..N, continue live) against
the fake server, through the real engine and store."""

from __future__ import annotations

import pytest

from ragtui.core.content.personas import load_personas
from ragtui.core.dialogue.engine import Engine
from ragtui.core.store.lineage import lineage_lines
from ragtui.core.types.errors import RagtuiError
from stand_ins.fake_openai import Reply

from ..conftest import BOT, JUDGE, USER, check_answers


async def run_to_end(dialogue) -> None:  # noqa: ANN001
    async for _event in dialogue.run():
        pass


def customer_texts(engine: Engine, session_id: int) -> list[tuple[int, str]]:
    return [(m.turn, m.text) for m in engine.store.session(session_id).messages if m.role == "user"]


async def recorded(engine: Engine, scenario, persona, server, *customers: str) -> int:  # noqa: ANN001
    server.script(USER, *(Reply(text) for text in customers))
    dialogue = engine.new_dialogue(scenario, persona, run_id="base")
    await run_to_end(dialogue)
    return dialogue.session_id


async def test_replay_resends_the_recorded_customer_to_a_new_bot(engine: Engine, scenario, persona, server):
    source_id = await recorded(engine, scenario, persona, server, "Still broken?", "And my other account?")
    server.set_default(BOT, Reply("A different, newer answer."))
    server.set_default(JUDGE, check_answers(2))
    source = engine.store.session(source_id)
    dialogue = engine.replay_dialogue(source, scenario, run_id="replay")
    before = len(server.chat_requests(USER))
    await run_to_end(dialogue)
    replay = engine.store.session(dialogue.session_id)
    assert customer_texts(engine, replay.id) == customer_texts(engine, source_id)
    assert [m.source for m in replay.messages if m.role == "user"] == ["replay"] * 3
    assert all(m.text == "A different, newer answer." for m in replay.messages if m.role == "bot")
    assert replay.score == pytest.approx(0.4) and replay.replay_of == source_id and replay.replay_note is None
    assert replay.stop_reason == "max_turns"
    assert len(server.chat_requests(USER)) == before  # the simulator was never asked
    assert "replayed by: " + str(replay.id) in lineage_lines(engine.store, source)


async def test_a_recording_that_ran_out_stops_or_hands_over(engine: Engine, scenario, persona, server):
    source_id = await recorded(engine, scenario, persona, server, "Still broken?", "Anything else?")
    source = engine.store.session(source_id)
    stopped = engine.replay_dialogue(source, scenario, max_turns=4)
    await run_to_end(stopped)
    first = engine.store.session(stopped.session_id)
    assert first.stop_reason == "replay_end" and first.turns == 3
    assert first.replay_note == f"the recording of session {source_id} ran out after turn 3; stopped there"

    server.script(USER, Reply("A brand new question from the simulator"))
    handed = engine.replay_dialogue(source, scenario, max_turns=4, then_simulate=True)
    await run_to_end(handed)
    second = engine.store.session(handed.session_id)
    assert second.stop_reason == "max_turns" and second.turns == 4
    assert customer_texts(engine, second.id)[-1] == (4, "A brand new question from the simulator")
    assert [m.source for m in second.messages if m.role == "user"] == ["replay"] * 3 + ["simulator"]
    assert "the simulator took over from turn 4" in (second.replay_note or "")


async def test_a_recorded_done_is_replayed_or_left_to_the_simulator(engine: Engine, scenario, persona, server):
    source_id = await recorded(engine, scenario, persona, server, "DONE")
    source = engine.store.session(source_id)
    assert source.stop_reason == "done"

    verbatim = engine.replay_dialogue(source, scenario)
    await run_to_end(verbatim)
    replay = engine.store.session(verbatim.session_id)
    assert replay.stop_reason == "done" and customer_texts(engine, replay.id) == customer_texts(engine, source_id)
    assert "ended in DONE at turn 2; replayed as recorded" in (replay.replay_note or "")

    server.script(USER, Reply("Not solved yet, what now?"), Reply("Fine now. DONE"))
    simulated = engine.replay_dialogue(source, scenario, then_simulate=True)
    await run_to_end(simulated)
    handed = engine.store.session(simulated.session_id)
    assert customer_texts(engine, handed.id)[1] == (2, "Not solved yet, what now?")
    assert "the simulator took over from there" in (handed.replay_note or "")


async def test_fork_copies_turns_and_continues_live(engine: Engine, scenario, persona, server, config):
    source_id = await recorded(engine, scenario, persona, server, "Second question", "Third question")
    parent = engine.store.session(source_id)
    angry = next(p for p in load_personas(config.personas, "en") if p.name == "angry")
    server.script(USER, Reply("Forked customer speaking"))
    server.set_default(JUDGE, check_answers(2))  # only the live turn is judged now
    dialogue = engine.fork_dialogue(source_id, 2, persona=angry)
    fork = engine.store.session(dialogue.session_id)
    assert (fork.parent_session_id, fork.fork_turn, fork.persona_name) == (source_id, 2, "angry")
    assert [(m.turn, m.role, m.text) for m in fork.messages] == [
        (m.turn, m.role, m.text) for m in parent.messages if m.turn <= 2
    ]
    assert len(fork.judgments) == 2 and fork.score == pytest.approx(0.8)
    await run_to_end(dialogue)
    fork = engine.store.session(dialogue.session_id)
    assert customer_texts(engine, fork.id)[-1] == (3, "Forked customer speaking")
    assert fork.score == pytest.approx((0.8 + 0.8 + 0.4) / 3)
    assert len(engine.store.session(source_id).messages) == 6  # the parent is untouched
    assert f"forked from session {source_id} after turn 2" in lineage_lines(engine.store, fork)
    assert f"forks: {fork.id} (after turn 2)" in lineage_lines(engine.store, engine.store.session(source_id))


async def test_fork_at_the_last_turn_gets_one_more_live_turn(engine: Engine, scenario, persona, server):
    source_id = await recorded(engine, scenario, persona, server, "Second question", "Third question")
    dialogue = engine.fork_dialogue(source_id, 3)
    assert dialogue.max_turns == 4 and not dialogue.finished
    with pytest.raises(RagtuiError, match="cannot fork at turn 9"):
        engine.fork_dialogue(source_id, 9)


async def test_fork_at_a_done_turn_is_refused(engine: Engine, scenario, persona, server):
    source_id = await recorded(engine, scenario, persona, server, "DONE")
    with pytest.raises(RagtuiError, match="customer's DONE"):
        engine.fork_dialogue(source_id, 2)


async def test_a_replay_continued_later_keeps_replaying(engine: Engine, scenario, persona, server):
    source_id = await recorded(engine, scenario, persona, server, "Recorded two", "Recorded three")
    dialogue = engine.replay_dialogue(engine.store.session(source_id), scenario)
    async for _event in dialogue.step():  # turn 1's customer message only
        pass
    dialogue.cancel()
    resumed = engine.resume_dialogue(dialogue.session_id)
    await run_to_end(resumed)
    assert customer_texts(engine, dialogue.session_id) == customer_texts(engine, source_id)
