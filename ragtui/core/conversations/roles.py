"""The files' words for who spoke, mapped to the four speakers (core/types/conversations.py).

Matched without regard to case, width or spacing (``Customer``, ``end user``, ``END-USER`` and
``ｕｓｅｒ`` are one word). ``--role WORD=SPEAKER`` adds words for one import; a word not known is
one error line naming it and the words known.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping

from ..types.conversations import SPEAKERS, Speaker

_WORDS: dict[Speaker, tuple[str, ...]] = {
    "customer": (
        "user", "customer", "client", "human", "end_user", "enduser", "requester", "visitor", "contact", "lead",
        "guest", "caller", "お客様", "お客さま", "顧客", "客", "ユーザー", "ユーザ", "利用者", "相談者", "問い合わせ者",
    ),
    "bot": ("assistant", "bot", "ai", "chatbot", "gpt", "model", "virtual_agent", "ボット", "チャットボット", "自動応答"),
    "agent": (
        "agent", "admin", "operator", "staff", "human_agent", "representative", "rep", "support", "support_agent",
        "担当者", "担当", "オペレーター", "オペレータ", "スタッフ", "サポート", "係員", "窓口",
    ),
    "system": (
        "system", "note", "internal", "internal_note", "developer", "tool", "function", "event", "メモ", "社内メモ",
        "システム", "備考",
    ),
}  # fmt: skip


def role_key(word: str) -> str:
    """A role word as it is matched: NFKC, case-folded, spaces and dashes as ``_``."""
    text = unicodedata.normalize("NFKC", word).strip().casefold()
    return "_".join(text.replace("-", " ").split())


ROLE_WORDS: dict[str, Speaker] = {role_key(w): speaker for speaker, words in _WORDS.items() for w in words}


def speaker_of(word: str, extra: Mapping[str, Speaker] | None = None) -> Speaker | None:
    key = role_key(word)
    if extra:
        for own, speaker in extra.items():
            if role_key(own) == key:
                return speaker
    return ROLE_WORDS.get(key)


def parse_role_options(values: list[str]) -> dict[str, Speaker]:
    """``--role WORD=SPEAKER`` options; ValueError with the wording for a bad one."""
    out: dict[str, Speaker] = {}
    for value in values:
        word, equals, speaker = value.partition("=")
        speaker = speaker.strip().lower()
        if not equals or not word.strip() or speaker not in SPEAKERS:
            raise ValueError(f"--role {value!r} must be WORD=SPEAKER, the speaker one of {', '.join(SPEAKERS)}")
        out[word.strip()] = speaker
    return out


def known_words(speaker: Speaker, most: int = 6) -> str:
    return ", ".join(_WORDS[speaker][:most])
