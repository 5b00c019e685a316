"""The dialogue as the engine, the bot and the simulator see it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Speaker = Literal["user", "bot"]


@dataclass(frozen=True)
class Utterance:
    """One message of the support conversation: the customer (``user``) or the ``bot``."""

    speaker: Speaker
    text: str


def format_history(history: list[Utterance], customer: str = "Customer", agent: str = "Support") -> str:
    """Plain-text rendering of earlier turns for judge prompts."""
    if not history:
        return "(none)"
    return "\n".join(f"{customer if u.speaker == 'user' else agent}: {u.text}" for u in history)
