"""The contract between the engine and a bot under test."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..models.llm import DeltaCallback
from ..records.passages import Passage
from ..records.turns import Utterance


@dataclass
class BotAnswer:
    text: str
    passages: list[Passage] = field(default_factory=list)  # the judge's context
    model: str = ""
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    latency_ms: float | None = None
    finish_reason: str | None = None  # "length": the bot's token limit cut the answer
    attempts: int = 1  # tries its stream took (a broken stream is retried)
    served_model: str | None = None  # the model the answer named, when not ``model`` (a gateway's alias)


class Bot(Protocol):
    """Answers the customer's latest message given the conversation so far."""

    name: str

    async def answer(self, history: list[Utterance], on_delta: DeltaCallback | None = None) -> BotAnswer:
        """``history`` ends with the customer's message to answer."""
        ...
