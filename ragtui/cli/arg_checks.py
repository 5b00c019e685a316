"""Range checks of numeric command-line values, each failing as one line that names the flag.

argparse only checks that a value is a whole number; a count of 0, an id past SQLite's integer
range or a port past 65535 would otherwise be silently changed or fail deep inside as an
``OverflowError``.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.errors import RagtuiError

MAX_SQLITE_INT = 2**63 - 1  # the largest id SQLite can store or look up
MAX_PORT = 65535


def check_range(value: int, name: str, low: int, high: int, hint: str = "") -> int:
    if not low <= value <= high:
        allowed = f"{low} or more" if high == MAX_SQLITE_INT and value < low else f"from {low} to {high}"
        raise RagtuiError(f"{name} must be {allowed}, got {value}", hint)
    return value


def check_count(value: int, flag: str) -> int:
    """A how-many flag (``-n``, ``--workers``): 1 or more."""
    return check_range(value, flag, 1, MAX_SQLITE_INT)


def check_ids(values: Iterable[int], what: str = "session id") -> None:
    for value in values:
        check_range(value, what, 1, MAX_SQLITE_INT, "list them with `ragtui sessions`")


def check_port(value: int) -> int:
    return check_range(value, "--port", 0, MAX_PORT, "0 picks a free one")
