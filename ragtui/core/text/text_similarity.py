"""How alike two texts are, in code: character trigrams, so it works for Japanese (no spaces
between words) and English alike, with no model and no dependency.

Used where a similarity measure is enough to decide: the bot repeating an earlier answer
(``repetition``) and the simulated customer copying the bot's answer back (simulator checks).
"""

from __future__ import annotations

import re
import unicodedata

from .sentences import split_sentences

_NOISE = re.compile(r"[\s\W_]+", re.UNICODE)


def normalise(text: str) -> str:
    """Lower case, width-folded (NFKC), without spaces or punctuation."""
    return _NOISE.sub("", unicodedata.normalize("NFKC", text).lower())


def trigrams(text: str) -> set[str]:
    norm = normalise(text)
    if len(norm) < 3:
        return {norm} if norm else set()
    return {norm[i : i + 3] for i in range(len(norm) - 2)}


def dice(a: str, b: str) -> float:
    """Dice coefficient of the two texts' character trigrams: 1 identical, 0 nothing shared."""
    x, y = trigrams(a), trigrams(b)
    if not x or not y:
        return 0.0
    return 2 * len(x & y) / (len(x) + len(y))


def sentences(text: str) -> list[str]:
    return [s for s in split_sentences(text) if len(normalise(s)) >= 6]


def covered_share(later: str, earlier: list[str], at: float = 0.8) -> float:
    """Share of ``later``'s sentences that are (nearly) a sentence of one of ``earlier``."""
    parts = sentences(later)
    if not parts:
        return 0.0
    before = [s for text in earlier for s in sentences(text)]
    if not before:
        return 0.0
    repeated = sum(1 for s in parts if max(dice(s, b) for b in before) >= at)
    return repeated / len(parts)
