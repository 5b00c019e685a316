"""Screens follow the record: when another process writes to the database, every screen of
the app hears of it (``RecordChanged``) and redraws what it shows from the store.

The check is SQLite's ``PRAGMA data_version`` once a second on a Textual timer: no busy loop,
and nothing is read or redrawn while no other process writes.
"""

from __future__ import annotations

import logging
import sqlite3
from typing import Any

from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

from ..core.store.changes import DataVersion
from ..core.store.store import Store

POLL_S = 1.0
log = logging.getLogger(__name__)


class RecordChanged(Message, bubble=False):
    """Another process committed to the database."""


class RecordWatch:
    """Polls the store from ``screen`` (the main screen, alive as long as the app) and tells
    every screen on the stack when another process changed the record."""

    def __init__(self, screen: Screen[Any], store: Store) -> None:
        self.screen = screen
        self.version = DataVersion(store.db.conn)
        self.timer: Timer = screen.set_interval(POLL_S, self.check)

    def check(self) -> bool:
        """One look; True (and every screen told) when another process wrote."""
        try:
            changed = self.version.changed()
        except sqlite3.Error as exc:  # a database gone away: the screens report it when used
            log.debug("data_version failed: %s", exc)
            return False
        if changed:
            for screen in list(self.screen.app.screen_stack):
                screen.post_message(RecordChanged())
        return changed
