"""A text cut into sentences, for the checks that look at one sentence at a time: the rubric's
claims (is this sentence supported by the passages?), the estimate's count of them, and the
repetition measure.

A period ends a sentence only when whitespace (or the end) follows it, so an address, a URL, a
version or a decimal (``support@example.com``, ``https://example.com/help``, ``1.5``) stays one
piece; and not after an abbreviation (``e.g.``, ``i.e.``, ``Dr.``): a bot's sentence split there
would be checked as two half-claims, each unsupported on its own. The Japanese full stop and
marks end a sentence wherever they are (no space follows them in Japanese); so does a newline.
"""

from __future__ import annotations

import re

# A sentence's end: . ! ? (and any closing quote or bracket) before whitespace or the end of
# the text; a Japanese end mark anywhere; a line break.
_END = re.compile(r"[.!?]+[\"'”’)\]]*(?=\s|$)|[。！？]+[」』）]*|\n+")
_LAST_WORD = re.compile(r"(\S+)$")
# Lower-cased, without the final period. Never followed by the end of a sentence in a support
# answer; "etc." often is, so it ends one when a capital letter follows (see ``_abbreviation``).
ABBREVIATIONS = frozenset({"e.g", "i.e", "cf", "vs", "approx", "incl", "excl", "esp", "mr", "mrs", "dr", "prof"})
_INITIALS = re.compile(r"^(?:[a-z]\.)+[a-z]$")  # "u.s", "a.m": letters with periods between


def split_sentences(text: str) -> list[str]:
    """The sentences of ``text``, stripped, empty ones left out, in order."""
    sentences: list[str] = []
    start = 0
    for match in _END.finditer(text):
        if match.group().startswith(".") and _abbreviation(text, match.start(), match.end()):
            continue
        piece = text[start : match.end()].strip()
        if piece:
            sentences.append(piece)
        start = match.end()
    rest = text[start:].strip()
    if rest:
        sentences.append(rest)
    return sentences


def _abbreviation(text: str, dot: int, end: int) -> bool:
    """The period at ``dot`` closes an abbreviation rather than a sentence."""
    if text[dot:end].rstrip("\"'”’)]") != ".":
        return False  # "..." or ".!" end a sentence whatever came before
    found = _LAST_WORD.search(text, 0, dot)
    if found is None:
        return False
    word = found.group(1).lstrip("(\"'“‘[").lower()
    if word in ABBREVIATIONS or _INITIALS.match(word):
        return True
    if word == "etc":  # "…, etc. and more" goes on; "…, etc. Then…" is a new sentence
        following = text[end:].lstrip()
        return bool(following) and not following[0].isupper()
    return False


# Where an English sentence's first clause ends and a second begins: a joining word after a comma
# or a space ("…account and then log in…", "…30 days, but opened bags…"), a semicolon or a dash.
# "Google, Apple, X or LINE" is one clause: a comma alone, or "or" / "and" between names, never
# cuts. Japanese is left whole: its first clause ends in a joining form (〜でき、) that is no
# sentence of its own.
_EN_CLAUSE = re.compile(r"(?:,\s+|\s+)(?:and then|and also|but|so|which|while|because)\s+|;\s+|\s+[—–]\s+")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")
MIN_CLAUSE_WORDS = 4


def first_clause(sentence: str) -> str | None:
    """The first clause of an English ``sentence`` as a sentence of its own, or None when it has
    one clause, its first is too short to say anything alone, or it is Japanese."""
    found = None if _JAPANESE.search(sentence) else _EN_CLAUSE.search(sentence)
    if found is None:
        return None
    head = sentence[: found.start()].strip().rstrip(",")
    return head + "." if len(head.split()) >= MIN_CLAUSE_WORDS else None
