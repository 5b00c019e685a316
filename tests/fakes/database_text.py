"""Reading a database the way a person would search it: is this text in there, and how often."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path


def occurrences(database: Path, text: str) -> int:
    """How often ``text`` is in any value of any table of ``database`` (through SQLite, so pages
    freed by a rebuild, which no reader sees, do not count)."""
    found = 0
    with closing(sqlite3.connect(database)) as conn:
        tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        for table in tables:
            for row in conn.execute(f'SELECT * FROM "{table}"'):
                found += sum(value.count(text) for value in row if isinstance(value, str))
    return found
