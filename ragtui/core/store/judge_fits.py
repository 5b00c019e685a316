"""Fits of a judge's scores to people's labels (``judge_fits``, schema migration 5): the SQL
of ``metrics.fit_store`` and ``metrics.judge_card``, which build and read the ``Fit``."""

from __future__ import annotations

import sqlite3
from typing import Any, cast

from ..types.errors import StoreError
from .store import Store


def insert(store: Store, row: dict[str, Any]) -> int:
    """Store one fit; returns its id."""
    try:
        # judge_fits has an integer id, so an insert always sets last_pk to it.
        return cast(int, store._db.table("judge_fits").insert(row).last_pk)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot store the fit in database {store.path}: {exc}", "check free disk space") from None


def newest(store: Store, metric: str, model: str, fingerprint: str) -> tuple[str, str] | None:
    """(kind, params JSON) of the newest fit for exactly this metric, judge model and prompt."""
    row = store._db.execute(
        "SELECT kind, params FROM judge_fits WHERE metric = ? AND model = ? AND fingerprint = ? "
        "ORDER BY id DESC LIMIT 1",
        [metric, model, fingerprint],
    ).fetchone()
    return (row[0], row[1]) if row is not None else None


def newest_each(store: Store) -> list[tuple[Any, ...]]:
    """(metric, model, fingerprint, kind, report, data_path, created_at) of the newest fit per
    metric, model and prompt, by metric."""
    return store._db.execute(
        "SELECT metric, model, fingerprint, kind, report, data_path, created_at FROM judge_fits f WHERE id = "
        "(SELECT MAX(id) FROM judge_fits g WHERE g.metric = f.metric AND g.model = f.model "
        "AND g.fingerprint = f.fingerprint) ORDER BY metric"
    ).fetchall()
