"""An imported conversation read back for mining, message by message as it happened: who spoke,
what they wrote (already redacted when it was imported), in which customer turn and at which
line or row of its file — and the figures of how its customer wrote, measured in code.

The figures are what a persona drafted from the conversation states as fact (the model only
describes tone and patience): messages and turns, words per message (characters for Japanese,
which has no spaces), questions per message, and the kinds of personal data the customer
volunteered, read from the placeholders the import left (``<order-1>``)."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from ..store.imported import ImportedSession, imported_parts, imported_session
from ..store.store import Store
from ..types.errors import RagtuiError
from ..types.stored import StoredSession

PLACEHOLDER = re.compile(r"<([a-z][a-z0-9_]*)-(\d+)>")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_JA = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")
# A question: a question mark (or か。 closing a Japanese sentence), counted once per sentence.
_QUESTION = re.compile(r"[?？]+|か[。\n]|か$")
_HUMAN = re.compile(
    r"\b(?:a (?:real )?(?:person|human)|someone|an agent|speak to|talk to|operator|manager)\b|担当者|人と話|オペレーター",
    re.I,
)


@dataclass(frozen=True)
class Said:
    """One message of the conversation."""

    speaker: str  # customer | bot | agent | system
    text: str
    turn: int  # the customer turn it belongs to (0: before the customer's first message)
    line: int  # where it is in its file (line or row)


@dataclass(frozen=True)
class Conversation:
    session: StoredSession
    origin: ImportedSession
    messages: tuple[Said, ...]

    @property
    def key(self) -> str:
        return self.origin.conversation

    def of(self, *speakers: str) -> list[Said]:
        return [m for m in self.messages if m.speaker in speakers]

    def customer_turn(self, turn: int) -> str:
        """The customer's messages of ``turn``, joined ("" when there is no such turn)."""
        return "\n".join(m.text for m in self.messages if m.speaker == "customer" and m.turn == turn)


@dataclass(frozen=True)
class CustomerFigures:
    """How the customer wrote, measured in code."""

    messages: int
    turns: int
    length_per_message: float  # words (characters when the customer writes Japanese)
    unit: str  # "words" or "characters"
    questions_per_message: float
    volunteered: tuple[str, ...]  # placeholder kinds in the customer's messages: email, order, …
    asked_for_human: bool

    def lines(self) -> list[str]:
        """The figures as persona text, in the words a person reads them."""
        out = [
            f"Writes {self.messages} message(s) over {self.turns} turn(s), "
            f"about {self.length_per_message:.0f} {self.unit} each.",
            f"Asks about {self.questions_per_message:.1f} question(s) per message.",
        ]
        if self.volunteered:
            out.append(f"Gives without being asked: {', '.join(self.volunteered)} (as placeholders, never real data).")
        if self.asked_for_human:
            out.append("Asks for a human agent when the answer does not help.")
        return out


def run_conversations(store: Store, run_id: str) -> list[Conversation]:
    """Every conversation of an imported run, in the order they were imported; an error naming
    the run when it has none or is not an imported run."""
    sessions = store.run_sessions(run_id)
    if not sessions:
        known = store.run_ids()[:5]
        hint = f"runs in this database: {', '.join(known)}" if known else "the database has no run"
        raise RagtuiError(f"no run {run_id!r} in {store.path}", f"{hint}; nothing was written")
    if any(s.kind != "imported" for s in sessions):
        raise RagtuiError(
            f"run {run_id!r} is not an imported run (its sessions were simulated by ragtui)",
            "mine a run that `ragtui import` brought in (it printed its run id); nothing was written",
        )
    return [c for s in sessions if (c := read_conversation(store, s)) is not None]


def read_conversation(store: Store, session: StoredSession) -> Conversation | None:
    origin = imported_session(store, session.id)
    if origin is None:
        return None
    texts = {m.id: (m.turn, m.text) for m in session.messages}
    said = []
    for part in imported_parts(store, session.id):
        turn, text = texts.get(part.message_id, (0, ""))
        said.append(Said(part.speaker, text[part.text_start : part.text_end], turn, part.line))
    return Conversation(session, origin, tuple(said))


def conversation_messages(store: Store, session_id: int, conversation: str) -> tuple[Said, ...] | None:
    """The messages of ``conversation`` at ``session_id`` in this database; None when the
    session is not there or is another conversation (a draft mined in another database)."""
    origin = imported_session(store, session_id)
    if origin is None or origin.conversation != conversation:
        return None
    found = read_conversation(store, store.session(session_id))
    return found.messages if found is not None else None


def customer_figures(conversation: Conversation) -> CustomerFigures:
    said = [m.text for m in conversation.of("customer")]
    joined = "\n".join(said)
    japanese = len(_JA.findall(joined)) > len(_WORD.findall(_JA.sub(" ", joined)))
    if japanese:
        lengths = [len(re.sub(r"\s", "", PLACEHOLDER.sub("x", t))) for t in said]
    else:
        lengths = [len(_WORD.findall(PLACEHOLDER.sub("x", t))) for t in said]
    questions = sum(len(_QUESTION.findall(t)) for t in said)
    kinds = Counter(m.group(1) for t in said for m in PLACEHOLDER.finditer(t))
    count = max(len(said), 1)
    return CustomerFigures(
        messages=len(said),
        turns=len({m.turn for m in conversation.of("customer")}),
        length_per_message=sum(lengths) / count,
        unit="characters" if japanese else "words",
        questions_per_message=questions / count,
        volunteered=tuple(sorted(kinds)),
        asked_for_human=any(_HUMAN.search(t) for t in said),
    )
