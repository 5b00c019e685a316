"""Is a reference answer's supporting quote really in its source passage? Checked in code, never
taken on the generator's word: every part of the quote (parts split at an ellipsis) must occur,
in order, in the passage's normalized text; the answer is the span of the passage it covers."""

from __future__ import annotations

from dataclasses import dataclass

from .normalize import normalize, quote_parts


@dataclass(frozen=True)
class QuoteMatch:
    start: int  # character span in the passage as given
    end: int


def find_quote(quote: str, passage: str) -> QuoteMatch | None:
    """The span of ``passage`` that ``quote`` covers, or None when any part is missing."""
    parts = quote_parts(quote)
    if not parts:
        return None
    source = normalize(passage)
    position = 0
    first = last = None
    for part in parts:
        found = source.text.find(part, position)
        if found < 0:
            return None
        first = found if first is None else first
        last = found + len(part)
        position = last
    assert first is not None and last is not None
    start, end = source.span(first, last)
    return QuoteMatch(start, end)
