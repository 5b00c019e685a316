"""What a model or bot call cost and who answered it, as one value.

The client's completion hands it to the bot's answer, the answer to the stored message, and a
metric's several calls add up to one verdict's — instead of seven fields copied one by one at
every step (and one of them forgotten at the next).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

# A ``finish_reason`` ragtui gives, not a server: the bot's answer was still streaming when the
# whole reply's time limit (``reply_timeout``) stopped it. Kept as far as it got, and judged.
CUT_AT_REPLY_TIMEOUT = "reply_timeout"
_CUT_WORDS = {"length": "cut by the token limit", CUT_AT_REPLY_TIMEOUT: "cut off at reply_timeout, judged as it stands"}


def cut_words(finish_reason: str | None) -> str:
    """How every view marks a reply that did not end on its own ("" for one that did)."""
    return _CUT_WORDS.get(finish_reason or "", "")


@dataclass(frozen=True)
class CallUsage:
    model: str = ""  # the model asked for (a gateway's alias, as configured)
    served_model: str | None = None  # the model the answer named, when not ``model``
    prompt_tokens: int | None = None  # None: the server did not say
    completion_tokens: int | None = None
    latency_ms: float | None = None
    finish_reason: str | None = None  # "length": the token limit cut the reply; CUT_AT_REPLY_TIMEOUT
    attempts: int = 1  # tries it took (a broken stream is retried)
    # Of ``prompt_tokens``, those the server took from its prompt cache instead of computing
    # (llama.cpp's ``timings.cache_n``, OpenAI's ``prompt_tokens_details.cached_tokens``).
    # None: the server did not say — never 0, which would claim nothing was reused.
    cached_tokens: int | None = None

    @classmethod
    def of_calls(cls, calls: Sequence[CallUsage]) -> CallUsage:
        """Several calls as one verdict's cost: the last call's model, the newest other model any
        of them named, tokens and time added up (None when no call reported them), one attempt
        per call."""
        if not calls:
            return cls(attempts=0)
        return cls(
            model=calls[-1].model,
            served_model=next((c.served_model for c in reversed(calls) if c.served_model), None),
            prompt_tokens=_total([c.prompt_tokens for c in calls]),
            completion_tokens=_total([c.completion_tokens for c in calls]),
            cached_tokens=_known_total([c.cached_tokens for c in calls]),
            latency_ms=_total([c.latency_ms for c in calls]),
            finish_reason=calls[-1].finish_reason,
            attempts=len(calls),
        )

    @property
    def computed_tokens(self) -> int | None:
        """Prompt tokens the server computed (sent minus reused); None when it did not say."""
        if self.prompt_tokens is None or self.cached_tokens is None:
            return None
        return max(self.prompt_tokens - self.cached_tokens, 0)

    def judgment_fields(self) -> dict[str, Any]:
        """The fields a ``Judgment`` records of its calls."""
        return {
            "model": self.model,
            "served_model": self.served_model,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cached_tokens": self.cached_tokens,
            "latency_ms": self.latency_ms,
            "attempts": self.attempts,
        }


def _total(values: list[Any]) -> Any:
    numbers = [v for v in values if v is not None]
    return sum(numbers) if numbers else None


def _known_total(values: list[int | None]) -> int | None:
    """A sum that is known only when every part is: reused tokens of calls of which one server
    said nothing are unknown, not the other calls' figure (which would overstate the share)."""
    if not values or any(v is None for v in values):
        return None
    return sum(v for v in values if v is not None)
