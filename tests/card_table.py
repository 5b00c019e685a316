"""Reading the table ``ragtui judge-card`` prints: each row's cells, its numbered "on" note
written out (the card keeps where a figure was measured in notes under the table)."""

from __future__ import annotations

import re

NOTE = re.compile(r"^\[(\d+)\] (.*)$")


def card_cells(out: str) -> dict[tuple[str, str], list[str]]:
    """(metric, language) → the cells after them, the last one the note's text; a quick
    measurement's row (shown beside the figure that decides the gate) under (metric, "en/quick")."""
    notes = {m[1]: m[2] for m in (NOTE.match(line.strip()) for line in out.splitlines()) if m}
    rows = {}
    for line in out.splitlines():
        cells = [c.strip() for c in line.split("│")][1:-1]
        if len(cells) > 3 and cells[1] in ("en", "ja"):
            on = cells[-1].strip("[]")
            language = cells[1] + ("/quick" if cells[2].startswith("quick ") else "")
            rows[(cells[0], language)] = [*cells[2:-1], notes.get(on, cells[-1])]
    return rows
