"""The words of an English text that carry its content, by stem: what two texts share when they
speak of the same thing ("cancelled" and "cancel", "notifications" and "notified" alike).

A stem is a word's first five letters — crude, but it needs no dictionary and errs on the side of
matching. Function words (articles, pronouns, auxiliaries, prepositions, question words) and
negations are left out: a negation is a matter of polarity, not of what a text is about. A
Japanese text's content words are its katakana and kanji runs (it has no spaces to split at)."""

from __future__ import annotations

import re

from .script import JAPANESE

STEM = 5
STOP_WORDS = frozenset(
    """a an the and or but of to in on at for from with by as is are was were be been being do does did
    have has had you your yours yourself i my me we our us they their them it its this that these those
    there here can could may might will would should shall must not no never any some all both each
    more most other such only own same so than too very just also still already yet again ever
    what which who whom whose when where why how if unless case event then about into onto over under
    up down out off once while until after before because cannot unable""".split()  # noqa: SIM905
)
_WORD = re.compile(r"[a-z][a-z'-]*")
# Japanese has no spaces: its content words are read as runs of katakana or of kanji.
_JAPANESE_WORD = re.compile(r"[\u30a0-\u30ff]{2,}|[\u3400-\u9fff]{2,}")


def content_stems(text: str) -> set[str]:
    """The stems of ``text``'s content words (three letters or more, no contraction). A closing
    single quote is no part of a word: "tap 'Change'" names "change"."""
    words = (w.rstrip("'") for w in _WORD.findall(text.casefold()))
    return {w[:STEM] for w in words if w not in STOP_WORDS and len(w) > 2 and "'" not in w}


def japanese_words(text: str) -> set[str]:
    """The katakana and kanji runs (two characters or more) of ``text``."""
    return set(_JAPANESE_WORD.findall(text))


def content_words(text: str) -> set[str]:
    """``japanese_words`` of a Japanese text, ``content_stems`` of any other."""
    return japanese_words(text) if JAPANESE.search(text) else content_stems(text)
