"""How alike two questions are, and how much of a passage a question copies, measured on
character n-grams of the normalized text: no tokenizer, so Japanese is measured like English."""

from __future__ import annotations

from collections.abc import Sequence

from .normalize import plain

N = 3
# Dice coefficient of character 3-grams. Reworded copies ("How do I link my Google account?" /
# "How can I link my Google account?", パスワードを忘れた場合は… / 場合、…) measure 0.81–0.86;
# different questions on the same screen ("…link my Google account?" / "…unlink my Apple
# account?") 0.72, a short question inside a longer one 0.53: the later of a pair at or above
# this is dropped.
DUPLICATE_AT = 0.78
# A question with this share of its 5-grams found in the passage reads the passage back
# ("Tap Link next to the service?"): kept, but flagged for a person to look at.
COPIED_AT = 0.6


def ngrams(text: str, n: int = N) -> set[str]:
    text = plain(text)
    if len(text) <= n:
        return {text} if text else set()
    return {text[i : i + n] for i in range(len(text) - n + 1)}


def dice(a: str, b: str, n: int = N) -> float:
    return _dice(ngrams(a, n), ngrams(b, n))


def _dice(first: set[str], second: set[str]) -> float:
    if not first or not second:
        return 0.0
    return 2 * len(first & second) / (len(first) + len(second))


def near_duplicates(questions: Sequence[str], at: float = DUPLICATE_AT) -> dict[int, int]:
    """index → the earlier index it duplicates, for every question at least ``at`` alike to one
    kept before it (the first of a group is kept)."""
    kept: list[int] = []
    dropped: dict[int, int] = {}
    grams = [ngrams(q) for q in questions]
    for index, mine in enumerate(grams):
        for earlier in kept:
            if _dice(mine, grams[earlier]) >= at:
                dropped[index] = earlier
                break
        else:
            kept.append(index)
    return dropped


def copied_share(question: str, passage: str, n: int = 5) -> float:
    """The share of the question's character n-grams that occur in the passage."""
    mine = ngrams(question, n)
    if not mine:
        return 0.0
    source = plain(passage)
    return sum(1 for gram in mine if gram in source) / len(mine)
