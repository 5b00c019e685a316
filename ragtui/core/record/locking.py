"""Write transactions that share one SQLite file with other processes without losing work.

SQLite lets one writer at a time. A *deferred* transaction that reads first and writes later
cannot wait for the lock when it upgrades (waiting could deadlock), so it fails at once with
"database is locked" whatever the busy timeout says. Every write therefore starts with
``BEGIN IMMEDIATE``, which takes the write lock up front and does honour the busy timeout, and
a lock still held after that wait is retried a few times with a growing pause. Only a lock
that outlives all of it becomes an error, and that error says which processes have the file
open, so the user knows what to stop.
"""

from __future__ import annotations

import os
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

BUSY_TIMEOUT_S = 15.0
"""How long SQLite itself waits for another writer, per attempt."""
BUSY_RETRIES = 3
"""Further attempts after a wait that ran out."""

T = TypeVar("T")


def is_busy(exc: sqlite3.Error) -> bool:
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def in_write_transaction(conn: sqlite3.Connection, fn: Callable[[], T], *, retries: int | None = None) -> T:
    """Run ``fn`` inside ``BEGIN IMMEDIATE`` … ``COMMIT``; retry the whole transaction while the
    database stays locked. ``conn`` is in autocommit mode, so nothing else opens transactions."""
    retries = BUSY_RETRIES if retries is None else retries
    for attempt in range(retries + 1):
        try:
            conn.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as exc:
            if is_busy(exc) and attempt < retries:
                time.sleep(0.2 * 2**attempt)
                continue
            raise
        try:
            result = fn()
            conn.execute("COMMIT")
            return result
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
    raise AssertionError("unreachable")


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
