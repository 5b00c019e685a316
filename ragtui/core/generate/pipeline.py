"""Planned items through the writer and every check, to drafts or the reasons they were dropped.

For a grounded item code first chooses the part of the passage the question is written for
(``answer_part``: the item's quote); the writer (a model, through the JSON schema below) returns
the question that part answers, a reference answer and the expectations; code then checks that
the question is in the run's language and is a question of its kind (each asked again once,
``question_shape``), that the reference is written from its part, and the judge answers whether
the reference follows from the quote and whether it answers the question. Amounts, numbers, menu
paths and labels the quote and the reference share become ``contains`` expectations, decided in
code — short phrases only; a longer one is judged. Then every expectation proves itself
(``proof``) on the reference and on wrong answers (``wrong_answers``). For an out-of-scope probe,
code checks that none of its key terms occurs in any passage, and its expectations prove
themselves on a canned right and wrong answer. Last, a question too like one kept before it is
dropped. Nothing unverifiable is kept as if verified.

Items run concurrently on the endpoint's slots (``Slots``: the earliest planned item first) and
are counted in plan order as they finish, so the progress line, the near-duplicate check and the
reply cache's requests do not depend on which reply came back first.
"""

from __future__ import annotations

import asyncio
import hashlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..content.prompts import PromptTemplate
from ..metrics.dialogue.expectation_judge import ExpectationJudge
from ..metrics.json_reply import ReplyParseError, extract_json_object, one_text_schema
from ..models.llm import ChatClient, Message
from ..text.exact_match import says_exactly, short_phrase
from ..text.script import in_language
from ..text.sentences import first_clause, split_sentences
from ..text.text_safety import strip_controls
from ..types.errors import IncompleteReply
from ..types.expectations import Polarity
from ..types.knowledge import SourcedPassage
from ..types.scenarios import FollowUp, ScenarioSource
from . import answer_kind, leave_one_out, question_shape
from . import drafts as why
from .answer_part import answer_part, asked_of, common_words
from .cached_client import CachedClient
from .drafts import Draft, GenerationReport, checked_key, item_tokens
from .entailment import (
    ANSWERS_SCHEMA,
    ENTAILS_SCHEMA,
    SAME_SCHEMA,
    Follows,
    answers_messages,
    entailment_messages,
    read_answers,
    read_follows,
    read_same,
    same_answer_messages,
)
from .facts import exact_facts, one_way_of_several, the_number_asked
from .normalize import plain
from .out_of_scope import ProbeTopic, absent_topics, parse_topics, terms_in_knowledge, topic_for, topic_named
from .plan import OUT_OF_SCOPE, PlannedItem
from .proof import Proven, Prover, Violate, Without
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
from .slots import Slots
from .stated_case import opposite_case, unstated_case
from .whole_topic import asks_whole_topic, whole_topic_part
from .wrong_answers import changed_fact

REFERENCE_MAX = 600
_TEXT = {"type": "string", "maxLength": REFERENCE_MAX}
# A reference this long that ends mid-sentence ("…turn off extensions such as ad blockers, which
# can") reached the schema's limit: a long checklist's last step is cut off.
REFERENCE_CUT_AT = REFERENCE_MAX - 12
GROUNDED_SCHEMA: dict[str, Any] = {
    "title": "scenario",
    "type": "object",
    "properties": {
        "question": {"type": "string", "maxLength": 400},
        "reference": _TEXT,
        "expect": {"type": "array", "items": {"type": "string", "maxLength": 160}, "maxItems": 2},
        "expect_not": {"type": "array", "items": {"type": "string", "maxLength": 160}, "maxItems": 1},
    },
    "required": ["question", "reference", "expect", "expect_not"],
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
# A rewritten expectation (``proof``): the writer's second try at one that failed its proof.
REWRITE_SCHEMA = one_text_schema("expectation", "expectation", 160)
SHORT_ANSWER_MAX = 400
YES_NO = frozenset({"yes", "no", "はい", "いいえ"})  # an answer's first word, not a fact to find
SENTENCES_TRIED = 4  # the reference's first sentences asked "does this alone answer it?"
SHORT_ANSWER_SCHEMA = one_text_schema("short_answer", "answer", SHORT_ANSWER_MAX)
# As long as a reference may be: a procedure answered again lists its steps.
FRESH_ANSWER_MAX = 600
FRESH_ANSWER_SCHEMA = one_text_schema("fresh_answer", "answer", FRESH_ANSWER_MAX)
VIOLATION_SCHEMA = one_text_schema("violation", "sentence", 160)
MAX_REPLY_TOKENS = 700
# A reply the token limit cut is asked once more with this many times the limit, then dropped.
LONGER_REPLY = 2
CUT_AT = 158  # an expectation this long reached the schema's limit (160): cut, so not kept
COPIES_WORDING = "the question copies the passage's wording"
# A probe's invented detail kept as "states that …" only when it is a short claim, not a whole
# reply a small writer put in quotes ("The bot might say, 'We don't …'").
MAX_DETAIL = 120
_SPEECH = re.compile(r"\bbot\b|ボット|[\"'「」“”]|\bmight say\b", re.I)
# A shape problem (``question_shape``) as the reason counted when it stays after asking again.
_SHAPE_REASON = {
    question_shape.NOT_A_QUESTION: why.NOT_A_QUESTION,
    question_shape.ONE_QUESTION: why.ONE_QUESTION,
    question_shape.NO_STORY: why.NO_STORY,
    question_shape.NO_DETAIL: why.NO_DETAIL,
    question_shape.NO_SITUATION: why.NO_SITUATION,
    question_shape.SAME_TWICE: why.SAME_TWICE,
    question_shape.PLACEHOLDER: why.PLACEHOLDER,
    question_shape.NOT_THEIRS: why.NOT_THEIRS,
    question_shape.VOCABULARY: why.VOCABULARY,
    question_shape.ECHO: why.ECHO,
}
# What the reference lacks that its question asks for (``answer_kind``), as the reason counted.
_LACKS_REASON = {
    answer_kind.DURATION: why.LACKS_DURATION,
    answer_kind.AMOUNT: why.LACKS_AMOUNT,
    answer_kind.CLOCK: why.LACKS_CLOCK,
    answer_kind.STEPS: why.STEPS_NOT_GIVEN,
    answer_kind.HOW_TO: why.LACKS_ACTION,
    answer_kind.YES_OR_NO: why.LACKS_YES_OR_NO,
    answer_kind.ABOUT_PAGE: why.ABOUT_PAGE,
    answer_kind.POINTER: why.POINTS_ELSEWHERE,
    answer_kind.CONSEQUENCE: why.LACKS_CONSEQUENCE,
    answer_kind.REASON: why.LACKS_REASON,
    answer_kind.WORDING: why.LACKS_WORDING,
    answer_kind.ADDRESS: why.LACKS_ADDRESS,
    answer_kind.TROUBLE: why.LACKS_TROUBLE,
    answer_kind.NAMED_ONLY: why.NAMED_ONLY,
    answer_kind.LOSS: why.LACKS_LOSS,
    answer_kind.USES_MISSING: why.USES_MISSING,
    answer_kind.DEPENDS: why.DEPENDS_ONLY,
    answer_kind.UNANSWERED_PART: why.ONE_ANSWERED,
}


class Dropped(Exception):
    """The item is not kept; the message is the reason, as the summary counts it."""


@dataclass(frozen=True)
class Outcome:
    """One planned item's end: a draft (with the reasons its dropped expectations were dropped
    for), or the reason it was dropped."""

    draft: Draft | None = None
    reason: str = ""
    expectations_dropped: Counter[str] = field(default_factory=Counter)


@dataclass(frozen=True)
class Written:
    """A grounded item past every check of its own, before its expectations prove themselves."""

    item: PlannedItem
    question: str
    reference: str
    quote: str
    expect: tuple[str, ...]
    expect_not: tuple[str, ...]
    contains: tuple[str, ...]
    flags: tuple[str, ...]
    follow_up: FollowUp | None
    follow_facts: tuple[str, ...]
    fresh: str = ""  # the question answered again from the passage alone: another right answer


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
    follow_ups: bool = False  # also write the customer's planned second question
    slots: int = 1  # the endpoint's request slots: items generated at once
    prompts_dir: Path | None = None  # the run's prompts, for the expectation judge's template
    # the words most passages share ("Tsumugi", "account"): no sign of what a question asks
    _common: frozenset[str] | None = field(default=None, init=False, repr=False)

    async def run(self, items: Sequence[PlannedItem], progress: Callable[[GenerationReport], None]) -> GenerationReport:
        """Every item of ``items``, counted in plan order; ``progress(report)`` each time an item
        finishes — counted, or ahead of an earlier one still at work (its wrong answer waits for a
        reference of its document), so a long wait is never silent (``report.ahead``)."""
        report = GenerationReport(planned=len(items))
        self._report = report
        judge = ExpectationJudge(CachedClient(self.judge, self.cache, report), self.prompts_dir, self.language)  # type: ignore[arg-type]
        self._prover = Prover(judge, self.language)
        self._items = list(items)
        loop = asyncio.get_running_loop()
        # Each grounded item's reference once written (None: dropped): another item's wrong answer.
        self._references: dict[int, asyncio.Future[str | None]] = {
            i: loop.create_future() for i, item in enumerate(items) if item.passage is not None
        }
        self._slots = Slots(self.slots)
        distinct = DistinctQuestions()
        outcomes: dict[int, tuple[Outcome, int]] = {}
        committed = counted = 0  # items counted, in plan order; the tokens they spent

        async def one(position: int) -> None:
            nonlocal committed, counted
            spent = [0]
            item_tokens.set(spent)  # this task's own: the calls it makes count here
            outcomes[position] = (await self._outcome(position), spent[0])
            if committed not in outcomes:
                report.ahead = len(outcomes)
                progress(report)
            while committed in outcomes:  # in plan order, as far as every earlier item is done
                outcome, tokens = outcomes.pop(committed)
                if self.budget is not None and counted >= self.budget:
                    # The budget was spent by the items before it: not written, as one item at a
                    # time would have left it (its replies stay in the cache for the next run).
                    report.budget_reached = True
                    report.dropped[why.OVER_BUDGET] += 1
                elif outcome.draft is not None:
                    report.keep(outcome.draft, distinct, outcome.expectations_dropped)
                else:
                    report.dropped[outcome.reason] += 1
                    report.budget_reached |= outcome.reason == why.OVER_BUDGET
                counted += tokens
                committed += 1
                report.ahead = len(outcomes)
                progress(report)

        tasks = [asyncio.create_task(one(i)) for i in range(len(items))]
        try:
            await asyncio.gather(*tasks)
        finally:  # an endpoint that failed ends every item: none left running
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        _unique_ids(report.kept)
        return report

    async def _outcome(self, position: int) -> Outcome:
        item = self._items[position]
        written: Written | None = None
        try:
            async with self._slots.hold(position):
                # Items start in plan order, so the tokens spent so far are at most what the items
                # before this one spend: when they reach the budget, theirs do too.
                if self.budget is not None and self._report.tokens >= self.budget:
                    return Outcome(reason=why.OVER_BUDGET)
                if item.kind == OUT_OF_SCOPE or item.passage is None:
                    number = sum(1 for other in self._items[:position] if other.passage is None)
                    draft = await self._probe(number)
                    return Outcome(draft)
                written = await self._write(item)
        except Dropped as reason:
            return Outcome(reason=str(reason))
        finally:
            future = self._references.get(position)
            if future is not None and not future.done():
                future.set_result(written.reference if written is not None else None)
        wrong = [
            w for w in (changed_fact(written.reference, self.language), await self._other_reference(position)) if w
        ]
        async with self._slots.hold(position):
            return await self._proven(written, wrong)

    async def _other_reference(self, position: int) -> str | None:
        """The reference of another item, as a wrong answer: of the same document first, the
        nearest earlier item before a later one; of another document when the plan has none.
        Chosen by the plan and the items' outcomes only, never by which finished first."""
        passage = self._items[position].passage
        assert passage is not None
        own = self._references[position].result() or ""
        others = sorted(
            (i for i in self._references if i != position),
            key=lambda i: (self._items[i].passage.doc_id != passage.doc_id, i > position, abs(i - position)),  # type: ignore[union-attr]
        )
        for i in others:
            reference = await asyncio.shield(self._references[i])
            if reference and alike(reference, own) < RESTATES_AT:
                return reference
        return None

    async def _write(self, item: PlannedItem) -> Written:
        passage = item.passage
        assert passage is not None
        # The part of the passage the question is written for is chosen in code (``answer_part``):
        # it is the item's quote, the passage's own text.
        part = answer_part(passage.text, item.kind)
        if part is None:
            raise Dropped(why.NO_ANSWER_PART)
        quote = part.quote
        kind_text = self.template.render(f"kind_{item.kind}")
        request = self.template.render(
            "grounded", kind=kind_text, title=passage.title, passage=passage.text, answer=part.text
        )
        reply = await self._ask_written(request, GROUNDED_SCHEMA, item.kind, passage.text)
        question, reference = _text(reply, "question"), _text(reply, "reference")
        if not question or not reference:
            raise Dropped(why.UNREADABLE)
        if len(reference) >= REFERENCE_CUT_AT and whole_sentences(reference) != reference:
            # the writer's reference is its part in its own words; cut short, the part itself is whole
            reference = " ".join(part.text.split())
        if self._common is None:
            self._common = common_words([p.text for p in self.passages])
        if not asked_of(question, part.text, self._common):
            raise Dropped(why.ASKS_ELSEWHERE)
        # "What is the refund policy?" under "Refund policy", written for its first sentence
        if asks_whole_topic(question, passage.title) and not whole_topic_part(part.text, passage, self.passages):
            raise Dropped(why.WHOLE_TOPIC)
        if alike(question, reference) >= RESTATES_AT:
            raise Dropped(why.RESTATES_QUESTION)
        if question_shape.quotes_its_answer(question, reference):
            raise Dropped(why.QUOTES_ANSWER)
        # written from its part: a reference drawn from another sentence answers another question
        if copied_share(reference, part.text, 3) < GROUNDED_AT:
            raise Dropped(why.NOT_FROM_PASSAGE)
        lacks = answer_kind.missing(question, reference)
        if lacks is not None:
            raise Dropped(_LACKS_REASON[lacks])
        # "an opened bag" answered of "unopened bags" only: the case the customer is not in
        if unstated_case(question, quote, reference, passage.text, self._common) is not None or opposite_case(
            question, reference
        ):
            raise Dropped(why.UNSTATED_CASE)
        await self._check_entailed(quote, reference)
        await self._check_answers(question, reference)
        fresh = await self._answered_again(question, reference, passage)
        expect, terms = _judged_or_exact(_texts(reply, "expect", 2), quote)
        # One offered as a way among others ("…, also available under Menu > Help > Contact us")
        # is no fact a right answer must say: it may give the other way.
        facts = [f for f in exact_facts(quote) if says_exactly(reference, f) and not one_way_of_several(reference, f)]
        terms = [t for t in terms if not one_way_of_several(reference, t)]
        # A question of one "how long" / "how many" is answered by a number: the reference's one
        # number is a fact a right answer must say ("10" under "…failed attempts before the
        # account is locked?"), even with no unit the facts above know.
        asked = answer_kind.asked_for(question) if len(question_shape.questions_in(question)) <= 1 else None
        number = the_number_asked(reference, quote) if asked in (answer_kind.DURATION, answer_kind.AMOUNT) else None
        if number is not None:
            facts = [number, *facts]
        # A contains is a few words; a longer fact (a label that is a whole sentence) is judged.
        # One the question already says ("¥5,000" under "…an order of ¥5,000 or more?") proves
        # nothing: a right answer need not repeat it, a wrong one may. "Yes" is no fact.
        exact = [
            f
            for f in dict.fromkeys([*facts, *terms])
            if short_phrase(f) and not says_exactly(question, f) and plain(f).strip(".。!！") not in YES_NO
        ]
        judged = [self.template.render("contains_as_judged", text=f) for f in facts if not short_phrase(f)]
        # against the heading too: a FAQ row's question is its heading, and a copy of it is a copy
        flags = (COPIES_WORDING,) if copied_share(question, f"{passage.title}\n{passage.text}") >= COPIED_AT else ()
        follow_up, follow_facts = await self._follow_up(passage, question, reference) if self.follow_ups else (None, [])
        return Written(
            item,
            question,
            reference,
            quote,
            tuple(dict.fromkeys([*expect, *judged])),
            tuple(t for t in _texts(reply, "expect_not", 1) if not _affirmed(t, passage.text)),
            tuple(exact),
            flags,
            follow_up,
            tuple(f for f in follow_facts if short_phrase(f) and f not in exact),
            fresh,
        )

    async def _proven(self, written: Written, wrong: list[str]) -> Outcome:
        """The draft of ``written`` with the expectations that proved themselves (``proof``)."""
        proven = await self._prover.prove(
            written.question,
            written.reference,
            wrong,
            expect=written.expect,
            expect_not=written.expect_not,
            contains=written.contains,
            rewrite=self._rewrite,
            violate=self._violation,
            also_right=await self._other_right_answers(written)
            if written.expect or written.expect_not or written.contains
            else (),
            without=self._without(written.question, written.reference),
        )
        follow_up = written.follow_up
        if follow_up is not None and written.follow_facts:
            # its facts are said in turn 2: proven on the follow-up's reference
            again = [w for w in (changed_fact(follow_up.reference, self.language), written.reference) if w]
            more = await self._prover.prove(
                follow_up.question, follow_up.reference, again, contains=written.follow_facts
            )
            proven.contains += more.contains
            proven.dropped.update(more.dropped)
        item, passage = written.item, written.item.passage
        assert passage is not None
        source = ScenarioSource(
            file=passage.doc_id,
            heading=" › ".join(passage.heading),
            quote=written.quote,
            passage_hash=passage.content_hash,
            page=passage.page,
        )
        draft = Draft(
            id=f"gen-{item.kind.replace('_', '-')}-{passage.content_hash[:8]}",
            kind=item.kind,
            question=written.question,
            reference=written.reference,
            expect=tuple(t for t, _ in proven.expect),
            expect_not=tuple(t for t, _ in proven.expect_not),
            contains=tuple(t for t, _ in proven.contains),
            source=source,
            flags=written.flags,
            follow_up=follow_up,
            checked=_checked(proven),
        )
        return Outcome(draft, expectations_dropped=proven.dropped)

    async def _rewrite(self, question: str, reference: str, text: str, polarity: Polarity, problem: str) -> str | None:
        """The writer's second try at an expectation that failed its proof, told how it failed."""
        request = self.template.render(
            "rewrite_expect_not" if polarity == "must_not" else "rewrite_expect",
            question=question,
            reference=reference,
            expectation=text,
            problem=self.template.render(f"problem_{problem}"),
        )
        return await self._one_text(request, REWRITE_SCHEMA, "expectation")  # None: dropped, not the item

    async def _one_text(self, request: str, schema: dict[str, Any], key: str, cut_at: int = CUT_AT) -> str | None:
        """The writer's one-line answer to ``request`` (its ``key``, cleaned), or None when the
        reply is unreadable, empty or cut at the schema's limit — what is asked is then left out,
        never the item."""
        messages: list[Message] = [
            {"role": "system", "content": self.template.render("system")},
            {"role": "user", "content": request},
        ]
        try:
            reply = _parse(await self._call(self.writer, messages, schema))
        except Dropped:
            return None
        text = _texts({key: [reply.get(key)]}, key, 1, cut_at)
        return text[0] if text else None

    async def _other_right_answers(self, written: Written) -> list[str]:
        """The right answers besides the reference every expectation must hold on: the question
        answered again from the passage alone (unless it is the reference again), then
        ``_short_answer``'s."""
        fresh = [written.fresh] if written.fresh and alike(written.fresh, written.reference) < RESTATES_AT else []
        return [*fresh, *await self._short_answer(written.question, written.reference)]

    def _without(self, question: str, reference: str) -> Without:
        """The reference without the part that says an expectation, when the judge says that
        rest still answers ``question`` (``leave_one_out``)."""
        parts = leave_one_out.reference_parts(reference)

        async def offer(expectation: str, exact: bool) -> str | None:
            index = leave_one_out.carrier(parts, expectation, exact) if len(parts) > 1 else None
            if index is None:
                return None
            rest = leave_one_out.left_out(parts, index, self.language)
            return rest if await self._answers(question, rest) == "yes" else None

        return offer

    async def _answered_again(self, question: str, reference: str, passage: SourcedPassage) -> str:
        """A round trip: the writer answers ``question`` again from the passage alone, never
        shown the reference, and the judge must say the two give the same answer to it. A
        reference that answers another question of the same topic (which its own yes/no
        passes) meets an answer to the question asked. The second answer, in other words than
        the reference's, is returned: every expectation must hold on it too."""
        request = self.template.render("fresh_answer", question=question, title=passage.title, passage=passage.text)
        answer = await self._one_text(request, FRESH_ANSWER_SCHEMA, "answer", FRESH_ANSWER_MAX + 1)
        if answer is not None and len(answer) >= FRESH_ANSWER_MAX - 2:
            # The small writer goes on past the question and reaches the limit mid-sentence: its
            # whole sentences are its answer ("…, you can add a" is left out).
            answer = whole_sentences(answer)
        if not answer:
            raise Dropped(why.FRESH_UNCHECKED)
        if alike(answer, reference) >= RESTATES_AT:
            return answer  # the same words: the same answer, nothing to ask
        messages = same_answer_messages(self.template, question, reference, answer)
        verdict = read_same(await self._call(self.judge, messages, SAME_SCHEMA))
        if verdict == "no":
            raise Dropped(why.FRESH_DISAGREES)
        if verdict != "yes":
            raise Dropped(why.FRESH_UNCHECKED)
        return answer

    async def _short_answer(self, question: str, reference: str) -> list[str]:
        """Other right answers every expectation must hold on: the shortest reply that still
        answers ``question`` in the writer's own words, unless it copies the reference (a small
        model often does); and the reference's first sentence that answers the question alone,
        by the judge's yes/no (its first clause first, when it has two). None when neither exists (the expectations are then proven on the
        reference alone)."""
        answers: list[str] = []
        request = self.template.render("short_answer", question=question, reference=reference)
        answer = await self._one_text(request, SHORT_ANSWER_SCHEMA, "answer", SHORT_ANSWER_MAX - 2)
        if answer is not None and alike(answer, reference) < RESTATES_AT:  # the reference again proves nothing
            answers.append(answer)
        sentences = split_sentences(reference)
        # The first clause of the first sentence, when it has two ("You can link your ID with a
        # Google account and then log in with one tap" → its first half): an expectation about
        # the second half is a detail the question may not have asked.
        clause = first_clause(sentences[0]) if sentences else None
        shorter = [*([clause] if clause else []), *(sentences[:SENTENCES_TRIED] if len(sentences) > 1 else [])]
        for sentence in shorter:
            if await self._answers(question, sentence) == "yes":
                answers.append(sentence)
                break
        return answers

    async def _violation(self, question: str, reference: str, act: str) -> list[str]:
        """The reference with one sentence added that does ``act`` (written by the writer): the
        answer a prohibition must catch. None when the writer gives no usable sentence."""
        request = self.template.render("violation", question=question, reference=reference, act=act)
        sentence = await self._one_text(request, VIOLATION_SCHEMA, "sentence")
        if sentence is None:
            return []  # the expectation is dropped ("no wrong answer to prove it on"), not the item
        joint = "" if self.language == "ja" else " "
        return [f"{reference.rstrip()}{joint}{sentence}"]

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
            lacks = answer_kind.missing(asked, answer)
            if lacks is not None:
                raise Dropped(_LACKS_REASON[lacks])
            if copied_share(answer, source.text, 3) < GROUNDED_AT:
                raise Dropped(why.NOT_FROM_PASSAGE)
            await self._check_entailed(quote, answer)
        except Dropped as reason:
            self._report.follow_ups_dropped[str(reason)] += 1
            return None, []
        facts = [f for f in exact_facts(quote) if says_exactly(answer, f)]
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
            question, detail = _text(on_topic, "question"), _text(on_topic, "invented_detail")
            must_not = self.template.render("probe_expect_not_topic", topic=topic.name)
        else:
            question, must_not, detail = self._free_probe(candidates)
        # Proven on a canned right answer (it does not know, and says whom to ask) and wrong ones
        # (the writer's invented detail stated as fact, a canned confident answer): the same
        # checks the run will make of the bot.
        wrong = [self.template.render("probe_wrong_answer")]
        if detail and not _SPEECH.search(detail):
            wrong.insert(0, detail.rstrip(".。") + ("。" if self.language == "ja" else "."))
        proven = await self._prover.prove(
            question,
            self.template.render("probe_right_answer"),
            wrong,
            expect=(self.template.render("probe_expect"),),
            expect_not=(must_not,) if must_not else (),
            violate=_these(wrong),  # the invented detail stated as fact is what it forbids
        )
        if not proven.expect:
            raise Dropped(why.PROBE_UNPROVEN)
        digest = hashlib.sha256(plain(question).encode("utf-8")).hexdigest()[:8]
        return Draft(
            id=f"gen-out-of-scope-{digest}",
            kind=OUT_OF_SCOPE,
            question=question,
            reference="",
            expect=tuple(t for t, _ in proven.expect),
            expect_not=tuple(t for t, _ in proven.expect_not),
            contains=(),
            source=None,
            checked=_checked(proven),
        )

    def _free_probe(self, candidates: list[dict[str, Any]]) -> tuple[str, str, str]:
        """The first candidate none of whose key terms is in the knowledge base, what it must not
        state (none when the writer's invented detail is not a short claim), and that detail."""
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
            return _text(candidate, "question"), must_not, detail if claim else ""
        raise Dropped(reason)

    def _absent_topics(self) -> list[ProbeTopic]:
        if self._absent is None:
            self._absent = absent_topics(parse_topics(self.template.render("probe_topics")), self.passages)
        return self._absent

    async def _ask_in_language(self, request: str, schema: dict[str, Any]) -> dict[str, Any]:
        reply, _, _ = await self._ask_language(request, schema)
        return reply

    async def _ask_language(self, request: str, schema: dict[str, Any]) -> tuple[dict[str, Any], str, list[Message]]:
        """The writer's reply with its question in the run's language (asked again once), its
        text, and the conversation so far (to ask again on)."""
        messages: list[Message] = [
            {"role": "system", "content": self.template.render("system")},
            {"role": "user", "content": request},
        ]
        text = await self._call(self.writer, messages, schema)
        reply = _parse(text)
        if in_language(_question(reply), self.language):
            return reply, text, messages
        messages = [
            *messages,
            {"role": "assistant", "content": text},
            {"role": "user", "content": self.template.render("wrong_language")},
        ]
        text = await self._call(self.writer, messages, schema)
        reply = _parse(text)
        if not in_language(_question(reply), self.language):
            raise Dropped(why.WRONG_LANGUAGE)
        return reply, text, messages

    async def _ask_written(self, request: str, schema: dict[str, Any], kind: str, passage: str) -> dict[str, Any]:
        """``_ask_in_language``, and a question that is a question of ``kind``
        (``question_shape``): asked again once with what is wrong, then dropped."""
        reply, text, messages = await self._ask_language(request, schema)
        problem = question_shape.shape_problem(_text(reply, "question"), kind, passage)
        if problem is None:
            return reply
        messages = [
            *messages,
            {"role": "assistant", "content": text},
            {"role": "user", "content": self.template.render(f"again_{problem}")},
        ]
        reply = _parse(await self._call(self.writer, messages, schema))
        if not in_language(_question(reply), self.language):
            raise Dropped(why.WRONG_LANGUAGE)
        again = question_shape.shape_problem(_text(reply, "question"), kind, passage)
        if again is not None:
            raise Dropped(_SHAPE_REASON[again])
        return reply

    async def _check_entailed(self, quote: str, reference: str) -> None:
        messages = entailment_messages(self.template, quote, reference)
        verdict = read_follows(await self._call(self.judge, messages, ENTAILS_SCHEMA))
        if verdict == "no":
            raise Dropped(why.NOT_ENTAILED)
        if verdict != "yes":
            raise Dropped(why.UNCHECKED)

    async def _check_answers(self, question: str, reference: str) -> None:
        """The judge's yes/no: does the reference answer the question asked? (One that follows
        from its quote may still answer another question.)"""
        verdict = await self._answers(question, reference)
        if verdict == "no":
            raise Dropped(why.DOES_NOT_ANSWER)
        if verdict != "yes":
            raise Dropped(why.ANSWER_UNCHECKED)
        # A message of two questions is asked one by one as well: the judge's yes to the pair is
        # given to a reference that answers the first and leaves the second unanswered.
        parts = question_shape.one_by_one(question)
        for alone in parts if len(parts) > 1 else ():
            verdict = await self._answers(alone, reference)
            if verdict == "no":
                raise Dropped(why.ONE_ANSWERED)
            if verdict != "yes":
                raise Dropped(why.ANSWER_UNCHECKED)

    async def _answers(self, question: str, text: str) -> Follows:
        """The judge's yes/no: does ``text`` answer ``question``? Asked of a reference, of a
        part of one (a shorter right answer), and of one without a part (``leave_one_out``)."""
        messages = answers_messages(self.template, question, text)
        return read_answers(await self._call(self.judge, messages, ANSWERS_SCHEMA))

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
    async with cache.asking(key):  # the same request in flight: wait for its reply, then read it
        cached = cache.get(key)
        if cached is not None:
            report.cached_calls += 1
            return cached
        limit = max_tokens
        for _ in range(2):
            try:
                completion = await client.complete(messages, json_schema=schema, max_tokens=limit)
            except IncompleteReply:
                raise Dropped(why.FAILED_CALL) from None  # one reply cut off: that item only
            # Any other endpoint error (refused, unreachable, timed out) ends the whole generation:
            # it would fail every item the same way. What was answered so far is in the cache.
            report.spend(completion.prompt_tokens, completion.completion_tokens)
            if completion.finish_reason != "length":
                cache.put(key, completion.text)
                return completion.text
            limit = max_tokens * LONGER_REPLY  # cut at the token limit: once more with room to finish
        raise Dropped(why.CUT_OFF)


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


# The request's own passage markers, which a small writer copies into its fields ("PASSAGE BEGIN >
# 設定 > セキュリティ …", or a reference that is nothing else): never content of an answer.
_MARKER = re.compile(r"#*\s*PASSAGE (?:BEGIN|END)\s*#*(?:\s*[>:：](?=\s))?")


def _text(reply: dict[str, Any], key: str) -> str:
    """A field of the writer's reply on one line, without control characters (an escape
    sequence in a question would drive the terminal of whoever reviews or runs it) and without
    the request's passage markers."""
    value = reply.get(key)
    return " ".join(_MARKER.sub(" ", strip_controls(value)).split()) if isinstance(value, str) else ""


def whole_sentences(text: str) -> str:
    """``text`` up to the end of its last whole sentence ("" when it has none): what is left of a
    reply the schema's length limit cut mid-sentence."""
    ends = [m.end() for m in re.finditer(r"[.!?…][\"'”’」』)）]*(?=\s|$)|[。！？][」』）)]*", text)]
    return text[: ends[-1]].strip() if ends else ""


def _texts(reply: dict[str, Any], key: str, most: int, cut_at: int = CUT_AT) -> tuple[str, ...]:
    """The list's texts, leaving out one the schema's length limit cut off mid-sentence."""
    value = reply.get(key)
    if not isinstance(value, list):
        return ()
    texts = (" ".join(strip_controls(v).split()) for v in value if isinstance(v, str) and len(v) < cut_at)
    return tuple(t for t in texts if t)[:most]


# A judged expectation this short that the quote states word for word is a term to find, not a
# sentence to judge ("Visa"): checked in code instead.
TERM_AT_MOST = 24


def _judged_or_exact(expect: tuple[str, ...], quote: str) -> tuple[tuple[str, ...], list[str]]:
    """The writer's ``expect`` split into sentences to judge and short terms of the quote that
    become ``contains`` expectations."""
    terms = [e for e in expect if len(e) <= TERM_AT_MOST and short_phrase(e) and says_exactly(quote, e)]
    return tuple(e for e in expect if e not in terms), terms


def _affirmed(forbidden: str, passage: str) -> bool:
    """An ``expect_not`` the passage itself states ("JCB" where the passage lists JCB among the
    cards it takes) forbids the right answer: left out."""
    text = plain(forbidden).rstrip(".。")
    return len(text) >= 2 and text in plain(passage)


def _checked(proven: Proven) -> dict[str, Any]:
    return {
        **{checked_key("contains", t): p for t, p in proven.contains},
        **{checked_key("expect", t): p for t, p in proven.expect},
        **{checked_key("expect_not", t): p for t, p in proven.expect_not},
    }


def _unique_ids(drafts: list[Draft]) -> None:
    """Two drafts from one passage and kind get -2, -3: ids stay stable run to run."""
    seen: dict[str, int] = {}
    for index, draft in enumerate(drafts):
        count = seen.get(draft.id, 0) + 1
        seen[draft.id] = count
        if count > 1:
            drafts[index] = Draft(**{**draft.__dict__, "id": f"{draft.id}-{count}"})


def _these(answers: list[str]) -> Violate:
    """A ``Violate`` that offers the same answers for every act (a probe's wrong answers)."""

    async def offer(question: str, reference: str, act: str) -> list[str]:
        return answers

    return offer
