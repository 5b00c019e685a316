"""The database schema and its migrations, keyed by ``PRAGMA user_version``.

Migration N takes a database at version N-1 to version N. A new database runs them all; an
older one runs the missing ones in one transaction; a newer one is refused untouched, since
this ragtui cannot know what it would break.
"""

from __future__ import annotations

import sqlite3

MIGRATIONS: list[str] = [
    # 1: sessions, messages, judgments.
    """
    CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        run_id TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        language TEXT NOT NULL,
        scenario_id TEXT NOT NULL,
        question TEXT NOT NULL,
        scenario TEXT NOT NULL,          -- JSON: the scenario as it was
        persona_name TEXT NOT NULL,
        persona TEXT NOT NULL,           -- JSON: the persona as it was when the dialogue started
        config TEXT NOT NULL,            -- JSON: roles, models, limits; never a key
        max_turns INTEGER NOT NULL,
        threshold REAL NOT NULL,
        metrics TEXT NOT NULL,           -- JSON list
        status TEXT NOT NULL,            -- running | finished
        stop_reason TEXT,                -- done | max_turns | error | cancelled
        score REAL,                      -- mean of scored turns; NULL when none is scored
        turns INTEGER NOT NULL DEFAULT 0,
        unscored_turns INTEGER NOT NULL DEFAULT 0,
        error TEXT
    );
    CREATE TABLE messages (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        turn INTEGER NOT NULL,
        role TEXT NOT NULL,              -- user | bot
        source TEXT NOT NULL,            -- scenario | simulator | operator | bot
        text TEXT NOT NULL,
        passages TEXT,                   -- JSON list, bot messages only
        model TEXT,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        latency_ms REAL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX messages_by_session ON messages(session_id, turn);
    CREATE TABLE judgments (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        turn INTEGER NOT NULL,
        metric TEXT NOT NULL,
        version INTEGER NOT NULL,        -- 1, 2, … per (message, metric): re-judging adds one
        score REAL,                      -- 0–1; NULL when unscored
        details TEXT,                    -- JSON: criteria scores, comment, steps
        prompt TEXT NOT NULL,            -- JSON: the exact messages sent
        raw_reply TEXT NOT NULL,
        model TEXT,
        error TEXT,                      -- why it is unscored
        attempts INTEGER NOT NULL,
        latency_ms REAL,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        created_at TEXT NOT NULL,
        UNIQUE (message_id, metric, version)
    );
    CREATE INDEX judgments_by_session ON judgments(session_id, turn);
    """,
    # 2: calibration runs of a metric against a labelled file (``ragtui calibrate``), one row per
    # judged item so an interrupted run resumes where it stopped.
    """
    CREATE TABLE calibration_runs (
        id INTEGER PRIMARY KEY,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        metric TEXT NOT NULL,
        data_path TEXT NOT NULL,
        fingerprint TEXT NOT NULL,       -- metric, data, fields, labels, model, prompts: resume only on a match
        model TEXT,
        settings TEXT NOT NULL,          -- JSON: fields, label_max, temperature, judge endpoint (no key)
        status TEXT NOT NULL             -- running | finished
    );
    CREATE INDEX calibration_runs_by_fingerprint ON calibration_runs(fingerprint);
    CREATE TABLE calibration_items (
        id INTEGER PRIMARY KEY,
        run_id INTEGER NOT NULL REFERENCES calibration_runs(id) ON DELETE CASCADE,
        item_key TEXT NOT NULL,          -- the item's id, or "line N"
        line INTEGER NOT NULL,
        label REAL NOT NULL,             -- normalised to 0–1
        score REAL,                      -- NULL when unscored or skipped
        skipped INTEGER NOT NULL DEFAULT 0,
        error TEXT,
        conclusion TEXT,
        judgment TEXT NOT NULL,          -- JSON: details (every step), prompt, raw reply, model, attempts
        elapsed_ms REAL NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (run_id, item_key)
    );
    """,
]

LATEST_VERSION = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Bring ``conn`` to LATEST_VERSION; return the version it had. Caller checks newer ones."""
    current = schema_version(conn)
    if current >= LATEST_VERSION:
        return current
    # executescript commits first; BEGIN IMMEDIATE makes the whole upgrade one transaction.
    script = "BEGIN IMMEDIATE;\n"
    for version in range(current + 1, LATEST_VERSION + 1):
        script += MIGRATIONS[version - 1] + f"\nPRAGMA user_version = {version};\n"
    try:
        conn.executescript(script + "COMMIT;")
    except sqlite3.Error:
        conn.rollback()
        raise
    return current
