"""The part of a passage an item's question is written for — chosen in code, before the writer is
called, so the question is asked of an answer rather than an answer found for a question.

Asked to write a question and its reference from a whole help page, a small writer often asks what
the page does not answer ("What is the difference between a monthly and an annual billing
cycle?") and then answers with the nearest sentence (the switching rules); it asks "How can I
enable 3D Secure?" of a page that says the bank asks for it at checkout. Shown one part of the
page as the answer, it writes the question that part answers: the approach of answer-aware
question generation, where the answer is picked first and the question conditioned on it.

A passage is cut into parts: its sentences (a paragraph's soft line breaks are spaces), and each
list with the line that introduces it ("To link a service:" and its numbered steps). A part that
cannot be an answer is left out: a heading (and a title line of its own: a PDF's "3.
Cancellation" over its rule), a question (a FAQ row's), a pointer elsewhere ("For
more information, see …"), a sentence about the page ("This section describes …"), a form
field's label ("The name (required): …"), a table row, a list of links, a fragment of a few words.

Each kind takes the parts that can answer it: a `procedural` item a list of steps or a sentence
with an action on a screen; a `conditional` item a part that opens with its case ("If your
payment fails, …", a list under "If push notifications do not arrive:", the whole list first); a
`two_questions` item two neighbouring sentences, one question each; the other kinds any part, a
different one per kind. One item of a list is shown with the line that introduces it: "Service
faults: a problem on our side…" alone says nothing of "We make refunds only in these cases:".
A passage with no such part gives that kind no item — one fewer kept, rather than a question the
passage does not answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import lru_cache

from ..text.content_words import content_words
from ..text.script import JAPANESE
from ..text.sentences import split_sentences
from .answer_kind import gives_a_step, only_points, speaks_of_page
from .plan import KINDS
from .stated_case import LIST_ITEM, opening_condition

MIN_WORDS = 5  # an English part shorter than this says too little to be asked about
MIN_JAPANESE_CHARS = 12

_NUMBERED = re.compile(r"^\s*\d+[.)．]\s+")
_HEADING = re.compile(r"^\s*#{1,6}\s")
_QUOTE_MARK = re.compile(r"^\s*>\s?")
_FORM_LABEL = re.compile(r"^[^:：]{1,60}[(（](?:required|optional|必須|任意)[)）]\s*[:：]", re.I)
_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)")
_IN_QUOTES = re.compile(r"\"[^\"\n]{1,80}\"|“[^”\n]{1,80}”|「[^」\n]{1,80}」")
_JA_ANNOUNCES = re.compile(r"(?:次|以下|下記)[^。]{0,20}。$")
_BLOCKQUOTE = re.compile(r"(?:^|\n)[ \t]*>[ \t]?")
# An English sentence that opens with a word pointing back at the sentence before it.
_LEANS_BACK = re.compile(
    r"(?:it|this|that|these|those|they|then|otherwise|if so|if not|if it is|if they are|such|here)\b", re.I
)
# "…request a new one from the same screen", "Tap the link in that email": which screen, which
# email, the sentence before says; and "…you will be asked to sign in to it again instead":
# instead of what, the sentence before says (enter your password, on the delete screen).
_SAME_PLACE = re.compile(
    r"\b(?:the same (?:screen|page|menu|form|tab|window|settings)|(?:in|on|from|to|at|with|under|during|within|for|after|before) (?:that|this|these|those) \w+"
    r"|instead|as well|either)\b(?! of\b)",
    re.I,
)
_QUESTION_END = re.compile(r"[?？][\"'”’」』)）]*$")


@dataclass(frozen=True)
class AnswerPart:
    """A part of a passage: ``text`` as the writer is shown it, ``start``/``end`` its span in the
    passage, ``quote`` the passage's own words the item keeps (a list's item with its
    introduction: "We make refunds only in these cases: … Service faults: …")."""

    text: str
    start: int
    end: int
    quote: str
    steps: bool = False  # a list of steps, or a sentence with an action on a screen
    case: bool = False  # opens with the case it answers ("If …,"), or its list's introduction does
    is_list: bool = False  # a whole list
    is_item: bool = False  # one item of a list


def answer_part(passage: str, kind: str) -> AnswerPart | None:
    """The part of ``passage`` an item of ``kind`` is written for, or None when no part can
    answer that kind. The kinds that may take any part take different parts of one passage, the
    same whatever order a run gives its kinds in."""
    parts = answer_parts(passage)
    if kind == "procedural":
        fitting = [p for p in parts if p.steps]
    elif kind == "conditional":
        fitting = [p for p in parts if p.case]
    elif kind == "two_questions":
        return _two_neighbours(passage, parts)
    else:
        fitting = parts
    if not fitting:
        return None
    # Steps: a procedure's list first; a case's checklist ("If the email does not arrive:") last,
    # it answers the conditional kind's question. Otherwise each kind its own part of the passage.
    if kind == "procedural":
        fitting.sort(key=lambda p: (p.case, not p.is_list))
        return fitting[0]
    if kind == "conditional":  # a case's whole checklist answers "…does not arrive: what do I do?"
        fitting.sort(key=lambda p: not p.is_list)
        return fitting[0]
    offset = KINDS.index(kind) if kind in KINDS else 0
    return fitting[offset % len(fitting)]


def answer_parts(passage: str) -> list[AnswerPart]:
    """Every part of ``passage`` that can be an answer, in order."""
    return list(_parts_of(passage))


@lru_cache(maxsize=4096)  # the plan asks once per kind of every passage, the writer once more
def _parts_of(passage: str) -> tuple[AnswerPart, ...]:
    parts: list[AnswerPart] = []
    paragraphs = _paragraphs(passage)
    for number, (start, end) in enumerate(paragraphs):
        start = _after_title(passage, start, end)
        lines = passage[start:end].split("\n")
        list_at = next((i for i, line in enumerate(lines) if LIST_ITEM.match(line)), None)
        if list_at is None:
            parts += _sentences(passage, start, end)
            continue
        list_start = start + sum(len(row) + 1 for row in lines[:list_at])
        # The sentence above the list introduces it ("To link a service:", 「次をお試しください。」),
        # in the list's paragraph or in the one before.
        above = (start, list_start) if list_at > 0 else paragraphs[number - 1] if number else None
        found = _introduction_at(passage, *above) if above else None
        intro_at = list_start if found is None else found
        if list_at > 0:
            parts += _sentences(passage, start, intro_at)
        parts += _list(passage, intro_at, list_start, end)
    return tuple(parts)


# A line that is a title of its own, not a sentence: no end mark, a few words.
_TITLE_END = re.compile(r"[.!?。！？:：,;、)）]$")
TITLE_WORDS = 4


def _after_title(passage: str, start: int, end: int) -> int:
    """Where a paragraph's text begins, after a first line that is its title: a PDF's terms
    number their headings like their rules ("3. Cancellation" over "You can cancel a
    subscription…"), and read as one item the writer wrote "Cancellation You can cancel…". A title
    is a short English line with no end mark, over an unindented line that opens a sentence."""
    first, newline, rest = passage[start:end].partition("\n")
    title = LIST_ITEM.sub("", first).strip()
    below = rest.split("\n", 1)[0]
    if (
        not newline
        or not rest.strip()
        or not title
        or not title.isascii()
        or _TITLE_END.search(title)
        or len(title.split()) > TITLE_WORDS
        or below[:1].isspace()
        or LIST_ITEM.match(below)
        or not below[:1].isupper()
    ):
        return start
    return start + len(first) + 1


def _introduction_at(passage: str, start: int, end: int) -> int | None:
    """Where the sentence that introduces a list begins, when the text from ``start`` to ``end``
    ends with one ("…process. You can:"); a soft-wrapped one ("To verify your renewal\ndate:") is
    one sentence, not its last line."""
    flat = passage[start:end].rstrip().replace("\n", " ")  # same offsets: one character for one
    last = (split_sentences(flat) or [""])[-1]
    if not last or not _introduces(last):
        return None
    return start + flat.rfind(last)


def _introduces(line: str) -> bool:
    line = line.strip()
    return line.endswith((":", "：")) or bool(_JA_ANNOUNCES.search(line))


def _paragraphs(text: str) -> list[tuple[int, int]]:
    spans = []
    for found in re.finditer(r"(?:[^\n]|\n(?![ \t]*\n))+", text):
        body = found.group()
        if body.strip():
            lead = len(body) - len(body.lstrip("\n"))
            spans.append((found.start() + lead, found.end()))
    return spans


def _sentences(passage: str, start: int, end: int) -> list[AnswerPart]:
    # Soft line breaks are spaces, and an end mark inside quotes ends no sentence (Select
    # "Forgot password?" on the login screen): the masked text keeps the passage's offsets.
    flat = _BLOCKQUOTE.sub(lambda m: " " * len(m.group()), passage[start:end]).replace("\n", " ")
    masked = _IN_QUOTES.sub(lambda m: re.sub(r"[.!?。！？]", "_", m.group()), flat)
    parts: list[AnswerPart] = []
    cursor = 0
    opened = 0  # where the sentence that a sentence leaning on it goes with began
    for sentence in split_sentences(masked):
        at = masked.find(sentence, cursor)
        if at < 0:
            continue
        cursor = at + len(sentence)
        # "If it is, change the address…", "This message means…", "…from the same screen": said
        # of the sentence before, which it goes with; alone it answers nothing a customer asks.
        if only_points(sentence) or speaks_of_page(sentence):
            continue  # "This section describes…": nothing to add to the sentence before
        if at > 0 and (_LEANS_BACK.match(sentence) or _SAME_PLACE.search(sentence)):
            at = opened
            if parts and parts[-1].start == start + opened:
                parts.pop()
        else:
            opened = at
        part = _part(passage, start + at, start + cursor, flat[at:cursor], is_list=False)
        if part is not None:
            parts.append(part)
    return parts


def _list(passage: str, intro_at: int, list_start: int, end: int) -> list[AnswerPart]:
    """A list and its introduction as one part (a procedure, or a case's checklist), and each
    item that says something on its own as a part too."""
    # the sentence that introduces the list (``_introduction_at``), soft-wrapped or not
    intro = passage[intro_at:list_start].strip()
    shown_intro = " ".join(_clean(intro).split())
    items = _items(passage, list_start, end)
    texts = [_clean(passage[s:e]) for s, e in items]
    if not items or all(_only_links(t) for t in texts):
        return []
    parts = []
    whole_text = "\n".join(([shown_intro] if intro else []) + [t for t in texts if t])
    # Numbered steps, with an action among them; a PDF's numbered terms ("1. Prices include
    # consumption tax. 2. Subscriptions renew every 4 weeks") are rules, each one an answer alone.
    acting = sum(gives_a_step(t) for t in texts)
    numbered = bool(_NUMBERED.match(passage[list_start:end])) and acting > 0
    steps = numbered or acting * 2 > len(texts)
    case = bool(intro) and opening_condition(shown_intro.rstrip(":：") + ",") is not None
    if len(items) > 1:
        whole = passage[intro_at:end].strip()
        parts.append(AnswerPart(whole_text, intro_at, end, whole, steps=steps, case=case, is_list=True))
    if numbered and len(items) > 1:
        return parts  # one step of a procedure alone answers no customer's question
    # An item alone is read with its introduction: "Service faults: a problem on Tsumugi's side…"
    # is a case in which refunds are made only under "We make refunds only in these cases:".
    for index, ((s, e), text) in enumerate(zip(items, texts, strict=True)):
        if not _can_answer(text):
            continue
        if not intro:
            part = _part(passage, s, e, text, is_list=False)
            if part is not None:
                parts.append(replace(part, is_item=True))
            continue
        own = passage[s:e].strip()
        quote = passage[intro_at:e].strip() if index == 0 else f"{intro} … {own}"
        shown = f"{shown_intro} {text}"
        parts.append(
            AnswerPart(shown, s, e, quote, steps=gives_a_step(text), case=case or _opens_case(text), is_item=True)
        )
    return parts


def _items(passage: str, start: int, end: int) -> list[tuple[int, int]]:
    """The spans of a list's items; an indented line goes on the item above it."""
    items: list[list[int]] = []
    offset = start
    for line in passage[start:end].split("\n"):
        if LIST_ITEM.match(line) or not items:
            items.append([offset, offset + len(line)])
        else:
            items[-1][1] = offset + len(line)
        offset += len(line) + 1
    return [(s, e) for s, e in items if passage[s:e].strip()]


def _part(passage: str, start: int, end: int, text: str, is_list: bool) -> AnswerPart | None:
    text = _clean(text)
    if not _can_answer(text):
        return None
    return AnswerPart(
        text, start, end, passage[start:end].strip(), steps=gives_a_step(text), case=_opens_case(text), is_list=is_list
    )


def _opens_case(text: str) -> bool:
    return opening_condition(text) is not None


def _clean(text: str) -> str:
    """As the writer is shown it: no list marker or quote mark, line breaks as spaces."""
    lines = [LIST_ITEM.sub("", _QUOTE_MARK.sub("", line)).strip() for line in text.split("\n")]
    return re.sub(r"[ \t]{2,}", " ", " ".join(line for line in lines if line))


def _can_answer(text: str) -> bool:
    if not text or _HEADING.match(text) or text.startswith("|") or _QUESTION_END.search(text) or _introduces(text):
        return False
    if _FORM_LABEL.match(text) or _only_links(text) or only_points(text) or speaks_of_page(text):
        return False
    if JAPANESE.search(text):
        return len(text) >= MIN_JAPANESE_CHARS
    return len(_LINK.sub("link", text).split()) >= MIN_WORDS and not _title_case(text)


_SMALL_WORDS = frozenset(["a", "an", "and", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"])


def _title_case(text: str) -> bool:
    """Is ``text`` a title ("Kumo Coffee Terms of Sale", a PDF's heading as a line of text): no
    end mark, and every word capitalised but the small ones?"""
    words = text.split()
    return not _TITLE_END.search(text.strip()) and all(w[:1].isupper() or w in _SMALL_WORDS for w in words)


def _only_links(text: str) -> bool:
    return bool(_LINK.search(text)) and len(_LINK.sub("", text).strip(" .,;:-")) < 3


def _two_neighbours(passage: str, parts: list[AnswerPart]) -> AnswerPart | None:
    """Two sentences side by side (no list between them), as one part: one question each."""
    for first, second in zip(parts, parts[1:], strict=False):
        if {first.is_list, first.is_item, second.is_list, second.is_item} != {False}:
            continue
        if passage[first.end : second.start].strip():
            continue
        return AnswerPart(
            f"{first.text}\n{second.text}",
            first.start,
            second.end,
            passage[first.start : second.end].strip(),
            steps=first.steps or second.steps,
            case=first.case,
        )
    return None


# A question asks of its part when it shares a word of its own with it: a word the help centre's
# pages do not all share ("Tsumugi", "account", "Docker" are in most of them and tell nothing).
COMMON_AT = 0.3  # a stem in this share of the passages (or more) is the help centre's, not a question's


def common_words(passages: list[str]) -> frozenset[str]:
    """The words of at least ``COMMON_AT`` of ``passages``: the help centre's own vocabulary."""
    counts: dict[str, int] = {}
    for passage in passages:
        for word in content_words(passage):
            counts[word] = counts.get(word, 0) + 1
    least = max(3, COMMON_AT * len(passages))
    return frozenset(word for word, count in counts.items() if count >= least)


def asked_of(question: str, part: str, common: frozenset[str]) -> bool:
    """Does ``question`` ask about what ``part`` speaks of — one word of its own in it? A question
    with no word of its own ("What is a Tsumugi ID?") is not judged here."""
    own = content_words(question) - common
    if not own:
        return True
    in_part = content_words(part)
    # four letters for English: "pause" and "pausing" are one word, their five-letter stems two
    return any(any(word[:4] in w if word.isascii() else word in w for w in in_part) for word in own)
