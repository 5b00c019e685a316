"""Paired markers found in time linear in the text: an opener and the nearest closer after it
(``<!--`` … ``-->``, ``{% raw %}`` … ``{% endraw %}``, ``{{<`` … ``>}}``), and Markdown code spans.

A regular expression such as ``<!--.*?-->`` rescans the rest of the text from every opener that
is never closed, which is quadratic: a 2 MB page of unclosed ``{%`` took six minutes. Here each
opener looks for its closer once, and when none follows no later opener can have one either."""

from __future__ import annotations

import re
from collections.abc import Callable

_BACKTICKS = re.compile(r"`+")
_BLANK_LINE = re.compile(r"\n[ \t]*\n")


def replace_pairs(
    text: str, opener: re.Pattern[str], closer: re.Pattern[str], replace: Callable[[str, str], str]
) -> str:
    """``text`` with each opener … nearest closer replaced by ``replace(whole, inner)``."""
    out: list[str] = []
    position = 0
    while (start := opener.search(text, position)) is not None:
        end = closer.search(text, start.end())
        if end is None:
            break
        out += [
            text[position : start.start()],
            replace(text[start.start() : end.end()], text[start.end() : end.start()]),
        ]
        position = end.end()
    return "".join(out) + text[position:]


def code_spans(text: str) -> list[tuple[int, int]]:
    """The spans of Markdown code spans: a run of backticks up to the next run of the same
    length in the same paragraph (CommonMark's rule, without its corner cases)."""
    spans: list[tuple[int, int]] = []
    starts = [0] + [m.end() for m in _BLANK_LINE.finditer(text)]
    ends = [m.start() for m in _BLANK_LINE.finditer(text)] + [len(text)]
    for paragraph_start, paragraph_end in zip(starts, ends, strict=True):
        runs = [(m.start(), m.end()) for m in _BACKTICKS.finditer(text, paragraph_start, paragraph_end)]
        following: list[int | None] = [None] * len(runs)  # the next run of the same length
        last: dict[int, int] = {}
        for index in range(len(runs) - 1, -1, -1):
            length = runs[index][1] - runs[index][0]
            following[index] = last.get(length)
            last[length] = index
        index = 0
        while index < len(runs):
            match = following[index]
            if match is None:
                index += 1
                continue
            spans.append((runs[index][0], runs[match][1]))
            index = match + 1
    return spans
