"""Screens follow the record: when another process writes to the database, every screen of
the app hears of it (``StoreChanged``) and redraws what it shows from the store.

The check is SQLite's ``PRAGMA data_version`` once a second on a Textual timer: no busy loop,
and nothing is read or redrawn while no other process writes.

A process killed with -9 (or crashed) writes nothing as it dies, so the data version cannot tell
that a session it was running is now interrupted. While the main screen shows a session run by
another process (``follow``), each look also reads that session's status the way the sessions
list does (``Store.session_status``: the owner's pid and start time on this host, its heartbeat
from another) and tells the screens once it is no longer running.
"""

from __future__ import annotations

import logging
from typing import Any

from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer

from ..core.store.changes import DatabaseError
from ..core.store.store import Store

POLL_S = 1.0
log = logging.getLogger(__name__)


class StoreChanged(Message, bubble=False):
    """Another process committed to the database."""


class StoreWatch:
    """Polls the store from ``screen`` (the main screen, alive as long as the app) and tells
    every screen on the stack when another process changed the record."""

    def __init__(self, screen: Screen[Any], store: Store) -> None:
        self.screen = screen
        self.store = store
        self.version = store.changes()
        self.followed: int | None = None  # a session shown read only, another process running it
        self.timer: Timer = screen.set_interval(POLL_S, self.check)

    def follow(self, session_id: int | None) -> None:
        """Watch ``session_id``'s owner too, until it stops running it (None: watch none)."""
        self.followed = session_id

    def check(self) -> bool:
        """One look; True (and every screen told) when another process wrote, or the process
        running the followed session is gone."""
        try:
            changed = self.version.changed() or self._owner_gone()
        except DatabaseError as exc:  # a database gone away: the screens report it when used
            log.debug("data_version failed: %s", exc)
            return False
        if changed:
            for screen in list(self.screen.app.screen_stack):
                screen.post_message(StoreChanged())
        return changed

    def _owner_gone(self) -> bool:
        """The followed session no longer reads as running (its process died, or it was deleted):
        told once; the screen follows it again if another process still runs it."""
        if self.followed is None or self.store.session_status(self.followed) == "running":
            return False
        self.followed = None
        return True
