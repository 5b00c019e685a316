"""A verdict on a bot turn or a whole dialogue, as a metric returns it.

A judgment is either *scored* (``score`` in 0–1) or *unscored* (``score`` is None, ``error``
says why, ``raw_reply`` keeps what the judge said). Nothing downstream may turn an unscored
judgment into a number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Judgment:
    metric: str
    score: float | None  # 0–1, None when unscored
    details: dict[str, Any] = field(default_factory=dict)  # criteria, comment, per-step results
    prompt: list[dict[str, str]] = field(default_factory=list)  # the exact messages of the last attempt
    raw_reply: str = ""
    model: str = ""
    error: str | None = None
    attempts: int = 1
    latency_ms: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    served_model: str | None = None  # the model the answer named, when not ``model`` (a gateway's alias)

    @property
    def scored(self) -> bool:
        return self.score is not None

    @classmethod
    def from_stored(cls, stored: Any) -> Judgment:
        """A verdict read back from the store (a turn's or a dialogue's), in the engine's form."""
        return cls(
            metric=stored.metric,
            score=stored.score,
            details=stored.details,
            prompt=stored.prompt,
            raw_reply=stored.raw_reply,
            model=stored.model or "",
            error=stored.error,
            attempts=stored.attempts,
            latency_ms=stored.latency_ms,
            served_model=getattr(stored, "served_model", None),
        )
