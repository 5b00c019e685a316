"""What the operator was told: every notification the app raised, as it was shown, kept.

A toast disappears after a few seconds, by the clock. The ``NoticeLog`` keeps the same message
(cleaned, markup rendered to the text on screen), its title and severity, and when it was
raised — the newest ``LIMIT`` of them, never expiring. The Messages dialog reads it back to an
operator who looked away when a toast went by; tests read it to check what the operator was
told, rather than Textual's private, expiring list of toasts (an architecture test forbids that).

Free of widgets, so it can be filled from any thread (``App.notify`` is thread-safe; a deque's
``append`` is atomic).
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .safe_text import clean_text

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel

LIMIT = 200  # a day's worth of notices for an operator; old ones drop off the front


@dataclass(frozen=True)
class Notice:
    message: str  # the text the toast shows: control sequences removed, markup never parsed
    title: str
    severity: SeverityLevel
    at: float  # when it was raised (time.time())


class NoticeLog:
    """The newest ``limit`` notices, oldest first."""

    def __init__(self, limit: int = LIMIT) -> None:
        self._notices: deque[Notice] = deque(maxlen=limit)

    def record(self, message: str, *, title: str, severity: SeverityLevel) -> tuple[str, str]:
        """Log a notice and return the cleaned ``(message, title)`` to show: what the log keeps is
        exactly what the toast shows."""
        message, title = clean_text(message), clean_text(title)
        self._notices.append(Notice(message, title, severity, time.time()))
        return message, title

    def __iter__(self) -> Iterator[Notice]:
        return iter(list(self._notices))  # a copy: another thread may append meanwhile

    def __len__(self) -> int:
        return len(self._notices)

    def messages(self) -> list[str]:
        """Every kept message, oldest first."""
        return [n.message for n in self]

    def newest_first(self) -> list[Notice]:
        return list(reversed(list(self)))
