"""Answer relevancy (seed 001): does each statement of the answer address the question?

Steps, each one judge call, each stored in ``details["trace"]``:
1. ``statements`` — split the answer into self-contained statements.
2. ``verdicts`` — per statement ``yes`` (addresses the question), ``unsure`` (partly) or ``no``
   (unrelated), each with a reason. The schema fixes the array to one entry per statement.
3. ``reason`` — a short explanation of the score, written after the score is known.

The score is computed here, never by the model: (yes + uncertainty_weight × unsure) / n, in
0–1; ``details["scaled_score"]`` multiplies it by ``scale`` (the seed's option) for display.
Defined results: an empty answer scores 0 without a judge call (it answers nothing); a
non-empty answer from which the judge extracts no statement is judged as one statement.
Relevancy is not correctness: a confident wrong answer on topic scores high.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..content.prompts import PromptTemplate
from ..models.llm import ChatClient, DeltaCallback
from .base import Judgment, TurnContext
from .examples import Example
from .json_reply import ReplyParseError
from .steps import StepFailed, StepRunner, bounded_text, choice, numbered
from .texts import text

MAX_STATEMENTS = 10
MAX_STATEMENT_CHARS = 200
MAX_REASON_CHARS = 200
VERDICTS = ("yes", "unsure", "no")


@dataclass(frozen=True)
class RelevancyOptions:
    uncertainty_weight: float = 0.3  # what an "unsure" statement counts for (seed default)
    scale: float = 1.0  # the seed's maximum score; only ``scaled_score`` uses it


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

REASON_SCHEMA: dict[str, Any] = {
    "title": "reason",
    "type": "object",
    "properties": {"reason": {"type": "string", "maxLength": 300}},
    "required": ["reason"],
    "additionalProperties": False,
}


def verdicts_schema(count: int, verdicts: tuple[str, ...] = VERDICTS) -> dict[str, Any]:
    """One ``{reason, verdict}`` per statement, in order; the reason comes first so the model
    thinks before it decides."""
    return {
        "title": "verdicts",
        "type": "object",
        "properties": {
            "verdicts": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "reason": {"type": "string", "maxLength": MAX_REASON_CHARS},
                        "verdict": {"type": "string", "enum": list(verdicts)},
                    },
                    "required": ["reason", "verdict"],
                    "additionalProperties": False,
                },
                "minItems": count,
                "maxItems": count,
            }
        },
        "required": ["verdicts"],
        "additionalProperties": False,
    }


def parse_statements(data: dict[str, Any]) -> list[str]:
    items = data.get("statements")
    if not isinstance(items, list):
        raise ReplyParseError("statements is missing or not a list")
    statements = [bounded_text(s, "a statement", MAX_STATEMENT_CHARS) for s in items[:MAX_STATEMENTS]]
    return [s for s in statements if s]


def verdicts_parser(count: int, allowed: tuple[str, ...] = VERDICTS) -> Any:
    def parse(data: dict[str, Any]) -> list[dict[str, str]]:
        items = data.get("verdicts")
        if not isinstance(items, list):
            raise ReplyParseError("verdicts is missing or not a list")
        if len(items) != count:
            raise ReplyParseError(f"expected {count} verdicts, one per statement, got {len(items)}")
        out = []
        for index, item in enumerate(items, start=1):
            if not isinstance(item, dict):
                raise ReplyParseError(f"verdict {index} is not an object")
            item = {str(k).lower(): v for k, v in item.items()}
            out.append(
                {
                    "verdict": choice(item.get("verdict"), f"verdict {index}", allowed),
                    "reason": bounded_text(item.get("reason", ""), f"reason {index}", MAX_REASON_CHARS),
                }
            )
        return out

    return parse


def parse_reason(data: dict[str, Any]) -> str:
    return bounded_text(data.get("reason"), "reason", 300, allow_empty=False)


def relevancy_score(verdicts: list[str], uncertainty_weight: float) -> float:
    """(yes + weight × unsure) / n; the caller guarantees n ≥ 1."""
    yes = verdicts.count("yes")
    unsure = verdicts.count("unsure")
    return (yes + uncertainty_weight * unsure) / len(verdicts)


class AnswerRelevancy:
    name = "answer_relevancy"

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
        base: dict[str, Any] = {
            "threshold": self.threshold,
            "uncertainty_weight": self.options.uncertainty_weight,
            "scale": self.options.scale,
        }
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
            fallback = not statements
            if fallback:
                statements = [context.response.strip()[: MAX_STATEMENT_CHARS * 2]]
            verdicts = await runner.run(
                "verdicts",
                {"question": question, "statements": numbered(statements)},
                verdicts_schema(len(statements)),
                verdicts_parser(len(statements)),
                on_delta,
            )
            score = relevancy_score([v["verdict"] for v in verdicts], self.options.uncertainty_weight)
            listing = "\n".join(
                f"{i}. [{v['verdict']}] {s} — {v['reason']}"
                for i, (s, v) in enumerate(zip(statements, verdicts, strict=True), start=1)
            )
        except StepFailed as exc:
            return runner.judgment(None, {**base, "failed_step": exc.step}, str(exc))
        try:
            reason = await runner.run(
                "reason",
                {"question": question, "score": f"{score:.2f}", "verdicts": listing},
                REASON_SCHEMA,
                parse_reason,
                on_delta,
            )
        except StepFailed as exc:
            # The score rests on the verdicts, which parsed; only its explanation is missing.
            reason = f"({exc})"
        details = {
            **base,
            "statements": statements,
            "verdicts": [{"statement": s, **v} for s, v in zip(statements, verdicts, strict=True)],
            "counts": {name: sum(v["verdict"] == name for v in verdicts) for name in VERDICTS},
            "scaled_score": round(score * self.options.scale, 4),
            "reason": reason,
            "conclusion": reason,
        }
        if fallback:
            details["statements_fallback"] = text(lang, "whole_answer")
        return runner.judgment(score, details)
