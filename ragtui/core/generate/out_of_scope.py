"""An out-of-scope probe asks about something the knowledge base does not contain, to see that
the bot says it does not know (or hands over) instead of inventing it. Whether it really is out of
scope is checked in code: none of its key terms may occur in any passage."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from ..types.knowledge import SourcedPassage
from .normalize import plain


@dataclass(frozen=True)
class TermFound:
    term: str
    doc_id: str  # the first passage's document that contains it


def terms_in_knowledge(terms: Iterable[str], passages: Iterable[SourcedPassage]) -> list[TermFound]:
    """The key terms that do occur somewhere (normalized: case, width and spacing alike); an empty
    list means the probe is out of scope. A term shorter than 3 characters is too common to tell
    anything and counts as found, so a probe must name something specific."""
    texts = [(p.doc_id, plain(f"{p.title}\n{p.text}")) for p in passages]
    found = []
    for term in terms:
        needle = plain(term)
        if len(needle) < 3:
            found.append(TermFound(term, ""))
            continue
        hit = next((doc for doc, text in texts if needle in text), None)
        if hit is not None:
            found.append(TermFound(term, hit))
    return found
