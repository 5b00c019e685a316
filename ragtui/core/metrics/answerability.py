"""Answerability (seed 002): can the question be answered from the bot's passages alone?

One judge call: question + the passages the bot received → first the passage text that would
answer it (quoted, or empty), then an explanation, then 0 or 1. Asking for the supporting span
*before* the verdict makes the model look for evidence instead of judging the topic: a passage
about the right subject that lacks the asked-for fact is the classic false "answerable".
The code also checks whether the quoted span really occurs in the passages and records it
(``span_found``), so a reviewer can spot an invented quote.

Defined result: no passages at all → 0 without a judge call (nothing to answer from).
"""

from __future__ import annotations

import re
from typing import Any

from ..content.knowledge import Passage
from ..models.llm import DeltaCallback
from .base import Judgment, TurnContext
from .json_reply import as_int_in_range
from .rubric import format_passages
from .steps import JudgeMetric, StepFailed, StepRunner, bounded_text
from .texts import text

MAX_SPAN_CHARS = 160  # a quote, not a paragraph: every token costs ~40 ms on two cores
MAX_EXPLANATION_CHARS = 200

SCHEMA: dict[str, Any] = {
    "title": "answerability",
    "type": "object",
    "properties": {
        "supporting_span": {"type": "string", "maxLength": MAX_SPAN_CHARS},
        "explanation": {"type": "string", "maxLength": MAX_EXPLANATION_CHARS},
        "answerable": {"type": "integer", "enum": [0, 1]},
    },
    "required": ["supporting_span", "explanation", "answerable"],
    "additionalProperties": False,
}


def parse_answerability(data: dict[str, Any]) -> dict[str, Any]:
    return {
        "supporting_span": bounded_text(data.get("supporting_span", ""), "supporting_span", MAX_SPAN_CHARS),
        "explanation": bounded_text(data.get("explanation", ""), "explanation", MAX_EXPLANATION_CHARS),
        "answerable": as_int_in_range(data.get("answerable"), 0, 1, "answerable"),
    }


def _squash(value: str) -> str:
    return re.sub(r"\s+", " ", value).strip().lower()


def span_in_passages(span: str, passages: list[Passage]) -> bool:
    """Whether the quoted span occurs in a passage (ignoring case, spacing and an ellipsis the
    model may add at either end)."""
    needle = _squash(span).strip(" .…\"'「」")
    return bool(needle) and any(needle in _squash(p.text) for p in passages)


def has_passages(passages: list[Passage]) -> bool:
    return any(p.text.strip() for p in passages)


class Answerability(JudgeMetric):
    name = "answerability"

    default_threshold = 1.0

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        lang = context.language
        runner = StepRunner(self.name, self.client, self.template, self.examples, max_tokens=500)
        if not has_passages(context.passages):
            reason = text(lang, "no_passages")
            return runner.judgment(0.0, {"threshold": self.threshold, "no_passages": True, "conclusion": reason})
        values = {
            "question": context.question.strip() or text(lang, "no_question"),
            "context": format_passages(context.passages, lang),
        }
        try:
            verdict = await runner.run("user", values, SCHEMA, parse_answerability, on_delta)
        except StepFailed as exc:
            return runner.judgment(None, {"threshold": self.threshold}, str(exc))
        answerable = verdict["answerable"]
        label = text(lang, "answerable" if answerable else "unanswerable")
        details = {
            "threshold": self.threshold,
            **verdict,
            "span_found": span_in_passages(verdict["supporting_span"], context.passages),
            "conclusion": f"{label}: {verdict['explanation']}" if verdict["explanation"] else label,
        }
        return runner.judgment(float(answerable), details)
