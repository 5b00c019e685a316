"""DataVersion: another connection's commit is seen once; this connection's own writes and
plain reads are not."""

from __future__ import annotations

from pathlib import Path

from ragtui.core.store.changes import DataVersion
from ragtui.core.store.store import Store


def test_another_connections_commit_is_seen_once(tmp_path: Path) -> None:
    path = tmp_path / "ragtui.db"
    mine, theirs = Store.open(path), Store.open(path)
    try:
        mine._db.execute("CREATE TABLE scratch (x)")
        mine._db.conn.commit()
        version = DataVersion(mine._db.conn)
        assert not version.changed()
        mine._db.execute("INSERT INTO scratch VALUES (0)")  # this connection's own write
        mine._db.conn.commit()
        mine.sessions()
        assert not version.changed()
        theirs._db.execute("INSERT INTO scratch VALUES (1)")
        theirs._db.conn.commit()
        assert version.changed()
        assert not version.changed()  # once per change
    finally:
        mine.close()
        theirs.close()
