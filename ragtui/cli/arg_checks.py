"""Range checks of numeric command-line values, each failing as one line that names the flag.

argparse only checks that a value is a whole number; a count of 0, an id past SQLite's integer
range or a port past 65535 would otherwise be silently changed or fail deep inside as an
``OverflowError``.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable

from ..core.config.limits import MAX_REPEAT, count_text
from ..core.types.errors import RagtuiError

MAX_SQLITE_INT = 2**63 - 1  # the largest id SQLite can store or look up
MAX_PORT = 65535
# Trials per scenario × persona a run makes without `--yes`: past it, a typo (`--repeat 50`)
# would multiply the run's cost by tens. `--yes` allows up to MAX_REPEAT, never past it.
REPEAT_WITHOUT_YES = 20


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


def check_repeat(args: argparse.Namespace, configured: int, source: str = "the config's repeat") -> int:
    """Trials per scenario × persona of a new run: ``--repeat K`` (a whole number, 1 or more),
    else the config's ``repeat``; over ``REPEAT_WITHOUT_YES`` only with ``--yes``, and never over
    ``MAX_REPEAT`` (the plan of every trial is built and stored before the first dialogue). A resumed run and a
    replay follow what they continue or re-send, so ``--repeat`` is refused with them."""
    raw = getattr(args, "repeat", None)
    if raw is None and (getattr(args, "resume", None) or getattr(args, "replay", None)):
        return 1  # not a new plan: the config's repeat does not apply
    if raw is None:
        repeat, name = configured, source
    else:
        for flag in ("resume", "replay"):
            if getattr(args, flag, None):
                hint = "a resumed run runs the trials its stored plan has" if flag == "resume" else "drop --repeat"
                raise RagtuiError(f"--repeat cannot be combined with --{flag}", hint)
        try:
            repeat = int(str(raw).strip())
        except ValueError:
            raise RagtuiError(f"--repeat must be a whole number of 1 or more, got {raw!r}") from None
        name = "--repeat"
        if repeat < 1:
            raise RagtuiError(f"--repeat must be a whole number of 1 or more, got {repeat}")
    if repeat > MAX_REPEAT:
        raise RagtuiError(
            f"{name} {count_text(repeat)} is over {MAX_REPEAT}, the most trials per scenario × persona a run plans",
            f"give {MAX_REPEAT} or fewer",
        )
    if repeat > REPEAT_WITHOUT_YES and not getattr(args, "yes", False):
        raise RagtuiError(
            f"{name} {repeat} is over {REPEAT_WITHOUT_YES} trials per scenario × persona", "add --yes to run that many"
        )
    return repeat
