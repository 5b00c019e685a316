"""Which language a generated question is in, from its script: kana or kanji make it Japanese,
Latin letters with neither make it English. A question in the wrong language is asked again once,
then dropped (a generator told to write Japanese from a Japanese passage sometimes answers in
English)."""

from __future__ import annotations

import re

_KANA = re.compile(r"[\u3040-\u30ff\uff66-\uff9f]")
_KANJI = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


def script_language(text: str) -> str | None:
    """ "ja", "en", or None when the text has no letters to tell by."""
    kana, kanji, latin = (len(rx.findall(text)) for rx in (_KANA, _KANJI, _LATIN))
    if kana or kanji >= 2:
        return "ja"  # Japanese mixes in Latin product names and screens; any kana settles it
    if latin:
        return "en"
    return None


def in_language(text: str, language: str) -> bool:
    return script_language(text) == language
