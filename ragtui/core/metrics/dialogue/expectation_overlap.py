"""What plain text overlap can decide about a judged expectation, without asking the judge.

Two cases only, both safe on the labelled set's kinds (docs/expectations-agreement.md):

- **met**: the expectation's content clause ("an order can be cancelled … within 2 hours")
  appears word for word in the answer (Unicode-normalised, casefolded);
- **missed**: the expectation names a quantity (``2 hours``, ``5日間``) or an e-mail address
  and the answer gives the same unit with another number, or another address, and never the
  expected one — the "wrong detail" a small judge reads as a match.

Everything else (paraphrases, implicit answers, contradictions) goes to the judge: ``decide``
returns None. Prohibitions are never decided here: doing an act is not a matter of words.
"""

from __future__ import annotations

import re
import unicodedata

from ...types.expectations import Expectation
from .expectation_parts import split_parts

_EN_VERBS = ("says", "gives", "tells", "mentions", "explains", "states", "confirms", "offers", "names")
_JA_TAILS = ("と伝える", "ことも伝える", "と案内する", "よう案内する", "を案内する", "と説明する", "を伝える")
MIN_CLAUSE_CHARS = 16  # shorter clauses ("the fee") match by accident
_UNIT_ALIASES = {
    "hour": "hours",
    "hrs": "hours",
    "h": "hours",
    "day": "days",
    "minute": "minutes",
    "mins": "minutes",
    "min": "minutes",
    "second": "seconds",
    "secs": "seconds",
    "gigahertz": "ghz",
    "year": "years",
    "month": "months",
    "euro": "euros",
    "日間": "日",
    "ヶ月": "か月",
    "カ月": "か月",
}
_EN_QUANTITY = re.compile(
    r"(?<![\d.])(\d+(?:\.\d+)?)\s*-?\s*(hours?|hrs|days?|minutes?|mins?|seconds?|secs|ghz|gigahertz|years?|months?|euros?)\b"
)
# 時 before the digits is a clock time (14時50分), not a duration of minutes.
_JA_QUANTITY = re.compile(r"(?<![\d.時])(\d+(?:\.\d+)?)\s*(時間|日間|日|分|秒|年|か月|ヶ月|カ月|円|個)")
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", unicodedata.normalize("NFKC", text).casefold()).strip()


def _clause(part: str, language: str) -> str:
    """The part without the verb that frames it ("says that X" → "X", "Xと伝える" → "X")."""
    if language == "ja":
        for tail in _JA_TAILS:
            if part.endswith(tail):
                return part[: -len(tail)]
        return part
    words = part.split()
    if words and words[0] in _EN_VERBS:
        words = words[1:]
        if words and words[0] in ("that", "the customer", "customers"):
            words = words[1:]
    return " ".join(words)


def _quantities(text: str, language: str) -> set[tuple[str, str]]:
    pattern = _JA_QUANTITY if language == "ja" else _EN_QUANTITY
    found = set()
    for number, unit in pattern.findall(text):
        unit = _UNIT_ALIASES.get(unit, unit)
        if unit in ("年", "years") and len(number) == 4:
            continue  # 2024年 is a date, not a number of years
        found.add((number, unit))
    return found


def _wrong_detail(expected: str, answer: str, language: str) -> bool:
    for number, unit in _quantities(expected, language):
        given = {n for n, u in _quantities(answer, language) if u == unit}
        if given and number not in given:
            return True
    addresses = set(_EMAIL.findall(expected))
    if addresses:
        given_addresses = set(_EMAIL.findall(answer))
        if given_addresses and not addresses & given_addresses:
            return True
    return False


def decide(expectation: Expectation, answer: str, language: str) -> float | None:
    """1.0 (met), 0.0 (missed) or None (ask the judge); see the module docstring."""
    if expectation.polarity != "must":
        return None
    text, said = normalise(expectation.text), normalise(answer)
    if _wrong_detail(text, said, language):
        return 0.0
    clauses = [_clause(p, language) for p in split_parts(text, language)]
    if all(len(c) >= MIN_CLAUSE_CHARS and c in said for c in clauses):
        return 1.0
    return None
