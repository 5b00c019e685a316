"""Whether an answer says a short phrase word for word — the one test behind a ``contains``
expectation, used where it is evaluated at run time (``metrics/dialogue/expectation_match``) and
where the generator decides which facts a reference states and proves them, so the two agree.

Both sides are read the way a person reads a number or a label: NFKC (full- and half-width
alike: 「３日」 is 「3日」), case folded, whitespace collapsed and dropped between a digit and a
Japanese unit, thousands separators dropped (1,000 = 1000), English number words up to twenty
as digits ("seven days" = "7 days"), plain kanji numerals before a unit as digits (三日 = 3日), and
a duration's unit in one form (「3日間」 = 「3日」, 「2ヶ月」 = 「2か月」, "1 day" = "1 days"). A
phrase is found when its form is in the answer's form, with a number never matched inside a
longer one ("5 days" is not in "15 days").

A ``contains`` is for what must appear word for word — a number with its unit, an amount, a
duration, a named screen, a menu path, a label, the team's phone number, URL or e-mail — a few
words, never a sentence: ``short_phrase`` says which texts are.
"""

from __future__ import annotations

import re
import unicodedata

_WORDS = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
]
_EN_NUMBER = re.compile(r"\b(" + "|".join(_WORDS) + r")\b")
_KANJI_DIGITS = {"一": 1, "二": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
# 十 alone, 十三, 二十, 二十五: what a help centre writes before a unit (日, 週間, か月, 年, 回, 時間)
_KANJI_NUMBER = re.compile(
    r"([一二三四五六七八九]?十[一二三四五六七八九]?|[一二三四五六七八九])(?=\s*(?:日|週|か月|ヶ月|カ月|ヵ月|年|回|時間|分|営業日|件|個))"
)
_SEPARATOR = re.compile(r"(?<=\d),(?=\d{3}(?!\d))")
_SPACE_BEFORE_CJK = re.compile(r"(?<=\d) (?=[\u3040-\u30ff\u3400-\u9fff])")
# One form per unit: a duration's 間, the several ways to write "months", an English plural.
_JA_UNIT = re.compile(r"(?<=\d)(日間|週間|ヶ月|カ月|ヵ月|箇月|ケ月)")
_JA_UNIT_FORM = {
    "日間": "日",
    "週間": "週",
    "ヶ月": "か月",
    "カ月": "か月",
    "ヵ月": "か月",
    "箇月": "か月",
    "ケ月": "か月",
}
_EN_UNIT = re.compile(r"(?<=\d )(second|minute|hour|day|week|month|year|business day|working day|time|character)s?\b")
_DIGITS = re.compile(r"\d+")


def _kanji_value(numeral: str) -> str:
    if "十" not in numeral:
        return str(_KANJI_DIGITS[numeral])
    tens, _, ones = numeral.partition("十")
    return str((_KANJI_DIGITS.get(tens, 1) if tens else 1) * 10 + (_KANJI_DIGITS.get(ones, 0) if ones else 0))


def exact_form(text: str) -> str:
    """``text`` as exact phrases are compared (see the module docstring)."""
    form = unicodedata.normalize("NFKC", text).casefold()
    form = " ".join(form.split())
    form = _KANJI_NUMBER.sub(lambda m: _kanji_value(m.group(1)), form)
    form = _EN_NUMBER.sub(lambda m: str(_WORDS.index(m.group(1))), form)
    form = _SEPARATOR.sub("", form)
    form = _SPACE_BEFORE_CJK.sub("", form)
    form = _JA_UNIT.sub(lambda m: _JA_UNIT_FORM[m.group(1)], form)
    return _EN_UNIT.sub(lambda m: m.group(1), form)


def says_exactly(answer: str, phrase: str) -> bool:
    """Whether ``answer`` says ``phrase`` word for word, as ``exact_form`` reads both; a number
    at the phrase's edge never matches inside a longer number."""
    want, said = exact_form(phrase).strip(), exact_form(answer)
    if not want:
        return False
    start = said.find(want)
    while start >= 0:
        end = start + len(want)
        before, after = said[max(0, start - 2) : start], said[end : end + 2]
        clipped = (want[0].isdigit() and _number_before(before)) or (want[-1].isdigit() and _number_after(after))
        if not clipped:
            return True
        start = said.find(want, start + 1)
    return False


def _number_before(text: str) -> bool:
    """``text`` (the two characters before a match) ends a number: a digit, or a decimal point."""
    return bool(text) and (text[-1].isdigit() or (len(text) == 2 and text[-1] == "." and text[0].isdigit()))


def _number_after(text: str) -> bool:
    return bool(text) and (text[0].isdigit() or (len(text) == 2 and text[0] == "." and text[1].isdigit()))


# A short phrase: at most this many words (Latin) or characters (Japanese, which has no spaces),
# and no sentence inside it. A menu path's arrows are not words.
MAX_WORDS = 6
MAX_JA_CHARS = 16
_SENTENCE_END = re.compile(r"[。！？!?]|[.;:](?:\s|$)")
_ARROWS = re.compile(r"\s*[>＞›→]\s*")
_JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


def short_phrase(text: str) -> bool:
    """Whether ``text`` is fit for a ``contains``: a few words, not a sentence (「暗証番号を入力して
    ください。」 and "Readings sent before 11 pm are used for bills dated the next day" are not)."""
    plain = unicodedata.normalize("NFKC", text).strip()
    if not plain or _SENTENCE_END.search(plain.rstrip(".")):
        return False
    if plain.endswith("。"):
        return False
    steps = [s for s in _ARROWS.split(plain) if s]
    if len(steps) > 1:  # a menu path: each step a short name
        return all(short_phrase(step) for step in steps)
    if _JAPANESE.search(plain):
        return len(plain.replace(" ", "")) <= MAX_JA_CHARS
    return len(plain.split()) <= MAX_WORDS and not plain.endswith(".")


def numbers_in(text: str) -> list[str]:
    """The numbers of ``text`` as ``exact_form`` writes them (words and kanji as digits)."""
    return _DIGITS.findall(exact_form(text))
