"""How alike two questions are, and how much of a passage a question copies, on the character
n-grams of ``core/text/text_similarity`` (width-folded, no spaces or punctuation): no tokenizer,
so Japanese is measured like English."""

from __future__ import annotations

from collections.abc import Sequence

from ..text.text_similarity import normalise, trigrams

# Dice coefficient of character trigrams. Reworded copies ("How do I link my Google account?" /
# "How can I link my Google account?", "…refund for a yearly plan?" / "…refund for my yearly
# plan?", パスワードを忘れた場合は… / 場合、…) measure 0.72–0.87; different questions ("…link my
# Google account?" / "…unlink my Apple account?", a short question inside a longer one, two
# questions sharing only "場合はどうすればいいですか") 0.50–0.64: the later of a pair at or above
# this is dropped.
DUPLICATE_AT = 0.7
# A reference this alike to its question restates it ("定期便を一時停止するには？" twice): it
# answers nothing, whatever the judge says of it.
RESTATES_AT = 0.9
# A follow-up's reference this alike to the first answer repeats it rather than answering the next
# question: on the embedded writer one follow-up ("What happens after I create a Tsumugi ID?")
# came back as the first answer reworded (0.97), where the follow-ups that answered their own
# question measured 0.22–0.29 against the first answer.
REPEATS_FIRST_AT = 0.9
# A reference with less than this share of its character trigrams in its passage is not written
# from it: a small writer returns "PASSAGE BEGIN" or "配送についての資料" (0.00) where every
# reference a person read as drawn from its passage measured 0.80 or more.
GROUNDED_AT = 0.5
# A question with this share of its 5-grams found in the passage reads the passage back
# ("Tap Link next to the service?"): kept, but flagged for a person to look at.
COPIED_AT = 0.6


class DistinctQuestions:
    """The questions kept so far, each a near-duplicate of none before it: a new question is
    checked against them as it comes (the generator drops a duplicate when it is written, so
    its progress counts what its summary will)."""

    def __init__(self, at: float = DUPLICATE_AT) -> None:
        self.at = at
        self._grams: list[set[str]] = []

    def duplicate_of(self, question: str) -> int | None:
        """The index of the kept question ``question`` is at least ``at`` alike to, or None."""
        mine = trigrams(question)
        return next((i for i, theirs in enumerate(self._grams) if _dice(mine, theirs) >= self.at), None)

    def add(self, question: str) -> None:
        self._grams.append(trigrams(question))


def near_duplicates(questions: Sequence[str], at: float = DUPLICATE_AT) -> dict[int, int]:
    """index → the earlier index it duplicates, for every question at least ``at`` alike to one
    kept before it (the first of a group is kept)."""
    kept = DistinctQuestions(at)
    places: list[int] = []  # the index in ``questions`` of each kept question
    dropped: dict[int, int] = {}
    for index, question in enumerate(questions):
        earlier = kept.duplicate_of(question)
        if earlier is None:
            kept.add(question)
            places.append(index)
        else:
            dropped[index] = places[earlier]
    return dropped


def alike(first: str, second: str) -> float:
    """The Dice coefficient of the two texts' character trigrams (0 when either has none)."""
    return _dice(trigrams(first), trigrams(second))


def _dice(a: set[str], b: set[str]) -> float:
    return 2 * len(a & b) / (len(a) + len(b)) if a and b else 0.0


def copied_share(question: str, passage: str, n: int = 5) -> float:
    """The share of the question's character n-grams that occur in the passage."""
    text = normalise(question)
    mine = {text[i : i + n] for i in range(len(text) - n + 1)}
    if not mine:
        return 0.0
    source = normalise(passage)
    return sum(1 for gram in mine if gram in source) / len(mine)
