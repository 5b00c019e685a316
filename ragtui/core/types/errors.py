"""Errors that reach the user as one clear line.

Every failure the user can fix (a bad file, a missing key, a dead endpoint) is raised as a
``RagtuiError`` whose message names *what* and *where*, and whose ``hint`` says what to do.
The CLI and the TUI print ``str(error)``; they never show a traceback for these.
"""

from __future__ import annotations


class RagtuiError(Exception):
    """A problem the user can act on: message names what and where, hint says what to do."""

    def __init__(self, message: str, hint: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint

    def __str__(self) -> str:
        return f"{self.message} — {self.hint}" if self.hint else self.message


class ConfigError(RagtuiError):
    """The config file, a persona, a scenario or a prompt template is invalid."""


class EndpointError(RagtuiError):
    """An OpenAI-compatible endpoint could not be reached or refused the request."""


class StoreError(RagtuiError):
    """The SQLite database cannot be opened, written, or is from a newer ragtui."""


class StoreWriteError(StoreError):
    """A write to the database failed (disk full, read-only file, a lock that never cleared):
    a run stops starting dialogues, and what it could not record stays resumable."""


class IncompleteReply(EndpointError):
    """A streamed reply never completed (cut, malformed, or ended without a finish), even after
    the retries. ``partial`` is what arrived: a record of the failure, never a message."""

    def __init__(self, message: str, hint: str = "", *, role: str, partial: str = "", attempts: int = 1) -> None:
        super().__init__(message, hint)
        self.role = role
        self.partial = partial
        self.attempts = attempts


class KnowledgeFileError(RagtuiError):
    """A file of the knowledge folder gives no text: unreadable, an unknown type, binary, too
    large, no text (a scanned PDF), not decodable. The folder is read without it, and the file is
    listed with this reason; it never stops a run on its own."""
