"""A small JSON path syntax for mapping a bot's response onto an answer and its passages.

Enough to reach into the responses of real support-bot APIs without a dependency::

    answer                   the "answer" key of the top-level object
    data.reply.text          nested keys
    choices[0].message       a list index (negative counts from the end)
    sources[*].content       every element of a list (or every value of an object)
    ["key.with.dots"]        a key that contains dots or brackets ('single' quotes work too)
    $ or the empty string    the whole document

A leading ``$`` or ``$.`` is accepted, so paths copied from JSONPath tools work as they are.
Paths are parsed when the config is read, so a typo fails before any dialogue starts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

_NAME = re.compile(r"[^.\[\]\s]+")
_INDEX = re.compile(r"\[\s*(-?\d+)\s*\]")
_STAR = re.compile(r"\[\s*\*\s*\]")
_QUOTED = re.compile(r"""\[\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')\s*\]""")


class Wildcard:
    """Marker step: every element of a list, or every value of an object."""

    def __repr__(self) -> str:
        return "[*]"


WILDCARD = Wildcard()
Step = str | int | Wildcard


@dataclass(frozen=True)
class JsonPath:
    text: str
    steps: tuple[Step, ...]

    @classmethod
    def parse(cls, text: str) -> JsonPath:
        """Parse ``text``; raises ValueError saying where the syntax goes wrong."""
        source = text.strip()
        rest = source
        if rest.startswith("$"):
            rest = rest[1:]
        steps: list[Step] = []
        expect_name = True  # a bare name may follow the start or a dot, not a closing bracket
        while rest:
            position = len(source) - len(rest)
            if rest.startswith("."):
                rest = rest[1:]
                if not rest or rest[0] in ".]":
                    raise ValueError(f"JSON path {text!r}: a key name is missing at character {position + 1}")
                expect_name = True
                continue
            if match := _STAR.match(rest):
                steps.append(WILDCARD)
            elif match := _INDEX.match(rest):
                steps.append(int(match.group(1)))
            elif match := _QUOTED.match(rest):
                raw = match.group(1) if match.group(1) is not None else match.group(2)
                steps.append(re.sub(r"\\(.)", r"\1", raw))
            elif expect_name and (match := _NAME.match(rest)):
                steps.append(match.group(0))
            else:
                raise ValueError(
                    f"JSON path {text!r}: unexpected {rest[0]!r} at character {position + 1}",
                )
            rest = rest[match.end() :]
            expect_name = False
        return cls(source, tuple(steps))

    def find(self, document: Any) -> list[Any]:
        """Every value the path reaches, in document order; empty when it reaches nothing."""
        current = [document]
        for step in self.steps:
            following: list[Any] = []
            for value in current:
                if isinstance(step, Wildcard):
                    if isinstance(value, list):
                        following.extend(value)
                    elif isinstance(value, dict):
                        following.extend(value.values())
                elif isinstance(step, int):
                    if isinstance(value, list) and -len(value) <= step < len(value):
                        following.append(value[step])
                elif isinstance(value, dict) and step in value:
                    following.append(value[step])
            current = following
        return current

    def first(self, document: Any) -> Any | None:
        found = self.find(document)
        return found[0] if found else None

    def __str__(self) -> str:
        return self.text or "$"
