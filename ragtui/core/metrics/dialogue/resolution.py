"""Resolution: was the customer's problem solved? (DeepEval's conversation completeness,
τ²-bench's task success, decomposed for a small judge.)

Steps, each one judge call recorded in ``details["trace"]``:
1. ``intents`` — what the customer wanted, extracted from the customer's messages only.
   The persona's ``goal``, when it has one, is added as one more intent.
2. ``check`` — per intent, one atomic yes/no: did the support's answers give the customer what
   this intent asked for? One token; P(yes) read from the judge's probabilities.
3. ``handover`` — only when some intent is unmet: did the support point the customer to the
   right contact (a person, a desk, a form named in the passages) for it? One token, P(yes).

The checks start with the conversation, so the server's prompt cache reads it once for all of
them. Computed here, never by the model: score = mean P(satisfied) over the intents (an intent
is met when P ≥ 0.5); outcome =
``resolved`` (all met), ``handed_over`` (some unmet and correctly handed over),
``partly_resolved`` (some met), ``unresolved`` (none met). A dialogue without any bot answer
is unscored with that reason, never 0.
"""

from __future__ import annotations

from typing import Any

from ...models.llm import DeltaCallback
from ...text.score_text import UNSCORED, verdict_text
from ...types.judgments import Judgment
from ...types.stored import StoredDialogueJudgment
from ..json_reply import ReplyParseError
from ..rubric import format_passages
from ..steps import StepFailed, bounded_text
from .base import DialogueContext
from .explain import resolution_lines
from .resolution_info import INFO
from .stepwise import StepwiseDialogueMetric
from .texts import dtext

MAX_INTENTS = 5
MAX_INTENT_CHARS = 160

INTENTS_SCHEMA: dict[str, Any] = {
    "title": "intents",
    "type": "object",
    "properties": {
        "intents": {
            "type": "array",
            "items": {"type": "string", "maxLength": MAX_INTENT_CHARS},
            "maxItems": MAX_INTENTS,
        }
    },
    "required": ["intents"],
    "additionalProperties": False,
}


def parse_intents(data: dict[str, Any]) -> list[str]:
    items = data.get("intents")
    if not isinstance(items, list):
        raise ReplyParseError("intents is missing or not a list")
    intents = [bounded_text(s, "an intent", MAX_INTENT_CHARS) for s in items[:MAX_INTENTS]]
    return list(dict.fromkeys(s for s in intents if s))


def outcome_for(satisfied: list[bool], handed_over: bool) -> str:
    if satisfied and all(satisfied):
        return "resolved"
    if handed_over:
        return "handed_over"
    return "partly_resolved" if any(satisfied) else "unresolved"


class Resolution(StepwiseDialogueMetric):
    name = INFO.name
    info = INFO  # its description, importable without this judge (resolution_info)
    explain = staticmethod(resolution_lines)

    @staticmethod
    def csv_cells(verdict: StoredDialogueJudgment | None) -> list[str]:
        """``resolution`` (its score) and ``outcome`` (its word, or unscored / skipped)."""
        if verdict is None:
            return ["", ""]
        return [verdict_text(verdict.score, verdict.skipped), verdict.outcome or UNSCORED]

    async def judge(self, context: DialogueContext, on_delta: DeltaCallback | None = None) -> Judgment:
        runner, base, unanswered = self.begin(context)
        if unanswered is not None:
            return unanswered
        lang = context.language
        lines = context.customer_lines()
        transcript = context.transcript()
        try:
            intents: list[str] = []
            if lines:
                intents = await runner.run(
                    "intents", {"customer": context.customer_transcript()}, INTENTS_SCHEMA, parse_intents, on_delta
                )
            sources = ["customer"] * len(intents)
            if not intents and lines:
                # Nothing extracted: the opening message is the need, as the scenario states it.
                intents, sources = [lines[0][1].strip()[:MAX_INTENT_CHARS]], ["first_message"]
            if context.goal.strip():
                intents.append(context.goal.strip()[:MAX_INTENT_CHARS])
                sources.append("goal")
            if not intents:
                why = dtext(lang, "no_need")
                return runner.judgment(None, {**base, "conclusion": why}, why)
            p_met = [
                await runner.ask_yes_no("check", {"transcript": transcript, "intent": intent}, on_delta)
                for intent in intents
            ]
            satisfied = [p >= 0.5 for p in p_met]
            handover: dict[str, Any] | None = None
            if not all(satisfied):
                unmet = "\n".join(f"- {i}" for i, ok in zip(intents, satisfied, strict=True) if not ok)
                values = {
                    "transcript": transcript,
                    "context": format_passages(context.passages(), lang),
                    "unmet": unmet,
                }
                p_handed = await runner.ask_yes_no("handover", values, on_delta)
                handover = {"handed_over": "yes" if p_handed >= 0.5 else "no", "p": round(p_handed, 4)}
        except StepFailed as exc:
            return runner.judgment(None, {**base, "failed_step": exc.step}, str(exc))
        handed_over = handover is not None and handover["handed_over"] == "yes"
        outcome = outcome_for(satisfied, handed_over)
        score = sum(p_met) / len(p_met)
        details = {
            **base,
            "intents": [
                {"intent": i, "source": s, "satisfied": ok, "p": round(p, 4)}
                for i, s, ok, p in zip(intents, sources, satisfied, p_met, strict=True)
            ],
            "handover": handover,
            "outcome": outcome,
            "conclusion": dtext(
                lang, "resolution", outcome=dtext(lang, outcome), met=sum(satisfied), total=len(satisfied)
            ),
        }
        return runner.judgment(score, details)
