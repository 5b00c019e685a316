"""The record's rows (``records.stored``) decoded from their SQLite columns, and the plain INSERT
that writes one. Reading a row never changes it."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from typing import Any

from ..text.text_safety import fix_surrogates
from ..types.errors import StoreError
from ..types.judge_key import AgreementLookup, refresh_details
from ..types.judgments import Judgment
from ..types.passages import Passage
from ..types.personas import Persona
from ..types.stored import StoredDialogueJudgment, StoredJudgment, StoredSession
from .ownership import owner_alive


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def judgment_columns(judgment: Judgment) -> dict[str, Any]:
    """The columns a verdict row shares, turn or dialogue: what was judged, sent and answered."""
    return {
        "metric": judgment.metric,
        "score": judgment.score,
        "details": json.dumps(judgment.details, ensure_ascii=False),
        "prompt": json.dumps(judgment.prompt, ensure_ascii=False),
        "raw_reply": fix_surrogates(judgment.raw_reply),
        "model": judgment.model,
        "served_model": judgment.served_model,
        "error": judgment.error,
        "attempts": judgment.attempts,
        "latency_ms": judgment.latency_ms,
        "prompt_tokens": judgment.prompt_tokens,
        "completion_tokens": judgment.completion_tokens,
        "cached_tokens": judgment.cached_tokens,
        "created_at": now(),
    }


def insert_row(conn: sqlite3.Connection, table: str, row: dict[str, Any]) -> int:
    """INSERT one row of scalars; its id. Plain SQL on the hot path: sqlite-utils' ``insert``
    looks the table and its columns up again on every call (several queries per row).
    ``table`` and the keys are ragtui's own names, never user input."""
    columns = ", ".join(row)
    marks = ", ".join("?" * len(row))
    cursor = conn.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(row.values()))
    return int(cursor.lastrowid or 0)


def persona_json(persona: Persona) -> str:
    """How a persona is written in the database: the one place it is (a session's, or a plan
    entry's until its session exists: run_plan.py)."""
    return json.dumps(persona.to_dict(), ensure_ascii=False)


# Stored for the tokens-spent tables (read there with SQL), not part of a verdict as shown.
_USAGE_COLUMNS = ("prompt_tokens", "completion_tokens", "cached_tokens")


def judgment_from_row(row: dict[str, Any], lookup: AgreementLookup | None = None) -> StoredJudgment:
    """A turn verdict from its ``judgments`` row: the one decoder every reader uses. With the
    store's ``lookup``, its agreement is the judge card's as it stands now."""
    judgment = StoredJudgment(**{k: v for k, v in decode_row(row).items() if k not in _USAGE_COLUMNS})
    judgment.details = refresh_details(judgment.metric, judgment.details or {}, lookup)
    return judgment


def decode_dialogue_row(row: dict[str, Any], lookup: AgreementLookup | None = None) -> StoredDialogueJudgment:
    """A dialogue verdict from its ``dialogue_judgments`` row (its agreement as ``judgment_from_row``)."""
    data = {k: v for k, v in row.items() if k not in _USAGE_COLUMNS}
    data["details"] = refresh_details(
        data["metric"], json.loads(data["details"]) if data.get("details") else {}, lookup
    )
    data["prompt"] = json.loads(data["prompt"]) if data.get("prompt") else []
    return StoredDialogueJudgment(**data)


class SessionBusy(StoreError):
    """Another live process is running this session."""


_JSON_FIELDS = {"scenario", "persona", "config", "metrics", "passages", "details", "prompt", "sim_check"}


def decode_row(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    for key in _JSON_FIELDS & set(out):
        out[key] = json.loads(out[key]) if out[key] is not None else None
    if "passages" in out:
        out["passages"] = [Passage(**p) for p in (out["passages"] or [])]
    return out


def session_from_row(row: dict[str, Any]) -> StoredSession:
    data = decode_row(row)
    data["persona"] = Persona.from_record(data["persona"] or {})
    session = StoredSession(**data)
    # Never shown as running when nobody runs it: the process died (kill -9, crash).
    if session.status == "running" and not owner_alive(session.owner, session.heartbeat_at):
        session.status = "interrupted"
    return session
