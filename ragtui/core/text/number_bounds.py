"""The bounds a text sets on its numbers, so that two texts setting opposite bounds on the same
amount are seen to disagree in code: "You can pause for up to 3 months" and "You can pause for
more than 3 months"; 「3か月まで」 and 「3か月以上」.

A small judge reads the two as alike (it met the second on the first at 0.95), so an expectation
the writer got backwards would be proven on the reference it contradicts. Read here:

- an upper bound: "up to", "at most", "no more than", "a maximum of", "within", "less than",
  "fewer than", "under", "N … or less/fewer"; 「まで」「以内」「以下」「未満」「最大」「最長」;
- a lower bound: "more than", "over", "at least", "a minimum of", "longer than", "exceeding",
  "beyond", "N … or more/longer"; 「以上」「を超え」「超」「最低」「少なくとも」;
- the amount as ``exact_match.exact_form`` writes it (number words and kanji as digits, one form
  per unit), with the unit that follows when it is one ("3 month" is not "3 day"; "¥5,000 or
  more" is 5000).

A clause with a negation ("cannot pause for more than 3 months", 「3か月を超えて…できません」)
sets no bound here: where its "not" falls is a reading this module does not attempt, and a bound
left unread only leaves the judge to decide, as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from .exact_match import exact_form

Side = Literal["upper", "lower"]

_NUMBER = r"(\d+(?:\.\d+)?)"
# a unit is one of these (as exact_form writes them) or none: "5000 ship" is no amount
_EN_UNIT = (
    r"(?:\s+((?:business |working )?(?:second|minute|hour|day|week|month|year|time|character)"
    r"|yen|dollars?|euros?|pounds?|items?|orders?|attempts?|devices?|accounts?|members?|seats?|gb|mb|kg|g|%)\b)?"
)
_EN_UPPER_BEFORE = (
    r"up to|at most|no more than|not more than|a maximum of|maximum of|max\.?|within|less than|fewer than|under"
)
_EN_LOWER_BEFORE = r"more than|over|at least|a minimum of|minimum of|longer than|exceeding|beyond|no less than"
_EN_BEFORE = re.compile(rf"\b({_EN_UPPER_BEFORE}|{_EN_LOWER_BEFORE})\s+(?:[$¥€£]\s?)?{_NUMBER}{_EN_UNIT}")
_EN_AFTER = re.compile(rf"(?:[$¥€£]\s?)?\b{_NUMBER}{_EN_UNIT}\s+or\s+(more|longer|greater|less|fewer|shorter)\b")
_JA_UNIT = r"(か月|営業日|日|週|年|時間|分|回|円|件|個|歳|文字)?"
_JA_AFTER = re.compile(rf"{_NUMBER}\s*{_JA_UNIT}\s*(まで|以内|以下|未満|以上|を超え|超)")
_JA_BEFORE = re.compile(rf"(最大|最長|上限|最低|少なくとも)\s*{_NUMBER}\s*{_JA_UNIT}")
_UPPER_WORDS = {"less", "fewer", "shorter", "まで", "以内", "以下", "未満", "最大", "最長", "上限"}
_NEGATION = re.compile(r"\b(?:not|cannot|never|no)\b|n't|ない|ません|できず|不可")
_CLAUSE = re.compile(r"[.!?;。！？、,]\s+|[。！？、]|\s+but\s+")


@dataclass(frozen=True)
class Bound:
    """One number's bound: ``side`` says which way, ``amount`` is the number and its unit."""

    side: Side
    amount: str


def bounds_in(text: str) -> set[Bound]:
    """Every bound ``text`` sets on a number (see the module docstring)."""
    found: set[Bound] = set()
    for clause in _CLAUSE.split(exact_form(text)):
        if not clause or _NEGATION.search(_without_bound_negations(clause)):
            continue
        for match in _EN_BEFORE.finditer(clause):
            word, number, unit = match.groups()
            found.add(Bound(_en_side(word), _amount(number, unit)))
        for match in _EN_AFTER.finditer(clause):
            number, unit, word = match.groups()
            found.add(Bound(_side(word), _amount(number, unit)))
        for match in _JA_AFTER.finditer(clause):
            number, unit, word = match.groups()
            found.add(Bound(_side(word), number + (unit or "")))
        for match in _JA_BEFORE.finditer(clause):
            word, number, unit = match.groups()
            found.add(Bound(_side(word), number + (unit or "")))
    return found


def contradicts(text: str, reference: str) -> bool:
    """Whether ``text`` bounds an amount the other way from ``reference`` ("more than 3 months"
    where the reference says "up to 3 months"), and never the same way."""
    said = bounds_in(reference)
    return any(Bound(_other(b.side), b.amount) in said and b not in said for b in bounds_in(text))


def _without_bound_negations(clause: str) -> str:
    # "no more than" / "not more than" / "no less than" are bounds, not negations
    return re.sub(r"\b(?:no|not) (?:more|less) than\b", " ", clause)


def _en_side(word: str) -> Side:
    return "upper" if re.fullmatch(_EN_UPPER_BEFORE, word) else "lower"


def _side(word: str) -> Side:
    return "upper" if word in _UPPER_WORDS else "lower"


def _other(side: Side) -> Side:
    return "lower" if side == "upper" else "upper"


def _amount(number: str, unit: str | None) -> str:
    return f"{number} {unit}" if unit else number
