"""The filter a list screen applies as a person types: words, not a pattern language."""

from __future__ import annotations

from collections.abc import Iterable


def matches(query: str, fields: Iterable[str]) -> bool:
    """Whether every word of ``query`` is in one of ``fields``, ignoring case: ``angry done``
    keeps the finished dialogues with the angry persona. An empty query matches everything."""
    haystack = " ".join(fields).casefold()
    return all(word in haystack for word in query.casefold().split())
