"""The database schema and its migrations, keyed by ``PRAGMA user_version``.

Migration N takes a database at version N-1 to version N. A new database runs them all; an
older one runs the missing ones in one transaction; a newer one is refused untouched, since
this ragtui cannot know what it would break.

A migration is SQL, or a function of the connection when the change depends on what the
database holds (rebuilding a table keeps whatever columns it has). Migrations run under an
exclusive lock, and the version is read again once the lock is held: two processes opening a
fresh database at once both succeed, the second finding the work done.
"""

from __future__ import annotations

import re
import sqlite3
import uuid
from collections.abc import Callable

Migration = str | Callable[[sqlite3.Connection], None]

# Tables whose ids name things a user sees or exports: never reuse one after a delete.
_AUTOINCREMENT_TABLES = ("sessions", "messages", "judgments")


def _autoincrement_ids(conn: sqlite3.Connection) -> None:
    """Rebuild the session tables with ``AUTOINCREMENT`` ids, keeping every row and column.

    Without it SQLite hands out max(id)+1, so deleting the newest session gives its id to the
    next one, and an exported ``ragtui-session-2.csv`` may name another dialogue. The table's
    own CREATE statement is reused (only the id column changes), so columns other migrations
    added survive. Foreign keys are off while migrating (see ``Store.open``)."""
    for table in _AUTOINCREMENT_TABLES:
        sql, indexes = _table_sql(conn, table)
        if re.search(r"\bAUTOINCREMENT\b", sql, re.IGNORECASE):
            continue
        rebuilt = re.sub(r"\bid\s+INTEGER\s+PRIMARY\s+KEY\b", "id INTEGER PRIMARY KEY AUTOINCREMENT", sql, count=1)
        rebuilt = re.sub(rf"^\s*CREATE\s+TABLE\s+\"?{table}\"?", f"CREATE TABLE _new_{table}", rebuilt, count=1)
        conn.execute(rebuilt)
        conn.execute(f"INSERT INTO _new_{table} SELECT * FROM {table}")
        conn.execute(f"DROP TABLE {table}")
        conn.execute(f"ALTER TABLE _new_{table} RENAME TO {table}")
        for index_sql in indexes:
            conn.execute(index_sql)


def _table_sql(conn: sqlite3.Connection, table: str) -> tuple[str, list[str]]:
    row = conn.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", [table]).fetchone()
    indexes = conn.execute(
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL", [table]
    ).fetchall()
    return row[0], [r[0] for r in indexes]


def _session_trials(conn: sqlite3.Connection) -> None:
    """Add ``sessions.trial`` (default 1), then give each session linked to a plan entry that
    entry's trial. The column is added only when missing: a database whose version number was
    set back by hand (or by a tool) may have it already."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(sessions)")}
    if "trial" not in columns:
        conn.execute("ALTER TABLE sessions ADD COLUMN trial INTEGER NOT NULL DEFAULT 1")
    conn.execute(
        "UPDATE sessions SET trial = (SELECT p.trial FROM run_plan p WHERE p.session_id = sessions.id) "
        "WHERE id IN (SELECT session_id FROM run_plan WHERE session_id IS NOT NULL)"
    )


def _database_identity(conn: sqlite3.Connection) -> None:
    """A ``meta`` table holding the database's own id (a random uuid, made once: a copy of the
    file keeps it, so merging a copy is merging the same source), and ``merged_sessions``, where
    each session ``ragtui merge`` copied in records where it came from. Idempotent: a database
    whose version was set back by hand may have them already."""
    conn.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    conn.execute("INSERT OR IGNORE INTO meta (key, value) VALUES ('database_id', ?)", [str(uuid.uuid4())])
    conn.execute(
        """
        CREATE TABLE IF NOT EXISTS merged_sessions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            origin_database TEXT NOT NULL,     -- database_id of the file the session was recorded in
            origin_session_id INTEGER NOT NULL,
            fingerprint TEXT NOT NULL,         -- the session's run, start, pair, trial: a diverged copy differs
            source_database TEXT NOT NULL,     -- database_id of the file it was copied from (origin or a merge)
            source_session_id INTEGER NOT NULL,
            source_path TEXT NOT NULL,         -- as given to `ragtui merge`, for people; never an identity
            merged_at TEXT NOT NULL,
            UNIQUE (origin_database, origin_session_id, fingerprint)
        )
        """
    )
    conn.execute("CREATE INDEX IF NOT EXISTS merged_sessions_by_session ON merged_sessions(session_id)")


def _cached_tokens(conn: sqlite3.Connection) -> None:
    """Add ``cached_tokens`` to every table that records a call's tokens, where it is missing
    (a database whose version was set back by hand may have it already)."""
    for table in ("messages", "judgments", "dialogue_judgments"):
        columns = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        if "cached_tokens" not in columns:
            conn.execute(f"ALTER TABLE {table} ADD COLUMN cached_tokens INTEGER")


def _imported_conversations(conn: sqlite3.Connection) -> None:
    """Real conversations brought in by ``ragtui import`` (core/runs/importing.py), stored as the
    sessions of a run of their own:

    - ``sessions.kind``: ``simulated`` (a dialogue ragtui ran: the simulated customer, a replay,
      messages typed in the TUI) or ``imported``; every session of a run has the same;
    - ``imports``: each file imported, with its content hash (the same file again adds nothing),
      format, counts and what redaction replaced;
    - ``imported_sessions``: where each imported session's conversation is in its file;
    - ``imported_messages``: the conversation message by message — speaker, the file's role word,
      line or row, time — and which stored message (and where in its text) each became.

    Idempotent, like the migrations before it."""
    columns = {row[1] for row in conn.execute("PRAGMA table_info(sessions)")}
    if "kind" not in columns:
        conn.execute("ALTER TABLE sessions ADD COLUMN kind TEXT NOT NULL DEFAULT 'simulated'")
    for statement in split_statements(_IMPORT_TABLES):
        conn.execute(statement)


def _persona_once(conn: sqlite3.Connection) -> None:
    """A dialogue's persona stored once: ``run_plan.persona`` may be NULL, and is, once its entry
    has a session (the session holds it; ``run_plan.entries`` reads it from there). The table is
    rebuilt from its own CREATE statement (SQLite cannot drop NOT NULL in place), keeping its
    rows, columns and indexes; then the copies linked entries held are cleared. Idempotent."""
    persona = next(row for row in conn.execute("PRAGMA table_info(run_plan)") if row[1] == "persona")
    if persona[3]:  # notnull
        sql, indexes = _table_sql(conn, "run_plan")
        rebuilt = re.sub(r"\bpersona\s+TEXT\s+NOT\s+NULL\b", "persona TEXT", sql, count=1, flags=re.IGNORECASE)
        rebuilt = re.sub(r"^\s*CREATE\s+TABLE\s+\"?run_plan\"?", "CREATE TABLE _new_run_plan", rebuilt, count=1)
        conn.execute(rebuilt)
        conn.execute("INSERT INTO _new_run_plan SELECT * FROM run_plan")
        conn.execute("DROP TABLE run_plan")
        conn.execute("ALTER TABLE _new_run_plan RENAME TO run_plan")
        for index_sql in indexes:
            conn.execute(index_sql)
    conn.execute(
        "UPDATE run_plan SET persona = NULL WHERE persona IS NOT NULL AND session_id IN (SELECT id FROM sessions)"
    )


_IMPORT_TABLES = """
CREATE TABLE IF NOT EXISTS imports (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id TEXT NOT NULL,
    path TEXT NOT NULL,              -- as given to `ragtui import`, for people
    sha256 TEXT NOT NULL,            -- of the file's bytes: a file imported before is not again
    bytes INTEGER NOT NULL,
    format TEXT NOT NULL,            -- the loader: jsonl | csv | tsv | intercom | a plugin's
    encoding TEXT NOT NULL,
    conversations INTEGER NOT NULL,
    messages INTEGER NOT NULL,       -- non-empty messages read (before they were joined into turns)
    redacted INTEGER NOT NULL,       -- 1: personal data replaced before storing; 0: --no-redact
    redactions TEXT NOT NULL,        -- JSON: kind → occurrences replaced
    created_at TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS imports_by_hash ON imports(sha256);
CREATE INDEX IF NOT EXISTS imports_by_run ON imports(run_id);
CREATE TABLE IF NOT EXISTS imported_sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL UNIQUE REFERENCES sessions(id) ON DELETE CASCADE,
    import_id INTEGER NOT NULL REFERENCES imports(id) ON DELETE CASCADE,
    conversation TEXT NOT NULL,      -- its id in the file (redacted like the text), or "line-N"
    line INTEGER NOT NULL,           -- where it starts: a line (JSONL, JSON) or a row (CSV, TSV; header = 1)
    unit TEXT NOT NULL,              -- line | row
    messages INTEGER NOT NULL,
    started_at TEXT,                 -- its first and last message's time, as the file wrote them
    ended_at TEXT
);
CREATE TABLE IF NOT EXISTS imported_messages (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
    message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,       -- 0, 1, … in the conversation as it happened
    speaker TEXT NOT NULL,           -- customer | bot | agent | system
    role TEXT NOT NULL,              -- the file's word (assistant, operator, 担当者, admin …)
    text_start INTEGER NOT NULL,     -- its text is messages.text[text_start:text_end]
    text_end INTEGER NOT NULL,
    line INTEGER NOT NULL,
    time TEXT
);
CREATE INDEX IF NOT EXISTS imported_messages_by_session ON imported_messages(session_id, position);
"""


MIGRATIONS: list[Migration] = [
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
    # 3: session, message and judgment ids are never reused.
    _autoincrement_ids,
    # 4: a faithful record. Sessions name the process running them (so one whose process died
    # reads as interrupted, and two processes never continue it at once); messages keep how
    # their stream ended and how many tries it took; a reply whose stream never completed is
    # kept apart, visibly partial, never judged and never exported as an answer.
    """
    ALTER TABLE sessions ADD COLUMN owner_pid INTEGER;
    ALTER TABLE sessions ADD COLUMN owner_host TEXT;
    ALTER TABLE sessions ADD COLUMN owner_started TEXT;   -- the owning process's start (pid reuse)
    ALTER TABLE sessions ADD COLUMN heartbeat_at TEXT;    -- refreshed while the owner runs it
    ALTER TABLE messages ADD COLUMN finish_reason TEXT;   -- stop | length | NULL (scenario, operator)
    ALTER TABLE messages ADD COLUMN attempts INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE partial_replies (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        turn INTEGER NOT NULL,
        role TEXT NOT NULL,              -- user | bot | judge
        text TEXT NOT NULL,              -- what arrived before the stream failed
        error TEXT NOT NULL,
        attempts INTEGER NOT NULL,
        created_at TEXT NOT NULL
    );
    CREATE INDEX partial_replies_by_session ON partial_replies(session_id, turn);
    """,
    # 5: fits of a metric's raw scores to people's labels (ragtui calibrate --fit), applied at run
    # time only for the exact judge model and prompt fingerprint they were fitted with.
    """
    CREATE TABLE judge_fits (
        id INTEGER PRIMARY KEY,
        created_at TEXT NOT NULL,
        metric TEXT NOT NULL,
        model TEXT NOT NULL,
        fingerprint TEXT NOT NULL,       -- prompt templates + examples + scoring method
        kind TEXT NOT NULL,              -- isotonic | threshold
        params TEXT NOT NULL,            -- JSON: xs, ys (isotonic) or threshold
        report TEXT NOT NULL,            -- JSON: n, folds, before/after on held-out folds
        data_path TEXT NOT NULL,
        run_id INTEGER
    );
    CREATE INDEX judge_fits_by_key ON judge_fits(metric, model, fingerprint);
    """,
    # 6: lineage. A fork copies turns 1..fork_turn of its parent and continues live; a replay
    # re-sends the customer messages of ``replay_of`` and notes where the recording could not
    # be reused. The run index serves `ragtui runs` and `ragtui compare`.
    """
    ALTER TABLE sessions ADD COLUMN parent_session_id INTEGER REFERENCES sessions(id) ON DELETE SET NULL;
    ALTER TABLE sessions ADD COLUMN fork_turn INTEGER;
    ALTER TABLE sessions ADD COLUMN replay_of INTEGER REFERENCES sessions(id) ON DELETE SET NULL;
    ALTER TABLE sessions ADD COLUMN replay_note TEXT;
    CREATE INDEX sessions_by_run ON sessions(run_id);
    """,
    # 7: verdicts on a whole dialogue (resolution, retention, repetition), versioned per session
    # and metric like turn judgments; and the simulator check of a customer message.
    """
    CREATE TABLE dialogue_judgments (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        metric TEXT NOT NULL,
        version INTEGER NOT NULL,        -- 1, 2, … per (session, metric): re-judging adds one
        score REAL,                      -- 0–1; NULL when unscored or skipped
        outcome TEXT,                    -- resolution only: resolved | partly_resolved | unresolved | handed_over
        details TEXT,                    -- JSON: intents / facts / pairs, every step's trace
        prompt TEXT NOT NULL,
        raw_reply TEXT NOT NULL,
        model TEXT,
        error TEXT,
        attempts INTEGER NOT NULL,
        latency_ms REAL,
        prompt_tokens INTEGER,
        completion_tokens INTEGER,
        created_at TEXT NOT NULL,
        UNIQUE (session_id, metric, version)
    );
    -- JSON: the simulator check of a customer message
    ALTER TABLE messages ADD COLUMN sim_check TEXT;
    """,
    # 8: people's labels of bot turns (``ragtui label``, the TUI's label key): their own 1–5 score
    # and/or agree / disagree with one verdict version. A table of their own, never a judgment.
    # One label per person, turn and metric: labelling again replaces that person's label.
    """
    CREATE TABLE labels (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        turn INTEGER NOT NULL,
        metric TEXT NOT NULL,            -- the metric the label is about (rubric by default)
        score INTEGER CHECK (score BETWEEN 1 AND 5),   -- the person's own grade; NULL: none given
        agree INTEGER CHECK (agree IN (0, 1)),         -- with the verdict below; NULL: not said
        judgment_id INTEGER REFERENCES judgments(id) ON DELETE SET NULL,
        judgment_version INTEGER,        -- the verdict version the person saw
        note TEXT,
        labeller TEXT NOT NULL,          -- OS user name or the configured `labeller`
        created_at TEXT NOT NULL,
        CHECK (score IS NOT NULL OR agree IS NOT NULL),
        UNIQUE (message_id, metric, labeller)
    );
    CREATE INDEX labels_by_session ON labels(session_id, turn);
    """,
    # 9: bulk re-judging (``ragtui rejudge``). A job is one command's choice of run, metric, judge
    # model and prompt: running the same command again resumes it. Batch jobs keep every request
    # they wrote, so results (from the OpenAI Batch API or ``vllm run-batch``) are matched to their
    # turn by custom_id, and a results file from another request set is refused.
    """
    CREATE TABLE rejudge_jobs (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_key TEXT NOT NULL,           -- run, metric, model, prompt, mode: resume only on a match
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        run_id TEXT NOT NULL,
        metric TEXT NOT NULL,
        model TEXT NOT NULL,
        prompt_version TEXT NOT NULL,
        mode TEXT NOT NULL,              -- online | batch | batch-file
        remote_id TEXT,                  -- the Batch API's batch id
        status TEXT NOT NULL,            -- running | submitted | finished
        note TEXT                        -- the last thing worth knowing (an expired batch, …)
    );
    CREATE INDEX rejudge_jobs_by_key ON rejudge_jobs(job_key);
    CREATE TABLE rejudge_requests (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        job_id INTEGER NOT NULL REFERENCES rejudge_jobs(id) ON DELETE CASCADE,
        custom_id TEXT NOT NULL UNIQUE,
        session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        message_id INTEGER NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        turn INTEGER NOT NULL,
        body TEXT NOT NULL,              -- JSON: the exact chat request
        judgment_id INTEGER REFERENCES judgments(id) ON DELETE SET NULL   -- once its result is stored
    );
    """,
    # 10: the model that answered a call, beside the one asked for (``model``), when the answer
    # names another: a gateway's alias resolved to a dated model, or a fallback it switched to.
    """
    ALTER TABLE messages ADD COLUMN served_model TEXT;
    ALTER TABLE judgments ADD COLUMN served_model TEXT;
    ALTER TABLE dialogue_judgments ADD COLUMN served_model TEXT;
    """,
    # 11: a run's plan, written before any of its dialogues starts: every scenario × persona
    # (× trial) it means to run, and the session once one is created for it. A dialogue that
    # never started (its process was killed first) is still in the plan, so `--resume` starts
    # it; one entry never gets two sessions (the link is set in the session's own transaction).
    """
    CREATE TABLE run_plan (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL,
        position INTEGER NOT NULL,       -- 0, 1, … in the run's order; worker k of N runs position mod N = k
        scenario_id TEXT NOT NULL,
        persona_name TEXT NOT NULL,
        trial INTEGER NOT NULL DEFAULT 1,   -- 1, 2, … when a pair is run more than once
        scenario TEXT NOT NULL,          -- JSON: the scenario as planned
        persona TEXT NOT NULL,           -- JSON: the persona as planned
        max_turns INTEGER NOT NULL,
        threshold REAL NOT NULL,
        metrics TEXT NOT NULL,           -- JSON list
        models TEXT NOT NULL,            -- JSON: role → the model it was planned with
        session_id INTEGER REFERENCES sessions(id) ON DELETE CASCADE,
        created_at TEXT NOT NULL,
        UNIQUE (run_id, scenario_id, persona_name, trial),
        UNIQUE (run_id, position)
    );
    CREATE INDEX run_plan_by_session ON run_plan(session_id);
    """,
    # 12: which trial of its scenario × persona a session is (`ragtui run --repeat K`), on the
    # session itself so a run's pass^k is read from `sessions` alone. Set from the plan entry
    # the session was made for; a session made before (or without a plan) is trial 1, except
    # one already linked to a plan entry, which takes that entry's trial.
    _session_trials,
    # 13: the shards of a run (`ragtui run --shard I/N --run-id ID`): each CI job runs every N-th
    # planned dialogue and stores only its slice of the plan (at the plan's global positions), so
    # its own `--resume` continues that slice alone. A row per shard says which slice of how big a
    # plan it was; once shards are merged into one database the run knows which are missing.
    """
    CREATE TABLE IF NOT EXISTS run_shards (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        run_id TEXT NOT NULL,
        shard INTEGER NOT NULL,          -- I of I/N, 1-based
        shards INTEGER NOT NULL,         -- N
        planned INTEGER NOT NULL,        -- dialogues in the whole plan (all N shards)
        created_at TEXT NOT NULL,
        UNIQUE (run_id, shard)
    );
    """,
    # 14: the database's identity and the provenance of merged sessions (store/merge.py).
    _database_identity,
    # 15: the judge card (``ragtui judge-card --measure``): the judge's agreement with people per
    # metric, language, judge model and prompt fingerprint, with its 95% interval and what it was
    # measured on. The judged items themselves are calibration items (migration 2).
    """
    CREATE TABLE IF NOT EXISTS judge_card_entries (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        created_at TEXT NOT NULL,
        metric TEXT NOT NULL,
        language TEXT NOT NULL,
        model TEXT NOT NULL,
        fingerprint TEXT NOT NULL,       -- prompt templates + examples + scoring method
        figure TEXT NOT NULL,            -- spearman | kappa
        value REAL,                      -- NULL: undefined (too few items, a constant judge)
        n INTEGER NOT NULL,              -- scored items the figure is computed on
        low REAL,                        -- 95% interval; NULL when undefined
        high REAL,
        unscored INTEGER NOT NULL,       -- items the judge failed on: counted, never scored 0
        skipped INTEGER NOT NULL,        -- items the metric does not apply to
        source TEXT NOT NULL,            -- measured (a labelled set) | labels (the team's own labels)
        measured_on TEXT NOT NULL,
        quick INTEGER NOT NULL DEFAULT 0,  -- 1: a small sample (--quick)
        calibration_run_id INTEGER
    );
    CREATE INDEX IF NOT EXISTS judge_card_entries_by_key ON judge_card_entries(metric, model, fingerprint);
    """,
    # 16: of a call's prompt tokens, those the server reused from its prompt cache (NULL: it did
    # not say, as every call recorded before did not).
    _cached_tokens,
    # 17: imported real conversations: a session's kind, the files imported, where each
    # conversation and message came from.
    _imported_conversations,
    # 18: a dialogue's persona stored once: on the session, and on its plan entry only until
    # the entry has a session.
    _persona_once,
]

LATEST_VERSION = len(MIGRATIONS)


def schema_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection) -> int:
    """Bring ``conn`` to LATEST_VERSION; return the version it had. Caller checks newer ones.

    ``conn`` must be in autocommit mode (``isolation_level = None``) with foreign keys off."""
    current = schema_version(conn)
    if current >= LATEST_VERSION:
        return current
    # EXCLUSIVE waits (busy timeout) for any other opener; the version read under the lock is
    # the one that counts.
    conn.execute("BEGIN EXCLUSIVE")
    try:
        current = schema_version(conn)
        for version in range(current + 1, LATEST_VERSION + 1):
            step = MIGRATIONS[version - 1]
            if callable(step):
                step(conn)
            else:
                for statement in split_statements(step):
                    conn.execute(statement)
            conn.execute(f"PRAGMA user_version = {version}")
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise
    return current


def split_statements(script: str) -> list[str]:
    """The statements of ``script``, one by one (``executescript`` would commit first)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not all(part.strip().startswith("--") or not part.strip() for part in buffer.splitlines()):
        statements.append(buffer.strip())
    return statements
