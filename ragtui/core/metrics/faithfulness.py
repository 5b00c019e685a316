"""Faithfulness (seed 002): is what the answer states grounded in the bot's passages?

Steps, each stored in ``details["trace"]``:
1. ``statements`` — the answer's factual claims (greetings, apologies and "I don't know" are
   not claims and are left out).
2. ``verdicts`` — per claim, the passage evidence (or why there is none), then ``supported`` or
   ``unsupported``; the schema fixes the array to one entry per claim.

Score = supported / claims, computed here; the unsupported claims are listed in
``details["unsupported"]``. Defined results, explained in ``details["conclusion"]``:
- no claims (an empty answer, or only a greeting or an honest "I don't know") → 1.0, with
  ``no_claims``: nothing in it is ungrounded. (An honest refusal must not count as a
  hallucination; the statements step that found no claim stays in the trace for review.)
- claims but no passages → 0.0 without a verdict call: nothing could ground them.
"""

from __future__ import annotations

from typing import Any

from ..models.llm import DeltaCallback
from .answer_relevancy import STATEMENTS_SCHEMA, parse_statements, verdicts_parser, verdicts_schema
from .answerability import has_passages
from .base import Judgment, TurnContext
from .rubric import format_passages
from .steps import JudgeMetric, StepFailed, StepRunner, numbered
from .texts import text

VERDICTS = ("supported", "unsupported")


class Faithfulness(JudgeMetric):
    name = "faithfulness"

    default_threshold = 0.8

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        lang = context.language
        runner = StepRunner(self.name, self.client, self.template, self.examples)
        base: dict[str, Any] = {"threshold": self.threshold}
        if not context.response.strip():
            reason = text(lang, "no_claims")
            return runner.judgment(1.0, {**base, "statements": [], "no_claims": True, "conclusion": reason})
        try:
            statements = await runner.run(
                "statements",
                {"question": context.question.strip() or text(lang, "no_question"), "response": context.response},
                STATEMENTS_SCHEMA,
                parse_statements,
                on_delta,
            )
            if not statements:
                reason = text(lang, "no_claims")
                return runner.judgment(1.0, {**base, "statements": [], "no_claims": True, "conclusion": reason})
            if not has_passages(context.passages):
                reason = text(lang, "no_passages")
                details = {
                    **base,
                    "statements": statements,
                    "verdicts": [{"statement": s, "verdict": "unsupported", "reason": reason} for s in statements],
                    "unsupported": statements,
                    "no_passages": True,
                    "conclusion": reason,
                }
                return runner.judgment(0.0, details)
            verdicts = await runner.run(
                "verdicts",
                {"context": format_passages(context.passages, lang), "statements": numbered(statements)},
                verdicts_schema(len(statements), VERDICTS),
                verdicts_parser(len(statements), VERDICTS),
                on_delta,
            )
        except StepFailed as exc:
            return runner.judgment(None, {**base, "failed_step": exc.step}, str(exc))
        supported = [s for s, v in zip(statements, verdicts, strict=True) if v["verdict"] == "supported"]
        unsupported = [s for s, v in zip(statements, verdicts, strict=True) if v["verdict"] != "supported"]
        score = len(supported) / len(statements)
        conclusion = text(lang, "faithful", supported=len(supported), total=len(statements))
        if unsupported:
            conclusion += text(lang, "unsupported", items=" / ".join(unsupported))
        details = {
            **base,
            "statements": statements,
            "verdicts": [{"statement": s, **v} for s, v in zip(statements, verdicts, strict=True)],
            "supported": supported,
            "unsupported": unsupported,
            "conclusion": conclusion,
        }
        return runner.judgment(score, details)
