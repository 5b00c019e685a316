"""Answerability (seed 002): can the question be answered from the bot's passages alone?

One judge call, answer first: passages + question → "does the passage state the answer to the
question?" yes or no, and the score is P(yes) from the judge's probabilities (``probability.py``);
the turn passes when it reaches the threshold (0.5 by default). Without probabilities the sampled
yes/no is used and marked.

Why this shape (measured in ``bench/bench_calibration.py``): SQuAD 2.0's unanswerable questions
sit on the same paragraph as answerable ones, so quoting a supporting span first did not help —
the model always finds an on-topic sentence. The probability of "yes" ranks items far better than
one sampled 0/1, and the threshold can be fitted on labels (``ragtui calibrate … --fit``).

Defined result: no passages at all → 0 without a judge call (nothing to answer from).
"""

from __future__ import annotations

from ..models.llm import DeltaCallback, Message
from ..types.judgments import Judgment
from ..types.passages import Passage
from .answerability_info import INFO
from .base import TurnContext
from .explain import answerability_lines
from .level_question import ask_level, judgment_from, sampled_note
from .probability import YES_NO, fold_yes_no
from .rubric import format_passages
from .steps import JudgeMetric
from .texts import text


def has_passages(passages: list[Passage]) -> bool:
    return any(p.text.strip() for p in passages)


class Answerability(JudgeMetric):
    name = INFO.name
    info = INFO  # its description, importable without this judge (answerability_info)
    explain = staticmethod(answerability_lines)  # how a stored verdict was reached (explain.py)
    default_threshold = info.default_threshold

    def messages(self, context: TurnContext) -> list[Message]:
        lang = context.language
        user = self.template.render(
            "user",
            question=context.question.strip() or text(lang, "no_question"),
            context=format_passages(context.passages, lang),
        )
        yes, no = ("はい", "いいえ") if lang == "ja" else ("yes", "no")
        return [
            {"role": "system", "content": self.template.parts["system"]},
            *self.example_turns(lambda e: yes if e.output.get("answerable") else no),
            {"role": "user", "content": user},
        ]

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        lang = context.language
        details: dict = {"threshold": self.threshold}
        if not has_passages(context.passages):
            reason = text(lang, "no_passages")
            return Judgment(self.name, 0.0, {**details, "no_passages": True, "conclusion": reason}, attempts=0)
        answer = await ask_level(
            self.client, self.messages(context), YES_NO, retry=self.template.parts["retry"], on_delta=on_delta
        )
        graded = fold_yes_no(answer.graded)
        details["level_question"] = graded.to_dict()
        if graded.value is None:
            details["conclusion"] = graded.error
            return judgment_from(self.name, [answer], None, details, f"unscored: {graded.error}")
        label = text(lang, "answerable" if graded.value >= self.threshold else "unanswerable")
        details["answerable"] = graded.value
        details["conclusion"] = text(lang, "p_yes", label=label, p=graded.value) + sampled_note(graded)
        return judgment_from(self.name, [answer], graded.value, details)
