"""Repetition: did the bot go round in circles? (Opik's degeneration check, across turns.)

Decided in code where a similarity measure suffices: each bot answer after the first is
compared with every earlier one (character-trigram Dice, and the share of its sentences that
already appeared). Clearly the same → a repeat; clearly different → new. Only pairs in the
uncertain band between are asked of the judge, one atomic yes/no each ("does the later answer
only say again what the earlier one said?"); without a judge they count as new.

Score = 1 − repeating answers / later answers, so 1 means no repetition. Fewer than two bot
answers: nothing can repeat — skipped, with that reason.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...content.prompts import PromptTemplate
from ...models.llm import ChatClient, DeltaCallback
from ...text.text_similarity import covered_share, dice
from ...types.judgments import Judgment
from ..steps import StepFailed, StepRunner, bounded_text, choice
from .base import DialogueContext, load_bundled_fallback
from .explain import repetition_lines
from .repetition_info import INFO
from .texts import dtext

if TYPE_CHECKING:
    from ..metric_settings import MetricSettings

REPEAT_AT = 0.6  # similarity at or above: the same answer again
NEW_BELOW = 0.3  # similarity below (and few repeated sentences): something new
SENTENCES_REPEAT_AT = 0.6  # share of sentences already said that makes an answer a repeat
MAX_REASON_CHARS = 200


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


def yes_no_parser(field_name: str) -> Any:
    def parse(data: dict[str, Any]) -> dict[str, str]:
        return {
            field_name: choice(data.get(field_name), field_name, ("yes", "no")),
            "reason": bounded_text(data.get("reason", ""), "reason", MAX_REASON_CHARS),
        }

    return parse


SAME_SCHEMA = yes_no_schema("repeat_check", "repeats")


def similarity(later: str, earlier: list[str]) -> tuple[float, int, float]:
    """(best Dice against an earlier answer, the turn index of it, share of repeated sentences)."""
    scores = [dice(later, e) for e in earlier]
    best = max(range(len(scores)), key=lambda i: scores[i])
    return scores[best], best, covered_share(later, earlier)


class Repetition:
    name = INFO.name
    info = INFO  # its description, importable without this judge (repetition_info)
    explain = staticmethod(repetition_lines)

    @classmethod
    def build(cls, judge: ChatClient, prompts_dir: Path | None, language: str, settings: MetricSettings) -> Repetition:
        template = load_bundled_fallback(prompts_dir, language, f"metric_{cls.name}")
        return cls(judge, template, settings.threshold(cls.name))

    def __init__(
        self, client: ChatClient | None = None, template: PromptTemplate | None = None, threshold: float = 1.0
    ) -> None:
        self.client = client
        self.template = template
        self.threshold = threshold

    async def judge(self, context: DialogueContext, on_delta: DeltaCallback | None = None) -> Judgment:
        lang = context.language
        base: dict[str, Any] = {"threshold": self.threshold, "repeat_at": REPEAT_AT, "new_below": NEW_BELOW}
        answered = context.answered
        runner = StepRunner(self.name, self.client, self.template, max_tokens=300) if self.client else None  # type: ignore[arg-type]
        if not answered:
            why = dtext(lang, "no_answer")
            return _judgment(runner, self.name, None, {**base, "no_answer": True, "conclusion": why}, why)
        if len(answered) < 2:
            why = dtext(lang, "one_answer")
            return _judgment(runner, self.name, None, {**base, "skipped": True, "conclusion": why}, why)
        pairs: list[dict[str, Any]] = []
        try:
            for index in range(1, len(answered)):
                later = answered[index]
                earlier = [t.bot or "" for t in answered[:index]]
                score, best, share = similarity(later.bot or "", earlier)
                pair: dict[str, Any] = {
                    "turn": later.turn,
                    "like_turn": answered[best].turn,
                    "similarity": round(score, 3),
                    "repeated_sentences": round(share, 3),
                }
                if score >= REPEAT_AT or share >= SENTENCES_REPEAT_AT:
                    pair.update(repeats=True, decided_by="similarity")
                elif score < NEW_BELOW or runner is None:
                    pair.update(repeats=False, decided_by="similarity")
                else:
                    verdict = await runner.run(
                        "same",
                        {"earlier": answered[best].bot or "", "later": later.bot or ""},
                        SAME_SCHEMA,
                        yes_no_parser("repeats"),
                        on_delta,
                    )
                    pair.update(repeats=verdict["repeats"] == "yes", decided_by="judge", reason=verdict["reason"])
                pairs.append(pair)
        except StepFailed as exc:
            return _judgment(runner, self.name, None, {**base, "failed_step": exc.step}, str(exc))
        repeats = sum(p["repeats"] for p in pairs)
        details = {
            **base,
            "pairs": pairs,
            "repeats": repeats,
            "conclusion": dtext(lang, "repetition", repeats=repeats, total=len(pairs)),
        }
        return _judgment(runner, self.name, 1 - repeats / len(pairs), details, None)


def _judgment(
    runner: StepRunner | None, name: str, score: float | None, details: dict[str, Any], error: str | None
) -> Judgment:
    if runner is not None:
        return runner.judgment(score, details, error)
    return Judgment(metric=name, score=score, details=details, error=error, attempts=0)
