"""What the judged dialogue metrics (resolution, retention) share: their set-up, and the
answer for a dialogue in which the bot never answered — unscored with that reason, never 0."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from ...content.prompts import PromptTemplate
from ...models.llm import ChatClient
from ...types.judgments import Judgment
from ..steps import StepRunner
from .base import DialogueContext, load_bundled_fallback
from .texts import dtext

if TYPE_CHECKING:
    from ..metric_settings import MetricSettings


class StepwiseDialogueMetric:
    name = ""
    default_threshold = 0.7
    max_tokens = 500  # a step's JSON reply: short reasons and verdicts, room for Japanese

    def __init__(self, client: ChatClient, template: PromptTemplate, threshold: float | None = None) -> None:
        self.client = client
        self.template = template
        self.threshold = self.default_threshold if threshold is None else threshold

    @classmethod
    def build(
        cls, judge: ChatClient, prompts_dir: Path | None, language: str, settings: MetricSettings
    ) -> StepwiseDialogueMetric:
        template = load_bundled_fallback(prompts_dir, language, f"metric_{cls.name}")
        return cls(judge, template, settings.threshold(cls.name))

    def begin(self, context: DialogueContext) -> tuple[StepRunner, dict[str, Any], Judgment | None]:
        """The step runner, the details every verdict starts from, and — when the bot never
        answered — the finished (unscored) verdict."""
        runner = StepRunner(self.name, self.client, self.template, max_tokens=self.max_tokens)
        base: dict[str, Any] = {"threshold": self.threshold}
        if context.answered:
            return runner, base, None
        why = dtext(context.language, "no_answer")
        return runner, base, runner.judgment(None, {**base, "no_answer": True, "conclusion": why}, why)
