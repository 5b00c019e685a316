"""Answer correctness (seed 002): does the answer say what the reference answer says?

One judge call: question + reference + answer → a justification, then an integer 0–5 on
anchored levels (0 contradicts or unrelated … 5 same meaning, however worded). Score = level / 5.
Six anchored levels rather than a free 0.0–1.0 float: a 1.5B model picks among described
levels far more consistently than it invents decimals, and the schema can enumerate them.

No reference (missing or blank) is not a failure: the judgment is *skipped* — score None,
``details["skipped"] = True`` and the reason in ``error`` — so it is never mistaken for a reply
that could not be parsed, and the trust verdict can treat it as "not applicable".
"""

from __future__ import annotations

from typing import Any

from ..models.llm import DeltaCallback
from .base import Judgment, TurnContext
from .json_reply import ReplyParseError, as_int_in_range
from .steps import JudgeMetric, StepFailed, StepRunner, bounded_text
from .texts import text

LEVELS = 5
MAX_JUSTIFICATION_CHARS = 300

SCHEMA: dict[str, Any] = {
    "title": "correctness",
    "type": "object",
    "properties": {
        "justification": {"type": "string", "maxLength": MAX_JUSTIFICATION_CHARS},
        "score": {"type": "integer", "enum": list(range(LEVELS + 1))},
    },
    "required": ["justification", "score"],
    "additionalProperties": False,
}


def parse_correctness(data: dict[str, Any]) -> dict[str, Any]:
    level = as_int_in_range(data.get("score"), 0, LEVELS, "score")
    justification = bounded_text(data.get("justification", ""), "justification", MAX_JUSTIFICATION_CHARS)
    if not justification:
        raise ReplyParseError("justification is empty")
    return {"level": level, "justification": justification}


def skipped(metric: str, reason: str, threshold: float) -> Judgment:
    """A metric that does not apply to this turn: visible, unscored, and not an error."""
    return Judgment(
        metric=metric,
        score=None,
        details={"skipped": True, "threshold": threshold, "conclusion": reason},
        error=reason,
        attempts=0,
    )


class AnswerCorrectness(JudgeMetric):
    name = "answer_correctness"

    default_threshold = 0.7

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        lang = context.language
        if not (context.reference or "").strip():
            return skipped(self.name, text(lang, "no_reference"), self.threshold)
        runner = StepRunner(self.name, self.client, self.template, self.examples, max_tokens=400)
        values = {
            "question": context.question.strip() or text(lang, "no_question"),
            "reference": (context.reference or "").strip(),
            "response": context.response.strip() or text(lang, "empty_answer"),
        }
        try:
            verdict = await runner.run("user", values, SCHEMA, parse_correctness, on_delta)
        except StepFailed as exc:
            return runner.judgment(None, {"threshold": self.threshold}, str(exc))
        details = {
            "threshold": self.threshold,
            "level": verdict["level"],
            "levels": LEVELS,
            "justification": verdict["justification"],
            "conclusion": verdict["justification"],
        }
        return runner.judgment(verdict["level"] / LEVELS, details)
