"""Real support conversations brought in by ``ragtui import``: who said what, where in the file.

A conversation file (JSONL, CSV/TSV, a helpdesk's JSON export, or a plugin's format) is read by a
loader into ``RawConversation`` records — the roles as the file writes them — and each message's
role is then mapped to one of four speakers:

- ``customer``: the real customer; their messages open the turns;
- ``bot``: the support bot that answered then; what the judge may score as the bot's;
- ``agent``: a human agent; kept and shown, marked, and never judged as the bot;
- ``system``: notes, events, tool output; kept, never judged as anyone's answer.

Plain data: nothing here reads a file or the database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from .errors import RagtuiError

Speaker = Literal["customer", "bot", "agent", "system"]
SPEAKERS: tuple[Speaker, ...] = ("customer", "bot", "agent", "system")

IMPORTED_KIND = "imported"
"""``sessions.kind`` of every session ``ragtui import`` stores (ragtui's own dialogues: ``simulated``)."""
SIMULATED_KIND = "simulated"


@dataclass(frozen=True)
class RawMessage:
    """One message as a loader read it. ``role`` is the file's word (``assistant``, ``担当者``,
    ``admin``); a loader that knows the speaker for sure (a helpdesk's author type, an internal
    note) sets ``speaker`` and the role words are not consulted."""

    role: str
    text: str
    line: int  # the line (or row) it was read from, 1-based
    time: str | None = None  # as the file writes it
    speaker: Speaker | None = None


@dataclass(frozen=True)
class RawConversation:
    """One conversation as a loader read it: its id in the file (None: it has none) and the line
    (or row) where it starts."""

    key: str | None
    line: int
    messages: tuple[RawMessage, ...]


@dataclass(frozen=True)
class ImportedMessage:
    speaker: Speaker
    text: str
    role: str  # the file's own word for the speaker, kept for people and for later checks
    line: int
    time: str | None = None


@dataclass(frozen=True)
class ImportedConversation:
    """A conversation ready to store: every message mapped to its speaker, empty ones left out,
    at least one customer message. ``key`` is its id in the file (``line N`` when it had none)."""

    key: str
    line: int
    messages: tuple[ImportedMessage, ...]
    source: str = ""  # the file it was read from, as given
    unit: str = "line"  # how ``line`` counts there: line (JSONL, JSON) or row (CSV, TSV; the header is row 1)

    def with_texts(self, key: str, texts: list[str]) -> ImportedConversation:
        """The same conversation with its id and its messages' texts replaced (redacted)."""
        messages = tuple(
            ImportedMessage(m.speaker, text, m.role, m.line, m.time)
            for m, text in zip(self.messages, texts, strict=True)
        )
        return ImportedConversation(key, self.line, messages, self.source, self.unit)


@dataclass(frozen=True)
class TurnPart:
    """One original message inside a stored turn message: where its text is (``start``/``end``,
    character offsets into the stored message's text) and what the file said of it."""

    position: int  # 0, 1, … in the conversation
    speaker: Speaker
    role: str
    start: int
    end: int
    line: int
    time: str | None


@dataclass(frozen=True)
class TurnMessage:
    """One row of ``messages`` for an imported conversation: the customer's message of a turn,
    the bot's answer, a human agent's answer or the turn's notes (consecutive messages of one
    speaker joined by a blank line), with the original messages it was made of."""

    turn: int  # 0: said before the customer's first message (a greeting); never judged
    role: str  # messages.role: user | bot | agent | note
    source: str  # messages.source: imported_customer | imported_bot | imported_agent | imported_note
    text: str
    parts: tuple[TurnPart, ...] = field(default_factory=tuple)


class ImportProblem(Exception):
    """Raised by a loader for input it cannot read; the importer names the file. ``line``: the line
    or row (per the loader's ``unit``) it is about, None for the file as a whole."""

    def __init__(self, what: str, line: int | None = None, hint: str = "") -> None:
        super().__init__(what)
        self.what = what
        self.line = line
        self.hint = hint


class ConversationFileError(RagtuiError):
    """Bad input to ``ragtui import``: one line naming the file and the line or row; nothing stored."""
