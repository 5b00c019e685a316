"""Has another process written to the database since we last looked?

SQLite's ``PRAGMA data_version`` on an open connection changes whenever *another* connection
commits (this connection's own commits leave it alone): one cheap read that touches no table,
so a screen can ask every second and stay idle otherwise.
"""

from __future__ import annotations

import sqlite3

# What a read raises when the database went away under a watcher (deleted, unreadable): the
# callers outside the store catch it by this name and never import the driver.
DatabaseError = sqlite3.Error


class DataVersion:
    """The database's data version as one connection last saw it."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.seen = self._read()

    def _read(self) -> int:
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def changed(self) -> bool:
        """True once after each commit by another connection (or process)."""
        now = self._read()
        if now == self.seen:
            return False
        self.seen = now
        return True
