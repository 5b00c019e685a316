"""Which script a text is written in: how much of it is Japanese (the simulated customer's check
that it answers in the session's language) and which language a generated question is in."""

from __future__ import annotations

import re

JAPANESE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")
_LETTER = re.compile(r"[A-Za-z\u3040-\u30ff\u3400-\u9fff\uff66-\uff9f]")
_KANA = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
_KANJI = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


def japanese_share(text: str) -> float | None:
    """The share of the letters that are Japanese; None for a text too short to tell."""
    letters = _LETTER.findall(text)
    if len(letters) < 8:
        return None  # too short to tell ("ok", "DONE", "?")
    return len(JAPANESE.findall(text)) / len(letters)


def script_language(text: str) -> str | None:
    """ "ja", "en", or None when the text has no letters to tell by. Japanese mixes in Latin
    product names and screens ("Tsumugi IDの削除方法"), so any kana, or two kanji, settle it."""
    kana, kanji, latin = (len(rx.findall(text)) for rx in (_KANA, _KANJI, _LATIN))
    if kana or kanji >= 2:
        return "ja"
    if latin:
        return "en"
    return None


def in_language(text: str, language: str) -> bool:
    return script_language(text) == language
