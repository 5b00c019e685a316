"""What generating scenarios produces: the drafts that passed every check, and an account of the
rest — every planned item either kept or dropped for a named reason, never lost."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..types.scenarios import FollowUp, ScenarioSource
from .similarity import DistinctQuestions

# Why an item was not kept, in the words the summary prints.
UNREADABLE = "the writer's reply could not be read"
WRONG_LANGUAGE = "the question was in another language, twice"
QUOTE_MISSING = "its quote is not in the passage"
NOT_ENTAILED = "the reference does not follow from its quote"
UNCHECKED = "the judge could not say whether the reference follows from its quote"
RESTATES_QUESTION = "the reference restates the question"
REPEATS_FIRST_ANSWER = "the follow-up's reference repeats the first answer"
NOT_FROM_PASSAGE = "the reference is not written from its passage"
IN_KNOWLEDGE = "the out-of-scope question's terms are in the knowledge base"
NO_TERMS = "the out-of-scope question named no key terms"
DUPLICATE = "a near-duplicate of a kept question"
OVER_BUDGET = "not written: the token budget was spent"
FAILED_CALL = "the writer's reply was cut off, even after retries"


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

    @property
    def follow_ups(self) -> int:
        return sum(1 for d in self.kept if d.follow_up is not None)

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

    def tally(self) -> str:
        """``10 kept · 20 dropped``: the counts the progress line and the closing summary both
        print, from this one place, so the last progress line and the summary agree."""
        return f"{len(self.kept)} kept · {sum(self.dropped.values())} dropped"

    def kept_by(self, key: str) -> Counter[str]:
        """Kept items per ``kind`` or per ``document`` (out-of-scope probes have none)."""
        if key == "kind":
            return Counter(d.kind for d in self.kept)
        return Counter(d.source.file for d in self.kept if d.source is not None)
