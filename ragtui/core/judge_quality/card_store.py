"""Judge card entries, stored through ``store.card_entries`` (``judge_card_entries``, schema
migration 15).

``ragtui judge-card --measure`` adds one row per metric, language, judge model and prompt
fingerprint each time it measures. Every row is kept (``all_entries``, newest first): the card
shows the newest, and a verdict carries the newest that may decide its gate — so a quick
measurement stored after a full one hides nothing (``judge_card.entry_for``).
"""

from __future__ import annotations

from typing import Any

from ..store import card_entries
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
    card_entries.insert(store, row)
    return CardEntry(**{**entry.to_dict(), "measured_at": stamp})


def latest_entries(store: Store) -> list[CardEntry]:
    """The newest measured entry per metric, judge model, prompt fingerprint and quick or not
    (a quick measurement never hides a full one)."""
    return _entries(card_entries.latest_rows(store))


def all_entries(store: Store) -> list[CardEntry]:
    """Every stored entry, newest first."""
    return _entries(card_entries.all_rows(store))


def _entries(rows: list[tuple[Any, ...]]) -> list[CardEntry]:
    return [
        CardEntry(m, lang, model, fp, fig, value, n, on, source, low, high, unscored, bool(quick), created)
        for m, lang, model, fp, fig, value, n, on, source, low, high, unscored, quick, created in rows
    ]
