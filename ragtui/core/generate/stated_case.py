"""Does the reference answer the case the customer is in, or another case of the same topic?

A help page often answers several cases of one topic, each under its own condition: "If push
notifications do not arrive: 1. Check that…", "If your account was locked and you did not make the
failed attempts yourself, someone may be trying to guess your password", "If your subscription
payment fails, there is a grace period of 15 days". A reference drawn from such a passage answers
the question of *that* case; asked "How can I enable push notifications?", "…can I delay it?" or
"What if I forget my password?", it answers a neighbouring question — and the small judge's "does it
answer the question?" says yes to it, because it is about the topic.

The condition that governs a reference is found in code: the opening sentence of the quote or of
the reference when it starts with one ("If …,", "Unless …,", "In case …,", 「…場合は、」), or the
line that introduces the list the quote is taken from ("If push notifications do not arrive:").
The customer's message must state that case: at least half of the condition's content words (by
their stem, so "cancelled" meets "cancel") are in it, and a condition of something going wrong
("do not arrive", "fails", "did not make") needs a message that says something is wrong.

A reference that speaks only of the opposite of the customer's case answers another question
too: "Can I return an opened bag of coffee within 30 days?" answered "Unopened bags of coffee can
be returned within 30 days of delivery" says nothing of opened bags (``opposite_case``, English:
a word of the message that the reference has only with "un-" or "non-" before it, or the other
way round).

A paragraph that opens with a quoted message and a colon answers the customer who saw that
message: ""This external account is already linked to another Tsumugi ID": … Log in to that other
Tsumugi ID … and tap "Unlink"". Drawn from it, "How can I unlink my external account?" gets steps
for another case (log in to *another* ID first), though every step names the topic. The message
must be stated like a condition, counting only its words the help centre's pages do not mostly
share ("Tsumugi", "account" tell nothing of which message it is). English only: Japanese words
are read as runs of kanji and katakana, which miss the message's 「すでに別の」.

Only a condition the reference *opens* with is read: one further down ("…, but you can downgrade.
If your payment fails, …") is a detail of the answer, not the case it answers.
"""

from __future__ import annotations

import re
import unicodedata

from ..text.content_words import content_stems, japanese_words
from ..text.script import JAPANESE
from ..text.sentences import split_sentences
from .answer_kind import BARE_ANSWER

STATED_AT = 0.5  # the share of the condition's content words the customer's message must hold

_EN_CONDITION = re.compile(r"^(?:if|unless|in case|in the event that)\s+([^,:;]{3,160})[,:]", re.I)
# A list's introduction is a condition with "when" too ("When you change your billing cycle:");
# in a sentence "when" more often says the time of a step than a case.
_EN_INTRO = re.compile(r"^(?:if|unless|in case|in the event that|when|whenever)\s+([^:]{3,160}):\s*$", re.I)
# A paragraph opening with a quoted message and a colon: the case of a customer who saw it.
_MESSAGE = re.compile(r"^\s*[\"“「]([^\"”」\n]{3,160})[\"”」]\s*[:：]")
_JA_CONDITION = re.compile(r"^(.{2,60}?)(?:場合|とき|時|際)(?:は|に|には)?[、,]")
_JA_INTRO = re.compile(r"^(.{2,60}?)(?:場合|とき|時|際)(?:は|に|には)?[:：]\s*$")
LIST_ITEM = re.compile(r"^\s*(?:\d+[.)．]|[-*+・•])\s")  # a list item's marker

# Something going wrong, in the condition and in the customer's message.
_EN_WRONG = re.compile(
    r"\b(?:not|no|never|cannot|unable|fails?|failed|failing|lost|lose|forgot|forget|forgotten|locked|"
    r"missing|stuck|broken|wrong|error|problems?|trouble|issues?|mistake|unfamiliar|suspicious|"
    r"without)\b|n't\b",
    re.I,
)
_JA_WRONG = re.compile(r"ない|ません|できず|失敗|忘れ|紛失|なくし|エラー|届か|開か|困|トラブル|不明|心当たり")


def unstated_case(
    question: str, quote: str, reference: str, passage: str, common: frozenset[str] = frozenset()
) -> str | None:
    """The condition the reference answers under that ``question`` does not state, or None.

    Read from the list introduction above ``quote`` in ``passage``, from the opening sentence of
    ``quote`` and of ``reference``, and from a quoted message that opens the paragraph ``quote``
    is in, whose words in ``common`` (the help centre's own vocabulary) are not counted (the
    module docstring says why)."""
    asked = unicodedata.normalize("NFKC", question)
    for condition in _conditions(quote, reference, passage):
        if not _stated(condition, asked):
            return condition
    message = message_case(quote, passage)
    if message is not None and not _stated(message, asked, common):
        return message
    return None


def message_case(quote: str, passage: str) -> str | None:
    """The quoted message that opens the paragraph of ``passage`` that ``quote`` is in, or None."""
    start = _quote_start(quote, passage)
    if start < 0:
        return None
    opening = passage.rfind("\n\n", 0, start)
    paragraph = passage[opening + 2 if opening >= 0 else 0 :]
    found = _MESSAGE.match(unicodedata.normalize("NFKC", paragraph))
    return found.group(1).strip() if found and not JAPANESE.search(found.group(1)) else None


def _quote_start(quote: str, passage: str) -> int:
    """Where ``quote`` begins in ``passage`` (found by its first 40 characters), or -1."""
    return passage.find(quote.strip()[:40]) if quote.strip() else -1


def _conditions(quote: str, reference: str, passage: str) -> list[str]:
    found = [c for c in (_intro(quote, passage), opening_condition(quote), opening_condition(reference)) if c]
    return list(dict.fromkeys(found))


def opening_condition(text: str) -> str | None:
    """The condition ``text``'s first sentence opens with ("If …,"), after a bare "Yes."/"No."."""
    sentences = [s.strip() for s in split_sentences(unicodedata.normalize("NFKC", text)) if s.strip()]
    while sentences and BARE_ANSWER.match(sentences[0]):
        sentences = sentences[1:]
    if not sentences:
        return None
    first = sentences[0].lstrip("-*+>•・ ")
    found = (_JA_CONDITION if JAPANESE.search(first) else _EN_CONDITION).match(first)
    return found.group(1).strip() if found else None


def _intro(quote: str, passage: str) -> str | None:
    """The condition of the list ``quote`` is taken from: the line above its items that ends
    with a colon ("If push notifications do not arrive:")."""
    start = _quote_start(quote, passage)
    if start < 0:
        return None
    lines = passage[:start].splitlines()
    first_line = passage[start:].split("\n", 1)[0]
    if not (LIST_ITEM.match(first_line) or (lines and LIST_ITEM.match(lines[-1] + first_line))):
        return None
    # the quote's own line began before it ("1. " left out of the quote): it is not a line above
    if lines and not passage[:start].endswith("\n"):
        lines = lines[:-1]
    for line in reversed(lines):
        line = unicodedata.normalize("NFKC", line).strip()
        if not line or LIST_ITEM.match(line):
            continue  # the list's earlier items: the introduction is above them
        found = (_JA_INTRO if JAPANESE.search(line) else _EN_INTRO).match(line)
        return found.group(1).strip() if found else None
    return None


def _stated(condition: str, question: str, common: frozenset[str] = frozenset()) -> bool:
    if JAPANESE.search(condition):
        words = japanese_words(condition) - common
        share = sum(w in question for w in words) / len(words) if words else 1.0
        wrong, says_wrong = _JA_WRONG.search(condition), _JA_WRONG.search(question)
    else:
        words = content_stems(condition) - common
        share = len(words & content_stems(question)) / len(words) if words else 1.0
        wrong, says_wrong = _EN_WRONG.search(condition), _EN_WRONG.search(question)
    return share >= STATED_AT and (wrong is None or says_wrong is not None)


_WORD = re.compile(r"[a-z][a-z-]{2,}")
_OPPOSITE = re.compile(r"^(?:un|non-?)([a-z]{3,})$")


def opposite_case(question: str, reference: str) -> str | None:
    """A word of ``question``'s case that ``reference`` has only as its opposite ("opened" /
    "unopened", "unused" / "used"), or None; English (see the module docstring)."""
    if JAPANESE.search(question):
        return None
    asked = set(_WORD.findall(question.casefold()))
    said = set(_WORD.findall(reference.casefold()))
    for word in sorted(asked - said):
        plain = _OPPOSITE.match(word)
        opposites = {f"un{word}", f"non{word}", f"non-{word}"} if plain is None else {plain.group(1)}
        if said & opposites:
            return word
    return None
