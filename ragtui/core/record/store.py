"""SQLite persistence (sqlite-utils): sessions, messages and versioned judgments.

Every finished message and judgment is committed on its own as it completes, so a crash or a
kill loses at most what was being streamed. Judgments are never overwritten: re-judging a turn
adds version N+1 beside the earlier ones.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from ..content.knowledge import Passage
from ..dialogue.transcript import Utterance
from ..errors import StoreError
from ..metrics.base import Judgment
from .schema import LATEST_VERSION, migrate, schema_version


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


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

    @property
    def scored(self) -> bool:
        return self.score is not None


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
    messages: list[StoredMessage] = field(default_factory=list)
    judgments: list[StoredJudgment] = field(default_factory=list)

    def utterances(self) -> list[Utterance]:
        return [Utterance("user" if m.role == "user" else "bot", m.text) for m in self.messages]

    def latest_judgments(self) -> dict[tuple[int, str], StoredJudgment]:
        """The newest version per (turn, metric)."""
        latest: dict[tuple[int, str], StoredJudgment] = {}
        for j in self.judgments:
            key = (j.turn, j.metric)
            if key not in latest or j.version > latest[key].version:
                latest[key] = j
        return latest


_JSON_FIELDS = {"scenario", "persona", "config", "metrics", "passages", "details", "prompt"}


def _decode(row: dict[str, Any]) -> dict[str, Any]:
    out = dict(row)
    for key in _JSON_FIELDS & set(out):
        out[key] = json.loads(out[key]) if out[key] is not None else None
    if "passages" in out:
        out["passages"] = [Passage(**p) for p in (out["passages"] or [])]
    return out


class Store:
    def __init__(self, db: sqlite_utils.Database, path: Path | None) -> None:
        self.db = db
        self.path = path

    @classmethod
    def open(cls, path: Path | str) -> Store:
        """Open (creating or upgrading) the database; errors name the file and what to do."""
        path = Path(path)
        memory = str(path) == ":memory:"
        if not memory:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"cannot create database {path}: its folder {path.parent} cannot be made ({exc.strerror})",
                    "choose another --db",
                ) from None
        try:
            conn = sqlite3.connect(str(path), timeout=10)
            version = schema_version(conn)
            if version > LATEST_VERSION:
                conn.close()
                raise StoreError(
                    f"database {path} has schema version {version}, newer than this ragtui understands ({LATEST_VERSION})",
                    "upgrade ragtui, or use another --db; the file was not changed",
                )
            conn.execute("PRAGMA foreign_keys = ON")
            conn.execute("PRAGMA busy_timeout = 10000")
            if not memory:
                # WAL lets the TUI read a database that a `ragtui run` is writing.
                conn.execute("PRAGMA journal_mode = WAL")
                conn.execute("PRAGMA synchronous = NORMAL")
            migrate(conn)
        except sqlite3.DatabaseError as exc:
            raise StoreError(
                f"cannot use database {path}: {exc}", "check the path and its permissions, or choose another --db"
            ) from None
        return cls(sqlite_utils.Database(conn), None if memory else path)

    def close(self) -> None:
        self.db.close()

    # -- writing ---------------------------------------------------------------------------

    def _write(self, action: str, fn: Any) -> Any:
        try:
            return fn()
        except sqlite3.Error as exc:
            raise StoreError(
                f"cannot {action} in database {self.path}: {exc}", "check free disk space and permissions"
            ) from None

    def create_session(
        self,
        *,
        scenario: dict[str, Any],
        persona: dict[str, Any],
        config: dict[str, Any],
        language: str,
        max_turns: int,
        threshold: float,
        metrics: list[str],
        run_id: str | None = None,
    ) -> int:
        stamp = now()
        row = {
            "run_id": run_id,
            "created_at": stamp,
            "updated_at": stamp,
            "language": language,
            "scenario_id": scenario["id"],
            "question": scenario["question"],
            "scenario": json.dumps(scenario, ensure_ascii=False),
            "persona_name": persona["name"],
            "persona": json.dumps(persona, ensure_ascii=False),
            "config": json.dumps(config, ensure_ascii=False),
            "max_turns": max_turns,
            "threshold": threshold,
            "metrics": json.dumps(metrics),
            "status": "running",
        }
        return self._write("create a session", lambda: self.db["sessions"].insert(row).last_pk)

    def add_message(
        self,
        session_id: int,
        turn: int,
        role: str,
        source: str,
        text: str,
        *,
        passages: list[Passage] | None = None,
        model: str | None = None,
        prompt_tokens: int | None = None,
        completion_tokens: int | None = None,
        latency_ms: float | None = None,
    ) -> int:
        row = {
            "session_id": session_id,
            "turn": turn,
            "role": role,
            "source": source,
            "text": text,
            "passages": None if passages is None else json.dumps([p.to_dict() for p in passages], ensure_ascii=False),
            "model": model,
            "prompt_tokens": prompt_tokens,
            "completion_tokens": completion_tokens,
            "latency_ms": latency_ms,
            "created_at": now(),
        }

        def insert() -> int:
            with self.db.atomic():
                pk = self.db["messages"].insert(row).last_pk
                self.db.execute(
                    "UPDATE sessions SET updated_at = ?, turns = MAX(turns, ?) WHERE id = ?", [now(), turn, session_id]
                )
            return pk

        return self._write("record a message", insert)

    def add_judgment(self, session_id: int, message_id: int, turn: int, judgment: Judgment) -> StoredJudgment:
        def insert() -> int:
            with self.db.atomic():
                version = self.db.execute(
                    "SELECT COALESCE(MAX(version), 0) + 1 FROM judgments WHERE message_id = ? AND metric = ?",
                    [message_id, judgment.metric],
                ).fetchone()[0]
                row = {
                    "session_id": session_id,
                    "message_id": message_id,
                    "turn": turn,
                    "metric": judgment.metric,
                    "version": version,
                    "score": judgment.score,
                    "details": json.dumps(judgment.details, ensure_ascii=False),
                    "prompt": json.dumps(judgment.prompt, ensure_ascii=False),
                    "raw_reply": judgment.raw_reply,
                    "model": judgment.model,
                    "error": judgment.error,
                    "attempts": judgment.attempts,
                    "latency_ms": judgment.latency_ms,
                    "prompt_tokens": judgment.prompt_tokens,
                    "completion_tokens": judgment.completion_tokens,
                    "created_at": now(),
                }
                return self.db["judgments"].insert(row).last_pk

        pk = self._write("record a judgment", insert)
        return self.judgment(pk)

    def refresh_score(self, session_id: int, metric: str) -> tuple[float | None, int]:
        """Recompute the dialogue score (mean of the latest scored ``metric`` per turn)."""
        # Runs after every judged turn, so it reads only the scores, not the whole session.
        latest = [
            row[0]
            for row in self.db.execute(
                "SELECT j.score FROM judgments j WHERE j.session_id = ? AND j.metric = ? AND j.version = "
                "(SELECT MAX(version) FROM judgments k WHERE k.session_id = j.session_id "
                "AND k.turn = j.turn AND k.metric = j.metric)",
                [session_id, metric],
            ).fetchall()
        ]
        scores = [value for value in latest if value is not None]
        score = sum(scores) / len(scores) if scores else None
        unscored = len(latest) - len(scores)
        self._write(
            "update the session score",
            lambda: self.db["sessions"].update(
                session_id, {"score": score, "unscored_turns": unscored, "updated_at": now()}
            ),
        )
        return score, unscored

    def set_status(
        self, session_id: int, status: str, stop_reason: str | None = None, error: str | None = None
    ) -> None:
        self._write(
            "update the session",
            lambda: self.db["sessions"].update(
                session_id, {"status": status, "stop_reason": stop_reason, "error": error, "updated_at": now()}
            ),
        )

    def delete_session(self, session_id: int) -> None:
        self.session(session_id)  # raises when unknown
        self._write("delete the session", lambda: self.db["sessions"].delete(session_id))

    # -- reading ---------------------------------------------------------------------------

    def sessions(self, limit: int | None = None, run_id: str | None = None) -> list[StoredSession]:
        where = "run_id = ?" if run_id else None
        rows = self.db["sessions"].rows_where(where, [run_id] if run_id else None, order_by="id desc", limit=limit)
        return [StoredSession(**_decode(row)) for row in rows]

    def session(self, session_id: int) -> StoredSession:
        """One session with its messages and every judgment version."""
        rows = list(self.db["sessions"].rows_where("id = ?", [session_id]))
        if not rows:
            raise StoreError(f"no session {session_id} in database {self.path}", "list them with `ragtui sessions`")
        session = StoredSession(**_decode(rows[0]))
        session.messages = [
            StoredMessage(**_decode(r))
            for r in self.db["messages"].rows_where("session_id = ?", [session_id], order_by="id")
        ]
        session.judgments = [
            StoredJudgment(**{k: v for k, v in _decode(r).items() if k not in ("prompt_tokens", "completion_tokens")})
            for r in self.db["judgments"].rows_where("session_id = ?", [session_id], order_by="id")
        ]
        return session

    def judgment(self, judgment_id: int) -> StoredJudgment:
        row = next(iter(self.db["judgments"].rows_where("id = ?", [judgment_id])))
        return StoredJudgment(
            **{k: v for k, v in _decode(row).items() if k not in ("prompt_tokens", "completion_tokens")}
        )

    def latest_run_id(self) -> str | None:
        row = self.db.execute(
            "SELECT run_id FROM sessions WHERE run_id IS NOT NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return row[0] if row else None
