"""Which shard of a run a database holds (table from schema migration 13).

``ragtui run --shard I/N --run-id ID`` stores only its slice of the plan; this row says which
slice of how big a plan it was. Merged into one database, a run's rows tell which shards are
there and which never arrived, so a run with a shard missing is never read as complete.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from .rows import now

if TYPE_CHECKING:
    from .database import Database


@dataclass(frozen=True)
class StoredShard:
    shard: int  # I of I/N, 1-based
    shards: int  # N
    planned: int  # dialogues in the whole plan, all N shards together


def insert_shard(store: Database, run_id: str, shard: int, shards: int, planned: int) -> None:
    """Inside the write that stores the shard's plan (one transaction: both or neither)."""
    store._db.conn.execute(
        "INSERT INTO run_shards (run_id, shard, shards, planned, created_at) VALUES (?, ?, ?, ?, ?)",
        [run_id, shard, shards, planned, now()],
    )


def shards_of(store: Database, run_id: str) -> list[StoredShard]:
    """The shards of ``run_id`` this database holds, by shard number; empty for a whole run."""
    rows = store._db.execute(
        "SELECT shard, shards, planned FROM run_shards WHERE run_id = ? ORDER BY shard", [run_id]
    ).fetchall()
    return [StoredShard(int(r[0]), int(r[1]), int(r[2])) for r in rows]


def run_exists(store: Database, run_id: str) -> bool:
    """Whether ``run_id`` has a session or a plan entry here (a given ``--run-id`` must be new)."""
    row = store._db.execute(
        "SELECT EXISTS (SELECT 1 FROM sessions WHERE run_id = ?) OR EXISTS (SELECT 1 FROM run_plan WHERE run_id = ?)",
        [run_id, run_id],
    ).fetchone()
    return bool(row[0])
