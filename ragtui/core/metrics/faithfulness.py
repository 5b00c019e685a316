"""Faithfulness (seed 002): is what the answer states grounded in the bot's passages?

Steps, each recorded in ``details["trace"]``:
1. ``statements`` — the answer's factual claims (greetings, apologies and "I don't know" are
   not claims and are left out); one JSON call.
2. ``check N`` — per claim, one yes/no question with the passages: "is this claim supported by
   the context?", answered with one token; the claim's score is P(supported) read from the
   judge's probabilities (``statement_checks.py``; the sampled yes/no, marked, without them).

Score = the mean P(supported) over the claims, computed here (the seed's supported / claims
with each claim counted by the judge's belief instead of one sampled verdict). Claims under
P 0.5 are listed in ``details["unsupported"]``. Defined results, explained in
``details["conclusion"]``:
- no claims (an empty answer, or only a greeting or an honest "I don't know") → 1.0, with
  ``no_claims``: nothing in it is ungrounded. (An honest refusal must not count as a
  hallucination; the statements step that found no claim stays in the trace for review.)
- claims but no passages → 0.0 without a check: nothing could ground them.
- a claim whose check cannot be scored → the judgment is unscored, with the reason.
"""

from __future__ import annotations

from typing import Any

from ..models.llm import DeltaCallback
from ..types.judgments import Judgment
from .answer_relevancy import STATEMENTS_SCHEMA, parse_statements
from .answerability import has_passages
from .base import TurnContext
from .explain import verdict_lines
from .faithfulness_info import INFO
from .rubric import format_passages
from .statement_checks import YES_AT, CheckUnscored, check_statements, mean_p, scoring_source
from .steps import JudgeMetric, StepFailed, StepRunner
from .texts import text


class Faithfulness(JudgeMetric):
    name = INFO.name
    info = INFO  # its description, importable without this judge (faithfulness_info)
    explain = staticmethod(verdict_lines)  # how a stored verdict was reached (explain.py)
    default_threshold = info.default_threshold

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
                    "verdicts": [
                        {"statement": s, "verdict": "unsupported", "p_yes": 0.0, "reason": reason} for s in statements
                    ],
                    "unsupported": statements,
                    "no_passages": True,
                    "conclusion": reason,
                }
                return runner.judgment(0.0, details)
        except StepFailed as exc:
            return runner.judgment(None, {**base, "failed_step": exc.step}, str(exc))
        passages = format_passages(context.passages, lang)
        try:
            checks = await check_statements(
                runner, statements, lambda s: {"context": passages, "statement": s}, lang, on_delta
            )
        except CheckUnscored as exc:
            details = {**base, "statements": statements, "failed_step": f"check {exc.index}", "conclusion": str(exc)}
            return runner.judgment(None, details, str(exc))
        supported = [c.statement for c in checks if (c.p_yes or 0.0) >= YES_AT]
        unsupported = [c.statement for c in checks if (c.p_yes or 0.0) < YES_AT]
        score = mean_p(checks)
        conclusion = text(lang, "faithful_p", p=score, supported=len(supported), total=len(statements))
        if unsupported:
            conclusion += text(lang, "unsupported", items=" / ".join(unsupported))
        details = {
            **base,
            "statements": statements,
            "verdicts": [c.to_dict("supported", "unsupported") for c in checks],
            "scoring": scoring_source(checks),
            "supported": supported,
            "unsupported": unsupported,
            "conclusion": conclusion,
        }
        return runner.judgment(score, details)
