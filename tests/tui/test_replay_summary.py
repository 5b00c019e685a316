"""A replay's summary says what its sessions' notes say: a recorded DONE re-sent as recorded is
the whole recording reused, not one that "could not reuse the whole recording"."""

from __future__ import annotations

from ragtui.core.dialogue.replay import ReplayEnded, ReplayScript, replay_summary
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue

from .conftest import SIZE, settle, static_text


def test_each_kind_of_note_is_counted_as_what_it_says():
    notes: list[str | None] = [None]
    for then_simulate, messages, turns in (
        (False, ["hi", "DONE"], 2),  # a DONE re-sent as recorded
        (True, ["hi", "DONE"], 2),  # a DONE the simulator replaced
        (False, ["hi"], 2),  # ran out: stopped
        (True, ["hi"], 2),  # ran out: the simulator went on
    ):
        script = ReplayScript(7, messages, then_simulate)
        try:
            for turn in range(1, turns + 1):
                script.next_message(turn)
        except ReplayEnded:
            pass
        notes.append(script.note)
    assert replay_summary(notes) == (
        "1 re-sent a recorded DONE as recorded (whether the new answers satisfied the customer is not known); "
        "1 did not reuse a recorded DONE (the simulator took over at that turn); "
        "1 stopped where the recording ran out; "
        "1 went on past the end of the recording (the simulator took over)"
    )
    assert replay_summary([None, None]) == ""


async def test_a_replayed_done_reads_the_same_in_the_summary_and_in_the_session(make_app, store: Store):
    for persona in ("calm", "angry"):
        write_dialogue(
            store, "20260101-recorded", "id-linking", persona, [0.8, 0.8], customer=lambda t: "DONE" if t == 2 else "hi"
        )
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        await pilot.press("r")  # replay, no simulator
        await settle(pilot)
        replay_run = store.run_ids()[-1]
        notes = [s.replay_note for s in store.sessions(run_id=replay_run)]
        assert len(notes) == 2 and all(n and n.endswith("; replayed as recorded") for n in notes)
        status = static_text(app, "#runs-status")
        assert "2 re-sent a recorded DONE as recorded" in status
        assert "could not reuse" not in status
