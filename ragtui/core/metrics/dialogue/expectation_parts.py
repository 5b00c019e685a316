"""A two-part expectation ("gives the address and says to include the invoice number") as its
parts, each a whole expectation on its own, so the judge is asked one thing at a time."""

from __future__ import annotations

import re

# "… and says …", "… and that …", "… and to …": a second clause, not a pair of nouns
# ("the address and the phone number" stays whole: one act about two things).
_EN_SPLIT = re.compile(r",?\s+and\s+(?=(?:that|to|\w+s)\b)", re.IGNORECASE)
_JA_SPLIT = re.compile(r"(と伝え|を案内し|と説明し)、")
_JA_PLAIN = {"と伝え": "と伝える", "を案内し": "を案内する", "と説明し": "と説明する"}


def split_parts(text: str, language: str) -> list[str]:
    """The expectation's parts; the text itself when it has one part."""
    text = text.strip()
    if language == "ja":
        match = _JA_SPLIT.search(text)
        if not match:
            return [text]
        first = text[: match.start()] + _JA_PLAIN[match.group(1)]
        return [first, text[match.end() :].strip()]
    pieces = _EN_SPLIT.split(text, maxsplit=1)
    if len(pieces) != 2 or not pieces[1].strip():
        return [text]
    first, second = pieces[0].strip(), pieces[1].strip()
    verb = first.split()[0]
    if second.split()[0].lower() in ("that", "to"):
        second = f"{verb} {second}"  # "says X and that Y" → "says that Y"
    return [first, second]
