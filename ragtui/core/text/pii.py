"""Personal data out of real conversations before anything stores them or sends them to a model.

Separate from ``redaction.py`` (credentials in URLs and config): this one replaces what identifies
a customer in free text with a typed placeholder — ``<email-1>``, ``<phone-2>``, ``<card-1>``,
``<postcode-1>``, ``<order-1>``, ``<account-1>``, ``<name-1>`` — numbered per kind and consistent
within one conversation (a ``Redactor`` per conversation: the same address twice is the same
``<email-1>``, written in full-width letters or not, so "the customer gave the order number
twice" survives redaction).

What is recognised (docs/conversations.md says the same, with the known misses):

- **e-mail addresses**, also written in full-width letters (``ｔａｒｏ＠…``), inside URLs
  (``mailto:``, ``?email=a%40b.example``), broken over a line at the ``@`` or after a dot, and
  against punctuation or Japanese text without spaces;
- **phone numbers**: international (``+81 90-1234-5678``, ``+44 20 7946 0958``, ``+1 (415)
  555-0134``), national forms starting with 0 and written with separators (``03-1234-5678``,
  ``090-1234-5678``, ``(03)1234-5678``, ``03(1234)5678``, ``0120-123-456``, ``020 7946 0958``,
  ``07700 900123``), North American ``(415) 555-0134`` / ``415-555-0134`` (area code and exchange
  starting 2–9), Japanese mobiles and free dial without separators (``09012345678``,
  ``0120123456``), and any 10–11 digits starting with 0 right after a cue (``TEL``, ``phone``,
  ``call``, ``電話``, ``携帯``, ``自宅``); full-width digits and dashes (``０９０ー１２３４ー５６７８``) and a line break
  inside the number are read as the plain forms;
- **card numbers**: 13–19 digits starting 2–6, unbroken or in groups of 4+ digits separated by a
  space, a dash or a line break, and passing the Luhn check — so an order number that fails Luhn
  is not a card;
- **postcodes**: Japanese ``〒123-4567`` (any ``123-4567`` after 郵便番号/postcode/zip, or before a
  prefecture: ``123-4567 東京都…``), UK postcodes in capitals (``SW1A 1AA``), US ZIP+4
  (``94103-1234``) and a 5-digit ZIP right after ``zip``/``postal code``. A bare ``123-4567`` or
  five digits on their own are left alone: they are as often an order or a quantity;
- **order and account ids** by patterns: by default a cue word followed by an id with a digit in
  it (``order #A12345``, ``注文番号 12345678``, ``account no. 987654``, ``会員番号：123456``); the
  config's ``[redact] patterns`` add kinds or replace these (a group in the pattern: only it is
  replaced);
- **names** from the config's ``[redact] names`` list: whole words in Latin script (any case, a
  line break allowed between the parts), anywhere in Japanese text.

Counted per kind (occurrences replaced), for the import's summary.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache

# The rules a config adds live beside (``redaction_rules``); they are still named from here.
from .redaction_rules import BUILTIN_KINDS as BUILTIN_KINDS
from .redaction_rules import DEFAULT_ID_PATTERNS as DEFAULT_ID_PATTERNS
from .redaction_rules import ID_KINDS as ID_KINDS
from .redaction_rules import KINDS as KINDS
from .redaction_rules import RedactionRules as RedactionRules
from .redaction_rules import check_pattern as check_pattern

# --- one character for one character: the text every pattern reads ------------------------------
# Full-width ASCII (０-９, Ａ-ｚ, ＠, ＋, （）, ．, －) → ASCII; the ideographic space → a space; every
# dash → "-". One for one, so a match's offsets are the original text's offsets.
_FOLD = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_FOLD.update({0x3000: 0x20, 0xFE6B: ord("@")})
_FOLD.update({ord(c): ord("-") for c in "\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe63\uff70"})
_FOLD_TABLE = str.maketrans(_FOLD)
_LONG_VOWEL_DASH = re.compile(r"(?<=[0-9])\u30fc(?=[0-9])")  # ー written for a dash in 090ー1234ー5678


def fold(text: str) -> str:
    """``text`` with full-width ASCII, ideographic spaces and dashes as plain ASCII, same length."""
    folded = text.translate(_FOLD_TABLE)
    return _LONG_VOWEL_DASH.sub("-", folded) if "\u30fc" in folded else folded


# --- the patterns, on the folded text ------------------------------------------------------------
_LB = r"(?:[ \t]*\r?\n[ \t]*)"  # a line break inside a value, with the spaces around it
_EMAIL = re.compile(
    r"(?<![A-Za-z0-9._%+\-])"
    r"[A-Za-z0-9_%+\-](?:[A-Za-z0-9._%+\-]*[A-Za-z0-9_%+\-])?"  # local part
    rf"{_LB}?(?:@|%40){_LB}?"  # broken over a line at the @ (never after a dot: that ends sentences)
    r"(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,24}(?![A-Za-z0-9-])"
)
# One separator between the groups of a number: a dash or a dot (a line break may follow it: a
# number wrapped at its dash) or spaces. A bare line break is no separator: the next line's
# number is another number.
_SEP = rf"(?:[ \t]*[-.][ \t]*{_LB}?|[ \t]+)"
_ANY_DIGIT = re.compile(r"[0-9]")
# Cheap tests that spare a text the patterns it cannot match (most messages have no personal data):
# a phone or a card has 7 or more digits in a run; a postcode 5 digits or a capital then a digit.
_LONG_NUMBER = re.compile(r"[0-9](?:[ \t().+\-]*[0-9]){6}")
_POSTCODE_HINT = re.compile(r"[0-9](?:[ \t\-]?[0-9]){4}|[A-Z][0-9]")
_PHONES = (
    # international: +CC then 1–6 groups, 8–15 digits in all
    re.compile(rf"(?<![0-9A-Za-z+])\+[ \t]?[0-9]{{1,3}}(?:{_SEP}?(?:\([0-9]{{1,4}}\)|[0-9]{{1,5}})){{1,6}}(?![0-9])"),
    # national, from 0, three groups: 03-1234-5678, (03)1234-5678, 03(1234)5678, 0120-123-456
    re.compile(
        rf"(?<![0-9])(?:\(0[0-9]{{1,4}}\)[ \t]?|0[0-9]{{1,4}}{_SEP}|0[0-9]{{1,4}}\()"
        rf"[0-9]{{1,4}}(?:\)|{_SEP})[0-9]{{3,4}}(?![0-9])"
    ),
    # national, from 0, two groups: 07700 900123, 03-12345678
    re.compile(rf"(?<![0-9])0[0-9]{{2,4}}{_SEP}[0-9]{{6,8}}(?![0-9])"),
    # North American: (415) 555-0134, 415-555-0134, 1-800-555-0199
    re.compile(
        rf"(?<![0-9])(?:1{_SEP})?(?:\([2-9][0-9]{{2}}\)[ \t]?|[2-9][0-9]{{2}}{_SEP})[2-9][0-9]{{2}}{_SEP}[0-9]{{4}}(?![0-9])"
    ),
    # Japanese mobiles, IP phones and free dial written without separators
    re.compile(r"(?<![0-9])(?:0[5789]0[0-9]{8}|0120[0-9]{6})(?![0-9])"),
    # any 10–11 digits from 0 right after a cue word
    re.compile(r"(?i:tel|phone|mobile|fax|call|電話|携帯|連絡先|自宅)[^0-9\n]{0,12}?(?P<v>0[0-9]{9,10})(?![0-9])"),
)
_NUMBER_RUN = re.compile(rf"(?<![0-9])[0-9]+(?:(?:[ \t]?-[ \t]?|[ \t]|{_LB})[0-9]+)*(?![0-9])")
_DIGIT_GROUP = re.compile(r"[0-9]+")
_PREFECTURE = r"(?:北海道|東京都|京都府|大阪府|[\u4e00-\u9fff]{2,3}県)"
_POSTCODES = (
    re.compile(r"〒[ \t]?[0-9]{3}(?:[ \t]*-[ \t]*)?[0-9]{4}(?![0-9])"),
    re.compile(r"(?i:郵便番号|post ?code|postal code|zip(?: ?code)?)[^0-9\n]{0,8}?(?P<v>[0-9]{3}-[0-9]{4})(?![0-9-])"),
    re.compile(rf"(?<![0-9-])[0-9]{{3}}-[0-9]{{4}}(?=[ \t]*{_PREFECTURE})"),
    re.compile(r"(?<![A-Za-z0-9])(?:[A-Z]{1,2}[0-9][A-Z0-9]?|GIR)[ \t]?[0-9][ABD-HJLNP-UW-Z]{2}(?![A-Za-z0-9])"),
    re.compile(r"(?<![0-9-])[0-9]{5}-[0-9]{4}(?![0-9-])"),
    re.compile(r"(?i:zip(?: ?code)?|postal code|post ?code)[ \t:#]*(?P<v>[0-9]{5})(?![0-9-])"),
)


def luhn_ok(digits: str) -> bool:
    total = 0
    for index, char in enumerate(reversed(digits)):
        value = int(char)
        if index % 2 == 1:
            value = value * 2 - 9 if value > 4 else value * 2
        total += value
    return total % 10 == 0


@dataclass(frozen=True)
class _Compiled:
    own: tuple[tuple[str, re.Pattern[str]], ...]  # the config's id patterns: before cards and phones
    defaults: tuple[tuple[str, re.Pattern[str]], ...]  # the default id patterns kept: after postcodes
    names: re.Pattern[str] | None


@lru_cache(maxsize=16)
def _compile(rules: RedactionRules) -> _Compiled:
    own = tuple((kind, re.compile(rx)) for kind, rx in rules.patterns if (kind, rx) not in DEFAULT_ID_PATTERNS)
    defaults = tuple((kind, re.compile(rx)) for kind, rx in rules.patterns if (kind, rx) in DEFAULT_ID_PATTERNS)
    alternatives = [_name_pattern(name) for name in sorted(rules.names, key=len, reverse=True)]
    names = re.compile("|".join(alternatives), re.IGNORECASE) if alternatives else None
    return _Compiled(own, defaults, names)


def _name_pattern(name: str) -> str:
    """A name's parts with any spaces or one line break between them; in Latin script a whole
    word (``Ann`` not inside ``Annual``), in Japanese anywhere (no spaces between words)."""
    body = r"\s+".join(re.escape(part) for part in fold(name).split())
    if re.search(r"[A-Za-z0-9]", body):
        return rf"(?<![A-Za-z0-9]){body}(?![A-Za-z0-9])"
    return body


@dataclass
class Redactor:
    """One conversation's redaction: numbers each kind's values in the order they appear, so the
    same value is the same placeholder everywhere in the conversation. ``counts``: occurrences
    replaced, per kind."""

    rules: RedactionRules = field(default_factory=RedactionRules)
    counts: Counter[str] = field(default_factory=Counter)
    _seen: dict[tuple[str, str], str] = field(default_factory=dict)
    _numbers: Counter[str] = field(default_factory=Counter)

    def redact(self, text: str) -> str:
        spans = find_spans(text, self.rules)
        if not spans:
            return text
        out: list[str] = []
        last = 0
        for start, end, kind, key in spans:
            out.append(text[last:start])
            out.append(self._placeholder(kind, key))
            self.counts[kind] += 1
            last = end
        out.append(text[last:])
        return "".join(out)

    def _placeholder(self, kind: str, key: str) -> str:
        found = self._seen.get((kind, key))
        if found is None:
            self._numbers[kind] += 1
            found = self._seen[(kind, key)] = f"<{kind}-{self._numbers[kind]}>"
        return found


Span = tuple[int, int, str, str]  # start, end, kind, the value's identity (for its placeholder)


def find_spans(text: str, rules: RedactionRules | None = None) -> list[Span]:
    """Every piece of personal data in ``text``, in order, none overlapping. Kinds are looked for
    in this order and a later one never takes what an earlier one found: e-mail, the id patterns of
    the config, cards, phones, the default id patterns, postcodes, names."""
    rules = rules or RedactionRules()
    compiled = _compile(rules)
    folded = fold(text)
    taken: list[Span] = []
    if "@" in folded or "%40" in folded:
        _take(taken, _matches(_EMAIL, folded, "email", lambda v: _squeeze(v).lower().replace("%40", "@")))
    for kind, rx in compiled.own:
        _take(taken, _matches(rx, folded, kind, _squeeze_upper))
    if _ANY_DIGIT.search(folded):  # every other built-in kind has a digit in it
        if _LONG_NUMBER.search(folded):
            _take(taken, _cards(folded))
            for rx in _PHONES:
                _take(taken, _phones(rx, folded))
        for kind, rx in compiled.defaults:
            _take(taken, _matches(rx, folded, kind, _squeeze_upper))
        if _POSTCODE_HINT.search(folded):
            for rx in _POSTCODES:
                _take(taken, _matches(rx, folded, "postcode", _alphanumeric))
    if compiled.names is not None:
        _take(taken, _matches(compiled.names, folded, "name", lambda v: " ".join(v.split()).casefold()))
    return sorted(taken)


def _take(taken: list[Span], found: Iterable[Span]) -> None:
    for span in found:
        if span[1] > span[0] and not any(span[0] < t[1] and t[0] < span[1] for t in taken):
            taken.append(span)


def _value_span(match: re.Match[str]) -> tuple[int, int]:
    """The part a placeholder replaces: the ``v`` group (or the first group) when the pattern has
    one — the id after its cue word — else the whole match."""
    names = match.re.groupindex
    if "v" in names and match.group("v") is not None:
        return match.span("v")
    if match.re.groups >= 1 and match.group(1) is not None:
        return match.span(1)
    return match.span()


def _matches(rx: re.Pattern[str], folded: str, kind: str, key: Callable[[str], str]) -> list[Span]:
    out = []
    for match in rx.finditer(folded):
        start, end = _value_span(match)
        if end > start:
            out.append((start, end, kind, key(folded[start:end])))
    return out


def _squeeze(value: str) -> str:
    return "".join(value.split())


def _squeeze_upper(value: str) -> str:
    return _squeeze(value).upper()


def _alphanumeric(value: str) -> str:
    """A postcode's identity: 〒150-0002 and 150-0002 are one, as are sw1a 1aa and SW1A1AA."""
    return "".join(c for c in value if c.isascii() and c.isalnum()).upper()


def _digits(value: str) -> str:
    return "".join(c for c in value if c.isdigit())


def _phones(rx: re.Pattern[str], folded: str) -> list[Span]:
    out = []
    for match in rx.finditer(folded):
        start, end = _value_span(match)
        value = folded[start:end]
        if value.startswith("+"):
            end = start + _trim_groups(value, 15)
            value = folded[start:end]
            digits = _digits(value.replace("(0)", ""))
            if not 8 <= len(digits) <= 15:
                continue
            # +81 90… is 090…: the same number written two ways gets one placeholder
            key = "0" + digits[2:] if digits.startswith("81") else "+" + digits
        else:
            digits = _digits(value)
            if not 10 <= len(digits) <= 11:
                continue
            key = digits
        out.append((start, end, "phone", key))
    return out


def _trim_groups(value: str, most: int) -> int:
    """The length of ``value`` up to the last digit group that keeps it within ``most`` digits
    (an international number followed by another number in the same run)."""
    count = 0
    keep = len(value)
    for group in _DIGIT_GROUP.finditer(value):
        if count + len(group.group()) > most:
            return keep
        count += len(group.group())
        keep = group.end()
    return keep


def _cards(folded: str) -> list[Span]:
    """Runs of digit groups holding 13–19 digits that pass Luhn and start 2–6: the whole run, or
    consecutive groups of it in which every group but the last has 4 or more digits."""
    out: list[Span] = []
    for run in _NUMBER_RUN.finditer(folded):
        groups = [(g.start() + run.start(), g.end() + run.start()) for g in _DIGIT_GROUP.finditer(run.group())]
        if sum(end - start for start, end in groups) < 13:
            continue
        index = 0
        while index < len(groups):
            found = _card_from(folded, groups, index)
            if found is None:
                index += 1
                continue
            out.append(found[0])
            index = found[1]
    return out


def _card_from(folded: str, groups: list[tuple[int, int]], first: int) -> tuple[Span, int] | None:
    best: tuple[Span, int] | None = None
    digits = ""
    for last in range(first, len(groups)):
        start, end = groups[last]
        if last > first and groups[last - 1][1] - groups[last - 1][0] < 4:
            break  # a short group inside a card number: not how cards are written
        digits += folded[start:end]
        if len(digits) > 19:
            break
        if len(digits) >= 13 and digits[0] in "23456" and luhn_ok(digits):
            best = ((groups[first][0], end, "card", digits), last + 1)
    return best
