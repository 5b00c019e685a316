"""Answer correctness (seed 002): does the answer say what the reference answer says?

One judge call, score first and nothing else: question (when there is one) + reference + answer
→ one digit 0–5 on anchored levels of *same meaning* (5 same meaning however worded … 0 about
different things). The score is the expected level under the judge's probabilities for the six
digits, divided by 5 (``probability.py``); without probabilities, the sampled digit, marked.

Why this shape (measured in ``bench/bench_calibration.py``): asking both ways "do these two say
the same thing?" tracks people's similarity ratings better than the one-directional "how much of
the reference is in the response", which let a small model call small detail changes
contradictions; written reasoning before the score cost most of the judge's time without
improving agreement, and few-shot examples were copied rather than compared.

No reference (missing or blank) is not a failure: the judgment is *skipped* — score None,
``details["skipped"] = True`` and the reason in ``error`` — so it is never mistaken for a reply
that could not be parsed, and the trust verdict can treat it as "not applicable".
"""

from __future__ import annotations

from ..models.llm import DeltaCallback, Message
from ..types.judgments import Judgment
from .answer_correctness_info import INFO
from .base import TurnContext
from .explain import correctness_lines
from .level_question import ask_level, judgment_from, sampled_note
from .probability import SCALE_0_5
from .steps import JudgeMetric
from .texts import text

LEVELS = 5
QUESTION_LINE = {"en": "(The customer asked: {question})\n", "ja": "（お客様の質問：{question}）\n"}


def skipped(metric: str, reason: str, threshold: float) -> Judgment:
    """A metric that does not apply to this turn: visible, unscored, and not an error."""
    return Judgment(
        metric=metric,
        score=None,
        details={"skipped": True, "threshold": threshold, "conclusion": reason},
        error=reason,
        attempts=0,
    )


def question_line(question: str, language: str) -> str:
    """The question as an optional aside: a pair without one is normal, not a gap to fill."""
    question = question.strip()
    return QUESTION_LINE.get(language, QUESTION_LINE["en"]).format(question=question) if question else ""


class AnswerCorrectness(JudgeMetric):
    name = INFO.name
    info = INFO  # its description, importable without this judge (answer_correctness_info)
    explain = staticmethod(correctness_lines)  # how a stored verdict was reached (explain.py)
    default_threshold = info.default_threshold

    def messages(self, context: TurnContext) -> list[Message]:
        lang = context.language
        user = self.template.render(
            "user",
            question=question_line(context.question, lang),
            reference=(context.reference or "").strip(),
            response=context.response.strip() or text(lang, "empty_answer"),
        )
        return [
            {"role": "system", "content": self.template.parts["system"]},
            *self.example_turns(lambda e: str(e.output.get("score", ""))),
            {"role": "user", "content": user},
        ]

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        lang = context.language
        if not (context.reference or "").strip():
            return skipped(self.name, text(lang, "no_reference"), self.threshold)
        answer = await ask_level(
            self.client, self.messages(context), SCALE_0_5, retry=self.template.parts["retry"], on_delta=on_delta
        )
        graded = answer.graded
        details = {"threshold": self.threshold, "levels": LEVELS, "level_question": graded.to_dict()}
        if graded.value is None:
            details["conclusion"] = graded.error
            return judgment_from(self.name, [answer], None, details, f"unscored: {graded.error}")
        details["level"] = graded.value
        details["conclusion"] = text(lang, "expected_level", level=graded.value, top=LEVELS) + sampled_note(graded)
        return judgment_from(self.name, [answer], graded.value / LEVELS, details)
