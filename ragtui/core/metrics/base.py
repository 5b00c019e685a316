"""What every metric receives and returns.

A judgment is either *scored* (``score`` in 0–1) or *unscored* (``score`` is None, ``error``
says why, ``raw_reply`` keeps what the judge said). Nothing downstream may turn an unscored
judgment into a number.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..models.llm import DeltaCallback
from ..types.judgments import Judgment
from ..types.passages import Passage
from ..types.turns import Utterance


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


class Metric(Protocol):
    name: str

    async def judge(self, context: TurnContext, on_delta: DeltaCallback | None = None) -> Judgment:
        """Judge one turn, streaming the judge's raw text to ``on_delta``. Raises
        EndpointError when the judge cannot be reached at all."""
        ...
