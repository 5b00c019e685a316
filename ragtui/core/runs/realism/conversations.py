"""A run's conversations as realism reads them: each session's customer messages, in order.

Read through the store's generic view of a run (``Store.run_sessions``), so any run serves —
one ``ragtui run`` recorded, one replayed, or conversations brought in by an import — as long as
its customer's messages are stored with role ``user``. Nothing here depends on how the run was made.

Which words are the customer's own: a simulated run's opening (and a scenario's planned follow-up)
is the scenario file's text, stored with source ``scenario``; every other customer message — the
simulator's, a person's typed one, a replayed or imported one — is the customer's.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from ...store.store import Store
from ...types.errors import RagtuiError
from ...types.stored import StoredSession
from .cues import language_of, without_marker

SCENARIO_SOURCE = "scenario"


@dataclass(frozen=True)
class CustomerMessage:
    turn: int
    text: str  # without the simulator's DONE marker
    source: str

    @property
    def own(self) -> bool:
        """Written by the customer, not taken from the scenario file."""
        return self.source != SCENARIO_SOURCE


@dataclass(frozen=True)
class Conversation:
    session_id: int
    scenario_id: str
    persona: str
    language: str
    messages: tuple[CustomerMessage, ...]

    @property
    def opening(self) -> CustomerMessage:
        return self.messages[0]

    @property
    def replies(self) -> list[CustomerMessage]:
        """The customer's own messages after the opening (each answers the bot or agent)."""
        return [m for m in self.messages[1:] if m.own]

    def blind_message(self) -> CustomerMessage | None:
        """The message the blind test shows: the customer's first own reply, if any."""
        replies = self.replies
        return replies[0] if replies else None


@dataclass(frozen=True)
class Side:
    """One side of the comparison: a run's conversations that have a customer message."""

    label: str  # "REAL" or "SIM"
    run_id: str
    conversations: tuple[Conversation, ...]
    language: str  # most of its messages' language by their script (the session's where it cannot tell)

    @property
    def messages(self) -> list[CustomerMessage]:
        return [m for c in self.conversations for m in c.messages]

    @property
    def scenario_words(self) -> int:
        """Customer messages that are the scenario file's text, not the customer's."""
        return sum(1 for m in self.messages if not m.own)


def conversation_of(session: StoredSession) -> Conversation | None:
    """The session's customer messages (empty ones, and a lone DONE, left out); None without any."""
    messages = []
    for m in sorted((m for m in session.messages if m.role == "user"), key=lambda m: (m.turn, m.id)):
        text = without_marker(m.text)
        if text:
            messages.append(CustomerMessage(m.turn, text, m.source))
    if not messages:
        return None
    return Conversation(session.id, session.scenario_id, session.persona_name, session.language, tuple(messages))


def read_side(store: Store, run_id: str, label: str) -> Side:
    """The run's conversations; one RagtuiError naming the run when it has no customer message."""
    conversations = tuple(c for s in store.run_sessions(run_id) if (c := conversation_of(s)) is not None)
    if not conversations:
        where = f" in {store.path}" if store.path else ""
        raise RagtuiError(
            f"{label} run {run_id}{where} has no customer messages to compare",
            "pick a run whose dialogues have begun (list them with `ragtui runs`)",
        )
    languages = Counter(language_of(m.text, c.language) for c in conversations for m in c.messages)
    return Side(label, run_id, conversations, languages.most_common(1)[0][0])
