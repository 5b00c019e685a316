"""The one door untrusted text (model replies, stored sessions, scenario and persona files,
error messages that quote them) passes before a widget shows it.

Two things can go wrong. Rich markup: "[bold red]" or "[link=…]" in a reply would be obeyed —
so every widget gets a ``rich.text.Text`` (``plain``) or ``markup=False``, never a markup string
built from such text. And the *terminal*: ANSI escape sequences (window titles, a cleared
screen, cursor moves, hyperlinks), BEL and other C0/C1 control characters, and bidi overrides
that reorder what the operator reads. Those are removed here, by the core's
``strip_controls`` (the generator cleans the scenarios it writes with the same function), so
every widget can trust what it receives.

Which function for which widget:

- ``plain(text)`` — a ``Text`` for a ``Static``/``Label``, a table cell, a title;
- ``clean_text(text)`` — a str to put into a ``Text`` being built (``text.append(...)``);
- ``one_line(text, limit)`` — one bounded line: headers, table cells, list prompts;
- ``field_text(text)`` — the value of a one-line ``Input``;
- ``area_text(text)`` — the text of a ``TextArea`` (tabs kept: the area draws them itself);
- ``StreamCleaner`` — streamed fragments, an escape sequence split between two of them.

Notifications need none of these: ``RagtuiApp.notify`` cleans every message and title and
never parses markup. ``tests/architecture/test_one_door_for_text.py`` finds a widget given text
any other way.
"""

from __future__ import annotations

import re

from rich.text import Text

from ..core.text.text_safety import strip_controls

# An escape sequence may be split across two streamed fragments: hold back an unfinished tail.
_UNFINISHED = re.compile(r"\x1b(?:\[[0-?]*[ -/]*|\][^\x07\x1b]*)?$")


def clean_text(text: str) -> str:
    """``text`` without escape sequences and control characters; tabs become spaces."""
    return strip_controls(text).replace("\t", "    ")


def plain(text: str, style: str = "") -> Text:
    """Untrusted text as a Rich ``Text`` that is never parsed for markup."""
    return Text(clean_text(text), style=style)


def one_line(text: str, limit: int = 60) -> str:
    """A cleaned, single-line, bounded rendering for headers, tables and notifications."""
    flat = " ".join(clean_text(text).split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


def field_text(text: str) -> str:
    """The value of a one-line ``Input``: cleaned, its line breaks and tabs made spaces (a
    field has one line), nothing else changed, so saving an untouched field keeps its words."""
    return clean_text(text).replace("\n", " ")


def area_text(text: str) -> str:
    """The text of a ``TextArea``: cleaned, lines and tabs kept."""
    return strip_controls(text)


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
