"""Resolution: was the customer's problem solved? (DeepEval's conversation completeness,
τ²-bench's task success, decomposed for a small judge.)

Steps, each one judge call recorded in ``details["trace"]``:
1. ``intents`` — what the customer wanted, extracted from the customer's messages only.
   The persona's ``goal``, when it has one, is added as one more intent.
2. ``check`` — per intent, one atomic yes/no: did the support's answers give the customer what
   this intent asked for? (Reason first, then the verdict.)
3. ``handover`` — only when some intent is unmet: did the support point the customer to the
   right contact (a person, a desk, a form named in the passages) for it?

Computed here, never by the model: score = satisfied intents / intents; outcome =
``resolved`` (all met), ``handed_over`` (some unmet and correctly handed over),
``partly_resolved`` (some met), ``unresolved`` (none met). A dialogue without any bot answer
is unscored with that reason, never 0.
"""

from __future__ import annotations

from typing import Any

from ...models.llm import DeltaCallback
from ..base import Judgment
from ..json_reply import ReplyParseError
from ..rubric import format_passages
from ..steps import StepFailed, bounded_text, choice
from .base import DialogueContext
from .stepwise import StepwiseDialogueMetric
from .texts import dtext

MAX_INTENTS = 5
MAX_INTENT_CHARS = 160
MAX_REASON_CHARS = 200
OUTCOMES = ("resolved", "partly_resolved", "unresolved", "handed_over")
# Outcomes that count towards a run's resolution rate: the problem was solved, or the bot did
# the right thing when it could not solve it.
SUCCESS_OUTCOMES = frozenset({"resolved", "handed_over"})

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


def yes_no_schema(title: str, field_name: str) -> dict[str, Any]:
    """``{reason, <field>: yes|no}``: the reason first, so the model thinks before it decides."""
    return {
        "title": title,
        "type": "object",
        "properties": {
            "reason": {"type": "string", "maxLength": MAX_REASON_CHARS},
            field_name: {"type": "string", "enum": ["yes", "no"]},
        },
        "required": ["reason", field_name],
        "additionalProperties": False,
    }


CHECK_SCHEMA = yes_no_schema("intent_check", "satisfied")
HANDOVER_SCHEMA = yes_no_schema("handover_check", "handed_over")


def parse_intents(data: dict[str, Any]) -> list[str]:
    items = data.get("intents")
    if not isinstance(items, list):
        raise ReplyParseError("intents is missing or not a list")
    intents = [bounded_text(s, "an intent", MAX_INTENT_CHARS) for s in items[:MAX_INTENTS]]
    return list(dict.fromkeys(s for s in intents if s))


def yes_no_parser(field_name: str) -> Any:
    def parse(data: dict[str, Any]) -> dict[str, str]:
        return {
            field_name: choice(data.get(field_name), field_name, ("yes", "no")),
            "reason": bounded_text(data.get("reason", ""), "reason", MAX_REASON_CHARS),
        }

    return parse


def outcome_for(satisfied: list[bool], handed_over: bool) -> str:
    if satisfied and all(satisfied):
        return "resolved"
    if handed_over:
        return "handed_over"
    return "partly_resolved" if any(satisfied) else "unresolved"


class Resolution(StepwiseDialogueMetric):
    name = "resolution"

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
            checks = []
            for intent in intents:
                checks.append(
                    await runner.run(
                        "check",
                        {"transcript": transcript, "intent": intent},
                        CHECK_SCHEMA,
                        yes_no_parser("satisfied"),
                        on_delta,
                    )
                )
            satisfied = [c["satisfied"] == "yes" for c in checks]
            handover: dict[str, str] | None = None
            if not all(satisfied):
                handover = await runner.run(
                    "handover",
                    {
                        "transcript": transcript,
                        "context": format_passages(context.passages(), lang),
                        "unmet": "\n".join(f"- {i}" for i, ok in zip(intents, satisfied, strict=True) if not ok),
                    },
                    HANDOVER_SCHEMA,
                    yes_no_parser("handed_over"),
                    on_delta,
                )
        except StepFailed as exc:
            return runner.judgment(None, {**base, "failed_step": exc.step}, str(exc))
        handed_over = handover is not None and handover["handed_over"] == "yes"
        outcome = outcome_for(satisfied, handed_over)
        score = sum(satisfied) / len(satisfied)
        details = {
            **base,
            "intents": [
                {"intent": i, "source": s, "satisfied": ok, "reason": c["reason"]}
                for i, s, ok, c in zip(intents, sources, satisfied, checks, strict=True)
            ],
            "handover": handover,
            "outcome": outcome,
            "conclusion": dtext(
                lang, "resolution", outcome=dtext(lang, outcome), met=sum(satisfied), total=len(satisfied)
            ),
        }
        return runner.judgment(score, details)
