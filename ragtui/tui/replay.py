"""A stored session as the events its dialogue emitted, so a reopened session is drawn by the
same code, in the same order, as the one watched live (one rendering path).

Free of Textual, like ``rejudge``: only the store's records and the engine's event types.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import cast

from ..core.dialogue.events import (
    DialogueDone,
    DialogueStarted,
    DialogueVerdictReady,
    Event,
    MessageDone,
    Role,
    StopReason,
    TurnDone,
    VerdictReady,
)
from ..core.registry.metrics import PRIMARY_METRIC
from ..core.types.stored import TURN_VERDICTS, StoredJudgment, StoredSession


def turn_verdicts(session: StoredSession, turn: int) -> list[StoredJudgment]:
    """The newest version of each metric on ``turn``, in the order the dialogue ran them
    (the order their first versions were stored in: the rubric first)."""
    on_turn = [j for j in session.judgments if j.turn == turn]  # stored order
    first: dict[str, int] = {}
    for j in on_turn:
        first.setdefault(j.metric, j.id)
    newest = {j.metric: j for j in TURN_VERDICTS.newest(on_turn)}
    return [newest[m] for m in sorted(newest, key=first.__getitem__)]


def session_events(session: StoredSession, *, ended: bool = True) -> Iterator[Event]:
    """The events of ``session``, newest verdict per metric; ``ended=False`` leaves out the end
    (a stopped session about to be continued)."""
    if session.messages:
        yield DialogueStarted(session.id, session.scenario_id, session.persona_name)
    scores: dict[int, float | None] = {}
    for message in session.messages:
        role: Role = "user" if message.role == "user" else "bot"
        finish = message.finish_reason if message.cut else None
        yield MessageDone(session.id, message.turn, role, message.text, message.id, message.source, finish)
        if role != "bot":
            continue
        verdicts = turn_verdicts(session, message.turn)
        for j in verdicts:
            yield VerdictReady(session.id, j.turn, j.to_judgment(), j.id, j.version)
        primary = next((j for j in verdicts if j.metric == PRIMARY_METRIC), None)
        if primary is not None:
            scores[message.turn] = primary.score
            scored = [s for s in scores.values() if s is not None]
            dialogue = sum(scored) / len(scored) if scored else None
            below = primary.score is not None and primary.score < session.threshold
            yield TurnDone(session.id, message.turn, primary.score, below, dialogue)
    for d in session.latest_dialogue_judgments().values():
        yield DialogueVerdictReady(session.id, d.to_judgment(), d.id, d.version)
    if ended and session.status == "finished" and session.stop_reason:
        yield DialogueDone(
            session.id,
            cast(StopReason, session.stop_reason),  # the store keeps the StopReason the dialogue ended with
            session.score,
            session.turns,
            session.unscored_turns,
            session.error,
        )
