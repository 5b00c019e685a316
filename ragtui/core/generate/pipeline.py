"""One planned item through the writer and every check, to a draft or a reason it was dropped.

For a grounded item the writer (a model, through the JSON schema below) returns a question, a
reference answer, the quote that supports it and the expectations; code then checks that the
question is in the run's language (asked again once), that the quote is in the passage, and the
judge answers whether the reference follows from the quote. Amounts, numbers, menu paths and
labels the quote and the reference share become ``contains`` expectations, decided in code. For
an out-of-scope probe, code checks that none of its key terms occurs in any passage. Last, a
question too like one kept before it is dropped. Nothing unverifiable is kept as if verified.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..content.prompts import PromptTemplate
from ..metrics.json_reply import ReplyParseError, extract_json_object
from ..models.llm import ChatClient, Message
from ..text.script import in_language
from ..text.text_safety import strip_controls
from ..types.errors import IncompleteReply
from ..types.knowledge import SourcedPassage
from ..types.scenarios import FollowUp, ScenarioSource
from . import drafts as why
from .drafts import Draft, GenerationReport
from .entailment import ENTAILS_SCHEMA, entailment_messages, read_follows
from .facts import exact_facts
from .normalize import plain
from .out_of_scope import ProbeTopic, absent_topics, parse_topics, terms_in_knowledge, topic_for, topic_named
from .plan import OUT_OF_SCOPE, PlannedItem
from .quote_check import find_quote
from .reply_cache import ReplyCache, request_key
from .similarity import (
    COPIED_AT,
    GROUNDED_AT,
    REPEATS_FIRST_AT,
    RESTATES_AT,
    DistinctQuestions,
    alike,
    copied_share,
)

_TEXT = {"type": "string", "maxLength": 600}
GROUNDED_SCHEMA: dict[str, Any] = {
    "title": "scenario",
    "type": "object",
    "properties": {
        "question": {"type": "string", "maxLength": 400},
        "reference": _TEXT,
        "quote": _TEXT,
        "expect": {"type": "array", "items": {"type": "string", "maxLength": 160}, "maxItems": 2},
        "expect_not": {"type": "array", "items": {"type": "string", "maxLength": 160}, "maxItems": 1},
    },
    "required": ["question", "reference", "quote", "expect", "expect_not"],
    "additionalProperties": False,
}
_PROBE = {
    "type": "object",
    "properties": {
        "question": {"type": "string", "maxLength": 400},
        "key_terms": {"type": "array", "items": {"type": "string", "maxLength": 60}, "maxItems": 4},
        "invented_detail": {"type": "string", "maxLength": 200},
    },
    "required": ["question", "key_terms", "invented_detail"],
    "additionalProperties": False,
}
# Three candidates in one call: a small model often picks a topic the knowledge base does cover,
# and the first candidate whose terms are in no passage is the one kept.
PROBE_SCHEMA: dict[str, Any] = {
    "title": "probe",
    "type": "object",
    "properties": {"candidates": {"type": "array", "items": _PROBE, "minItems": 1, "maxItems": 3}},
    "required": ["candidates"],
    "additionalProperties": False,
}
# The customer's planned second question (``--follow-ups``): asked after the first answer,
# answered by the same passage or the next section of its document, checked like the first.
FOLLOW_UP_SCHEMA: dict[str, Any] = {
    "title": "follow_up",
    "type": "object",
    "properties": {"question": {"type": "string", "maxLength": 400}, "reference": _TEXT, "quote": _TEXT},
    "required": ["question", "reference", "quote"],
    "additionalProperties": False,
}
MAX_REPLY_TOKENS = 700
CUT_AT = 158  # an expectation this long reached the schema's limit (160): cut, so not kept
COPIES_WORDING = "the question copies the passage's wording"
# A probe's invented detail kept as "states that …" only when it is a short claim, not a whole
# reply a small writer put in quotes ("The bot might say, 'We don't …'").
MAX_DETAIL = 120
_SPEECH = re.compile(r"\bbot\b|ボット|[\"'「」“”]|\bmight say\b", re.I)


class Dropped(Exception):
    """The item is not kept; the message is the reason, as the summary counts it."""


@dataclass
class Generator:
    writer: ChatClient
    judge: ChatClient
    template: PromptTemplate
    language: str
    passages: Sequence[SourcedPassage]  # the whole knowledge base, for the out-of-scope check
    cache: ReplyCache
    budget: int | None = None  # tokens, prompt and completion together; None: no limit
    _absent: list[ProbeTopic] | None = field(default=None, init=False, repr=False)
    _probes: int = field(default=0, init=False, repr=False)  # so far: each is shown other topics
    follow_ups: bool = False  # also write the customer's planned second question

    async def run(self, items: Sequence[PlannedItem], progress: Callable[[GenerationReport], None]) -> GenerationReport:
        report = GenerationReport(planned=len(items))
        self._report = report
        distinct = DistinctQuestions()
        for item in items:
            if not report.budget_spent(self.budget):
                try:
                    draft = await self._one(item)
                except Dropped as reason:
                    report.dropped[str(reason)] += 1
                else:
                    report.keep_distinct(draft, distinct)
            progress(report)
        _unique_ids(report.kept)
        return report

    async def _one(self, item: PlannedItem) -> Draft:
        if item.kind == OUT_OF_SCOPE or item.passage is None:
            self._probes += 1
            return await self._probe(self._probes - 1)
        passage = item.passage
        kind_text = self.template.render(f"kind_{item.kind}")
        request = self.template.render("grounded", kind=kind_text, title=passage.title, passage=passage.text)
        reply = await self._ask_in_language(request, GROUNDED_SCHEMA)
        question, reference, quote = (_text(reply, k) for k in ("question", "reference", "quote"))
        if not question or not reference:
            raise Dropped(why.UNREADABLE)
        # The quote as the passage writes it: the model's copy must be found in it, and what is
        # kept is the passage's own text. A reference copied from the passage is its own quote
        # (small models often leave the quote out or write "...").
        match = find_quote(quote, passage.text) or find_quote(reference, passage.text)
        if match is None:
            raise Dropped(why.QUOTE_MISSING)
        quote = passage.text[match.start : match.end]
        if alike(question, reference) >= RESTATES_AT:
            raise Dropped(why.RESTATES_QUESTION)
        if copied_share(reference, passage.text, 3) < GROUNDED_AT:
            raise Dropped(why.NOT_FROM_PASSAGE)
        await self._check_entailed(quote, reference)
        facts = [f for f in exact_facts(quote) if plain(f) in plain(reference)]
        expect, terms = _judged_or_exact(_texts(reply, "expect", 2), quote)
        # against the heading too: a FAQ row's question is its heading, and a copy of it is a copy
        flags = (COPIES_WORDING,) if copied_share(question, f"{passage.title}\n{passage.text}") >= COPIED_AT else ()
        source = ScenarioSource(
            file=passage.doc_id,
            heading=" › ".join(passage.heading),
            quote=quote,
            passage_hash=passage.content_hash,
            page=passage.page,
        )
        follow_up, follow_facts = await self._follow_up(passage, question, reference) if self.follow_ups else (None, [])
        return Draft(
            id=f"gen-{item.kind.replace('_', '-')}-{passage.content_hash[:8]}",
            kind=item.kind,
            question=question,
            reference=reference,
            expect=expect,
            expect_not=tuple(t for t in _texts(reply, "expect_not", 1) if not _affirmed(t, passage.text)),
            contains=tuple(dict.fromkeys([*facts, *terms, *follow_facts])),
            source=source,
            flags=flags,
            follow_up=follow_up,
        )

    async def _follow_up(
        self, passage: SourcedPassage, question: str, reference: str
    ) -> tuple[FollowUp | None, list[str]]:
        """The customer's next question after ``reference``, answered by ``passage`` or the next
        section of its document, with the checks of a first question; None (and the reason
        counted) when it fails one — the item itself is kept either way."""
        sections = [passage, *self._next_section(passage)]
        text = "\n\n".join(p.text for p in sections)
        request = self.template.render(
            "follow_up", question=question, reference=reference, title=passage.title, passage=text
        )
        try:
            reply = await self._ask_in_language(request, FOLLOW_UP_SCHEMA)
            asked, answer, quote = (_text(reply, k) for k in ("question", "reference", "quote"))
            if not asked or not answer:
                raise Dropped(why.UNREADABLE)
            found = next(
                ((p, m) for p in sections if (m := find_quote(quote, p.text) or find_quote(answer, p.text))), None
            )
            if found is None:
                raise Dropped(why.QUOTE_MISSING)
            source, match = found
            quote = source.text[match.start : match.end]
            if alike(asked, answer) >= RESTATES_AT:
                raise Dropped(why.RESTATES_QUESTION)
            if alike(reference, answer) >= REPEATS_FIRST_AT:
                raise Dropped(why.REPEATS_FIRST_ANSWER)
            if copied_share(answer, source.text, 3) < GROUNDED_AT:
                raise Dropped(why.NOT_FROM_PASSAGE)
            await self._check_entailed(quote, answer)
        except Dropped as reason:
            self._report.follow_ups_dropped[str(reason)] += 1
            return None, []
        facts = [f for f in exact_facts(quote) if plain(f) in plain(answer)]
        heading = " › ".join(source.heading)
        return FollowUp(asked, answer, quote, source.content_hash, heading), facts

    def _next_section(self, passage: SourcedPassage) -> list[SourcedPassage]:
        """The passage after ``passage`` in its document, when there is one."""
        index = next((i for i, p in enumerate(self.passages) if p is passage), None)
        if index is None or index + 1 >= len(self.passages):
            return []
        following = self.passages[index + 1]
        return [following] if following.doc_id == passage.doc_id else []

    async def _probe(self, number: int) -> Draft:
        titles = sorted({p.title.split(" › ")[0] for p in self.passages})
        topic = topic_for(self._absent_topics(), number)
        request = self.template.render(
            "out_of_scope",
            topics="\n".join(f"- {t}" for t in titles[:60]),
            absent=topic.name if topic else self.template.render("probe_any_topic"),
        )
        reply = await self._ask_in_language(request, PROBE_SCHEMA)
        written = [c for c in reply.get("candidates") or [] if isinstance(c, dict) and _text(c, "question")]
        candidates = [c for c in written if in_language(_text(c, "question"), self.language)]
        if not candidates:
            raise Dropped(why.WRONG_LANGUAGE if written else why.UNREADABLE)
        # A question on the topic code found absent is out of scope on that topic's terms, and
        # what it must not state is said of the topic; any other question is checked on the terms
        # the writer named, and must not state the detail the writer invented.
        on_topic = next((c for c in candidates if topic and topic_named(_text(c, "question"), [topic])), None)
        if on_topic is not None and topic is not None:
            question = _text(on_topic, "question")
            must_not = self.template.render("probe_expect_not_topic", topic=topic.name)
        else:
            question, must_not = self._free_probe(candidates)
        digest = hashlib.sha256(plain(question).encode("utf-8")).hexdigest()[:8]
        return Draft(
            id=f"gen-out-of-scope-{digest}",
            kind=OUT_OF_SCOPE,
            question=question,
            reference="",
            expect=(self.template.render("probe_expect"),),
            expect_not=(must_not,) if must_not else (),
            contains=(),
            source=None,
        )

    def _free_probe(self, candidates: list[dict[str, Any]]) -> tuple[str, str]:
        """The first candidate none of whose key terms is in the knowledge base, and what it must
        not state (none when the writer's invented detail is not a short claim)."""
        reason = why.NO_TERMS
        for candidate in candidates:
            terms = [t for t in _texts(candidate, "key_terms", 4) if t]
            if not terms:
                continue
            if terms_in_knowledge(terms, self.passages):
                reason = why.IN_KNOWLEDGE
                continue
            detail = _text(candidate, "invented_detail").rstrip(".。")
            claim = bool(detail) and len(detail) <= MAX_DETAIL and not _SPEECH.search(detail)
            must_not = self.template.render("probe_expect_not", detail=detail) if claim else ""
            return _text(candidate, "question"), must_not
        raise Dropped(reason)

    def _absent_topics(self) -> list[ProbeTopic]:
        if self._absent is None:
            self._absent = absent_topics(parse_topics(self.template.render("probe_topics")), self.passages)
        return self._absent

    async def _ask_in_language(self, request: str, schema: dict[str, Any]) -> dict[str, Any]:
        messages: list[Message] = [
            {"role": "system", "content": self.template.render("system")},
            {"role": "user", "content": request},
        ]
        text = await self._call(self.writer, messages, schema)
        reply = _parse(text)
        if in_language(_question(reply), self.language):
            return reply
        messages += [
            {"role": "assistant", "content": text},
            {"role": "user", "content": self.template.render("wrong_language")},
        ]
        reply = _parse(await self._call(self.writer, messages, schema))
        if not in_language(_question(reply), self.language):
            raise Dropped(why.WRONG_LANGUAGE)
        return reply

    async def _check_entailed(self, quote: str, reference: str) -> None:
        messages = entailment_messages(self.template, quote, reference)
        verdict = read_follows(await self._call(self.judge, messages, ENTAILS_SCHEMA))
        if verdict == "no":
            raise Dropped(why.NOT_ENTAILED)
        if verdict != "yes":
            raise Dropped(why.UNCHECKED)

    async def _call(self, client: ChatClient, messages: list[Message], schema: dict[str, Any]) -> str:
        return await cached_call(client, messages, schema, MAX_REPLY_TOKENS, self.cache, self._report)


async def cached_call(
    client: ChatClient,
    messages: list[Message],
    schema: dict[str, Any],
    max_tokens: int,
    cache: ReplyCache,
    report: GenerationReport,
) -> str:
    """The model's reply to ``messages``, from ``cache`` when an earlier, interrupted run was
    answered it; the call and its tokens counted on ``report``."""
    key = request_key(client.endpoint.model, [dict(m) for m in messages], schema)
    cached = cache.get(key)
    if cached is not None:
        report.cached_calls += 1
        return cached
    try:
        completion = await client.complete(messages, json_schema=schema, max_tokens=max_tokens)
    except IncompleteReply:
        raise Dropped(why.FAILED_CALL) from None  # one reply cut off: that item only
    # Any other endpoint error (refused, unreachable, timed out) ends the whole generation:
    # it would fail every item the same way. What was answered so far is in the cache.
    report.calls += 1
    report.prompt_tokens += completion.prompt_tokens or 0
    report.completion_tokens += completion.completion_tokens or 0
    cache.put(key, completion.text)
    return completion.text


def _parse(text: str) -> dict[str, Any]:
    try:
        return extract_json_object(text)
    except ReplyParseError:
        raise Dropped(why.UNREADABLE) from None


def _question(reply: dict[str, Any]) -> str:
    """The question whose language decides: a test case's, or a probe's first candidate's."""
    candidates = reply.get("candidates")
    if isinstance(candidates, list) and candidates and isinstance(candidates[0], dict):
        return _text(candidates[0], "question")
    return _text(reply, "question")


def _text(reply: dict[str, Any], key: str) -> str:
    """A field of the writer's reply on one line, without control characters: an escape
    sequence in a question would drive the terminal of whoever reviews or runs it."""
    value = reply.get(key)
    return " ".join(strip_controls(value).split()) if isinstance(value, str) else ""


def _texts(reply: dict[str, Any], key: str, most: int) -> tuple[str, ...]:
    """The list's texts, leaving out one the schema's length limit cut off mid-sentence."""
    value = reply.get(key)
    if not isinstance(value, list):
        return ()
    texts = (" ".join(strip_controls(v).split()) for v in value if isinstance(v, str) and len(v) < CUT_AT)
    return tuple(t for t in texts if t)[:most]


# A judged expectation this short that the quote states word for word is a term to find, not a
# sentence to judge ("Visa"): checked in code instead.
TERM_AT_MOST = 24


def _judged_or_exact(expect: tuple[str, ...], quote: str) -> tuple[tuple[str, ...], list[str]]:
    """The writer's ``expect`` split into sentences to judge and short terms of the quote that
    become ``contains`` expectations."""
    terms = [e for e in expect if len(e) <= TERM_AT_MOST and plain(e) in plain(quote)]
    return tuple(e for e in expect if e not in terms), terms


def _affirmed(forbidden: str, passage: str) -> bool:
    """An ``expect_not`` the passage itself states ("JCB" where the passage lists JCB among the
    cards it takes) forbids the right answer: left out."""
    text = plain(forbidden).rstrip(".。")
    return len(text) >= 2 and text in plain(passage)


def _unique_ids(drafts: list[Draft]) -> None:
    """Two drafts from one passage and kind get -2, -3: ids stay stable run to run."""
    seen: dict[str, int] = {}
    for index, draft in enumerate(drafts):
        count = seen.get(draft.id, 0) + 1
        seen[draft.id] = count
        if count > 1:
            drafts[index] = Draft(**{**draft.__dict__, "id": f"{draft.id}-{count}"})
