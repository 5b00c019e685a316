"""One imported conversation through the writer and every check, to a draft scenario (or a reason
it was dropped) and a draft persona of its customer.

The writer (the judge-role model, as for ``scenarios generate``) reads the conversation — already
redacted — and returns the customer's opening need as a question, the answer that resolved it
(a reference and the quote it rests on), short facts, a follow-up from the customer's second
turn, and how the customer wrote. Code then checks what a model cannot be trusted with: no
placeholder of personal data (``<email-1>``) may survive into the question, the reference or the
follow-up (asked again once, then dropped); the question is in the drafts' language; the quote is
in the bot's or the human agent's answers; each ``contains`` fact is a few words the quote states
(never a sentence); and the judge answers whether the reference follows from the quote. The
persona's figures (words and questions per message, turns, what was volunteered) are measured in
code; only its tone and patience are the model's words.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..content.prompts import PromptTemplate
from ..models.llm import ChatClient, Message
from ..text.exact_match import says_exactly, short_phrase
from ..text.script import in_language
from ..types.personas import Persona
from ..types.scenarios import FollowUp, ScenarioSource
from . import drafts as why
from .conversation_read import PLACEHOLDER, Conversation, CustomerFigures, customer_figures
from .drafts import Draft, GenerationReport
from .entailment import ENTAILS_SCHEMA, entailment_messages, read_follows
from .facts import exact_facts
from .pipeline import Dropped, _parse, _text, _texts, cached_call
from .quote_check import find_quote
from .reply_cache import ReplyCache
from .similarity import RESTATES_AT, DistinctQuestions, alike

KIND = "conversation"  # the drafts' ``kind``: mined from a real conversation

# Why a conversation gave no draft, in the words the summary prints (with drafts.py's).
OTHER_LANGUAGE = "the conversation is in another language than the drafts"
NOT_RESOLVED = "nothing in the conversation resolved the customer's need"
KEEPS_PERSONAL_DATA = "the question or reference kept a placeholder of personal data, twice"
QUOTE_NOT_ANSWERED = "its quote is not in the bot's or the agent's answers"
# Why a kept draft has no follow-up.
NO_TURN_TWO = "the customer had no second turn"
ONLY_THANKS = "the second turn asked nothing (thanks, goodbye)"
FOLLOW_UP_PERSONAL = "the follow-up kept a placeholder of personal data"

_SHORT = {"type": "string", "maxLength": 120}
MINE_SCHEMA: dict[str, Any] = {
    "title": "mined_scenario",
    "type": "object",
    "properties": {
        "question": {"type": "string", "maxLength": 400},
        "resolved": {"type": "boolean"},
        "reference": {"type": "string", "maxLength": 600},
        "quote": {"type": "string", "maxLength": 600},
        "facts": {"type": "array", "items": {"type": "string", "maxLength": 40}, "maxItems": 3},
        "expect": {"type": "array", "items": {"type": "string", "maxLength": 160}, "maxItems": 2},
        "follow_up_question": {"type": "string", "maxLength": 400},
        "follow_up_reference": {"type": "string", "maxLength": 600},
        "tone": _SHORT,
        "patience": _SHORT,
        "volunteers": _SHORT,
        "persona": {"type": "string", "maxLength": 500},
    },
    "required": [
        "question",
        "resolved",
        "reference",
        "quote",
        "facts",
        "expect",
        "follow_up_question",
        "follow_up_reference",
        "tone",
        "patience",
        "volunteers",
        "persona",
    ],
    "additionalProperties": False,
}
MAX_REPLY_TOKENS = 900
MAX_MESSAGE_CHARS = 1500  # a message longer than this is cut for the writer (a pasted log)
MAX_CONVERSATION_CHARS = 12_000
# A ``contains`` fact is a few words the bot's answer must hold ("10 minutes", "Settings >
# Purchases"), never a sentence: more words (or characters, in Japanese) and it is left out.
FACT_WORDS = 5
FACT_CHARS = 30
SPEAKER_WORDS = {"customer": "customer", "bot": "bot", "agent": "human agent", "system": "internal note"}


@dataclass(frozen=True)
class PersonaDraft:
    """A persona drafted from one conversation's customer, with where it came from."""

    persona: Persona
    conversation: Conversation
    figures: CustomerFigures

    def origin(self) -> str:
        c = self.conversation
        return (
            f"conversation {c.key} (run {c.session.run_id}, session {c.session.id}, "
            f"{c.origin.path} {c.origin.unit} {c.origin.line})"
        )


@dataclass
class MiningReport(GenerationReport):
    personas: list[PersonaDraft] = field(default_factory=list)
    personas_dropped: Counter[str] = field(default_factory=Counter)


@dataclass
class Miner:
    writer: ChatClient
    judge: ChatClient
    template: PromptTemplate  # scenario_mine
    checks: PromptTemplate  # scenario_generate: its entailment check
    language: str
    cache: ReplyCache
    budget: int | None = None
    _report: MiningReport = field(default_factory=lambda: MiningReport(planned=0), init=False, repr=False)

    async def run(
        self, conversations: Sequence[Conversation], progress: Callable[[MiningReport], None]
    ) -> MiningReport:
        report = self._report = MiningReport(planned=len(conversations))
        distinct = DistinctQuestions()
        names: set[str] = set()
        for conversation in conversations:
            if conversation.session.language != self.language:
                report.dropped[OTHER_LANGUAGE] += 1
            elif not report.budget_spent(self.budget):
                try:
                    reply, problem = await self._ask(conversation)
                    # How the customer wrote is worth a persona whatever becomes of the scenario.
                    self._add_persona(conversation, reply, names)
                    if problem is not None:
                        raise Dropped(problem)
                    draft = await self._draft(conversation, reply)
                except Dropped as reason:
                    report.dropped[str(reason)] += 1
                else:
                    report.keep_distinct(draft, distinct)
            progress(report)
        return report

    async def _ask(self, conversation: Conversation) -> tuple[dict[str, Any], str | None]:
        """The writer's reply, asked again once when its question, reference or follow-up keeps a
        placeholder or its question is in another language; with the reason to drop its
        scenario when it still does."""
        turn_two = conversation.customer_turn(2)
        request = self.template.render(
            "conversation",
            conversation=conversation_text(conversation),
            turn_two=_cut(turn_two, MAX_MESSAGE_CHARS) if turn_two else self.template.render("no_turn_two"),
        )
        messages: list[Message] = [
            {"role": "system", "content": self.template.render("system")},
            {"role": "user", "content": request},
        ]
        text = await self._call(self.writer, messages, MINE_SCHEMA)
        reply = _parse(text)
        problem = self._problem(reply)
        if problem is None:
            return reply, None
        messages += [{"role": "assistant", "content": text}, {"role": "user", "content": self.template.render(problem)}]
        reply = _parse(await self._call(self.writer, messages, MINE_SCHEMA))
        problem = self._problem(reply)
        if problem == "placeholders":
            return reply, KEEPS_PERSONAL_DATA
        if problem == "wrong_language":
            return reply, why.WRONG_LANGUAGE
        return reply, None

    def _problem(self, reply: dict[str, Any]) -> str | None:
        question = _text(reply, "question")
        if not question:
            raise Dropped(why.UNREADABLE)
        if any(has_placeholder(_text(reply, k)) for k in ("question", "reference", "follow_up_question")):
            return "placeholders"
        if not in_language(question, self.language):
            return "wrong_language"
        return None

    async def _draft(self, conversation: Conversation, reply: dict[str, Any]) -> Draft:
        question, reference, quote = (_text(reply, k) for k in ("question", "reference", "quote"))
        if reply.get("resolved") is not True or not reference:
            raise Dropped(NOT_RESOLVED)
        answers = "\n\n".join(m.text for m in conversation.of("bot", "agent"))
        # The quote as the answers write it, and the answer it is in: the model's copy must be
        # found there (a reference copied from an answer is its own quote).
        found = find_quote(quote, answers) or find_quote(reference, answers)
        if found is None:
            raise Dropped(QUOTE_NOT_ANSWERED)
        quote = answers[found.start : found.end]
        if alike(question, reference) >= RESTATES_AT:
            raise Dropped(why.RESTATES_QUESTION)
        verdict = read_follows(
            await self._call(self.judge, entailment_messages(self.checks, quote, reference), ENTAILS_SCHEMA)
        )
        if verdict != "yes":
            raise Dropped(why.NOT_ENTAILED if verdict == "no" else why.UNCHECKED)
        return Draft(
            id=draft_id(conversation),
            kind=KIND,
            question=question,
            reference=reference,
            expect=tuple(e for e in _texts(reply, "expect", 2) if not has_placeholder(e)),
            expect_not=(),
            contains=resolution_facts(reply, quote, reference),
            source=conversation_source(conversation, quote),
            follow_up=self._follow_up(conversation, reply),
        )

    def _follow_up(self, conversation: Conversation, reply: dict[str, Any]) -> FollowUp | None:
        dropped = self._report.follow_ups_dropped
        if not conversation.customer_turn(2):
            dropped[NO_TURN_TWO] += 1
            return None
        asked, answer = _text(reply, "follow_up_question"), _text(reply, "follow_up_reference")
        if not asked:
            dropped[ONLY_THANKS] += 1
            return None
        if has_placeholder(asked) or has_placeholder(answer) or not in_language(asked, self.language):
            dropped[FOLLOW_UP_PERSONAL if has_placeholder(asked + answer) else why.WRONG_LANGUAGE] += 1
            return None
        return FollowUp(asked, answer, heading=f"conversation {conversation.key} · turn 2")

    def _add_persona(self, conversation: Conversation, reply: dict[str, Any], names: set[str]) -> None:
        figures = customer_figures(conversation)
        described = [
            line.strip()
            for line in str(reply.get("persona") or "").splitlines()
            if line.strip() and not has_placeholder(line)
        ]
        written = [line if line.startswith("- ") else f"- {line.lstrip('-• ')}" for line in described][:4]
        said = [f"{label}: {_text(reply, key)}" for key, label in _LABELS if _text(reply, key)]
        said = [s for s in said if not has_placeholder(s)]
        text = "\n".join([*written, *(f"- {s}." for s in said), *(f"- {f}" for f in figures.lines())]) + "\n"
        tone = _text(reply, "tone")
        description = f"Real customer ({conversation.key})" + (
            f": {tone}" if tone and not has_placeholder(tone) else ""
        )
        persona = Persona(
            name=persona_name(conversation, names),
            language=self.language,
            persona=text,
            description=description[:120],
        )
        self._report.personas.append(PersonaDraft(persona, conversation, figures))

    async def _call(self, client: ChatClient, messages: list[Message], schema: dict[str, Any]) -> str:
        return await cached_call(client, messages, schema, MAX_REPLY_TOKENS, self.cache, self._report)


_LABELS = (("tone", "Tone"), ("patience", "Patience"), ("volunteers", "Volunteers"))


def has_placeholder(text: str) -> bool:
    return PLACEHOLDER.search(text) is not None


def conversation_text(conversation: Conversation) -> str:
    """The conversation as the writer reads it: each message on its own lines, its turn and
    speaker first; long messages and long conversations cut."""
    lines = []
    for said in conversation.messages:
        lines.append(
            f"[turn {said.turn}] {SPEAKER_WORDS.get(said.speaker, said.speaker)}: {_cut(said.text, MAX_MESSAGE_CHARS)}"
        )
    return _cut("\n".join(lines), MAX_CONVERSATION_CHARS)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def resolution_facts(reply: dict[str, Any], quote: str, reference: str) -> tuple[str, ...]:
    """``contains`` facts: the writer's facts that the quote states and are a few words each, then
    the amounts, numbers with units and menu paths code finds in the quote and the reference
    both; none with a placeholder."""
    named = [f for f in _texts(reply, "facts", 3) if says_exactly(quote, f)]
    found = [f for f in exact_facts(quote) if says_exactly(reference, f)]
    short = [f for f in dict.fromkeys([*named, *found]) if is_short_fact(f) and not has_placeholder(f)]
    return tuple(short[:4])


def is_short_fact(fact: str) -> bool:
    words = fact.split()
    return (
        0 < len(words) <= FACT_WORDS
        and len(fact) <= FACT_CHARS
        and not re.search(r"[.。!！?？]\s*\S", fact)
        and short_phrase(fact)
    )


def draft_id(conversation: Conversation) -> str:
    """Stable across runs: the conversation's file name and id."""
    name = re.split(r"[\\/]", conversation.origin.path)[-1]
    digest = hashlib.sha256(f"{name}\0{conversation.key}".encode()).hexdigest()[:10]
    return f"conv-{digest}"


def conversation_source(conversation: Conversation, quote: str) -> ScenarioSource:
    origin = conversation.origin
    return ScenarioSource(
        file=origin.path,
        heading=f"conversation {origin.conversation}",
        quote=quote,
        passage_hash="",
        run=conversation.session.run_id or "",
        session=conversation.session.id,
        conversation=origin.conversation,
        line=origin.line,
        unit=origin.unit,
    )


_NAME_CHARS = re.compile(r"[^a-z0-9_-]+")


def persona_name(conversation: Conversation, taken: set[str]) -> str:
    """``real-<conversation id>`` as a persona name allows (lowercase letters, digits, - and _),
    unique among those drafted so far."""
    slug = _NAME_CHARS.sub("-", conversation.key.lower()).strip("-_")[:30]
    if not slug:
        slug = hashlib.sha256(conversation.key.encode()).hexdigest()[:8]
    name, n = f"real-{slug}", 1
    while name in taken:
        n += 1
        name = f"real-{slug}-{n}"
    taken.add(name)
    return name
