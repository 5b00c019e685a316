"""One yes/no question per statement, each scored P(yes) from the judge's probabilities.

Answer relevancy asks "does this statement help answer the question?", faithfulness "is this
claim supported by the context?". Both used to take one sampled verdict per statement from a
JSON array; a 1.5B judge's sampled verdicts are coarse (every statement is a hard 1 or 0) and it
filled the array's reasons with copies of the few-shot examples. Here each statement is its own
one-token question (``level_question.ask_level``), so a statement's score is the judge's P(yes)
and the metric's score is a mean of probabilities.

The fallback rules are the rubric's: without log-probabilities the sampled yes/no counts (1 or
0) and is marked ``sampled``; a reply that names neither, asked once more with ``check_retry``,
leaves that statement unscored — and an unscored statement makes the whole judgment unscored
(dropping it would silently raise or lower the mean), with the reason naming the statement.

Every check is recorded in the metric's ``trace`` (prompt, reply, distribution), beside the
JSON steps, so the verdict screen shows what was asked and answered.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..models.llm import DeltaCallback, Message
from .level_question import ask_level
from .probability import YES_NO, Graded, fold_yes_no
from .steps import StepRecord, StepRunner

# A statement counts as relevant / supported in the verdict's lists from this P(yes) on; the
# score itself is the probability, not this cut.
YES_AT = 0.5


@dataclass
class StatementCheck:
    statement: str
    graded: Graded

    @property
    def p_yes(self) -> float | None:
        return self.graded.value

    def to_dict(self, yes: str, no: str) -> dict[str, Any]:
        p = self.graded.value
        verdict = "unscored" if p is None else yes if p >= YES_AT else no
        return {"statement": self.statement, "verdict": verdict, "p_yes": p, **self.graded.to_dict()}


class CheckUnscored(Exception):
    """A statement's check named no yes/no even after the retry: the judgment is unscored."""

    def __init__(self, index: int, statement: str, reason: str) -> None:
        super().__init__(f"statement {index} ({statement[:60]!r}) is unscored: {reason}")
        self.index = index


def check_messages(runner: StepRunner, values: dict[str, str], language: str) -> list[Message]:
    """``check_system``, then the ``check`` few-shot examples as earlier turns (their output
    ``{"answer": "yes"|"no"}`` becomes the one-word reply), then the statement's question."""
    template = runner.template
    yes, no = ("はい", "いいえ") if language == "ja" else ("yes", "no")
    messages: list[Message] = [{"role": "system", "content": template.parts["check_system"]}]
    for example in runner.examples:
        if example.step == "check":
            answer = str(example.output.get("answer", "")).strip().lower()
            messages.append({"role": "user", "content": template.render("check", **example.inputs)})
            messages.append({"role": "assistant", "content": yes if answer in ("yes", "はい") else no})
    messages.append({"role": "user", "content": template.render("check", **values)})
    return messages


async def check_statements(
    runner: StepRunner,
    statements: list[str],
    values: Callable[[str], dict[str, str]],
    language: str,
    on_delta: DeltaCallback | None = None,
) -> list[StatementCheck]:
    """Ask the ``check`` question about each statement in turn; raise ``CheckUnscored`` at the
    first one that cannot be scored (the checks so far stay in the runner's trace)."""
    checks: list[StatementCheck] = []
    for index, statement in enumerate(statements, start=1):
        messages = check_messages(runner, values(statement), language)
        answer = await ask_level(
            runner.client, messages, YES_NO, retry=runner.template.parts["check_retry"], on_delta=on_delta
        )
        graded = fold_yes_no(answer.graded)
        runner.completions.extend(answer.completions)
        runner.trace.append(
            StepRecord(
                f"check {index}",
                answer.messages,
                [c.text for c in answer.completions],
                graded.to_dict() if graded.value is not None else None,
                graded.error,
            )
        )
        if graded.value is None:
            raise CheckUnscored(index, statement, graded.error or "no yes/no in the reply")
        checks.append(StatementCheck(statement, graded))
    return checks


def mean_p(checks: list[StatementCheck]) -> float:
    """The metric's score: the mean P(yes) of its statements (the caller guarantees ≥ 1)."""
    return sum(c.graded.value for c in checks if c.graded.value is not None) / len(checks)


def scoring_source(checks: list[StatementCheck]) -> str:
    """``probability`` when every check was read from probabilities, else ``sampled``."""
    return "probability" if all(c.graded.source == "probability" for c in checks) else "sampled"
