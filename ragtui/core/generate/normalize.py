"""Text compared the way a person reads it: Unicode NFKC (full- and half-width alike, ｱ and ア,
１ and 1), case folded, Markdown emphasis and curly quotes made plain, whitespace collapsed —
with a map back to the original characters, so a match is a span of the source itself."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

# Markdown emphasis and code marks an HTML page's Markdown carries (**5 days**) that a quote of
# the same words leaves out; curly quotes and dashes a model writes for straight ones.
_DROPPED = frozenset("*_`")
# Quote marks of every kind are one mark: a model quotes a label 'Link' that the page wrote "Link".
_SAME = {"‘": '"', "’": '"', "'": '"', "“": '"', "”": '"', "–": "-", "—": "-", "−": "-", "「": '"', "」": '"'}


@dataclass(frozen=True)
class Normalized:
    text: str
    origin: tuple[int, ...]  # origin[i]: index in the original text of normalized character i

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original text's span of normalized characters ``start:end``."""
        return self.origin[start], self.origin[end - 1] + 1


def normalize(text: str) -> Normalized:
    chars: list[str] = []
    origin: list[int] = []
    space = False
    for index, char in enumerate(text):
        for piece in unicodedata.normalize("NFKC", char).casefold():
            piece = _SAME.get(piece, piece)
            if piece in _DROPPED:
                continue
            if piece.isspace():
                space = bool(chars)  # leading space dropped, runs collapsed to one
                continue
            if space:
                chars.append(" ")
                origin.append(index)
                space = False
            chars.append(piece)
            origin.append(index)
    return Normalized("".join(chars), tuple(origin))


def plain(text: str) -> str:
    """The normalized form alone."""
    return normalize(text).text


_ELLIPSIS = re.compile(r"\s*(?:\.\.\.|…|‥)+\s*")


def quote_parts(quote: str) -> list[str]:
    """A quote's parts: a model marks left-out words with an ellipsis, and each part must then
    be found on its own, in order."""
    return [part for part in (plain(p) for p in _ELLIPSIS.split(quote)) if part]
