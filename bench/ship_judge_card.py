"""Write the embedded judge's card that ragtui ships (``ragtui/core/metrics/shipped_card.json``)
from what ``ragtui judge-card --measure`` stored.

    # 1. measure the embedded judge (no endpoint or API key configured) on the report halves;
    #    resumable: run it again after an interruption
    ragtui judge-card --measure --db card.db
    # 2. ship the newest full (not --quick) entry per metric and language for the embedded model
    python bench/ship_judge_card.py --db card.db

Only entries measured on the bundled labelled sets (source "measured") for the embedded model are
shipped; a metric or language that was not measured stays unmeasured on the card.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from ragtui.core.metrics.card_store import latest_entries
from ragtui.core.metrics.judge_card import SHIPPED_CARD
from ragtui.core.models.endpoints import EMBEDDED_MODEL
from ragtui.core.output_file import write_output
from ragtui.core.record.store import Store

ABOUT = (
    "The embedded judge's agreement with people per metric and language, measured by "
    "`ragtui judge-card --measure` on the report halves of sample_data/labelled/ "
    "(docs/judge-calibration.md). Valid only for this model and prompt fingerprint."
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", type=Path, required=True, help="database `ragtui judge-card --measure` wrote")
    parser.add_argument("--out", type=Path, default=SHIPPED_CARD, help="the shipped card file")
    args = parser.parse_args()
    store = Store.open_read_only(args.db)
    try:
        entries = [
            e for e in latest_entries(store) if e.model == EMBEDDED_MODEL and e.source == "measured" and not e.quick
        ]
    finally:
        store.close()
    rows = []
    for e in sorted(entries, key=lambda e: (e.metric, e.language)):
        row = e.to_dict()
        del row["source"]  # "shipped" once read back
        for key in ("value", "low", "high"):
            row[key] = None if row[key] is None else round(row[key], 3)
        rows.append(row)
    text = json.dumps({"about": ABOUT, "entries": rows}, indent=1, ensure_ascii=False) + "\n"
    write_output(args.out, text, option="--out")
    for row in rows:
        print(
            f"{row['metric']:<20} {row['language']}  {row['figure']:<8} {row['value']}  [{row['low']}, {row['high']}]  n={row['n']}"
        )


if __name__ == "__main__":
    main()
