"""A stored timestamp as a person reads it in a narrow column."""

from __future__ import annotations

from datetime import date, datetime


def short_date(stamp: str, today: date) -> str:
    """``2026-12-05T15:30:12+00:00`` as ``Dec 5 15:30`` in ``today``'s year and as ``2025-04-01``
    in another: at most 12 characters, so the column is never cut to ``2026-12-``. The time is
    the stored one, as every other view shows it. A stamp that does not parse is cut to 16."""
    try:
        when = datetime.fromisoformat(stamp)
    except ValueError:
        return stamp.replace("T", " ")[:16]
    if when.year != today.year:
        return when.strftime("%Y-%m-%d")
    return f"{when:%b} {when.day} {when:%H:%M}"
