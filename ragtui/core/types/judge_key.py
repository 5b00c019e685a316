"""Which judge made a verdict — its model and prompt fingerprint, ``details["judge_key"]`` — so the
agreement shown beside it is the judge card's figure when it is *shown*, not the one frozen when
it was judged: a ``ragtui judge-card --measure`` after a run updates every view of that run.

A store carries an ``AgreementLookup`` (installed by whoever knows the card and the floor,
``judge_quality.card_lookup``); the record's decoders and the SQL readers pass each verdict's key
through it. A verdict stored before keys were written keeps the agreement it was judged with.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

JUDGE_KEY = "judge_key"

# (metric, judge model, prompt fingerprint) → the card entry a verdict of that judge carries now
# (``CardEntry.to_dict()``), or None when that judge and prompt are unmeasured.
AgreementLookup = Callable[[str, str, str], dict[str, Any] | None]


def judge_key(model: str, fingerprint: str) -> dict[str, str]:
    return {"model": model, "fingerprint": fingerprint}


def _key(value: object) -> tuple[str, str] | None:
    if isinstance(value, str):  # as read with SQL's json_extract
        try:
            value = json.loads(value)
        except ValueError:
            return None
    if not isinstance(value, dict):
        return None
    model, fingerprint = value.get("model"), value.get("fingerprint")
    return (model, fingerprint) if isinstance(model, str) and isinstance(fingerprint, str) else None


def current_agreement(
    metric: str, agreement: object, key: object, lookup: AgreementLookup | None
) -> dict[str, Any] | None:
    """The agreement a verdict shows now: the card's entry for its judge key when the store has a
    lookup and the verdict a key, else what it was judged with (``agreement`` as stored, a dict or
    its JSON text)."""
    found = _key(key)
    if lookup is not None and found is not None:
        return lookup(metric, *found)
    if isinstance(agreement, str):
        try:
            agreement = json.loads(agreement)
        except ValueError:
            return None
    return agreement if isinstance(agreement, dict) else None


def carry(details: dict[str, Any], key: dict[str, str] | None, agreement: dict[str, Any] | None) -> None:
    """What a scored verdict carries of its judge, in place: its key and the card entry it was
    judged with (none when unmeasured) — the one place the metric wrappers write them."""
    if key is not None:
        details[JUDGE_KEY] = key
    if agreement is not None:
        details["agreement"] = agreement


def refresh_details(metric: str, details: dict[str, Any], lookup: AgreementLookup | None) -> dict[str, Any]:
    """``details`` with ``agreement`` as the card says now (set, replaced or removed), in place."""
    found = _key(details.get(JUDGE_KEY))
    if lookup is None or found is None:
        return details
    entry = lookup(metric, *found)
    if entry is None:
        details.pop("agreement", None)
    else:
        details["agreement"] = entry
    return details
