"""SQLite persistence (sqlite-utils): sessions, messages and versioned judgments.

Every finished message and judgment is committed on its own as it completes, so a crash or a
kill loses at most what was being streamed. Judgments are never overwritten: re-judging a turn
adds version N+1 beside the earlier ones.

Every write goes through ``write`` (one ``BEGIN IMMEDIATE`` transaction, see locking.py), so
several processes can share one file, and so a test can fail the process right after any
commit (``after_write``) to prove a session resumes correctly from each of them.
"""

from __future__ import annotations

import json
import os
import sqlite3
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from ..text.number_text import tenths_text
from ..text.text_safety import fix_surrogates
from ..types.calls import CallUsage
from ..types.errors import StoreError, StoreWriteError
from ..types.judge_key import AgreementLookup
from ..types.passages import Passage
from ..types.personas import Persona
from ..types.stored import (
    TURN_VERDICTS,
    PartialReply,
    StoredDialogueJudgment,
    StoredJudgment,
    StoredMessage,
    StoredSession,
)
from . import dialogue_verdicts, run_plan
from .changes import DataVersion
from .locking import BUSY_TIMEOUT_S, in_write_transaction, is_busy, lock_holders, retry_while_busy
from .ownership import this_process
from .rows import (
    SessionBusy,
    decode_row,
    insert_row,
    judgment_columns,
    judgment_from_row,
    now,
    persona_json,
    session_from_row,
)
from .schema import LATEST_VERSION, migrate, schema_version

if TYPE_CHECKING:  # the metrics package pulls in the LLM client: not needed to read a session
    import sqlite_utils

    from ..types.judgments import Judgment


def _known_version(conn: sqlite3.Connection, path: Path) -> int:
    """The file's schema version; a StoreError (the connection closed) when a newer ragtui made it."""
    version = schema_version(conn)
    if version > LATEST_VERSION:
        conn.close()
        raise StoreError(
            f"database {path} has schema version {version}, newer than this ragtui understands ({LATEST_VERSION})",
            "upgrade ragtui, or use another --db; the file was not changed",
        )
    return version


class EmptyDatabaseError(StoreError):
    """The file is a SQLite database with no table at all: a reader has nothing to read, and a
    writer may create ragtui's tables in it."""


class Store:
    def __init__(self, db: sqlite_utils.Database | sqlite3.Connection, path: Path | None) -> None:
        self._handle = db  # the connection, until the sqlite-utils view is first asked for
        self.path = path
        self.after_write: Any = None
        """Called with the action after each commit; tests fail the process there."""
        self.agreement_lookup: AgreementLookup | None = None
        """Set by whoever knows the judge card and the floor (``judge_quality.card_lookup``): each
        verdict read then shows the card's agreement for its judge now, not as judged."""

    @property
    def _db(self) -> sqlite_utils.Database:
        """The sqlite-utils view of the connection, made on first use: importing sqlite-utils
        (click, dateutil, pluggy) is slow, and opening the file must not wait for it. Private to
        ``ragtui/core/store``: every query of the database is a method here or a function there
        that takes the store (tests/architecture/test_one_door_to_the_store.py)."""
        if isinstance(self._handle, sqlite3.Connection):
            import sqlite_utils

            self._handle = sqlite_utils.Database(self._handle)
        return self._handle

    @property
    def _conn(self) -> sqlite3.Connection:
        """The connection itself, without making the sqlite-utils view (its import is slow, and
        watching for commits needs no more than the connection)."""
        return self._handle if isinstance(self._handle, sqlite3.Connection) else self._handle.conn

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
            conn = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, isolation_level=None)
            _known_version(conn, path)
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
            conn.execute("PRAGMA foreign_keys = OFF")  # table rebuilds in migrations need it off
            # Processes opening a fresh file at once race to set WAL mode and to migrate; the
            # loser of such a race can be told "locked" without SQLite's wait, so retry it.
            retry_while_busy(lambda: _prepare(conn, memory=memory))
            conn.execute("PRAGMA foreign_keys = ON")
        except sqlite3.DatabaseError as exc:
            raise _store_error(f"cannot use database {path}", exc, None if memory else path) from None
        return cls(conn, None if memory else path)

    @classmethod
    def open_read_only(cls, path: Path | str) -> Store:
        """Open an existing database only to read it: nothing is created, migrated or written,
        so a typo in ``--db`` is an error rather than a new empty file, and a database in a
        read-only folder can still be listed, shown and exported."""
        path = Path(path)
        if not path.is_file():
            raise StoreError(
                f"no ragtui database at {path}", "check --db (or the config's database); `ragtui run` creates one"
            )
        try:
            conn = _connect_read_only(path)
            version = _known_version(conn, path)
            if version == 0:
                empty = conn.execute("SELECT count(*) FROM sqlite_master").fetchone()[0] == 0
                conn.close()
                if empty:
                    # A process stopped while creating the file leaves it with no table at all:
                    # nothing was recorded, and the next command that writes creates the tables.
                    raise EmptyDatabaseError(
                        f"no ragtui database at {path}: the file is an empty SQLite database (nothing recorded yet)",
                        "`ragtui run` or `ragtui import` fills it",
                    )
                raise StoreError(f"no ragtui database at {path}: the file holds no ragtui tables", "check --db")
            conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        except sqlite3.DatabaseError as exc:
            raise _store_error(f"cannot read database {path}", exc, path) from None
        if version < LATEST_VERSION:
            # An older file is read through this ragtui's queries only once upgraded.
            conn.close()
            try:
                return cls.open(path)
            except StoreError:
                raise StoreError(
                    f"database {path} has schema version {version}, older than this ragtui's ({LATEST_VERSION}), "
                    "and cannot be upgraded here",
                    "open it once with write access (any `ragtui run`), or use the ragtui that wrote it",
                ) from None
        return cls(conn, path)

    def close(self) -> None:
        self._handle.close()  # a sqlite_utils.Database or the connection: both close the file

    # -- watching --------------------------------------------------------------------------

    def changes(self) -> DataVersion:
        """A watch on commits by other connections (``changes.DataVersion``), from now on."""
        return DataVersion(self._conn)

    def database_state(self) -> tuple[int, int]:
        """(SQLite's data version, this connection's change count): differs after any commit by
        this or another connection, so a cache of what was read can tell it is stale."""
        conn = self._conn
        return int(conn.execute("PRAGMA data_version").fetchone()[0]), conn.total_changes

    # -- writing ---------------------------------------------------------------------------

    def write(self, action: str, fn: Any) -> Any:
        """Run ``fn`` as one write transaction; every change to the database goes through here."""
        try:
            result = in_write_transaction(self._db.conn, fn)
        except sqlite3.Error as exc:
            error = _store_error(f"cannot {action} in database {self.path}", exc, self.path)
            raise StoreWriteError(error.message, error.hint) from None
        if self.after_write is not None:
            self.after_write(action)
        return result

    def create_session(
        self,
        *,
        scenario: dict[str, Any],
        persona: Persona,
        config: dict[str, Any],
        language: str,
        max_turns: int,
        threshold: float,
        metrics: list[str],
        run_id: str | None = None,
        parent_session_id: int | None = None,
        fork_turn: int | None = None,
        replay_of: int | None = None,
        plan_entry: int | None = None,
        trial: int = 1,
    ) -> int:
        """A new running session owned by this process; with ``plan_entry``, linked to that entry
        of its run's plan in the same transaction (``run_plan.PlanTaken`` if it has a session),
        which also gives it the entry's trial. ``trial``: which trial of its pair it is otherwise
        (a replay keeps its recording's)."""
        stamp = now()
        row = {
            "run_id": run_id,
            "created_at": stamp,
            "updated_at": stamp,
            "language": language,
            "scenario_id": scenario["id"],
            "question": scenario["question"],
            "scenario": json.dumps(scenario, ensure_ascii=False),
            "persona_name": persona.name,
            "persona": persona_json(persona),
            "config": json.dumps(config, ensure_ascii=False),
            "max_turns": max_turns,
            "threshold": threshold,
            "metrics": json.dumps(metrics),
            "status": "running",
            "trial": trial,
            **_owner_columns(),
        }
        lineage = {"parent_session_id": parent_session_id, "fork_turn": fork_turn, "replay_of": replay_of}
        row.update({k: v for k, v in lineage.items() if v is not None})

        def insert() -> int:
            session_id = insert_row(self._db.conn, "sessions", row)
            if plan_entry is not None:
                run_plan.link_session(self, plan_entry, session_id)
            return session_id

        return self.write("create a session", insert)

    def add_message(
        self,
        session_id: int,
        turn: int,
        role: str,
        source: str,
        text: str,
        *,
        passages: list[Passage] | None = None,
        usage: CallUsage | None = None,
        sim_check: dict[str, Any] | None = None,
    ) -> int:
        """Record one complete message; ``usage`` is the call that made it (None: typed by a person,
        or the scenario's opening question)."""
        usage = usage or CallUsage(model="")
        row = {
            "session_id": session_id,
            "turn": turn,
            "role": role,
            "source": source,
            "text": fix_surrogates(text),
            "passages": None if passages is None else json.dumps([p.to_dict() for p in passages], ensure_ascii=False),
            "model": usage.model or None,
            "served_model": usage.served_model,
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "cached_tokens": usage.cached_tokens,
            "latency_ms": usage.latency_ms,
            "finish_reason": usage.finish_reason,
            "attempts": usage.attempts,
            "created_at": now(),
            "sim_check": None if sim_check is None else json.dumps(sim_check, ensure_ascii=False),
        }

        def insert() -> int:
            pk = insert_row(self._db.conn, "messages", row)
            stamp = now()
            self._db.conn.execute(
                "UPDATE sessions SET updated_at = ?, heartbeat_at = ?, turns = MAX(turns, ?) WHERE id = ?",
                [stamp, stamp, turn, session_id],
            )
            return pk

        return self.write("record a message", insert)

    def add_judgment(self, session_id: int, message_id: int, turn: int, judgment: Judgment) -> StoredJudgment:
        pk = self.write("record a judgment", lambda: self._insert_judgment(session_id, message_id, turn, judgment))
        return self.judgment(pk)

    def add_scored_judgment(
        self, session_id: int, message_id: int, turn: int, judgment: Judgment, metric: str
    ) -> tuple[StoredJudgment, float | None]:
        """Store a verdict and refresh the session's ``metric`` score in one transaction (one
        commit for the step); returns the stored verdict and the new dialogue score."""

        def insert() -> tuple[int, float | None]:
            pk = self._insert_judgment(session_id, message_id, turn, judgment)
            return pk, self._refresh_score(session_id, metric)[0]

        pk, score = self.write("record a judgment", insert)
        return self.judgment(pk), score

    def _insert_judgment(self, session_id: int, message_id: int, turn: int, judgment: Judgment) -> int:
        # Inside a write transaction (see write): the version is read under the write lock.
        conn = self._db.conn
        version = conn.execute(
            "SELECT COALESCE(MAX(version), 0) + 1 FROM judgments WHERE message_id = ? AND metric = ?",
            [message_id, judgment.metric],
        ).fetchone()[0]
        row = {
            "session_id": session_id,
            "message_id": message_id,
            "turn": turn,
            "version": version,
            **judgment_columns(judgment),
        }
        return insert_row(conn, "judgments", row)

    def add_dialogue_judgment(self, session_id: int, judgment: Judgment) -> StoredDialogueJudgment:
        """Store a verdict on the whole dialogue as the next version for its metric."""
        return dialogue_verdicts.add(self, session_id, judgment)

    def refresh_score(self, session_id: int, metric: str) -> tuple[float | None, int]:
        """Recompute the dialogue score (mean of the latest scored ``metric`` per turn)."""
        return self.write("update the session score", lambda: self._refresh_score(session_id, metric))

    def _refresh_score(self, session_id: int, metric: str) -> tuple[float | None, int]:
        # Runs after every judged turn, inside its write: it reads only the scores.
        conn = self._db.conn
        latest = [
            row[0]
            for row in conn.execute(
                "SELECT j.score FROM judgments j WHERE j.session_id = ? AND j.metric = ? AND "
                + TURN_VERDICTS.is_newest_sql("j"),
                [session_id, metric],
            ).fetchall()
        ]
        scores = [value for value in latest if value is not None]
        score = sum(scores) / len(scores) if scores else None
        unscored = len(latest) - len(scores)
        conn.execute(
            "UPDATE sessions SET score = ?, unscored_turns = ?, updated_at = ? WHERE id = ?",
            [score, unscored, now(), session_id],
        )
        return score, unscored

    def set_status(
        self, session_id: int, status: str, stop_reason: str | None = None, error: str | None = None
    ) -> None:
        self.write("update the session", lambda: self._set_status(session_id, status, stop_reason, error))

    def _set_status(self, session_id: int, status: str, stop_reason: str | None, error: str | None) -> None:
        self._db.conn.execute(
            "UPDATE sessions SET status = ?, stop_reason = ?, error = ?, updated_at = ? WHERE id = ?",
            [status, stop_reason, error, now(), session_id],
        )

    def finish(
        self, session_id: int, metric: str, stop_reason: str, error: str | None = None
    ) -> tuple[float | None, int]:
        """Refresh the ``metric`` score and close the session, in one transaction: a finished
        session never shows a stale score. Returns (score, unscored turns)."""

        def close() -> tuple[float | None, int]:
            result = self._refresh_score(session_id, metric)
            self._set_status(session_id, "finished", stop_reason, error)
            return result

        return self.write("finish the session", close)

    def add_partial(self, session_id: int, turn: int, role: str, text: str, error: str, attempts: int) -> None:
        """Keep what arrived of a reply whose stream failed for good, apart from the messages."""
        row = {
            "session_id": session_id,
            "turn": turn,
            "role": role,
            "text": fix_surrogates(text),
            "error": fix_surrogates(error),
            "attempts": attempts,
            "created_at": now(),
        }
        self.write("record a partial reply", lambda: insert_row(self._db.conn, "partial_replies", row))

    def claim(self, session_id: int) -> None:
        """Make this process the session's owner, to continue it; refuse when another live
        process runs it (two writers would duplicate turns and verdicts)."""

        def take() -> None:
            rows = list(self._db["sessions"].rows_where("id = ?", [session_id]))
            if not rows:
                raise StoreError(f"no session {session_id} in database {self.path}", "list them with `ragtui sessions`")
            session = session_from_row(rows[0])
            owner = session.owner
            if session.status == "running" and owner is not None and owner != this_process():
                raise SessionBusy(
                    f"session {session_id} is being run by {owner.describe()}",
                    "wait for it to finish, or stop that process first",
                )
            stamp = now()
            self._db.table("sessions").update(
                session_id,
                {"status": "running", "stop_reason": None, "error": None, "updated_at": stamp, **_owner_columns()},
            )

        self.write("take over the session", take)

    def heartbeat(self) -> None:
        """Refresh the heartbeat of every session this process is running."""
        me = this_process()
        self.write(
            "refresh the heartbeat",
            lambda: self._db.execute(
                "UPDATE sessions SET heartbeat_at = ? WHERE status = 'running' AND owner_pid = ? AND owner_host = ?",
                [now(), me.pid, me.host],
            ),
        )

    def set_replay_note(self, session_id: int, note: str) -> None:
        self.write("note the replay", lambda: self._db.table("sessions").update(session_id, {"replay_note": note}))

    def copy_turns(self, source: StoredSession, target_id: int, last_turn: int) -> None:
        """Copy ``source``'s messages and every judgment version of turns 1..``last_turn`` into
        session ``target_id`` (a fork), in one transaction: a fork has all of them or none.
        Rows are copied column for column in SQL, so whatever a message records comes along."""

        def copy() -> None:
            new_ids: dict[int, int] = {}
            for m in source.messages:
                if m.turn > last_turn:
                    continue
                cursor = self._db.execute(
                    "INSERT INTO messages (session_id, turn, role, source, text, passages, model, prompt_tokens, "
                    "completion_tokens, cached_tokens, latency_ms, finish_reason, attempts, created_at) SELECT ?, "
                    "turn, role, source, text, passages, model, prompt_tokens, completion_tokens, cached_tokens, "
                    "latency_ms, finish_reason, attempts, created_at FROM messages WHERE id = ?",
                    [target_id, m.id],
                )
                new_ids[m.id] = int(cursor.lastrowid or 0)
            for j in source.judgments:
                if j.turn > last_turn or j.message_id not in new_ids:
                    continue
                self._db.execute(
                    "INSERT INTO judgments (session_id, message_id, turn, metric, version, score, details, "
                    "prompt, raw_reply, model, error, attempts, latency_ms, prompt_tokens, completion_tokens, "
                    "cached_tokens, created_at) SELECT ?, ?, turn, metric, version, score, details, prompt, "
                    "raw_reply, model, error, attempts, latency_ms, prompt_tokens, completion_tokens, "
                    "cached_tokens, created_at "
                    "FROM judgments WHERE id = ?",
                    [target_id, new_ids[j.message_id], j.id],
                )
            self._db.execute(
                "UPDATE sessions SET turns = ?, updated_at = ? WHERE id = ?",
                [max((m.turn for m in source.messages if m.turn <= last_turn), default=0), now(), target_id],
            )

        self.write("copy the turns of the fork", copy)

    def set_metrics(self, session_id: int, metrics: list[str]) -> None:
        """Replace the session's list of turn metrics (a re-judge names the ones it added)."""
        self.write(
            "note the session's metrics",
            lambda: self._db.conn.execute(
                "UPDATE sessions SET metrics = ? WHERE id = ?", [json.dumps(metrics), session_id]
            ),
        )

    def delete_session(self, session_id: int) -> None:
        self.session(session_id)  # raises when unknown
        self.write("delete the session", lambda: self._db.table("sessions").delete(session_id))

    # -- reading ---------------------------------------------------------------------------

    def sessions(self, limit: int | None = None, run_id: str | None = None) -> list[StoredSession]:
        where = "run_id = ?" if run_id else None
        rows = self._db["sessions"].rows_where(where, [run_id] if run_id else None, order_by="id desc", limit=limit)
        return [session_from_row(row) for row in rows]

    def session(self, session_id: int) -> StoredSession:
        """One session with its messages and every judgment version."""
        rows = list(self._db["sessions"].rows_where("id = ?", [session_id]))
        if not rows:
            raise StoreError(f"no session {session_id} in database {self.path}", "list them with `ragtui sessions`")
        session = session_from_row(rows[0])
        session.partials = [
            PartialReply(**r)
            for r in self._db["partial_replies"].rows_where("session_id = ?", [session_id], order_by="id")
        ]
        session.messages = [
            StoredMessage(**decode_row(r))
            for r in self._db["messages"].rows_where("session_id = ?", [session_id], order_by="id")
        ]
        session.judgments = [
            judgment_from_row(r, self.agreement_lookup)
            for r in self._db["judgments"].rows_where("session_id = ?", [session_id], order_by="id")
        ]
        session.dialogue_judgments = dialogue_verdicts.for_session(self, session_id)
        return session

    def session_status(self, session_id: int) -> str | None:
        """The status a list shows for ``session_id`` — ``interrupted`` for a running one whose
        process is gone, by the same check as ``sessions`` — read from its row alone (no
        messages or verdicts), cheap enough to ask every second; None when there is no such session."""
        rows = list(self._db["sessions"].rows_where("id = ?", [session_id]))
        return session_from_row(rows[0]).status if rows else None

    def run_sessions(self, run_id: str) -> list[StoredSession]:
        """Every session of a run in full, oldest first: like ``session`` for each, but in one
        query per table (a run of hundreds of dialogues is reported the moment it ends)."""
        sessions = list(reversed(self.sessions(run_id=run_id)))
        by_id = {s.id: s for s in sessions}
        if not by_id:
            return []
        where = "session_id IN (SELECT id FROM sessions WHERE run_id = ?)"
        for r in self._db["partial_replies"].rows_where(where, [run_id], order_by="id"):
            by_id[r["session_id"]].partials.append(PartialReply(**r))
        for r in self._db["messages"].rows_where(where, [run_id], order_by="id"):
            by_id[r["session_id"]].messages.append(StoredMessage(**decode_row(r)))
        for r in self._db["judgments"].rows_where(where, [run_id], order_by="id"):
            by_id[r["session_id"]].judgments.append(judgment_from_row(r, self.agreement_lookup))
        for j in dialogue_verdicts.for_run(self, run_id):
            by_id[j.session_id].dialogue_judgments.append(j)
        return sessions

    def latest_judgments_of(self, message_id: int) -> dict[str, StoredJudgment]:
        """The newest judgment per metric of one bot message."""
        rows = self._db["judgments"].rows_where("message_id = ?", [message_id])
        return {j.metric: j for j in TURN_VERDICTS.newest(judgment_from_row(r, self.agreement_lookup) for r in rows)}

    def dialogue_scores(self, session_ids: list[int]) -> dict[int, dict[str, StoredDialogueJudgment]]:
        """session id → dialogue metric → its newest verdict (score, outcome), in one query."""
        return dialogue_verdicts.latest_for_sessions(self, session_ids)

    def judgment(self, judgment_id: int) -> StoredJudgment:
        row = next(iter(self._db["judgments"].rows_where("id = ?", [judgment_id])))
        return judgment_from_row(row, self.agreement_lookup)

    def children(self, session_id: int) -> list[tuple[int, str, int | None]]:
        """Sessions forked from or replaying ``session_id``: (id, "fork" | "replay", fork turn)."""
        rows = self._db.execute(
            "SELECT id, CASE WHEN parent_session_id = ? THEN 'fork' ELSE 'replay' END, fork_turn "
            "FROM sessions WHERE parent_session_id = ? OR replay_of = ? ORDER BY id",
            [session_id, session_id, session_id],
        ).fetchall()
        return [(int(r[0]), str(r[1]), r[2]) for r in rows]

    def run_ids(self) -> list[str]:
        """Every run id, oldest first (run ids sort by their start time; ties by first session)."""
        rows = self._db.execute(
            "SELECT run_id FROM sessions WHERE run_id IS NOT NULL GROUP BY run_id ORDER BY MIN(id)"
        ).fetchall()
        return [r[0] for r in rows]

    def latest_run_id(self) -> str | None:
        """The run of the newest session, or a newer run that was planned but has no session yet
        (its processes were killed before they created any)."""
        row = self._db.execute(
            "SELECT created_at, run_id FROM sessions WHERE run_id IS NOT NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        planned = run_plan.latest_planned_run(self)
        if planned is not None and (
            row is None or planned[0] > row[0] or (planned[0] == row[0] and not self.sessions(1, planned[1]))
        ):
            return planned[1]
        return row[1] if row else None


def preload() -> None:
    """Import what the first query needs (sqlite-utils is slow to import), off the caller's
    thread of choice: the TUI does it while it connects, so the first screen's reads do not wait."""
    import sqlite_utils  # noqa: F401


def _owner_columns() -> dict[str, Any]:
    me = this_process()
    return {"owner_pid": me.pid, "owner_host": me.host, "owner_started": me.started, "heartbeat_at": now()}


def _connect_read_only(path: Path) -> sqlite3.Connection:
    """A read-only connection (``mode=ro``). A WAL database whose ``-wal`` and ``-shm`` files
    are gone (closed cleanly) cannot be opened so in a folder SQLite cannot create them in;
    there it is opened ``immutable``: with no ``-wal`` file and no way to create one, no
    process can be writing it."""
    uri = f"file:{quote(str(path.resolve()))}?mode=ro"
    conn = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    try:
        conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
        return conn
    except sqlite3.OperationalError:
        conn.close()
        wal = path.with_name(path.name + "-wal")
        if wal.exists() or os.access(path.parent, os.W_OK):
            raise
    conn = sqlite3.connect(uri + "&immutable=1", uri=True, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    conn.execute("SELECT COUNT(*) FROM sqlite_master").fetchone()
    return conn


def _prepare(conn: sqlite3.Connection, *, memory: bool) -> None:
    if not memory:
        # WAL lets the TUI read a database that a `ragtui run` is writing.
        conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
    migrate(conn)


def _store_error(what: str, exc: sqlite3.Error, path: Path | None) -> StoreError:
    """One line: what failed, and — for a lock that outlived every wait — how long it waited,
    the SQLite error behind it, and who holds the file."""
    if is_busy(exc):
        holders = lock_holders(path)
        held = f"; open in {', '.join(holders)}" if holders else ""
        waited = getattr(exc, "waited_s", BUSY_TIMEOUT_S)
        code = getattr(exc, "sqlite_errorname", None)
        return StoreError(
            f"{what}: another process kept it locked ({code or 'busy'}, waited {tenths_text(waited)} s){held}",
            "let that process finish or stop it, then try again",
        )
    return StoreError(f"{what}: {exc}", "check the path, free disk space and permissions, or choose another --db")
