"""Try an expectation on a stored dialogue's answers, storing nothing.

What ``ragtui expect`` and the TUI's verdict screen share: the same question the
``expectations`` verdict would ask — decided in code for a deterministic form, else one judge
check per answer with the dialogue as the shared prefix — so a person can rephrase an
expectation until the judge reads it as they mean it.
"""

from __future__ import annotations

from ...types.expectations import Expectation, ExpectationCheck
from .base import DialogueContext
from .expectation_judge import MET_AT, AnswerToCheck, ExpectationJudge
from .expectation_match import code_check


def answers_to_try(context: DialogueContext, turn: int | None) -> list[AnswerToCheck]:
    """The bot answers to check: every answered turn, or only ``turn``."""
    return [
        AnswerToCheck(t.turn, t.customer, t.bot or "", list(t.passages))
        for t in context.answered
        if turn is None or t.turn == turn
    ]


async def check_answer(
    expectation: Expectation, answer: AnswerToCheck, judge: ExpectationJudge | None, prefix: str, no_judge: str | None
) -> ExpectationCheck:
    """One expectation on one answer: in code for a deterministic form, else one judge check
    (``no_judge`` is the unreadable check's reason when there is no judge)."""
    if expectation.deterministic:
        return code_check(expectation, answer.turn, answer.answer)
    if judge is None:
        return ExpectationCheck(answer.turn, None, "none", error=no_judge)
    return await judge.check(expectation, answer, shared_prefix=prefix)


async def try_expectation(
    expectation: Expectation, context: DialogueContext, judge: ExpectationJudge | None, turn: int | None = None
) -> list[ExpectationCheck]:
    """One check per answer (``judge`` may be None for a deterministic form)."""
    if judge is None and not expectation.deterministic:
        raise ValueError("a judged expectation needs a judge")
    prefix = context.transcript()
    return [await check_answer(expectation, a, judge, prefix, None) for a in answers_to_try(context, turn)]


def asked_label(expectation: Expectation) -> str:
    """What ``p_yes`` means for this expectation: P(met), or for a prohibition P(it does it)."""
    return "P(does it)" if expectation.polarity == "must_not" else "P(met)"


def outcome_words(expectation: Expectation, p_yes: float) -> tuple[str, bool]:
    """A read check in words — met / not met, or kept / broken for a prohibition — and whether
    that is the outcome the team wants."""
    hit = p_yes >= MET_AT
    prohibition = expectation.polarity == "must_not"
    word = ("broken" if hit else "kept") if prohibition else ("met" if hit else "not met")
    return word, hit != prohibition
