"""A Markdown text's heading structure: its title and its sections, each with the heading path
above it and its character span. Used for Markdown and text files as they are, and for the
Markdown an HTML page is turned into. Headings inside fenced code blocks are code, not headings."""

from __future__ import annotations

import re

from ..types.knowledge import Section

_HEADING = re.compile(r"^ {0,3}(#{1,6})[ \t]+(.+?)[ \t]*#*[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")


def title_and_sections(text: str, fallback_title: str) -> tuple[str, tuple[Section, ...]]:
    """The first level-1 heading (else the first heading, else ``fallback_title``) and the
    sections between headings, heading lines left out, blank sections dropped."""
    headings = heading_lines(text)
    title = next((h[3] for h in headings if h[2] == 1), headings[0][3] if headings else fallback_title)
    sections: list[Section] = []
    path: list[tuple[int, str]] = []
    body_start = 0
    for line_start, line_end, level, heading in [*headings, (len(text), len(text), 0, "")]:
        _add(sections, text, tuple(h for _, h in path), body_start, line_start)
        if level:
            path = [(lvl, h) for lvl, h in path if lvl < level] + [(level, heading)]
        body_start = line_end
    return title, tuple(sections)


def heading_lines(text: str) -> list[tuple[int, int, int, str]]:
    """Each heading outside fenced code: (line start, line end, level, its words)."""
    headings: list[tuple[int, int, int, str]] = []
    offset = 0
    fenced = False
    for line in text.splitlines(keepends=True):
        stripped = line.rstrip("\r\n")
        if _FENCE.match(stripped):
            fenced = not fenced
        elif not fenced and (match := _HEADING.match(stripped)):
            headings.append((offset, offset + len(line), len(match.group(1)), _plain(match.group(2))))
        offset += len(line)
    return headings


def _add(sections: list[Section], text: str, heading: tuple[str, ...], start: int, end: int) -> None:
    body = text[start:end]
    if not body.strip():
        return
    start += len(body) - len(body.lstrip())
    end -= len(body) - len(body.rstrip())
    sections.append(Section(heading, start, end))


def _plain(heading: str) -> str:
    """A heading's words without Markdown emphasis or links: ``**Refunds**`` → ``Refunds``."""
    heading = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading)
    return re.sub(r"[*_`]+", "", heading).strip()
