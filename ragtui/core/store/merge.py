"""``ragtui merge SRC.db … --db DEST``: bring the runs of other ragtui databases into one.

CI shards, a baseline artifact, a colleague's file: every session of each source is copied with
its messages, every verdict version, partial replies, labels, dialogue verdicts, lineage, and its
run's plan and shards, under fresh ids. Each copied session gets a ``merged_sessions`` row naming
where it came from: the database it was first recorded in (its ``meta.database_id``, which a copy
of the file keeps) and its id there, the file it was copied from, and a fingerprint of the
session (run, start, pair, trial), so a diverged copy of a database (new runs in each copy) is
never mistaken for the same session. A session whose origin is already here is skipped, so
merging the same source twice — from any path, directly or through another merged database —
adds nothing.

All sources are merged in one write transaction: any error (a newer schema, a file that is not
a ragtui database, two shards that hold the same planned dialogue) leaves DEST as it was.

Every table of the schema is either copied here (``MERGED``) or listed with the reason it is not
(``NOT_MERGED``); a source with a table in neither is refused, and a test holds the lists to the
schema, so a table added later is never silently left behind.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..types.errors import RagtuiError, StoreError
from .rows import now
from .store import Store

# Table → its columns that hold the id of a row of another merged table (and which table): these
# are rewritten to the fresh ids; every other column is copied as it is.
MERGED: dict[str, dict[str, str]] = {
    "sessions": {"parent_session_id": "sessions", "replay_of": "sessions"},
    "messages": {"session_id": "sessions"},
    "judgments": {"session_id": "sessions", "message_id": "messages"},
    "partial_replies": {"session_id": "sessions"},
    "dialogue_judgments": {"session_id": "sessions"},
    "labels": {"session_id": "sessions", "message_id": "messages", "judgment_id": "judgments"},
    "run_plan": {"session_id": "sessions"},
    "run_shards": {},
    "imports": {},
    "imported_sessions": {"session_id": "sessions", "import_id": "imports"},
    "imported_messages": {"session_id": "sessions", "message_id": "messages"},
}
NOT_MERGED: dict[str, str] = {
    "calibration_runs": "a judge's agreement with a labelled file: about the judge on that machine, not a run",
    "calibration_items": "the items of a calibration run (not merged, see calibration_runs)",
    "judge_fits": "a fit changes how this database's judge scores; copying one would change DEST's runs",
    "judge_card_entries": "a judge's measured agreement, about the judge on that machine (see calibration_runs)",
    "rejudge_jobs": "bookkeeping of a re-judging job in the source; the verdict versions it made are merged",
    "rejudge_requests": "the requests of a re-judging job (not merged, see rejudge_jobs)",
    "meta": "the database's own identity",
    "merged_sessions": "DEST records its own provenance; a source's is read to find each session's origin",
    "sqlite_sequence": "SQLite's own counter of AUTOINCREMENT ids",
}
# Children of a session, copied after it in this order (a row's references come before it).
_CHILDREN = (
    "messages",
    "judgments",
    "partial_replies",
    "dialogue_judgments",
    "labels",
    "imported_sessions",
    "imported_messages",
)


@dataclass
class SourceResult:
    path: Path
    added: int = 0  # sessions copied
    skipped: int = 0  # sessions already in DEST
    runs: list[str] = field(default_factory=list)  # the runs of the sessions added


def database_id(conn: sqlite3.Connection) -> str:
    return str(conn.execute("SELECT value FROM meta WHERE key = 'database_id'").fetchone()[0])


def fingerprint(row: dict[str, Any]) -> str:
    """What a session is, beyond its id: two diverged copies of a file reuse ids, never this."""
    keys = ("run_id", "created_at", "scenario_id", "persona_name", "trial", "question")
    text = json.dumps([row.get(k) for k in keys], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def open_sources(paths: list[Path], dest: Path) -> list[Store]:
    """Each source opened to read, before DEST is touched; one StoreError naming the file when it
    is missing, not a ragtui database, from a newer ragtui, or DEST itself."""
    stores: list[Store] = []
    try:
        for path in paths:
            if path.exists() and dest.exists() and path.resolve() == dest.resolve():
                raise RagtuiError(f"merge source {path} is the destination database itself", "name another file")
            try:
                stores.append(Store.open_read_only(path))
            except StoreError as exc:
                raise StoreError(f"cannot merge {path}: {exc.message}", exc.hint) from None
    except BaseException:
        for store in stores:
            store.close()
        raise
    return stores


def check_destination(path: Path) -> None:
    """DEST is a ragtui database or does not exist yet: ragtui's tables are never added to another
    program's SQLite file."""
    if not path.is_file():
        return
    try:
        conn = sqlite3.connect(f"file:{path.resolve()}?mode=ro", uri=True)
        try:
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            tables = conn.execute("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        raise StoreError(f"cannot merge into {path}: {exc}", "give --db a ragtui database or a new file") from None
    if version == 0 and tables:
        raise StoreError(
            f"cannot merge into {path}: it is a SQLite file but not a ragtui database",
            "give --db a ragtui database or a new file; nothing was changed",
        )


def check_tables(conn: sqlite3.Connection, path: Path) -> None:
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    unknown = sorted(tables - set(MERGED) - set(NOT_MERGED))
    if unknown:
        raise RagtuiError(
            f"cannot merge {path}: table(s) {', '.join(unknown)} unknown to the merge", "nothing was changed"
        )


def merge(dest: Store, sources: list[tuple[Path, Store]]) -> list[SourceResult]:
    """Copy every session of each source into ``dest`` in one transaction; what each added."""
    results: list[SourceResult] = []

    def run() -> list[SourceResult]:
        results.clear()  # the transaction may be retried while the file is locked
        for path, source in sources:
            results.append(_merge_one(dest._db.conn, source._db.conn, path))
        return list(results)

    return dest.write("merge the databases", run)


class _Copier:
    """One source into DEST: old id → new id per table, so references follow the rows."""

    def __init__(self, dest: sqlite3.Connection, source: sqlite3.Connection) -> None:
        self.dest, self.source = dest, source
        self.ids: dict[str, dict[int, int]] = {table: {} for table in MERGED}
        self.columns = {table: [r[1] for r in dest.execute(f"PRAGMA table_info({table})")] for table in MERGED}

    def rows(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        cursor = self.source.execute(sql, params)
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, values, strict=True)) for values in cursor.fetchall()]

    def insert(self, table: str, row: dict[str, Any], missing: Callable[[int], int | None] | None = None) -> int:
        """Copy one row under a fresh id, its references rewritten (None when the row referred to
        is not in DEST: a fork's parent that was not merged loses the link, not the session)."""
        values = {c: row[c] for c in self.columns[table] if c != "id" and c in row}
        for column, target in MERGED[table].items():
            old = values.get(column)
            if old is not None:
                new = self.ids[target].get(old)
                values[column] = missing(old) if new is None and missing is not None else new
        columns = ", ".join(values)
        marks = ", ".join("?" * len(values))
        cursor = self.dest.execute(f"INSERT INTO {table} ({columns}) VALUES ({marks})", list(values.values()))
        new = int(cursor.lastrowid or 0)
        if "id" in row:
            self.ids[table][row["id"]] = new
        return new


def _merge_one(dest: sqlite3.Connection, source: sqlite3.Connection, path: Path) -> SourceResult:
    check_tables(source, path)
    here, there = database_id(dest), database_id(source)
    copier = _Copier(dest, source)
    origins = {
        int(r[0]): (str(r[1]), int(r[2]))
        for r in source.execute("SELECT session_id, origin_database, origin_session_id FROM merged_sessions")
    }
    result = SourceResult(path)
    added: set[int] = set()
    stamp = now()
    for row in copier.rows("SELECT * FROM sessions ORDER BY id", []):
        origin_db, origin_id = origins.get(row["id"], (there, row["id"]))
        mark = fingerprint(row)
        existing = _already_here(dest, here, origin_db, origin_id, mark)
        if existing is not None:
            copier.ids["sessions"][row["id"]] = existing
            result.skipped += 1
            continue
        new = copier.insert("sessions", row, lambda old: _session_by_origin(dest, here, there, origins, old))
        added.add(new)
        dest.execute(
            "INSERT INTO merged_sessions (session_id, origin_database, origin_session_id, fingerprint, "
            "source_database, source_session_id, source_path, merged_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [new, origin_db, origin_id, mark, there, row["id"], str(path), stamp],
        )
        result.added += 1
        if row["run_id"] and row["run_id"] not in result.runs:
            result.runs.append(row["run_id"])
    copied = [old for old, new in copier.ids["sessions"].items() if new in added]
    _merge_imports(copier, copied)
    for table in _CHILDREN:
        for chunk in _chunks(copied):
            marks = ", ".join("?" * len(chunk))
            for child in copier.rows(f"SELECT * FROM {table} WHERE session_id IN ({marks}) ORDER BY id", chunk):
                copier.insert(table, child)
    _merge_plan(copier, path, added)
    _merge_shards(copier, path)
    return result


def _already_here(dest: sqlite3.Connection, here: str, origin_db: str, origin_id: int, mark: str) -> int | None:
    """DEST's session for this origin: one recorded here, or one merged in before."""
    if origin_db == here:
        cursor = dest.execute("SELECT * FROM sessions WHERE id = ?", [origin_id])
        row = cursor.fetchone()
        names = [d[0] for d in cursor.description]
        if row is not None and fingerprint(dict(zip(names, row, strict=True))) == mark:
            return origin_id
    row = dest.execute(
        "SELECT session_id FROM merged_sessions WHERE origin_database = ? AND origin_session_id = ? AND fingerprint = ?",
        [origin_db, origin_id, mark],
    ).fetchone()
    return int(row[0]) if row else None


def _session_by_origin(
    dest: sqlite3.Connection, here: str, there: str, origins: dict[int, tuple[str, int]], old: int
) -> int | None:
    """A lineage link to a session of the source merged into DEST earlier (or native here)."""
    origin_db, origin_id = origins.get(old, (there, old))
    if origin_db == here:
        return origin_id if dest.execute("SELECT 1 FROM sessions WHERE id = ?", [origin_id]).fetchone() else None
    row = dest.execute(
        "SELECT session_id FROM merged_sessions WHERE origin_database = ? AND origin_session_id = ? "
        "ORDER BY id LIMIT 1",
        [origin_db, origin_id],
    ).fetchone()
    return int(row[0]) if row else None


def _merge_plan(copier: _Copier, path: Path, added: set[int]) -> None:
    """The source's plan entries: new ones copied; one DEST has without a session gets the merged
    session; one whose dialogue DEST already ran in another session means the shards overlap."""
    dest = copier.dest
    for entry in copier.rows("SELECT * FROM run_plan ORDER BY run_id, position", []):
        session = copier.ids["sessions"].get(entry["session_id"]) if entry["session_id"] is not None else None
        key = [entry["run_id"], entry["scenario_id"], entry["persona_name"], entry["trial"]]
        mine = dest.execute(
            "SELECT id, session_id, position FROM run_plan WHERE run_id = ? AND scenario_id = ? AND persona_name = ? "
            "AND trial = ?",
            key,
        ).fetchone()
        label = f"{entry['scenario_id']} × {entry['persona_name']} trial {entry['trial']} of run {entry['run_id']}"
        if mine is None:
            taken = dest.execute(
                "SELECT scenario_id, persona_name, trial FROM run_plan WHERE run_id = ? AND position = ?",
                [entry["run_id"], entry["position"]],
            ).fetchone()
            if taken is not None:
                raise RagtuiError(
                    f"cannot merge {path}: run {entry['run_id']} was planned differently there "
                    f"(dialogue {entry['position'] + 1} is {label.split(' of run')[0]} there, "
                    f"{taken[0]} × {taken[1]} trial {taken[2]} here)",
                    "merge shards of one command line only; nothing was changed",
                )
            copier.insert("run_plan", {**entry, "persona": _planned_persona(copier, entry, session)})
        elif session is not None and mine[1] is None:
            # The merged session holds the persona now: the entry's copy goes (stored once).
            dest.execute("UPDATE run_plan SET session_id = ?, persona = NULL WHERE id = ?", [session, mine[0]])
        elif session is not None and mine[1] != session and session in added:
            raise RagtuiError(
                f"cannot merge {path}: it ran {label}, which the destination already holds (session {mine[1]}): "
                "the shards overlap",
                "merge each shard I/N of a run once; nothing was changed",
            )


def _planned_persona(copier: _Copier, entry: dict[str, Any], session: int | None) -> str | None:
    """The persona a copied plan entry stores: none when its session was copied with it (that
    holds it), else the entry's own, or its source session's when the source had cleared it."""
    if session is not None:
        return None
    if entry["persona"] is not None or entry["session_id"] is None:
        return entry["persona"]
    row = copier.source.execute("SELECT persona FROM sessions WHERE id = ?", [entry["session_id"]]).fetchone()
    return row[0] if row else None


def _merge_imports(copier: _Copier, copied: list[int]) -> None:
    """The ``imports`` rows (imported files) the copied imported sessions belong to, before those
    sessions' ``imported_sessions`` rows that refer to them."""
    wanted: set[int] = set()
    for chunk in _chunks(copied):
        marks = ", ".join("?" * len(chunk))
        rows = copier.source.execute(
            f"SELECT DISTINCT import_id FROM imported_sessions WHERE session_id IN ({marks})", chunk
        )
        wanted.update(int(r[0]) for r in rows)
    for row in copier.rows("SELECT * FROM imports ORDER BY id", []):
        if row["id"] in wanted:
            copier.insert("imports", row)


def _merge_shards(copier: _Copier, path: Path) -> None:
    dest = copier.dest
    for shard in copier.rows("SELECT * FROM run_shards ORDER BY run_id, shard", []):
        split = dest.execute(
            "SELECT DISTINCT shards, planned FROM run_shards WHERE run_id = ?", [shard["run_id"]]
        ).fetchall()
        if split and {(shard["shards"], shard["planned"])} != set(split):
            raise RagtuiError(
                f"cannot merge {path}: run {shard['run_id']} is split into {shard['shards']} shards of a "
                f"{shard['planned']}-dialogue plan there, not as in the destination ({split[0][0]} of {split[0][1]})",
                "merge shards of one command line only; nothing was changed",
            )
        known = dest.execute(
            "SELECT 1 FROM run_shards WHERE run_id = ? AND shard = ?", [shard["run_id"], shard["shard"]]
        ).fetchone()
        if known is None:
            copier.insert("run_shards", shard)


def _chunks(ids: list[int], size: int = 500) -> list[list[int]]:
    """SQLite limits the parameters of one statement."""
    return [ids[i : i + size] for i in range(0, len(ids), size)]
