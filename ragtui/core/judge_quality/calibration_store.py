"""Calibration runs and their judged items in SQLite (tables from schema migration 2).

A run is identified by a fingerprint of everything that changes its results — the metric, the
data file's content, the field mapping, the label scale, the judge model and temperature, and
the prompts and few-shot examples. ``ragtui calibrate`` with the same inputs finds the run and
continues it, judging only the items it has no row for; change any input and a new run starts.
Each item is committed as soon as it is judged, so an interrupted run loses at most one item.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..store.store import Store, now
from ..types.judgments import Judgment


@dataclass(frozen=True)
class StoredItem:
    key: str
    line: int
    label: float
    score: float | None
    skipped: bool
    error: str | None
    conclusion: str
    elapsed_ms: float


def _write(store: Store, action: str, fn: Any) -> Any:
    return store.write(action, fn)  # one BEGIN IMMEDIATE transaction, shared with other writers


def find_run(store: Store, fingerprint: str) -> int | None:
    row = store.db.execute(
        "SELECT id FROM calibration_runs WHERE fingerprint = ? ORDER BY id DESC LIMIT 1", [fingerprint]
    ).fetchone()
    return int(row[0]) if row else None


def create_run(
    store: Store, *, metric: str, data_path: str, fingerprint: str, model: str, settings: dict[str, Any]
) -> int:
    stamp = now()
    row = {
        "created_at": stamp,
        "updated_at": stamp,
        "metric": metric,
        "data_path": data_path,
        "fingerprint": fingerprint,
        "model": model,
        "settings": json.dumps(settings, ensure_ascii=False),
        "status": "running",
    }
    return _write(store, "create a calibration run", lambda: store.db.table("calibration_runs").insert(row).last_pk)


def set_run_status(store: Store, run_id: int, status: str) -> None:
    _write(
        store,
        "update the calibration run",
        lambda: store.db.table("calibration_runs").update(run_id, {"status": status, "updated_at": now()}),
    )


def add_item(
    store: Store, run_id: int, key: str, line: int, label: float, judgment: Judgment, elapsed_ms: float
) -> None:
    row = {
        "run_id": run_id,
        "item_key": key,
        "line": line,
        "label": label,
        "score": judgment.score,
        "skipped": 1 if judgment.details.get("skipped") else 0,
        "error": judgment.error,
        "conclusion": str(judgment.details.get("conclusion") or "")[:500],
        "judgment": json.dumps(
            {
                "metric": judgment.metric,
                "details": judgment.details,
                "prompt": judgment.prompt,
                "raw_reply": judgment.raw_reply,
                "model": judgment.model,
                "attempts": judgment.attempts,
                "latency_ms": judgment.latency_ms,
            },
            ensure_ascii=False,
        ),
        "elapsed_ms": elapsed_ms,
        "created_at": now(),
    }

    def insert() -> None:
        store.db.table("calibration_items").insert(row, replace=True)
        store.db.execute("UPDATE calibration_runs SET updated_at = ? WHERE id = ?", [now(), run_id])

    _write(store, "record a calibration item", insert)


def stored_items(store: Store, run_id: int) -> dict[str, StoredItem]:
    rows = store.db.execute(
        "SELECT item_key, line, label, score, skipped, error, conclusion, elapsed_ms "
        "FROM calibration_items WHERE run_id = ? ORDER BY line",
        [run_id],
    ).fetchall()
    return {r[0]: StoredItem(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6] or "", r[7]) for r in rows}


def item_judgment(store: Store, run_id: int, key: str) -> dict[str, Any] | None:
    """The full stored judgment of one item (every step's prompt and reply), for inspection."""
    row = store.db.execute(
        "SELECT judgment FROM calibration_items WHERE run_id = ? AND item_key = ?", [run_id, key]
    ).fetchone()
    return json.loads(row[0]) if row else None
