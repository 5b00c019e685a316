"""Judge card entries in SQLite (``judge_card_entries``, schema migration 15).

``ragtui judge-card --measure`` adds one row per metric, language, judge model and prompt
fingerprint each time it measures. Every row is kept (``all_entries``, newest first): the card
shows the newest, and a verdict carries the newest that may decide its gate — so a quick
measurement stored after a full one hides nothing (``judge_card.entry_for``).
"""

from __future__ import annotations

import sqlite3

from ..store.store import Store, now
from .card_entry import CardEntry


def save_entry(store: Store, entry: CardEntry, *, skipped: int = 0, run_id: int | None = None) -> CardEntry:
    """Store ``entry`` (stamped now) and return it as stored."""
    stamp = now()
    row = {
        "created_at": stamp,
        "metric": entry.metric,
        "language": entry.language,
        "model": entry.model,
        "fingerprint": entry.fingerprint,
        "figure": entry.figure,
        "value": entry.value,
        "n": entry.n,
        "low": entry.low,
        "high": entry.high,
        "unscored": entry.unscored,
        "skipped": skipped,
        "source": entry.source,
        "measured_on": entry.on,
        "quick": 1 if entry.quick else 0,
        "calibration_run_id": run_id,
    }
    store.write("store a judge card entry", lambda: store.db.table("judge_card_entries").insert(row))
    return CardEntry(**{**entry.to_dict(), "measured_at": stamp})


COLUMNS = "metric, language, model, fingerprint, figure, value, n, measured_on, source, low, high, unscored, quick, created_at"


def latest_entries(store: Store) -> list[CardEntry]:
    """The newest measured entry per metric, judge model, prompt fingerprint and quick or not
    (a quick measurement never hides a full one)."""
    return _entries(
        store,
        f"SELECT {COLUMNS} FROM judge_card_entries e WHERE id = (SELECT MAX(id) FROM judge_card_entries f "
        "WHERE f.metric = e.metric AND f.model = e.model AND f.fingerprint = e.fingerprint AND f.quick = e.quick) "
        "ORDER BY metric, language",
    )


def all_entries(store: Store) -> list[CardEntry]:
    """Every stored entry, newest first."""
    return _entries(store, f"SELECT {COLUMNS} FROM judge_card_entries ORDER BY id DESC")


def _entries(store: Store, sql: str) -> list[CardEntry]:
    try:
        rows = store.db.execute(sql).fetchall()
    except sqlite3.OperationalError:
        return []  # a database opened read-only before migration 15: nothing measured there
    return [
        CardEntry(m, lang, model, fp, fig, value, n, on, source, low, high, unscored, bool(quick), created)
        for m, lang, model, fp, fig, value, n, on, source, low, high, unscored, quick, created in rows
    ]
