"""Imported conversations in SQLite (tables from schema migration 17): writing an imported run,
and reading back where its sessions and messages came from.

An imported conversation is a finished session like any other (``kind = 'imported'``, stop
reason ``imported``) whose ``messages`` rows are its turns (core/conversations/turns.py): the
customer's message (``role = user``), the bot's answer (``bot``), a human agent's (``agent``) and
notes (``note``). ``imported_sessions`` says where in which file it was; ``imported_messages``
keeps it message by message as it happened. The whole import is written by the caller inside one
``Store.write`` (``ImportWriter`` only inserts), so a failure leaves nothing of it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..text.text_safety import fix_surrogates
from ..types.conversations import IMPORTED_KIND, TurnMessage
from ..types.personas import Persona
from .rows import insert_row, now, persona_json

if TYPE_CHECKING:
    import sqlite3

    from .database import Database

STOP_REASON = "imported"


@dataclass(frozen=True)
class ImportRecord:
    """One row of ``imports``: a file brought in."""

    id: int
    run_id: str
    path: str
    sha256: str
    bytes: int
    format: str
    encoding: str
    conversations: int
    messages: int
    redacted: bool
    redactions: dict[str, int]
    created_at: str


@dataclass(frozen=True)
class ImportedSession:
    """Where an imported session's conversation is: its file and its place in it."""

    session_id: int
    import_id: int
    conversation: str
    line: int
    unit: str
    messages: int
    started_at: str | None
    ended_at: str | None
    path: str
    format: str

    def where(self) -> str:
        return f"{self.path} {self.unit} {self.line}"


@dataclass(frozen=True)
class ImportedPart:
    """One message of an imported conversation as it happened (a row of ``imported_messages``)."""

    message_id: int
    position: int
    speaker: str
    role: str
    text_start: int
    text_end: int
    line: int
    time: str | None


@dataclass(frozen=True)
class NewSession:
    """What an imported session's ``sessions`` row holds besides its run and its turns."""

    key: str  # the session's scenario_id: the conversation's id, made unique within the run
    conversation: str  # its id in the file
    line: int
    unit: str
    language: str
    question: str
    scenario: dict[str, Any]
    persona: Persona
    config: dict[str, Any]
    threshold: float
    messages: int
    started_at: str | None
    ended_at: str | None


class ImportWriter:
    """Inserts an imported run inside the caller's write transaction (``Store.write``)."""

    def __init__(self, store: Database, run_id: str) -> None:
        self.conn: sqlite3.Connection = store._db.conn
        self.run_id = run_id
        self.stamp = now()

    def begin_file(self, path: str, sha256: str, size: int, format_name: str, encoding: str, redacted: bool) -> int:
        row = {
            "run_id": self.run_id,
            "path": fix_surrogates(path),
            "sha256": sha256,
            "bytes": size,
            "format": format_name,
            "encoding": encoding,
            "conversations": 0,
            "messages": 0,
            "redacted": int(redacted),
            "redactions": "{}",
            "created_at": self.stamp,
        }
        return insert_row(self.conn, "imports", row)

    def end_file(self, import_id: int, conversations: int, messages: int, redactions: Mapping[str, int]) -> None:
        self.conn.execute(
            "UPDATE imports SET conversations = ?, messages = ?, redactions = ? WHERE id = ?",
            [conversations, messages, json.dumps(dict(redactions), ensure_ascii=False, sort_keys=True), import_id],
        )

    def add_session(self, import_id: int, session: NewSession, turns: list[TurnMessage]) -> int:
        count = max((m.turn for m in turns), default=0)
        row = {
            "run_id": self.run_id,
            "created_at": self.stamp,
            "updated_at": self.stamp,
            "language": session.language,
            "scenario_id": session.key,
            "question": fix_surrogates(session.question),
            "scenario": json.dumps(session.scenario, ensure_ascii=False),
            "persona_name": session.persona.name,
            "persona": persona_json(session.persona),
            "config": json.dumps(session.config, ensure_ascii=False),
            "max_turns": max(count, 1),
            "threshold": session.threshold,
            "metrics": "[]",
            "status": "finished",
            "stop_reason": STOP_REASON,
            "turns": count,
            "unscored_turns": 0,
            "trial": 1,
            "kind": IMPORTED_KIND,
        }
        session_id = insert_row(self.conn, "sessions", row)
        insert_row(
            self.conn,
            "imported_sessions",
            {
                "session_id": session_id,
                "import_id": import_id,
                "conversation": fix_surrogates(session.conversation),
                "line": session.line,
                "unit": session.unit,
                "messages": session.messages,
                "started_at": session.started_at,
                "ended_at": session.ended_at,
            },
        )
        for message in turns:
            message_id = insert_row(
                self.conn,
                "messages",
                {
                    "session_id": session_id,
                    "turn": message.turn,
                    "role": message.role,
                    "source": message.source,
                    "text": fix_surrogates(message.text),
                    "created_at": self.stamp,
                },
            )
            for part in message.parts:
                insert_row(
                    self.conn,
                    "imported_messages",
                    {
                        "session_id": session_id,
                        "message_id": message_id,
                        "position": part.position,
                        "speaker": part.speaker,
                        "role": fix_surrogates(part.role),
                        "text_start": part.start,
                        "text_end": part.end,
                        "line": part.line,
                        "time": part.time,
                    },
                )
        return session_id


def _rows(store: Database, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    cursor = store._db.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]


def _record(row: dict[str, Any]) -> ImportRecord:
    return ImportRecord(**{**row, "redacted": bool(row["redacted"]), "redactions": json.loads(row["redactions"])})


def import_of_file(store: Database, sha256: str) -> ImportRecord | None:
    """The earliest import of a file with these bytes, if any."""
    rows = _rows(store, "SELECT * FROM imports WHERE sha256 = ? ORDER BY id LIMIT 1", [sha256])
    return _record(rows[0]) if rows else None


def imports_of_run(store: Database, run_id: str) -> list[ImportRecord]:
    return [_record(r) for r in _rows(store, "SELECT * FROM imports WHERE run_id = ? ORDER BY id", [run_id])]


def run_exists(store: Database, run_id: str) -> bool:
    found = store._db.execute(
        "SELECT 1 FROM sessions WHERE run_id = ? UNION ALL SELECT 1 FROM run_plan WHERE run_id = ? "
        "UNION ALL SELECT 1 FROM imports WHERE run_id = ? LIMIT 1",
        [run_id, run_id, run_id],
    ).fetchone()
    return found is not None


def run_kind(store: Database, run_id: str) -> str:
    """``imported`` or ``simulated`` (a run's sessions all have its kind)."""
    row = store._db.execute("SELECT kind FROM sessions WHERE run_id = ? LIMIT 1", [run_id]).fetchone()
    return str(row[0]) if row else "simulated"


def imported_session(store: Database, session_id: int) -> ImportedSession | None:
    rows = _rows(
        store,
        "SELECT s.session_id, s.import_id, s.conversation, s.line, s.unit, s.messages, s.started_at, s.ended_at, "
        "i.path, i.format FROM imported_sessions s JOIN imports i ON i.id = s.import_id "
        "WHERE s.session_id = ?",
        [session_id],
    )
    return ImportedSession(**rows[0]) if rows else None


def imported_parts(store: Database, session_id: int) -> list[ImportedPart]:
    """The conversation message by message, in the order it happened."""
    rows = _rows(
        store,
        "SELECT message_id, position, speaker, role, text_start, text_end, line, time FROM imported_messages "
        "WHERE session_id = ? ORDER BY position",
        [session_id],
    )
    return [ImportedPart(**r) for r in rows]


def imported_origin(store: Database, session_id: int) -> str | None:
    """One line saying where an imported session's conversation came from, for people."""
    found = imported_session(store, session_id)
    if found is None:
        return None
    when = f" · {found.started_at} – {found.ended_at}" if found.started_at else ""
    return (
        f"imported from {found.where()} ({found.format}) · conversation {found.conversation} · "
        f"{found.messages} message(s){when}"
    )
