"""Calibration runs and their judged items, stored through ``store.calibration_runs`` (tables
from schema migration 2).

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

from ..store import calibration_runs
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


def find_run(store: Store, fingerprint: str) -> int | None:
    return calibration_runs.find_run(store, fingerprint)


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
    return calibration_runs.create_run(store, row)


def set_run_status(store: Store, run_id: int, status: str) -> None:
    calibration_runs.set_run_status(store, run_id, status)


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
    calibration_runs.add_item(store, run_id, row)


def stored_items(store: Store, run_id: int) -> dict[str, StoredItem]:
    rows = calibration_runs.item_rows(store, run_id)
    return {r[0]: StoredItem(r[0], r[1], r[2], r[3], bool(r[4]), r[5], r[6] or "", r[7]) for r in rows}


def item_judgment(store: Store, run_id: int, key: str) -> dict[str, Any] | None:
    """The full stored judgment of one item (every step's prompt and reply), for inspection."""
    return calibration_runs.item_judgment(store, run_id, key)
