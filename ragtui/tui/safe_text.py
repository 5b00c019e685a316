"""Neutralise untrusted text (model replies, stored sessions, persona files) before display.

Rich markup is never involved: every widget that shows such text gets a ``rich.text.Text`` or
``markup=False``. What remains dangerous is what the *terminal* would interpret: ANSI escape
sequences (colours, cursor moves, window titles, hyperlinks), other C0/C1 control characters
and bidi overrides that reorder what the operator reads. They are removed here, once, so every
widget can trust what it receives.
"""

from __future__ import annotations

import re

from rich.text import Text

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ST), and any other two-character ESC sequence.
_ANSI = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?")
# C0 controls except tab and newline, DEL, C1 controls, bidi embeddings/overrides/isolates.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
# An escape sequence may be split across two streamed fragments: hold back an unfinished tail.
_UNFINISHED = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*)?$")


def clean_text(text: str) -> str:
    """``text`` without escape sequences and control characters; tabs become spaces."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    text = _ANSI.sub("", text)
    text = _CONTROL.sub("", text)
    return text.replace("\t", "    ")


def plain(text: str, style: str = "") -> Text:
    """Untrusted text as a Rich ``Text`` that is never parsed for markup."""
    return Text(clean_text(text), style=style)


def one_line(text: str, limit: int = 60) -> str:
    """A cleaned, single-line, bounded rendering for headers, tables and notifications."""
    flat = " ".join(clean_text(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class StreamCleaner:
    """Cleans a stream of fragments, holding back an escape sequence cut between two of them."""

    def __init__(self) -> None:
        self._pending = ""

    def feed(self, fragment: str) -> str:
        data = self._pending + fragment
        match = _UNFINISHED.search(data[-64:]) if "\x1b" in data[-64:] else None
        if match:
            cut = len(data) - (len(data[-64:]) - match.start())
            data, self._pending = data[:cut], data[cut:]
        else:
            self._pending = ""
        # A lone "\r" at the end may be the first half of "\r\n": keep it for the next fragment.
        if data.endswith("\r"):
            data, self._pending = data[:-1], "\r" + self._pending
        return clean_text(data)

    def flush(self) -> str:
        rest, self._pending = self._pending, ""
        return clean_text(rest)
