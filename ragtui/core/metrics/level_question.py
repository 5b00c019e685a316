"""Ask the judge one level question (a digit, or yes/no) and read its probabilities.

The shared call of every probability-scored metric: the reply is one token (``max_tokens=1``), so
a judgment costs the prompt plus one generated token, and the server's prompt cache can reuse
the fixed prefix (system text, then the turn's data, then the question) across questions about
the same turn. A reply whose first token names no allowed level is asked once more with the
template's ``retry`` text; if that fails too the answer is unscored with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..models.llm import ChatClient, Completion, DeltaCallback, Message, asked_again, usage_of
from ..types.judgments import Judgment, stamp_read
from .probability import TOP_LOGPROBS, Graded, read_levels

MAX_TOKENS = 1


@dataclass
class LevelAnswer:
    graded: Graded
    messages: list[Message]
    completions: list[Completion] = field(default_factory=list)

    @property
    def reply(self) -> str:
        return self.completions[-1].text if self.completions else ""


def level_options() -> dict[str, Any]:
    """The options of every level question besides its messages. Temperature 0: with
    probabilities read, sampling only matters for the fallback value, and there the likeliest
    level is the honest one. Batch request files (``rejudge_batch``) send exactly these."""
    return {"temperature": 0.0, "max_tokens": MAX_TOKENS, "top_logprobs": TOP_LOGPROBS}


def answer_from(messages: list[Message], completion: Completion, levels: Mapping[str, float]) -> LevelAnswer:
    """The answer one reply gives, however it arrived (streamed, or a batch result)."""
    return LevelAnswer(read_levels(completion, levels), messages, [completion])


def no_answer(messages: list[Message], why: str) -> LevelAnswer:
    """A question that got no reply at all (a batch request that failed or never ran)."""
    return LevelAnswer(Graded(None, "none", error=why), messages, [])


async def ask_level(
    client: ChatClient,
    messages: list[Message],
    levels: Mapping[str, float],
    *,
    retry: str | None = None,
    on_delta: DeltaCallback | None = None,
) -> LevelAnswer:
    completion = await client.complete(messages, **level_options(), on_delta=on_delta)
    answer = answer_from(messages, completion, levels)
    if answer.graded.value is None and retry:
        asked_again("the judge's reply was none of the answers asked for")
        again = [*messages, {"role": "assistant", "content": completion.text}, {"role": "user", "content": retry}]
        completion = await client.complete(again, **level_options(), on_delta=on_delta)
        answer = LevelAnswer(read_levels(completion, levels), again, [*answer.completions, completion])
    return answer


def sampled_note(graded: Graded) -> str:
    """Marks a value that is one sampled level, not an expectation (shown in the verdict)."""
    return "" if graded.source == "probability" else " [sampled: the endpoint gave no probabilities]"


def judgment_from(
    metric: str, answers: list[LevelAnswer], score: float | None, details: dict, error: str | None = None
) -> Judgment:
    """A judgment recording the last question's prompt and reply; every call's usage; and how
    its questions were read (``details["read"]``: probability, sampled or mixed)."""
    completions = [c for a in answers for c in a.completions]
    last = answers[-1] if answers else None
    return Judgment(
        metric=metric,
        score=score,
        details=stamp_read(details),
        prompt=last.messages if last else [],
        raw_reply=last.reply if last else "",
        error=error,
        **usage_of(completions).judgment_fields(),
    )
