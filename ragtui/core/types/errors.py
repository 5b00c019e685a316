"""Errors that reach the user as one clear line.

Every failure the user can fix (a bad file, a missing key, a dead endpoint) is raised as a
``RagtuiError`` whose message names *what* and *where*, and whose ``hint`` says what to do.
The CLI and the TUI print ``str(error)``; they never show a traceback for these.
"""

from __future__ import annotations


class RagtuiError(Exception):
    """A problem the user can act on: message names what and where, hint says what to do.

    ``by_hand`` is what to do instead when the failed step waits for a person to retry it (a
    dialogue paused on its failure, as the TUI runs them), where the batch's advice does not
    apply: a 429's "lower --concurrency" names a flag of ``ragtui run``, and the TUI runs one
    dialogue at a time. Empty: ``hint`` holds for both."""

    def __init__(self, message: str, hint: str = "", *, by_hand: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.by_hand = by_hand

    def __str__(self) -> str:
        return self.said()

    def said(self, *, by_hand: bool = False) -> str:
        """The line to show; ``by_hand``: for a step retried by a person (see the class)."""
        hint = self.by_hand if by_hand and self.by_hand else self.hint
        return f"{self.message} — {hint}" if hint else self.message


# A rate limit (429) that outlasted the retries, for the one who retries the step by hand.
RATE_LIMIT_BY_HAND = (
    "wait a moment, then retry the step; to have it retried for you, raise max_retries for the role in ragtui.toml"
)


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
    the retries. ``partial`` is what arrived: a record of the failure, never a message — except
    a bot's answer stopped by ``reply_timeout`` (``cut_by_time``): the bot was still answering,
    so what it had said is its answer, kept marked as cut off and judged (bots/cut_off.py)."""

    def __init__(
        self,
        message: str,
        hint: str = "",
        *,
        role: str,
        partial: str = "",
        attempts: int = 1,
        cut_by_time: bool = False,
        seconds: float | None = None,
    ) -> None:
        super().__init__(message, hint)
        self.role = role
        self.partial = partial
        self.attempts = attempts
        self.cut_by_time = cut_by_time  # stopped by the whole reply's time limit, still streaming
        self.seconds = seconds  # that limit


class KnowledgeFileError(RagtuiError):
    """A file of the knowledge folder gives no text: unreadable, an unknown type, binary, too
    large, no text (a scanned PDF), not decodable. The folder is read without it, and the file is
    listed with this reason; it never stops a run on its own."""
