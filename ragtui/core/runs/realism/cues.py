"""What a customer message shows, read in code: its length, its questions, whether it asks for a
person or gives up, and the personal data it volunteers. Each rule is a documented list or
pattern (docs/realism.md), the same for both sides, so a difference between REAL and SIM is the
customers', not the reading's.

Language is read per message from its script (``text.script``): a Japanese message is measured
in characters (no spaces between words), an English one in words.
"""

from __future__ import annotations

import re
import unicodedata

from ...text.script import script_language
from ...text.sentences import split_sentences
from ...types.turns import is_done

# -- the simulator's end marker -------------------------------------------------------------
# "DONE" is ragtui's protocol word, not something a real customer types: it is taken out before a
# message is measured, and a message that was only the marker is no message at all.
_DONE_LINE = re.compile(r"^\W*DONE\W*$", re.MULTILINE)
_DONE_END = re.compile(r"\s*\bDONE\W*$")


def without_marker(text: str) -> str:
    if not is_done(text):
        return text.strip()
    cleaned = _DONE_LINE.sub("", text)
    return _DONE_END.sub("", cleaned).strip()


# -- length ---------------------------------------------------------------------------------
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_CHAR = re.compile(r"[^\s\W_]")

UNITS = {"en": "words", "ja": "characters"}


def language_of(text: str, fallback: str) -> str:
    return script_language(text) or fallback


def length(text: str, language: str) -> int:
    """Words (``en``: runs of letters and digits, "don't" one word) or characters (``ja``: letters,
    kana, kanji and digits, width-folded; spaces and punctuation not counted)."""
    folded = unicodedata.normalize("NFKC", text)
    if language == "ja":
        return len(_CHAR.findall(folded))
    return len(_WORD.findall(folded))


# -- questions ------------------------------------------------------------------------------
# A sentence is a question when it ends in ? or ？, or — Japanese often drops the mark — when it
# ends in the question particle か (ですか, ますか, でしょうか) or かな before its full stop.
_JA_QUESTION_END = re.compile(r"(?:か|かな|かね|の)[。．.]?$")
_QUESTION_MARK = re.compile(r"[?？]+[\"'”’)\]」』）]*$")


def questions(text: str) -> int:
    count = 0
    for sentence in split_sentences(text):
        s = sentence.strip()
        if _QUESTION_MARK.search(s) or script_language(s) == "ja" and _JA_QUESTION_END.search(s):
            count += 1
        elif "?" in s or "？" in s:  # "is it broken? I tried twice" cut as one sentence by a missing space
            count += s.count("?") + s.count("？")
    return count


# -- asking for a person, giving up ---------------------------------------------------------
# Matched on the lower-cased, width-folded text. Phrases, not single words: "agent" alone is how
# simulated customers often address the bot, so it would count every polite reply; "never mind"
# is as often "never mind, it works now" as a customer walking away, so it is not on the list.
ASKS_FOR_HUMAN: dict[str, tuple[str, ...]] = {
    "en": (
        r"\b(?:speak|talk|chat)\s+(?:to|with)\s+(?:a|an|some|your|the)?\s*(?:real\s+|live\s+|actual\s+)?"
        r"(?:human|person|agent|representative|rep|operator|manager|supervisor|someone|somebody|staff)\b",
        r"\b(?:real|actual|live)\s+(?:person|human|agent|people)\b",
        r"\bhuman\s+(?:being|agent|support)\b",
        r"\b(?:a|an)\s+human\b",
        r"\b(?:representative|supervisor|operator)\b",
        r"\bnot\s+a\s+(?:bot|robot|machine)\b",
        r"\b(?:call|phone)\s+(?:me|you|someone)\b",
        r"\btransfer\s+me\b",
    ),
    "ja": (
        r"人間",
        r"担当者",
        r"オペレーター",
        r"オペレータ",
        r"有人",
        r"スタッフ",
        r"責任者",
        r"上司",
        r"人と話",
        r"人に(?:代わ|かわ|つな|繋)",
        r"電話で(?:話|問い合わせ|相談|聞)",
        r"直接(?:話|聞|電話)",
        r"ロボット(?:じゃ|では)",
    ),
}
GIVES_UP: dict[str, tuple[str, ...]] = {
    "en": (
        r"\bforget\s+(?:it|about\s+it)\b",
        r"\b(?:give|giving|gave)\s+up\b",
        r"\bwaste\s+of\s+(?:my\s+)?time\b",
        r"\b(?:useless|pointless|hopeless)\b",
        r"\b(?:go|going|look)\s+elsewhere\b",
        r"\bi\s+(?:quit|am\s+done\s+with|'m\s+done\s+with)\b",
        r"\bthis\s+is\s+going\s+nowhere\b",
    ),
    "ja": (
        r"もういい",
        r"もう(?:結構|けっこう)",
        r"諦め",
        r"あきらめ",
        r"役に立たない",
        r"役にたたない",
        r"話にならない",
        r"時間の無駄",
        r"意味がない",
        r"他(?:社|の会社|のサービス)に(?:します|変え|乗り換え)",
    ),
}
_COMPILED = {
    name: {lang: re.compile("|".join(f"(?:{p})" for p in patterns)) for lang, patterns in lists.items()}
    for name, lists in (("human", ASKS_FOR_HUMAN), ("give_up", GIVES_UP))
}


def _folded(text: str) -> str:
    return unicodedata.normalize("NFKC", text).lower().replace("’", "'")


def asks_for_human(text: str) -> bool:
    """Any language's list: a Japanese customer may write English words, and the other way round."""
    folded = _folded(text)
    return any(rx.search(folded) for rx in _COMPILED["human"].values())


def gives_up(text: str) -> bool:
    folded = _folded(text)
    return any(rx.search(folded) for rx in _COMPILED["give_up"].values())


# -- personal data volunteered --------------------------------------------------------------
# Read on the width-folded text (full-width digits and ＠ count). A placeholder an import left in
# place of redacted data (``<email-1>``, ``<phone-2>``, ``<card-1>``) counts as the kind it names.
_EMAIL = re.compile(r"[\w.+-]+@[\w-]+(?:\.[\w-]+)+")
_PHONE = re.compile(
    r"(?<![\d+])(?:\+\d{1,3}[\s.-]?\(?\d{1,4}\)?(?:[\s.-]?\d{2,4}){2,4}"  # +81 90-1234-5678, +1 (415) 555 0100
    r"|0\d{1,4}-\d{1,4}-\d{3,4}"  # 03-1234-5678, 090-1234-5678
    r"|0[5-9]0\d{8}|0\d{9}"  # 09012345678, 0312345678
    r"|\(\d{3}\)\s?\d{3}-\d{4})(?!\d)"  # (415) 555-0100
)
_ID = re.compile(
    r"(?:#\s?\d{4,}"  # #123456
    r"|(?<![a-z0-9])[a-z]{1,6}[-_]?\d{4,}(?!\d)"  # ORD-12345, a12345678, inv_2024001
    r"|(?<![\d.,])\d{6,}(?![\d.,]\d)"  # a long bare number: an order, account or card number
    r"|(?<!\d)\d{4}(?:[ -]\d{4}){2,3}(?!\d)"  # a card number in groups: 4111 1111 1111 1111
    r"|(?:番号|no\.?|number|id)\s*(?:は|:|#)?\s*[a-z]*[-_]?\d{4,})",
    re.IGNORECASE,
)
_PLACEHOLDER = re.compile(r"<([a-z][a-z_]*)-\d+>", re.IGNORECASE)
PLACEHOLDER_KINDS = {
    "email": "email",
    "mail": "email",
    "phone": "phone",
    "tel": "phone",
    **dict.fromkeys(
        ("card", "order", "order_id", "account", "account_id", "id", "member", "number", "ticket"), "number"
    ),
}

# "number": an order, account, card or member number; "other": a placeholder of any other kind
# (a name, a postcode). Only a placeholder tells a name: no pattern finds one in raw text, so a
# side whose names were never replaced shows none (docs/realism.md).
PERSONAL_KINDS = ("email", "phone", "number", "other")


def personal_data(text: str) -> set[str]:
    """The kinds of personal data ``text`` volunteers (see ``PERSONAL_KINDS``)."""
    folded = unicodedata.normalize("NFKC", text)
    kinds: set[str] = set()
    for match in _PLACEHOLDER.finditer(folded):
        kinds.add(PLACEHOLDER_KINDS.get(match.group(1).lower(), "other"))
    rest = _PLACEHOLDER.sub(" ", folded)
    if _EMAIL.search(rest):
        kinds.add("email")
        rest = _EMAIL.sub(" ", rest)
    if _PHONE.search(rest):
        kinds.add("phone")
        rest = _PHONE.sub(" ", rest)
    if _ID.search(rest):
        kinds.add("number")
    return kinds
