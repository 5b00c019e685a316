"""Try an expectation on a stored dialogue's answers, storing nothing.

What ``ragtui expect`` and the TUI's verdict screen share: the same question the
``expectations`` verdict would ask — decided in code for a deterministic form, else one judge
check per answer with the dialogue as the shared prefix — so a person can rephrase an
expectation until the judge reads it as they mean it.
"""

from __future__ import annotations

from ...records.expectations import Expectation, ExpectationCheck
from .base import DialogueContext
from .expectation_judge import AnswerToCheck, ExpectationJudge
from .expectation_match import code_check


def answers_to_try(context: DialogueContext, turn: int | None) -> list[AnswerToCheck]:
    """The bot answers to check: every answered turn, or only ``turn``."""
    return [
        AnswerToCheck(t.turn, t.customer, t.bot or "", list(t.passages))
        for t in context.answered
        if turn is None or t.turn == turn
    ]


async def try_expectation(
    expectation: Expectation, context: DialogueContext, judge: ExpectationJudge | None, turn: int | None = None
) -> list[ExpectationCheck]:
    """One check per answer (``judge`` may be None for a deterministic form)."""
    answers = answers_to_try(context, turn)
    if expectation.deterministic:
        return [code_check(expectation, a.turn, a.answer) for a in answers]
    if judge is None:
        raise ValueError("a judged expectation needs a judge")
    prefix = context.transcript()
    return [await judge.check(expectation, a, shared_prefix=prefix) for a in answers]
