"""Write transactions that share one SQLite file with other processes without losing work.

SQLite lets one writer at a time. A *deferred* transaction that reads first and writes later
cannot wait for the lock when it upgrades (waiting could deadlock), so it fails at once with
"database is locked" whatever the busy timeout says. Every write therefore starts with
``BEGIN IMMEDIATE``, which takes the write lock up front and does honour the busy timeout, and
a lock still held after that wait is retried with a growing pause until ``LOCK_PATIENCE_S``
has passed on the clock. Only a lock that outlives all of it becomes an error, and that error
says how long it waited and which processes have the file open, so the user knows what to stop.
"""

from __future__ import annotations

import os
import random
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

BUSY_TIMEOUT_S = 15.0
"""How long SQLite itself waits for another writer, per attempt."""
LOCK_PATIENCE_S = 90.0
"""How long, in all, a write keeps trying before it is given up as an error. Measured on the
clock rather than counted in attempts: some lock conflicts (a connection recovering the WAL,
two first opens racing to set WAL mode) fail at once without SQLite's own wait, and a handful
of quick retries can all land inside the other process's turn on a saturated machine."""

T = TypeVar("T")


def is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def retry_while_busy(attempt: Callable[[], T], *, patience: float | None = None) -> T:
    """Call ``attempt`` until it does not fail with a busy/locked error, or until ``patience``
    seconds have passed; then re-raise the last error with ``waited_s`` set on it (the time
    actually waited, for the message). ``attempt`` must leave no transaction open when it fails."""
    patience = LOCK_PATIENCE_S if patience is None else patience
    started = time.monotonic()
    pause = 0.05
    while True:
        try:
            return attempt()
        except sqlite3.OperationalError as exc:
            waited = time.monotonic() - started
            if not is_busy(exc) or waited >= patience:
                exc.waited_s = waited  # type: ignore[attr-defined]
                raise
        # Jitter keeps two retrying processes from meeting again at the same instant.
        time.sleep(min(pause, max(0.0, patience - waited)) * random.uniform(0.5, 1.0))
        pause = min(pause * 2, 2.0)


def in_write_transaction(conn: sqlite3.Connection, fn: Callable[[], T], *, patience: float | None = None) -> T:
    """Run ``fn`` inside ``BEGIN IMMEDIATE`` … ``COMMIT``; retry the whole transaction while the
    database stays locked. ``conn`` is in autocommit mode, so nothing else opens transactions,
    and ``fn`` only touches the database, so running it again after a rollback is safe."""

    def attempt() -> T:
        conn.execute("BEGIN IMMEDIATE")
        try:
            result = fn()
            conn.execute("COMMIT")
            return result
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    return retry_while_busy(attempt, patience=patience)


def lock_holders(path: Path | None) -> list[str]:
    """The processes (other than this one) that have ``path`` or its WAL open, as
    "pid N (command)", read from /proc; empty where the system does not say."""
    if path is None or not Path("/proc").is_dir():
        return []
    targets = {str(path.resolve()), str(path.resolve()) + "-wal", str(path.resolve()) + "-shm"}
    found: list[str] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            links = {os.readlink(fd) for fd in (entry / "fd").iterdir()}
        except OSError:
            continue
        if links & targets:
            found.append(f"pid {entry.name} ({_command(entry)})")
    return found


def _command(proc: Path) -> str:
    try:
        raw = (proc / "cmdline").read_bytes()
    except OSError:
        return "?"
    words = [w.decode(errors="replace") for w in raw.split(b"\0") if w]
    text = " ".join(Path(words[0]).name if i == 0 else w for i, w in enumerate(words))
    return text[:80] or "?"
