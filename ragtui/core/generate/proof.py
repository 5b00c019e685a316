"""Every expectation proves itself before it is written, with the judge and prompt that will gate
the run (``metrics.dialogue.ExpectationJudge``, asked through ``try_expectation`` on a one-turn
dialogue: the item's question, then the answer):

- the reference answer must meet every ``expect`` and break no ``expect_not`` — an expectation
  the right answer fails is a false alarm in the team's CI; one that bounds an amount the other
  way from the reference ("more than 3 months" over "up to 3 months", ``text.number_bounds``)
  fails it in code, before the judge is asked — and so must the other right answers
  (``also_right``: the shortest reply that still answers the question, in other words): an
  expectation that asks for a detail the customer never asked, or for the reference's own words,
  fails a right answer that is shorter or worded differently;
- and so must the reference without the part that says the expectation, when the judge says
  that rest still answers the question (``Without``, ``leave_one_out``): a detail the customer
  never needed fails the right answer that leaves it out;
- at least one wrong answer made for the purpose (``wrong_answers``: the reference with its key
  fact changed, another item's reference) must fail each ``expect`` — one a wrong answer meets
  too tells nothing;
- a prohibition must be broken by an answer that does its act (``Violate``: the reference with one
  sentence added, written by the writer for that act; a probe's invented detail stated as fact):
  the judge must say that answer does it — one the judge cannot catch protects nothing.

An expectation that is the customer's message again ("The customer asked: Can I change my
username every 30 days? …") says nothing of the answer and is dropped before the judge is asked.

A right answer must meet a judged expectation clearly, not only just: P at least ``RIGHT_AT``
(and a prohibition at most 1 − ``RIGHT_AT``), where the run passes at 0.5 (``expectation_judge.MET_AT``). One the
reference meets at 0.66 asks for something it only half says, and the bot's right answer in other
words falls below the line as often as not: a false alarm waiting. A wrong answer must fail it as
clearly: P at most 1 − ``RIGHT_AT`` (an answer that does a prohibited act: at least ``RIGHT_AT``).
One a wrong answer fails at 0.497 ("The billing renewal date is set at the end of the subscription
term using your default payment method") tells the two apart by a coin's width, and the bot's
wrong answer passes it as often as not: a miss waiting.

A judged expectation that fails is rewritten once by the writer, told which way it failed, and
proven again; then dropped and counted. A ``contains`` is proven in code with the run's own
matcher (``text.exact_match``), and dropped, not rewritten. Each kept expectation carries its
proof (``Proof``: the P on the reference, the P on the wrong answer that failed it).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field

from ..config.expectation_items import expectation_from_text
from ..metrics.dialogue.base import DialogueContext, DialogueTurn
from ..metrics.dialogue.expectation_judge import ExpectationJudge
from ..metrics.dialogue.expectation_trial import try_expectation
from ..text.exact_match import says_exactly
from ..text.number_bounds import contradicts
from ..types.errors import ConfigError
from ..types.expectations import Expectation, Polarity, Proof
from . import drafts as why
from .similarity import copied_share

# (question, reference, the expectation, its polarity, what went wrong) → the rewritten text or None
Rewrite = Callable[[str, str, str, Polarity, str], Awaitable[str | None]]
# (question, reference, the prohibition's act) → answers that do the act (none when none was made)
Violate = Callable[[str, str, str], Awaitable[Sequence[str]]]
# (an expectation's text, whether it is a `contains`) → the reference without the part that says it,
# when that rest still answers the question (``leave_one_out``); None otherwise
Without = Callable[[str, bool], Awaitable[str | None]]
RIGHT_FAILS = "right_fails"
WRONG_PASSES = "wrong_passes"
BREAK_PASSES = "break_passes"  # a prohibition: an answer doing its act was not caught
SHORT_FAILS = "short_fails"  # a shorter right answer in other words fails it
REWRITTEN = (RIGHT_FAILS, WRONG_PASSES, BREAK_PASSES, SHORT_FAILS)  # the failures the writer is told of
Checked = tuple[tuple[str, Proof], ...]
# An expectation that is the customer's message again ("The customer asked: Can I change my
# username every 30 days? …"): a label of the writer's prompt, or most of the question's words.
_ASKED_LABEL = re.compile(
    r"^\W*(?:the\s+)?(?:customer|user|question|message)(?:\s+(?:asked|asks|says|said))?\s*:", re.I
)
QUESTION_COPIED_AT = 0.8  # the share of the question's character 5-grams that makes it a copy
RIGHT_AT = 0.8  # P a right answer must reach on an expectation (a prohibition: at most 1 − this)
WRONG_AT = 1 - RIGHT_AT  # P a wrong answer must stay at or under (a breaking one: at least 1 − this)


@dataclass
class Proven:
    """What survived, each text with its proof, in the writer's order; and what was dropped, by
    reason (``drafts.EXPECTATION_*``)."""

    expect: list[tuple[str, Proof]] = field(default_factory=list)
    expect_not: list[tuple[str, Proof]] = field(default_factory=list)
    contains: list[tuple[str, Proof]] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)


@dataclass
class Prover:
    judge: ExpectationJudge
    language: str

    async def prove(
        self,
        question: str,
        reference: str,
        wrong: Sequence[str],
        *,
        expect: Sequence[str] = (),
        expect_not: Sequence[str] = (),
        contains: Sequence[str] = (),
        rewrite: Rewrite | None = None,
        violate: Violate | None = None,
        also_right: Sequence[str] = (),
        without: Without | None = None,
    ) -> Proven:
        proven = Proven()

        async def right_answers(text: str, exact: bool) -> list[str]:
            # besides ``also_right``: the reference without the part that says this one
            rest = await without(text, exact) if without is not None else None
            return [*also_right, *([rest] if rest else [])]

        for phrase in contains:
            proof, problem = _in_code(phrase, reference, wrong, await right_answers(phrase, True))
            if proof is not None:
                proven.contains.append((phrase, proof))
            else:
                proven.dropped[_reason(problem)] += 1
        kinds: list[tuple[Polarity, Sequence[str], list[tuple[str, Proof]]]] = [
            ("must", expect, proven.expect),
            ("must_not", expect_not, proven.expect_not),
        ]
        for polarity, texts, into in kinds:
            for text in texts:
                # a prohibition's act is not in the reference: nothing to leave out
                right = await right_answers(text, False) if polarity == "must" else also_right
                proof, problem = await self.judged(text, polarity, question, reference, wrong, violate, right)
                if proof is None and rewrite is not None and problem in REWRITTEN:
                    again = await rewrite(question, reference, text, polarity, problem)
                    if again and again != text:
                        text = again
                        right = await right_answers(text, False) if polarity == "must" else also_right
                        proof, problem = await self.judged(text, polarity, question, reference, wrong, violate, right)
                if proof is not None:
                    into.append((text, proof))
                else:
                    proven.dropped[_reason(problem)] += 1
        return proven

    async def judged(
        self,
        text: str,
        polarity: Polarity,
        question: str,
        reference: str,
        wrong: Sequence[str],
        violate: Violate | None = None,
        also_right: Sequence[str] = (),
    ) -> tuple[Proof | None, str]:
        """The proof of one judged expectation, or None and what went wrong."""
        if _ASKED_LABEL.match(text) or copied_share(question, text) >= QUESTION_COPIED_AT:
            # the judge met one on the reference at 0.92: the question "asked" is in every answer's turn
            return None, why.EXPECTATION_QUESTION
        try:
            # read as the scenario file will be: "does not …" under expect becomes a prohibition
            expectation = expectation_from_text(text, "judged", polarity)
        except ConfigError:
            return None, why.EXPECTATION_UNREADABLE
        if expectation.polarity == "must" and contradicts(expectation.text, reference):
            # "more than 3 months" over a reference's "up to 3 months": the small judge reads the
            # two as alike, a person as opposites — the reference fails it, read in code
            return None, RIGHT_FAILS
        right = await self._p(expectation, question, reference)
        if right is None:
            return None, why.EXPECTATION_UNCHECKED
        if expectation.polarity == "must_not":
            if right > 1 - RIGHT_AT:
                return None, RIGHT_FAILS
            for answer in also_right:
                p = await self._p(expectation, question, answer)
                if p is None or p > 1 - RIGHT_AT:
                    return None, SHORT_FAILS
            breaking = await violate(question, reference, expectation.text) if violate is not None else ()
            if not breaking:
                return None, why.EXPECTATION_NO_WRONG
            for answer in breaking:
                p = await self._p(expectation, question, answer)
                if p is not None and p >= 1 - WRONG_AT:
                    return Proof(_round(right), _round(p)), ""
            return None, BREAK_PASSES
        if right < RIGHT_AT:
            return None, RIGHT_FAILS
        for answer in also_right:
            p = await self._p(expectation, question, answer)
            if p is None or p < RIGHT_AT:
                return None, SHORT_FAILS
        if not wrong:
            return None, why.EXPECTATION_NO_WRONG
        for answer in wrong:
            p = await self._p(expectation, question, answer)
            if p is not None and p <= WRONG_AT:
                return Proof(_round(right), _round(p)), ""
        return None, WRONG_PASSES

    async def _p(self, expectation: Expectation, question: str, answer: str) -> float | None:
        context = DialogueContext([DialogueTurn(1, question, answer)], self.language, expectations=(expectation,))
        (check,) = await try_expectation(expectation, context, self.judge)
        return check.p_yes


def _in_code(
    phrase: str, reference: str, wrong: Sequence[str], also_right: Sequence[str] = ()
) -> tuple[Proof | None, str]:
    if not says_exactly(reference, phrase):
        return None, RIGHT_FAILS
    if not all(says_exactly(answer, phrase) for answer in also_right):
        return None, SHORT_FAILS
    if not wrong:
        return None, why.EXPECTATION_NO_WRONG
    if all(says_exactly(answer, phrase) for answer in wrong):
        return None, WRONG_PASSES
    return Proof(1.0, 0.0), ""


def _reason(problem: str) -> str:
    return {
        RIGHT_FAILS: why.EXPECTATION_RIGHT_FAILS,
        WRONG_PASSES: why.EXPECTATION_WRONG_PASSES,
        BREAK_PASSES: why.EXPECTATION_BREAK_PASSES,
        SHORT_FAILS: why.EXPECTATION_SHORT_FAILS,
    }.get(problem, problem)


def _round(p: float) -> float:
    return round(p, 2)
