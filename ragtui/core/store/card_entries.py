"""Judge card entries (``judge_card_entries``, schema migration 15): the SQL of
``metrics.card_store``, which turns a ``CardEntry`` into a row and back.

Every row is kept; the readers pick the newest that matters."""

from __future__ import annotations

import sqlite3
from typing import Any

from .store import Store

COLUMNS = "metric, language, model, fingerprint, figure, value, n, measured_on, source, low, high, unscored, quick, created_at"


def insert(store: Store, row: dict[str, Any]) -> None:
    store.write("store a judge card entry", lambda: store._db.table("judge_card_entries").insert(row))


def latest_rows(store: Store) -> list[tuple[Any, ...]]:
    """The newest entry per metric, judge model, prompt fingerprint and quick or not, as ``COLUMNS``."""
    return _rows(
        store,
        f"SELECT {COLUMNS} FROM judge_card_entries e WHERE id = (SELECT MAX(id) FROM judge_card_entries f "
        "WHERE f.metric = e.metric AND f.model = e.model AND f.fingerprint = e.fingerprint AND f.quick = e.quick) "
        "ORDER BY metric, language",
    )


def all_rows(store: Store) -> list[tuple[Any, ...]]:
    """Every stored entry, newest first, as ``COLUMNS``."""
    return _rows(store, f"SELECT {COLUMNS} FROM judge_card_entries ORDER BY id DESC")


def _rows(store: Store, sql: str) -> list[tuple[Any, ...]]:
    try:
        return store._db.execute(sql).fetchall()
    except sqlite3.OperationalError:
        return []  # a database opened read-only before migration 15: nothing measured there
