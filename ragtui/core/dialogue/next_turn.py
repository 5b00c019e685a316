"""N+1 on a real conversation, in the dialogue engine: a session that answers one turn only, sent
the real history before it (``runs/next_turn.py`` plans which turns; this builds each).

The bot under test is sent every message before turn N — the customer's, and the real bot's
*and human agent's* answers, as the support side's (assistant) messages; internal notes are left
out, since the customer never saw them — then the customer's message of turn N, and answers once.
The real answer of turn N is the turn's reference answer (``answer_correctness`` compares against
it). The session stores only turn N (customer message and new answer, numbered as in the real
conversation); the history is read from the conversation it tests, which its config names
(``types/next_turn.py``). Dialogue verdicts (resolution, …) are not asked: one answer is no dialogue.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..types.scenarios import Scenario
from ..types.stored import StoredSession
from ..types.turns import Utterance
from .replay import ReplayScript

if TYPE_CHECKING:
    from .state_machine import Dialogue


def customer_turns(session: StoredSession) -> int:
    """How many turns the customer opened in a conversation."""
    return max((m.turn for m in session.messages if m.role == "user"), default=0)


def real_history(session: StoredSession, turn: int) -> list[Utterance]:
    """What the customer and whoever answered them said before ``turn``, as the bot is sent it:
    the bot's and a human agent's answers both as the support side's (assistant) messages, in the
    order they were said; notes left out."""
    return [
        Utterance("user" if m.role == "user" else "bot", m.text)
        for m in session.messages
        if m.turn < turn and m.role in ("user", "bot", "agent")
    ]


def real_answer(session: StoredSession, turn: int) -> tuple[str | None, str | None]:
    """The real answer to ``turn``'s customer message (bot and agent messages joined, in order),
    and who gave it: ``bot``, ``agent`` or ``bot+agent``; (None, None) when nobody answered."""
    answers = [m for m in session.messages if m.turn == turn and m.role in ("bot", "agent")]
    if not answers:
        return None, None
    roles = list(dict.fromkeys(m.role for m in answers))
    return "\n\n".join(m.text for m in answers), "+".join(roles)


@dataclass(frozen=True)
class NextTurnCase:
    """One turn of one real conversation to put to the bot under test."""

    source: StoredSession
    turn: int
    history: list[Utterance]
    customer: str
    answer: str | None  # the real answer of this turn: the reference
    answer_role: str | None

    def note(self) -> dict[str, Any]:
        return {
            "of_session": self.source.id,
            "at_turn": self.turn,
            "real_role": self.answer_role,
            "history": len(self.history),
        }

    def scenario(self) -> Scenario:
        """The conversation's scenario with the real answer of this turn as its reference."""
        return replace(Scenario.from_dict(self.source.scenario), reference=self.answer or None, follow_up=None)


def start_at_turn(dialogue: Dialogue, source: StoredSession, turn: int, history: list[Utterance]) -> None:
    """Put a new dialogue just before ``turn``, with the real history, so that its one step of
    each kind re-sends the customer's message of that turn, asks the bot and judges the answer."""
    dialogue.history = list(history)
    dialogue.turn = turn - 1
    dialogue.starts_at = turn - 1
    dialogue.max_turns = turn
    dialogue.patience = None  # the real customer's turns, not a persona's patience, decide
    dialogue.dialogue_metrics = []
    customer = {m.turn: m.text for m in source.messages if m.role == "user"}
    dialogue.replay = ReplayScript(source.id, [customer.get(t, "") for t in range(1, max(customer, default=0) + 1)])


def resumed_history(source: StoredSession, own: StoredSession, turn: int) -> list[Utterance]:
    """An N+1 session continued later: the real history, then what it stored itself."""
    return real_history(source, turn) + own.utterances()
