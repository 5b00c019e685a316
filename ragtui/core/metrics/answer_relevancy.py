"""Answer relevancy (seed 001): does each statement of the answer address the question?

Steps, each recorded in ``details["trace"]``:
1. ``statements`` — split the answer into self-contained statements (one JSON call).
2. ``check N`` — per statement, one yes/no question: "does this statement help answer the
   question?", answered with one token whose probabilities the judge returns; the statement's
   score is P(yes) (``statement_checks.py``; the sampled yes/no, marked, when the endpoint gives
   no probabilities).
3. ``reason`` — a short explanation of the score, written after the score is known.

The score is computed here, never by the model: the mean P(yes) over the statements, in 0–1 —
the seed's (yes + weight × unsure) / n with the judge's own uncertainty in place of a fixed
weight for "unsure" (a statement the judge half believes relevant counts about half).
``details["scaled_score"]`` multiplies it by ``scale`` (the seed's option) for display.
Defined results: an empty answer scores 0 without a judge call (it answers nothing); a
non-empty answer from which the judge extracts no statement is judged as one statement; a
statement whose check cannot be scored leaves the judgment unscored, with the reason.
Relevancy is not correctness: a confident wrong answer on topic scores high.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..content.prompts import PromptTemplate
from ..models.llm import ChatClient, DeltaCallback
from ..text.score_text import score_text
from ..types.judgments import Judgment
from .answer_relevancy_info import INFO
from .base import TurnContext
from .examples import Example, template_and_examples
from .explain import relevancy_lines
from .json_reply import ReplyParseError, one_text_schema
from .metric_settings import RelevancyOptions
from .statement_checks import CheckUnscored, StatementCheck, check_statements, mean_p, scoring_source
from .steps import StepFailed, StepRunner, bounded_text
from .texts import text

if TYPE_CHECKING:
    from .metric_settings import MetricSettings

MAX_STATEMENTS = 10
MAX_STATEMENT_CHARS = 200


STATEMENTS_SCHEMA: dict[str, Any] = {
    "title": "statements",
    "type": "object",
    "properties": {
        "statements": {
            "type": "array",
            "items": {"type": "string", "maxLength": MAX_STATEMENT_CHARS},
            "maxItems": MAX_STATEMENTS,
        }
    },
    "required": ["statements"],
    "additionalProperties": False,
}

REASON_SCHEMA = one_text_schema("reason", "reason", 300)


def parse_statements(data: dict[str, Any]) -> list[str]:
    items = data.get("statements")
    if not isinstance(items, list):
        raise ReplyParseError("statements is missing or not a list")
    statements = [bounded_text(s, "a statement", MAX_STATEMENT_CHARS) for s in items[:MAX_STATEMENTS]]
    return [s for s in statements if s]


def parse_reason(data: dict[str, Any]) -> str:
    return bounded_text(data.get("reason"), "reason", 300, allow_empty=False)


def listing(checks: list[StatementCheck]) -> str:
    """The statements with their P(yes), as the reason step and the verdict show them."""
    return "\n".join(f"{i}. P(yes) {c.graded.value:.2f} — {c.statement}" for i, c in enumerate(checks, start=1))


class AnswerRelevancy:
    name = INFO.name
    info = INFO  # its description, importable without this judge (answer_relevancy_info)
    explain = staticmethod(relevancy_lines)  # how a stored verdict was reached (explain.py)

    @classmethod
    def build(cls, judge: ChatClient, prompts_dir: Path, language: str, settings: MetricSettings) -> AnswerRelevancy:
        template, examples = template_and_examples(prompts_dir, language, cls.name, settings.examples.get(cls.name))
        return cls(judge, template, examples, settings.relevancy, settings.threshold(cls.name))

    def __init__(
        self,
        client: ChatClient,
        template: PromptTemplate,
        examples: list[Example] | None = None,
        options: RelevancyOptions | None = None,
        threshold: float = 0.7,
    ) -> None:
        self.client = client
        self.template = template
        self.examples = examples or []
        self.options = options or RelevancyOptions()
        self.threshold = threshold

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        runner = StepRunner(self.name, self.client, self.template, self.examples)
        lang = context.language
        question = context.question.strip() or text(lang, "no_question")
        base: dict[str, Any] = {"threshold": self.threshold, "scale": self.options.scale}
        if not context.response.strip():
            reason = text(lang, "empty_answer")
            details = {**base, "statements": [], "verdicts": [], "reason": reason, "conclusion": reason}
            return runner.judgment(0.0, {**details, "empty_answer": True, "scaled_score": 0.0})
        try:
            statements = await runner.run(
                "statements",
                {"question": question, "response": context.response},
                STATEMENTS_SCHEMA,
                parse_statements,
                on_delta,
            )
        except StepFailed as exc:
            return runner.judgment(None, {**base, "failed_step": exc.step}, str(exc))
        fallback = not statements
        if fallback:
            statements = [context.response.strip()[: MAX_STATEMENT_CHARS * 2]]
        try:
            checks = await check_statements(
                runner, statements, lambda s: {"question": question, "statement": s}, lang, on_delta
            )
        except CheckUnscored as exc:
            details = {**base, "statements": statements, "failed_step": f"check {exc.index}", "conclusion": str(exc)}
            return runner.judgment(None, details, str(exc))
        score = mean_p(checks)
        try:
            reason = await runner.run(
                "reason",
                {"question": question, "score": score_text(score), "verdicts": listing(checks)},
                REASON_SCHEMA,
                parse_reason,
                on_delta,
            )
        except StepFailed as exc:
            # The score rests on the checks, which were read; only its explanation is missing.
            reason = f"({exc})"
        details = {
            **base,
            "statements": statements,
            "verdicts": [c.to_dict("yes", "no") for c in checks],
            "scoring": scoring_source(checks),
            "scaled_score": round(score * self.options.scale, 4),
            "reason": reason,
            "conclusion": reason,
        }
        if fallback:
            details["statements_fallback"] = text(lang, "whole_answer")
        return runner.judgment(score, details)
