"""Retention: did the bot keep what the customer told it? (DeepEval's knowledge retention.)

Steps, each one judge call recorded in ``details["trace"]``:
1. ``facts`` — facts about the customer's situation stated in their messages (device, plan,
   what they already tried, an error shown), each with the turn it was given in.
2. ``check`` — per fact, one single-choice question about the support's answers from that turn
   on: ``kept`` (used or at least not contradicted), ``asked_again`` (asked for it again),
   ``ignored`` (gave advice that disregards it, e.g. "try restarting" after the customer said they
   had) or ``contradicted`` (assumed the opposite).

Score = kept facts / facts, computed here. A customer who stated no fact gives nothing to
forget: score 1 with ``no_facts`` said explicitly. No bot answer at all: unscored.
"""

from __future__ import annotations

from typing import Any

from ...models.llm import DeltaCallback
from ...types.judgments import Judgment
from ..json_reply import ReplyParseError, as_int_in_range
from ..steps import StepFailed, bounded_text, choice
from .base import DialogueContext
from .explain import retention_lines
from .retention_info import INFO, VERDICTS
from .stepwise import StepwiseDialogueMetric
from .texts import dtext

MAX_FACTS = 6
MAX_FACT_CHARS = 160
MAX_REASON_CHARS = 200


def facts_schema(turns: list[int]) -> dict[str, Any]:
    return {
        "title": "facts",
        "type": "object",
        "properties": {
            "facts": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "turn": {"type": "integer", "enum": turns},
                        "fact": {"type": "string", "maxLength": MAX_FACT_CHARS},
                    },
                    "required": ["turn", "fact"],
                    "additionalProperties": False,
                },
                "maxItems": MAX_FACTS,
            }
        },
        "required": ["facts"],
        "additionalProperties": False,
    }


CHECK_SCHEMA: dict[str, Any] = {
    "title": "fact_check",
    "type": "object",
    "properties": {
        "reason": {"type": "string", "maxLength": MAX_REASON_CHARS},
        "verdict": {"type": "string", "enum": list(VERDICTS)},
    },
    "required": ["reason", "verdict"],
    "additionalProperties": False,
}


def facts_parser(turns: list[int]) -> Any:
    def parse(data: dict[str, Any]) -> list[dict[str, Any]]:
        items = data.get("facts")
        if not isinstance(items, list):
            raise ReplyParseError("facts is missing or not a list")
        out: list[dict[str, Any]] = []
        for index, item in enumerate(items[:MAX_FACTS], start=1):
            if not isinstance(item, dict):
                raise ReplyParseError(f"fact {index} is not an object")
            item = {str(k).lower(): v for k, v in item.items()}
            turn = as_int_in_range(item.get("turn"), min(turns), max(turns), f"turn of fact {index}")
            fact = bounded_text(item.get("fact"), f"fact {index}", MAX_FACT_CHARS)
            if fact and fact not in {f["fact"] for f in out}:
                out.append({"turn": turn, "fact": fact})
        return out

    return parse


def parse_check(data: dict[str, Any]) -> dict[str, str]:
    return {
        "verdict": choice(data.get("verdict"), "verdict", VERDICTS),
        "reason": bounded_text(data.get("reason", ""), "reason", MAX_REASON_CHARS),
    }


class Retention(StepwiseDialogueMetric):
    name = INFO.name
    info = INFO  # its description, importable without this judge (retention_info)
    explain = staticmethod(retention_lines)
    default_threshold = info.default_threshold

    async def judge(self, context: DialogueContext, on_delta: DeltaCallback | None = None) -> Judgment:
        runner, base, unanswered = self.begin(context)
        if unanswered is not None:
            return unanswered
        lang = context.language
        answered_turns = [t.turn for t in context.answered]
        # Only facts some answer could have used: given at or before the last answered turn.
        turns = [turn for turn, _ in context.customer_lines() if turn <= max(answered_turns)]
        facts: list[dict[str, Any]] = []
        checks: list[dict[str, str]] = []
        try:
            if turns:
                customer = "\n".join(
                    line for line in context.customer_transcript().splitlines() if _turn_of(line) in turns
                )
                facts = await runner.run(
                    "facts", {"customer": customer}, facts_schema(turns), facts_parser(turns), on_delta
                )
            for fact in facts:
                checks.append(
                    await runner.run(
                        "check",
                        {
                            "fact": fact["fact"],
                            "turn": str(fact["turn"]),
                            "transcript": context.transcript(from_turn=fact["turn"]),
                        },
                        CHECK_SCHEMA,
                        parse_check,
                        on_delta,
                    )
                )
        except StepFailed as exc:
            return runner.judgment(None, {**base, "failed_step": exc.step}, str(exc))
        if not facts:
            why = dtext(lang, "no_facts")
            return runner.judgment(1.0, {**base, "facts": [], "no_facts": True, "conclusion": why})
        kept = sum(c["verdict"] == "kept" for c in checks)
        details = {
            **base,
            "facts": [{**f, **c} for f, c in zip(facts, checks, strict=True)],
            "counts": {name: sum(c["verdict"] == name for c in checks) for name in VERDICTS},
            "conclusion": dtext(lang, "retention", kept=kept, total=len(facts)),
        }
        return runner.judgment(kept / len(facts), details)


def _turn_of(line: str) -> int | None:
    if line.startswith("[") and "]" in line:
        head = line[1 : line.index("]")]
        return int(head) if head.isdigit() else None
    return None
