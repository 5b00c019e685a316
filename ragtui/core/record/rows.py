"""The rows of the record as the rest of ragtui reads them: sessions, messages, partial replies
and versioned judgments (of turns and of whole dialogues), decoded from their SQLite columns,
and the plain INSERT that writes one. Reading a row never changes it."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from ..content.knowledge import Passage
from ..dialogue.transcript import Utterance
from ..errors import StoreError
from ..text_safety import fix_surrogates
from .ownership import Owner, owner_alive

if TYPE_CHECKING:
    from ..metrics.base import Judgment


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


@dataclass
class StoredDialogueJudgment:
    id: int
    session_id: int
    metric: str
    version: int
    score: float | None
    outcome: str | None
    details: dict[str, Any] = field(default_factory=dict)
    prompt: list[dict[str, str]] = field(default_factory=list)
    raw_reply: str = ""
    model: str | None = None
    error: str | None = None
    attempts: int = 0
    latency_ms: float | None = None
    created_at: str = ""
    served_model: str | None = None  # the model the answer named, when not ``model``

    def to_judgment(self) -> Judgment:
        """Back to the engine's form, e.g. to draw a stored verdict as the live one was drawn."""
        from ..metrics.base import Judgment  # the metrics pull in the LLM client: not at start-up

        return Judgment.from_stored(self)

    @property
    def skipped(self) -> bool:
        return self.score is None and bool(self.details.get("skipped"))


def decode_dialogue_row(row: dict[str, Any]) -> StoredDialogueJudgment:
    data = {k: v for k, v in row.items() if k not in ("prompt_tokens", "completion_tokens")}
    data["details"] = json.loads(data["details"]) if data.get("details") else {}
    data["prompt"] = json.loads(data["prompt"]) if data.get("prompt") else []
    return StoredDialogueJudgment(**data)


def latest_per_metric(judgments: list[StoredDialogueJudgment]) -> dict[str, StoredDialogueJudgment]:
    """The newest version per metric."""
    out: dict[str, StoredDialogueJudgment] = {}
    for j in judgments:
        if j.metric not in out or j.version > out[j.metric].version:
            out[j.metric] = j
    return out


@dataclass
class StoredMessage:
    id: int
    session_id: int
    turn: int
    role: str
    source: str
    text: str
    passages: list[Passage]
    model: str | None
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_ms: float | None
    created_at: str
    finish_reason: str | None = None  # "length": cut by the token limit, kept but marked
    attempts: int = 1
    sim_check: dict[str, Any] | None = None  # customer messages: the simulator check, when one ran
    served_model: str | None = None  # the model the answer named, when not ``model`` (a gateway's alias)

    @property
    def cut_by_limit(self) -> bool:
        return self.finish_reason == "length"


@dataclass
class PartialReply:
    """What arrived of a reply whose stream never completed: shown as partial, never judged,
    never fed to the dialogue, never exported as an answer."""

    id: int
    session_id: int
    turn: int
    role: str
    text: str
    error: str
    attempts: int
    created_at: str


class SessionBusy(StoreError):
    """Another live process is running this session."""


@dataclass
class StoredJudgment:
    id: int
    session_id: int
    message_id: int
    turn: int
    metric: str
    version: int
    score: float | None
    details: dict[str, Any]
    prompt: list[dict[str, str]]
    raw_reply: str
    model: str | None
    error: str | None
    attempts: int
    latency_ms: float | None
    created_at: str
    served_model: str | None = None  # the model the answer named, when not ``model``

    @property
    def scored(self) -> bool:
        return self.score is not None

    def to_judgment(self) -> Judgment:
        """Back to the engine's form, e.g. for a derived metric that reads a stored one."""
        from ..metrics.base import Judgment

        return Judgment.from_stored(self)


@dataclass
class StoredSession:
    id: int
    run_id: str | None
    created_at: str
    updated_at: str
    language: str
    scenario_id: str
    question: str
    scenario: dict[str, Any]
    persona_name: str
    persona: dict[str, Any]
    config: dict[str, Any]
    max_turns: int
    threshold: float
    metrics: list[str]
    status: str
    stop_reason: str | None
    score: float | None
    turns: int
    unscored_turns: int
    error: str | None
    owner_pid: int | None = None
    owner_host: str | None = None
    owner_started: str | None = None
    heartbeat_at: str | None = None
    parent_session_id: int | None = None  # a fork: the session it copied turns from
    fork_turn: int | None = None  # … and the last turn it copied
    replay_of: int | None = None  # a replay: the session whose customer messages it re-sent
    replay_note: str | None = None  # where the recording could not be reused, if it could not
    messages: list[StoredMessage] = field(default_factory=list)
    judgments: list[StoredJudgment] = field(default_factory=list)
    partials: list[PartialReply] = field(default_factory=list)
    dialogue_judgments: list[StoredDialogueJudgment] = field(default_factory=list)  # every version

    @property
    def owner(self) -> Owner | None:
        if self.owner_pid is None or self.owner_host is None:
            return None
        return Owner(self.owner_pid, self.owner_host, self.owner_started)

    @property
    def stop_label(self) -> str:
        """What a list shows: the stop reason, or running / interrupted."""
        return (self.stop_reason or "finished") if self.status == "finished" else self.status

    def utterances(self) -> list[Utterance]:
        return [Utterance("user" if m.role == "user" else "bot", m.text) for m in self.messages]

    def latest_dialogue_judgments(self) -> dict[str, StoredDialogueJudgment]:
        """The newest dialogue verdict per metric (resolution, retention, repetition)."""
        return latest_per_metric(self.dialogue_judgments)

    def latest_judgments(self) -> dict[tuple[int, str], StoredJudgment]:
        """The newest version per (turn, metric)."""
        latest: dict[tuple[int, str], StoredJudgment] = {}
        for j in self.judgments:
            key = (j.turn, j.metric)
            if key not in latest or j.version > latest[key].version:
                latest[key] = j
        return latest


_JSON_FIELDS = {"scenario", "persona", "config", "metrics", "passages", "details", "prompt", "sim_check"}


def decode_row(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    for key in _JSON_FIELDS & set(out):
        out[key] = json.loads(out[key]) if out[key] is not None else None
    if "passages" in out:
        out["passages"] = [Passage(**p) for p in (out["passages"] or [])]
    return out


def session_from_row(row: dict[str, Any]) -> StoredSession:
    session = StoredSession(**decode_row(row))
    # Never shown as running when nobody runs it: the process died (kill -9, crash).
    if session.status == "running" and not owner_alive(session.owner, session.heartbeat_at):
        session.status = "interrupted"
    return session
