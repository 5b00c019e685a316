"""``signoff_check``: did every bot answer end with a full stop? A dialogue metric decided in
code (no judge call), known to ragtui only through its entry point, importing nothing of ragtui
but its public plugin module (``ragtui.plugin``).

It describes itself as any dialogue metric may: a label (``sign-off``) different from its name,
an explanation, an outcome word (``signed off`` / ``not signed off``) with one success outcome,
its own explanation lines and its own two CSV columns.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ragtui.plugin import DIALOGUE, DialogueContext, Judgment, MetricInfo, StoredDialogueJudgment, Verdict

NAME = "signoff_check"
LABEL = "sign-off"
EXPLANATION = "did every bot answer end with a full stop; the score is the share that did"


class SignOff:
    name = NAME
    info = MetricInfo(
        NAME,
        kind=DIALOGUE,
        default_threshold=0.5,
        calls=0,
        label_fields=("messages",),
        columns=("signoff", "signoff_outcome"),
        order=90,
        label=LABEL,
        explanation=EXPLANATION,
        success_outcomes=frozenset({"signed_off"}),
    )

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold

    @classmethod
    def build(cls, judge: Any, prompts_dir: Path | None, language: str, settings: Any) -> SignOff:
        return cls(settings.threshold(NAME))

    async def judge(self, context: DialogueContext, on_delta: Any = None) -> Judgment:
        answers = [t.bot.strip() for t in context.answered]
        if not answers:
            unscored = Verdict(NAME, None, conclusion="no answer")
            return Judgment(NAME, None, unscored.details(), error="the bot never answered", attempts=0)
        ended = sum(1 for a in answers if a.endswith("."))
        verdict = Verdict(
            NAME,
            ended / len(answers),
            outcome="signed_off" if ended == len(answers) else "not_signed_off",
            conclusion="checked in code",
            threshold=self.threshold,
        )
        details = {**verdict.details(), "ended": ended, "answers": len(answers)}
        return Judgment(NAME, verdict.score, details, attempts=0, model="")

    @staticmethod
    def explain(details: dict[str, Any]) -> list[str]:
        return [f"{details.get('ended')} of {details.get('answers')} answer(s) end with a full stop"]

    @staticmethod
    def csv_cells(verdict: StoredDialogueJudgment | None) -> list[str]:
        if verdict is None:
            return ["", ""]
        return ["" if verdict.score is None else f"{verdict.score:g}", verdict.outcome or "none"]
