"""What generating scenarios produces: the drafts that passed every check, and an account of the
rest — every planned item either kept or dropped for a named reason, never lost."""

from __future__ import annotations

from collections import Counter
from contextvars import ContextVar
from dataclasses import dataclass, field

from ..types.expectations import Proof
from ..types.scenarios import FollowUp, ScenarioSource
from .similarity import DistinctQuestions

# Why an item was not kept, in the words the summary prints.
UNREADABLE = "the writer's reply could not be read"
WRONG_LANGUAGE = "the question was in another language, twice"
QUOTE_MISSING = "its quote is not in the passage"
NO_ANSWER_PART = "no part of the passage answers a question of this kind"
ASKS_ELSEWHERE = "the question shares no word of its own with the part it was written for"
NOT_ENTAILED = "the reference does not follow from its quote"
UNCHECKED = "the judge could not say whether the reference follows from its quote"
RESTATES_QUESTION = "the reference restates the question"
QUOTES_ANSWER = "the customer's message quotes its own answer"
REPEATS_FIRST_ANSWER = "the follow-up's reference repeats the first answer"
NOT_FROM_PASSAGE = "the reference is not written from its passage"
IN_KNOWLEDGE = "the out-of-scope question's terms are in the knowledge base"
NO_TERMS = "the out-of-scope question named no key terms"
DUPLICATE = "a near-duplicate of a kept question"
OVER_BUDGET = "not written: the token budget was spent"
FAILED_CALL = "the writer's reply was cut off, even after retries"
CUT_OFF = "the reply reached the token limit, even with a larger one"
NOT_A_QUESTION = "the question is not a question (a heading or a statement), twice"
ONE_QUESTION = "a two-questions item asked one question, twice"
NO_STORY = "a situational item told no story, twice"
NO_DETAIL = "a distracting-detail item had no unrelated detail, twice"
DOES_NOT_ANSWER = "the reference does not answer the question asked"
ANSWER_UNCHECKED = "the judge could not say whether the reference answers the question"
PROBE_UNPROVEN = "the probe's expectation did not prove itself"
NO_SITUATION = "a conditional item described no situation of the customer's, twice"
SAME_TWICE = "a two-questions item asked the same question twice, twice"
PLACEHOLDER = 'the customer\'s message left a blank to fill in ("[date]"), twice'
NOT_THEIRS = 'the message speaks of "the customer" instead of as them, twice'
VOCABULARY = "the question asks what something is called, twice"
ECHO = "the question gives the writer's instructions back, twice"
LACKS_DURATION = "the question asks how long; the reference gives no duration"
LACKS_AMOUNT = "the question asks how much or how many; the reference gives no number"
LACKS_CLOCK = "the question asks what time or day; the reference gives none"
STEPS_NOT_GIVEN = "the reference announces steps it does not give"
LACKS_ACTION = "the question asks how to do something; the reference gives no step"
ONE_ANSWERED = "the message asks two questions; the reference answers one"
LACKS_YES_OR_NO = "the question asks yes or no; the reference says neither"
ABOUT_PAGE = "the reference speaks of the page instead of answering"
POINTS_ELSEWHERE = "the reference only sends the reader elsewhere"
LACKS_CONSEQUENCE = "the question asks what happens; the reference says only whether one may"
LACKS_REASON = "the question asks why; the reference gives no reason"
LACKS_WORDING = "the question asks for the words shown; the reference quotes none"
LACKS_ADDRESS = "the question asks for an address or number to reach; the reference gives none"
LACKS_TROUBLE = "the customer's trouble is not spoken of; the reference tells what they already did"
DEPENDS_ONLY = "the question asks how; the reference says it depends and gives fewer than two ways"
LACKS_LOSS = "the customer lost or forgot something; the reference never speaks of it"
USES_MISSING = "the customer cannot find something; the reference only tells them to use it"
NAMED_ONLY = "the question asks what something is; the reference only names it in a list"
WHOLE_TOPIC = "the question asks for its page's whole topic; its part gives some of it"
UNSTATED_CASE = "the reference answers a case the question does not state"
FRESH_DISAGREES = "answered again from the passage alone, the question gets another answer"
FRESH_UNCHECKED = "the reference could not be compared with a second answer from the passage"

# Why an expectation was not written (its item is kept without it).
EXPECTATION_RIGHT_FAILS = "the reference answer fails it, even rewritten"
EXPECTATION_WRONG_PASSES = "a wrong answer meets it too, even rewritten"
EXPECTATION_BREAK_PASSES = "an answer that does what it forbids is not caught, even rewritten"
EXPECTATION_SHORT_FAILS = "a shorter right answer in other words fails it, even rewritten"
EXPECTATION_UNCHECKED = "the judge could not read it on the reference"
EXPECTATION_NO_WRONG = "no wrong answer to prove it on"
EXPECTATION_UNREADABLE = "it is empty or too long to be one expectation"
EXPECTATION_QUESTION = "it is the customer's message again, not what the answer must say"

# The progress line's word for each reason (the summary prints the whole sentence).
SHORT = {
    UNREADABLE: "unreadable",
    WRONG_LANGUAGE: "language",
    QUOTE_MISSING: "quote missing",
    NO_ANSWER_PART: "no part for the kind",
    ASKS_ELSEWHERE: "asks of another part",
    NOT_ENTAILED: "not entailed",
    UNCHECKED: "unchecked",
    RESTATES_QUESTION: "restates question",
    QUOTES_ANSWER: "answer quoted in question",
    NOT_FROM_PASSAGE: "not from passage",
    IN_KNOWLEDGE: "probe covered",
    NO_TERMS: "probe without terms",
    DUPLICATE: "duplicate",
    OVER_BUDGET: "budget",
    FAILED_CALL: "cut off",
    CUT_OFF: "token limit",
    NOT_A_QUESTION: "not a question",
    ONE_QUESTION: "one question",
    NO_STORY: "no story",
    NO_DETAIL: "no detail",
    DOES_NOT_ANSWER: "does not answer",
    ANSWER_UNCHECKED: "answer unchecked",
    PROBE_UNPROVEN: "probe unproven",
    NO_SITUATION: "no situation",
    SAME_TWICE: "same question twice",
    PLACEHOLDER: "blank left",
    NOT_THEIRS: "not the customer's words",
    VOCABULARY: "asks a name",
    ECHO: "instructions echoed",
    LACKS_DURATION: "no duration",
    LACKS_AMOUNT: "no number",
    LACKS_CLOCK: "no time",
    STEPS_NOT_GIVEN: "steps not given",
    LACKS_ACTION: "no step",
    LACKS_YES_OR_NO: "no yes or no",
    ONE_ANSWERED: "one of two answered",
    ABOUT_PAGE: "about the page",
    POINTS_ELSEWHERE: "points elsewhere",
    LACKS_CONSEQUENCE: "no consequence",
    LACKS_REASON: "no reason",
    LACKS_WORDING: "no wording",
    LACKS_ADDRESS: "no address",
    LACKS_TROUBLE: "trouble not spoken of",
    DEPENDS_ONLY: "depends, ways not given",
    LACKS_LOSS: "loss not spoken of",
    USES_MISSING: "told to use what is missing",
    NAMED_ONLY: "only named",
    WHOLE_TOPIC: "whole topic asked",
    UNSTATED_CASE: "another case",
    FRESH_DISAGREES: "answered otherwise",
    FRESH_UNCHECKED: "second answer unchecked",
}


@dataclass(frozen=True)
class Draft:
    id: str
    kind: str
    question: str
    reference: str
    expect: tuple[str, ...]
    expect_not: tuple[str, ...]
    contains: tuple[str, ...]  # facts of the quote, checked in code on the bot's answer
    source: ScenarioSource | None  # None for an out-of-scope probe
    flags: tuple[str, ...] = ()  # kept, but worth a person's look ("copies the passage's wording")
    follow_up: FollowUp | None = None  # the customer's planned turn 2 (``--follow-ups``)
    # Each expectation's proof (``proof.py``), by ``checked_key(form, text)``.
    checked: dict[str, Proof] = field(default_factory=dict)


def checked_key(form: str, text: str) -> str:
    """``form`` is ``contains``, ``expect`` or ``expect_not``."""
    return f"{form}:{text}"


# The tokens the planned item being written has spent so far (each item runs in its own task, with
# its own counter): what the budget is counted in, item by item, in plan order.
item_tokens: ContextVar[list[int] | None] = ContextVar("item_tokens", default=None)


@dataclass
class GenerationReport:
    planned: int
    kept: list[Draft] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)
    calls: int = 0
    cached_calls: int = 0  # answered from the cache of an earlier, interrupted run: no tokens spent
    prompt_tokens: int = 0
    completion_tokens: int = 0
    budget_reached: bool = False
    # ``--follow-ups``: a kept item without its follow-up is still kept; why it has none, counted
    follow_ups_dropped: Counter[str] = field(default_factory=Counter)
    expectations_proven: int = 0  # of the kept items
    expectations_dropped: Counter[str] = field(default_factory=Counter)  # of the kept items, by reason
    # Items finished but not yet counted: each waits for an earlier one (counted in plan order)
    ahead: int = 0

    @property
    def done(self) -> int:
        """Items finished: counted (each kept or dropped once) or waiting to be (``ahead``)."""
        return len(self.kept) + sum(self.dropped.values()) + self.ahead

    @property
    def follow_ups(self) -> int:
        return sum(1 for d in self.kept if d.follow_up is not None)

    def spend(self, prompt_tokens: int | None, completion_tokens: int | None) -> None:
        """One call answered by the model: counted here, and on the item that made it."""
        self.calls += 1
        self.prompt_tokens += prompt_tokens or 0
        self.completion_tokens += completion_tokens or 0
        spent = item_tokens.get()
        if spent is not None:
            spent[0] += (prompt_tokens or 0) + (completion_tokens or 0)

    @property
    def tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def budget_spent(self, budget: int | None) -> bool:
        """Whether ``budget`` (tokens; None: no limit) is spent; when it is, the item not written
        is counted as dropped for it, so every planned item stays accounted for."""
        if budget is None or self.tokens < budget:
            return False
        self.budget_reached = True
        self.dropped[OVER_BUDGET] += 1
        return True

    def keep_distinct(self, draft: Draft, distinct: DistinctQuestions) -> None:
        """Keep ``draft`` unless its question is a near-duplicate of one kept before it, which is
        dropped now, not after the last item: every progress line counts what the summary will
        (the first of a group is kept)."""
        if distinct.duplicate_of(draft.question) is not None:
            self.dropped[DUPLICATE] += 1
        else:
            distinct.add(draft.question)
            self.kept.append(draft)

    def keep(self, draft: Draft, distinct: DistinctQuestions, dropped_expectations: Counter[str]) -> None:
        """``keep_distinct``, counting the kept draft's expectations: proven, and dropped by reason."""
        before = len(self.kept)
        self.keep_distinct(draft, distinct)
        if len(self.kept) > before:
            self.expectations_proven += len(draft.checked)
            self.expectations_dropped.update(dropped_expectations)

    def tally(self) -> str:
        """``10 kept · 20 dropped (12 not entailed, 8 duplicate) · expectations 25 proven, 4
        dropped``: the counts the progress line and the closing summary both print, from this one
        place, so every progress line counts as the summary will and the last one agrees with it."""
        dropped = sum(self.dropped.values())
        reasons = ", ".join(f"{n} {SHORT.get(reason, reason)}" for reason, n in sorted_reasons(self.dropped))
        text = f"{len(self.kept)} kept · {dropped} dropped" + (f" ({reasons})" if reasons else "")
        if self.expectations_proven or self.expectations_dropped:
            text += (
                f" · expectations {self.expectations_proven} proven, {sum(self.expectations_dropped.values())} dropped"
            )
        return text

    def kept_by(self, key: str) -> Counter[str]:
        """Kept items per ``kind`` or per ``document`` (out-of-scope probes have none)."""
        if key == "kind":
            return Counter(d.kind for d in self.kept)
        return Counter(d.source.file for d in self.kept if d.source is not None)


def sorted_reasons(counts: Counter[str]) -> list[tuple[str, int]]:
    """Most first, then by name: the same order on every line that lists them."""
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))
