"""``answer_length``: is the bot's answer a readable length? Decided in code, no model call.

An answer of ``MIN_WORDS`` to ``MAX_WORDS`` words scores 1. A longer one scores
``MAX_WORDS / words`` (twice too long: 0.5), a shorter one ``words / MIN_WORDS``; an empty
answer scores 0. It passes at ``[thresholds] answer_length`` (0.5 unless the config says).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ragtui.plugin import GRADED, TURN, Judgment, MetricInfo, TurnContext, Verdict, require_api

require_api("1.0")  # one clear line, not a deep ImportError, on a ragtui whose plugin API differs

MIN_WORDS = 3
MAX_WORDS = 120


class AnswerLength:
    name = "answer_length"
    info = MetricInfo(
        "answer_length",
        kind=TURN,  # judged on every bot answer (DIALOGUE: once, on the whole conversation)
        scale=GRADED,  # a 0–1 score (BINARY: 0 or 1)
        default_threshold=0.5,
        calls=0,  # model calls per verdict, for `ragtui run --estimate`
        label_fields=("response",),  # what a labelled item needs for `ragtui calibrate answer_length`
    )

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold

    @classmethod
    def build(cls, judge: Any, prompts_dir: Path | None, language: str, settings: Any) -> AnswerLength:
        # A metric that asks the judge would load its template here, e.g.
        # ragtui.plugin.load_prompt(prompts_dir, language, "metric_answer_length").
        return cls(settings.threshold(cls.name))

    async def judge(self, context: TurnContext, on_delta: Any = None) -> Judgment:
        words = len(context.response.split())
        if words == 0:
            score = 0.0
        elif words < MIN_WORDS:
            score = words / MIN_WORDS
        else:
            score = min(1.0, MAX_WORDS / words)
        conclusion = f"{words} words (readable: {MIN_WORDS}–{MAX_WORDS})"
        # What every view reads (the pass mark, the one-line conclusion), typed; then its own keys.
        verdict = Verdict(self.name, round(score, 4), conclusion=conclusion, threshold=self.threshold)
        details = {**verdict.details(), "words": words}
        # attempts=0 and no model: no judge call was made.
        return Judgment(metric=self.name, score=verdict.score, details=details, attempts=0, model="")
