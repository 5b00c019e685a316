"""An out-of-scope probe asks about something the knowledge base does not contain, to see that
the bot says it does not know (or hands over) instead of inventing it. Whether it really is out of
scope is checked in code: none of its key terms may occur in any passage.

Left to itself a small writer proposes topics the help centre does cover, so each probe is about
one topic that code has found absent (``probe_topics`` in the prompt file, one per line, its terms
separated by ``/``), taken in turn. A question that names it takes that topic's terms as its key
terms; any other question is checked on the terms the writer gave."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ..types.knowledge import SourcedPassage
from .normalize import plain

MODEL_TERM_MIN = 3  # a writer's term shorter than this is too common to tell anything
TOPIC_TERM_MIN = 2  # curated terms are specific: 学割 and 寄付 are words in Japanese


@dataclass(frozen=True)
class TermFound:
    term: str
    doc_id: str  # the first passage's document that contains it


@dataclass(frozen=True)
class ProbeTopic:
    name: str
    terms: tuple[str, ...]  # the name first; none may occur in a passage for the topic to be absent


def terms_in_knowledge(
    terms: Iterable[str], passages: Iterable[SourcedPassage], min_length: int = MODEL_TERM_MIN
) -> list[TermFound]:
    """The key terms that do occur somewhere (normalized: case, width and spacing alike); an empty
    list means the probe is out of scope. A term shorter than ``min_length`` characters counts as
    found, so a probe must name something specific."""
    texts = [(p.doc_id, plain(f"{p.title}\n{p.text}")) for p in passages]
    found = []
    for term in terms:
        needle = plain(term)
        if len(needle) < min_length:
            found.append(TermFound(term, ""))
            continue
        hit = next((doc for doc, text in texts if _occurs(needle, text)), None)
        if hit is not None:
            found.append(TermFound(term, hit))
    return found


def parse_topics(text: str) -> list[ProbeTopic]:
    """``probe_topics`` as written: a line per topic, ``name / term / term``; blank lines and
    lines starting with ``#`` are skipped."""
    topics = []
    for line in text.splitlines():
        parts = [p.strip() for p in line.split("/") if p.strip()]
        if parts and not parts[0].startswith("#"):
            topics.append(ProbeTopic(parts[0], tuple(dict.fromkeys(parts))))
    return topics


def absent_topics(topics: Iterable[ProbeTopic], passages: Sequence[SourcedPassage]) -> list[ProbeTopic]:
    """The topics none of whose terms occurs in any passage."""
    return [t for t in topics if not terms_in_knowledge(t.terms, passages, TOPIC_TERM_MIN)]


def topic_for(absent: Sequence[ProbeTopic], probe_number: int) -> ProbeTopic | None:
    """The topic of a run's ``probe_number``-th probe: the absent topics in turn, so successive
    probes are about different things rather than near-duplicates."""
    return absent[probe_number % len(absent)] if absent else None


def topic_named(question: str, topics: Iterable[ProbeTopic]) -> ProbeTopic | None:
    """The first of ``topics`` one of whose terms the question uses."""
    text = plain(question)
    return next((t for t in topics if any(_occurs(plain(term), text) for term in t.terms)), None)


def _occurs(needle: str, text: str) -> bool:
    """``needle`` in ``text``; a term in Latin letters as a word of its own ("api" is not in
    "rapid", "gift card" is in "gift cards"), other scripts anywhere, as they have no spaces."""
    if needle.isascii():
        return re.search(rf"(?<![a-z0-9]){re.escape(needle)}", text) is not None
    return needle in text
