"""Write the embedded judge's card that ragtui ships (``ragtui/core/judge_quality/shipped_card.json``)
from what ``ragtui judge-card --measure`` stored.

    # 1. measure the embedded judge (no endpoint or API key configured) on the report halves;
    #    resumable: run it again after an interruption
    ragtui judge-card --measure --db card.db
    # 2. ship the newest full (not --quick) entry per metric and language for the embedded model
    python bench/ship_judge_card.py --db card.db
    # or replace only some metrics' rows, keeping the card's other rows as they are
    python bench/ship_judge_card.py --db card.db --metric faithfulness --metric answerability

Only entries measured on the bundled labelled sets (source "measured") for the embedded model are
shipped; a metric or language that was not measured stays unmeasured on the card. With
``--metric``, the named metrics' rows come from the database (a language it has no entry for is
dropped, as in a full write) and every other metric's row is copied unchanged from the card file,
so metrics measured at different times can be shipped one at a time.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from ragtui.core.files.output_file import write_output
from ragtui.core.judge_quality.card_store import latest_entries
from ragtui.core.judge_quality.judge_card import SHIPPED_CARD
from ragtui.core.models.endpoints import EMBEDDED_MODEL
from ragtui.core.store.store import Store

ABOUT = (
    "The embedded judge's agreement with people per metric and language, measured by "
    "`ragtui judge-card --measure` on the report halves of sample_data/labelled/ "
    "(docs/judge-calibration.md). Valid only for this model and prompt fingerprint."
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, required=True, help="database `ragtui judge-card --measure` wrote")
    parser.add_argument("--out", type=Path, default=SHIPPED_CARD, help="the shipped card file")
    parser.add_argument(
        "--metric",
        action="append",
        default=[],
        help="replace only this metric's rows (repeatable); the card's other rows are kept as they are",
    )
    args = parser.parse_args()
    metrics: set[str] = set(args.metric)
    store = Store.open_read_only(args.db)
    try:
        entries = [
            e for e in latest_entries(store) if e.model == EMBEDDED_MODEL and e.source == "measured" and not e.quick
        ]
    finally:
        store.close()
    if metrics:
        entries = [e for e in entries if e.metric in metrics]
    rows: list[dict[str, Any]] = _kept_rows(args.out, metrics) if metrics else []
    for e in sorted(entries, key=lambda e: (e.metric, e.language)):
        row = e.to_dict()
        del row["source"]  # "shipped" once read back
        for key in ("value", "low", "high"):
            row[key] = None if row[key] is None else round(row[key], 3)
        rows.append(row)
    rows.sort(key=lambda row: (row["metric"], row["language"]))
    text = json.dumps({"about": ABOUT, "entries": rows}, indent=1, ensure_ascii=False) + "\n"
    write_output(args.out, text, option="--out")
    for row in rows:
        print(
            f"{row['metric']:<20} {row['language']}  {row['figure']:<8} {row['value']}  [{row['low']}, {row['high']}]  n={row['n']}"
        )


def _kept_rows(card: Path, replaced: set[str]) -> list[dict[str, Any]]:
    """The card file's rows of every metric not being replaced, exactly as they are."""
    if not card.is_file():
        return []
    data = json.loads(card.read_text(encoding="utf-8"))
    return [row for row in data.get("entries", []) if row.get("metric") not in replaced]


if __name__ == "__main__":
    main()
