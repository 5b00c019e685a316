"""Sections to passages: each section is cut at paragraph ends into passages of at most
``MAX_PASSAGE_CHARS`` characters (characters, not words, so Japanese is measured the same way);
an over-long paragraph is cut at sentence ends, and at the limit as a last resort. A passage never
spans two sections, and its text is exactly its span of the document's text."""

from __future__ import annotations

import hashlib
import re

from ..types.knowledge import Document, Section, SourcedPassage

MAX_PASSAGE_CHARS = 700
_PARAGRAPH_BREAK = re.compile(r"\n[ \t]*\n")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？\n])")


def passages_of(document: Document, max_chars: int = MAX_PASSAGE_CHARS) -> list[SourcedPassage]:
    out: list[SourcedPassage] = []
    for section in document.sections:
        for start, end in _pack(_pieces(document.text, section, max_chars), max_chars):
            text = document.text[start:end]
            out.append(
                SourcedPassage(
                    doc_id=document.path,
                    title=" › ".join(section.heading) if section.heading else document.title,
                    heading=section.heading,
                    page=section.page,
                    start=start,
                    end=end,
                    text=text,
                    content_hash=hashlib.sha256(text.encode("utf-8")).hexdigest(),
                )
            )
    return out


def _pieces(text: str, section: Section, limit: int) -> list[tuple[int, int]]:
    """The section's paragraphs as spans, each at most ``limit`` long, whitespace trimmed."""
    spans: list[tuple[int, int]] = []
    start = section.start
    for match in [*_PARAGRAPH_BREAK.finditer(text, section.start, section.end), None]:
        end = match.start() if match else section.end
        spans += _cap(text, *_trim(text, start, end), limit)
        start = match.end() if match else end
    return [(s, e) for s, e in spans if e > s]


def _cap(text: str, start: int, end: int, limit: int) -> list[tuple[int, int]]:
    """An over-long paragraph cut at sentence ends (a hard cut as a last resort)."""
    if end - start <= limit:
        return [(start, end)]
    cuts = [start] + [m.start() for m in _SENTENCE_END.finditer(text, start, end)] + [end]
    pieces: list[tuple[int, int]] = []
    piece_start = start
    for previous, cut in zip(cuts, cuts[1:], strict=False):
        if cut - piece_start > limit and previous > piece_start:
            pieces.append((piece_start, previous))
            piece_start = previous
        while cut - piece_start > limit:  # one sentence longer than the limit
            pieces.append((piece_start, piece_start + limit))
            piece_start += limit
    pieces.append((piece_start, end))
    return [_trim(text, s, e) for s, e in pieces]


def _pack(pieces: list[tuple[int, int]], limit: int) -> list[tuple[int, int]]:
    """Neighbouring pieces joined while the joined span stays within ``limit``."""
    packed: list[tuple[int, int]] = []
    for start, end in pieces:
        if packed and end - packed[-1][0] <= limit:
            packed[-1] = (packed[-1][0], end)
        else:
            packed.append((start, end))
    return packed


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end
