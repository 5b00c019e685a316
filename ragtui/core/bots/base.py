"""The contract between the engine and a bot under test."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ..models.llm import DeltaCallback
from ..types.calls import CallUsage
from ..types.passages import Passage
from ..types.turns import Utterance


@dataclass
class BotAnswer:
    text: str
    passages: list[Passage] = field(default_factory=list)  # the judge's context
    # Its model, tokens, time, finish reason and tries; ``finish_reason`` "length": the bot's
    # token limit cut the answer.
    usage: CallUsage = field(default_factory=CallUsage)


class Bot(Protocol):
    """Answers the customer's latest message given the conversation so far."""

    name: str

    async def answer(self, history: list[Utterance], on_delta: DeltaCallback | None = None) -> BotAnswer:
        """``history`` ends with the customer's message to answer."""
        ...
