"""Calibration runs and their judged items (tables from schema migration 2): the SQL of
``metrics.calibration_store``, which builds the rows from judgments and reads them back.

Each item is committed as soon as it is judged, so an interrupted run loses at most one item;
an item judged again replaces its row.
"""

from __future__ import annotations

import json
from typing import Any

from .store import Store, now

ITEM_COLUMNS = "item_key, line, label, score, skipped, error, conclusion, elapsed_ms"


def find_run(store: Store, fingerprint: str) -> int | None:
    """The newest run with this fingerprint, to continue it."""
    row = store._db.execute(
        "SELECT id FROM calibration_runs WHERE fingerprint = ? ORDER BY id DESC LIMIT 1", [fingerprint]
    ).fetchone()
    return int(row[0]) if row else None


def create_run(store: Store, row: dict[str, Any]) -> int:
    """A new run from its columns; returns its id."""
    return store.write("create a calibration run", lambda: store._db.table("calibration_runs").insert(row).last_pk)


def set_run_status(store: Store, run_id: int, status: str) -> None:
    store.write(
        "update the calibration run",
        lambda: store._db.table("calibration_runs").update(run_id, {"status": status, "updated_at": now()}),
    )


def add_item(store: Store, run_id: int, row: dict[str, Any]) -> None:
    """Store one judged item (replacing an earlier row for its key) and touch its run."""

    def insert() -> None:
        store._db.table("calibration_items").insert(row, replace=True)
        store._db.execute("UPDATE calibration_runs SET updated_at = ? WHERE id = ?", [now(), run_id])

    store.write("record a calibration item", insert)


def item_rows(store: Store, run_id: int) -> list[tuple[Any, ...]]:
    """The run's items in file order, as ``ITEM_COLUMNS``."""
    return store._db.execute(
        f"SELECT {ITEM_COLUMNS} FROM calibration_items WHERE run_id = ? ORDER BY line", [run_id]
    ).fetchall()


def item_judgment(store: Store, run_id: int, key: str) -> dict[str, Any] | None:
    """The full stored judgment of one item (every step's prompt and reply), for inspection."""
    row = store._db.execute(
        "SELECT judgment FROM calibration_items WHERE run_id = ? AND item_key = ?", [run_id, key]
    ).fetchone()
    return json.loads(row[0]) if row else None


def newest_item_run(store: Store) -> int | None:
    """The newest run that has judged items (None: none has)."""
    row = store._db.execute("SELECT MAX(run_id) FROM calibration_items").fetchone()
    return row[0] if row else None


def scored_judgments(store: Store, run_id: int) -> list[tuple[str, float, float, dict[str, Any]]]:
    """(item key, label, score, stored judgment) of each scored item of the run."""
    rows = store._db.execute(
        "SELECT item_key, label, score, judgment FROM calibration_items WHERE run_id = ? AND score IS NOT NULL",
        [run_id],
    ).fetchall()
    return [(key, label, score, json.loads(text)) for key, label, score, text in rows]
