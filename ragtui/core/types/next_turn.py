"""What an N+1 session records of the real turn it tests (``ragtui run --replay RUN --at-turn N``).

Kept in the session's config under ``NEXT_TURN_KEY``: ``of_session`` (the imported conversation's
session), ``at_turn`` (the turn answered), ``real_role`` (who answered it for real: ``bot``,
``agent``, ``bot+agent``, or None when nobody did) and ``history`` (how many real messages the
bot was sent before it). Plain data, read by the store's lineage lines, ``show`` and ``compare``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NEXT_TURN_KEY = "next_turn"


def next_turn_note(config: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """An N+1 session's note from its config; None for any other session."""
    note = (config or {}).get(NEXT_TURN_KEY)
    return note if isinstance(note, dict) and isinstance(note.get("at_turn"), int) else None
