"""What every metric receives and returns.

A judgment is either *scored* (``score`` in 0–1) or *unscored* (``score`` is None, ``error``
says why, ``raw_reply`` keeps what the judge said). Nothing downstream may turn an unscored
judgment into a number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from ..content.knowledge import Passage
from ..dialogue.transcript import Utterance
from ..models.llm import DeltaCallback


@dataclass(frozen=True)
class TurnContext:
    """Everything a metric may look at for one bot turn."""

    turn: int
    question: str  # the customer's message this turn answers
    response: str  # the bot's answer
    passages: list[Passage]
    history: list[Utterance]  # earlier turns, before ``question``
    language: str
    reference: str | None = None
    # The judgments already made on this same turn, by metric name, in the order the dialogue
    # ran them. Only derived metrics (``trust``) read it; the dialogue runs them last.
    earlier: dict[str, Judgment] = field(default_factory=dict)


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


class Metric(Protocol):
    name: str

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        """Judge one turn, streaming the judge's raw text to ``on_delta``. Raises
        EndpointError when the judge cannot be reached at all."""
        ...
