"""A bot's answer that outran ``reply_timeout``, kept as its answer.

A broken stream is a fault of the pipe: what arrived may be half a word of a retried attempt,
so it is only ever a partial record. An answer stopped by the whole reply's time limit is
different: the bot was still answering, and what it had said is what a customer would have
read. An out-of-scope probe exists to catch an invented procedure, and an invented procedure
shows in its first sentences; ending the dialogue as an error with no answer would leave the
very hallucination it was written for without a verdict. So the text so far becomes the turn's
answer, its ``finish_reason`` ``CUT_AT_REPLY_TIMEOUT`` (every view marks it "cut off at
reply_timeout"), and it is judged like any answer. Nothing arrived at all: there is nothing to
judge, and the limit stays the dialogue's error.
"""

from __future__ import annotations

from ..types.calls import CUT_AT_REPLY_TIMEOUT, CallUsage
from ..types.passages import Passage
from .base import BotAnswer


def cut_off_answer(exc: Exception, passages: list[Passage] | None = None, model: str = "") -> BotAnswer | None:
    """The answer ``exc`` carries when it is a reply stopped by ``reply_timeout`` with text in it,
    else None (the caller raises ``exc`` as before)."""
    if not getattr(exc, "cut_by_time", False):
        return None
    text = str(getattr(exc, "partial", "") or "").strip()
    if not text:
        return None
    seconds = getattr(exc, "seconds", None)
    usage = CallUsage(
        model=model,
        latency_ms=seconds * 1000 if isinstance(seconds, int | float) else None,
        finish_reason=CUT_AT_REPLY_TIMEOUT,
        attempts=int(getattr(exc, "attempts", 1) or 1),
    )
    return BotAnswer(text=text, passages=list(passages or []), usage=usage)
