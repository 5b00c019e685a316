"""Bot failures as one line: what failed, the HTTP status, a bounded snippet of the raw
response — and never a secret.

A bot's response can be megabytes, binary, or multi-line HTML, and a misbehaving server may
echo the request's headers back. So every snippet is decoded leniently, flattened to one line,
cut to ``SNIPPET_CHARS``, and every secret the request carried is masked before the text goes
into an exception (and from there into the store, the terminal and the TUI).
"""

from __future__ import annotations

from collections.abc import Iterable

from ..types.errors import EndpointError

SNIPPET_CHARS = 300
MASK = "***"


class BotError(EndpointError):
    """The bot under test failed or answered something ragtui cannot use."""

    def __init__(self, message: str, hint: str = "", *, status: int | None = None, snippet: str = "") -> None:
        super().__init__(message, hint)
        self.status = status
        self.snippet = snippet


class BrokenBotStream(BotError):
    """The bot's streamed body broke off; retried, and kept as a partial record when it keeps
    breaking (never as the answer)."""

    role = "bot"

    def __init__(
        self,
        message: str,
        hint: str = "",
        *,
        status: int | None = None,
        snippet: str = "",
        partial: str = "",
        cut_by_time: bool = False,
        seconds: float | None = None,
    ) -> None:
        super().__init__(message, hint, status=status, snippet=snippet)
        self.partial = partial
        self.attempts = 1
        # Stopped by reply_timeout while the bot was still answering: an answer cut off (cut_off.py).
        self.cut_by_time = cut_by_time
        self.seconds = seconds


class Redactor:
    """Masks the values of secrets (expanded header values, environment variables) in text."""

    def __init__(self, secrets: Iterable[str] = ()) -> None:
        # Longest first, so a token inside a longer header value is masked as part of it.
        # Very short values would mask ordinary words, so they are ignored (and nobody uses
        # a three-character token).
        self.secrets = sorted({s for s in secrets if len(s) >= 4}, key=len, reverse=True)

    def __call__(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, MASK)
        return text

    def extend(self, secrets: Iterable[str]) -> None:
        self.secrets = sorted({*self.secrets, *(s for s in secrets if len(s) >= 4)}, key=len, reverse=True)


def snippet(raw: bytes | str, redact: Redactor | None = None, limit: int = SNIPPET_CHARS) -> str:
    """A single-line, bounded, secret-free rendering of a raw response body."""
    if isinstance(raw, bytes):
        # Only the head matters; decoding a 5 MB body to show 300 characters would be waste.
        # The head reaches past the cut by the longest secret, so one straddling it is masked whole.
        longest = max((len(s) for s in redact.secrets), default=0) if redact is not None else 0
        raw = raw[: (limit + longest) * 4].decode("utf-8", errors="replace")
    text = " ".join(raw.split())
    if redact is not None:
        text = redact(text)
    text = "".join(c if c.isprintable() else "\ufffd" for c in text)
    if not text:
        return "(empty body)"
    return text if len(text) <= limit else text[: limit - 1] + "…"


def one_line(exc: BaseException, limit: int = 200) -> str:
    """``TypeName: message`` on one line, bounded: how a bot's exception is summarised."""
    message = " ".join(str(exc).split())
    text = f"{type(exc).__name__}: {message}" if message else type(exc).__name__
    return text if len(text) <= limit else text[: limit - 1] + "…"
