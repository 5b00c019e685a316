"""What an adapter knows about the call beyond the ``Bot`` protocol.

The protocol is ``answer(history, on_delta)``: enough for a stateless bot, and every bot
already written keeps working. A real bot often wants a session id, so the dialogue publishes
which session and turn it is on in a context variable (each dialogue step runs in its own task,
so concurrent dialogues never see each other's value).

``Exchange`` is what an adapter saw on the wire, for ``ragtui doctor``'s probe: the answer, the
HTTP status and a bounded, secret-free snippet of the raw response.
"""

from __future__ import annotations

import json
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from .base import BotAnswer
from .errors import Redactor, snippet

RAW_CHARS = 2000


@dataclass(frozen=True)
class BotCall:
    session_id: int
    turn: int


current_call: ContextVar[BotCall | None] = ContextVar("ragtui_bot_call", default=None)


@dataclass
class Exchange:
    answer: BotAnswer
    status: int | None = None  # HTTP status; None for in-process bots
    head: Any = b""  # the start of the raw response (bytes or text), or the object a Python bot returned
    content_type: str = ""
    redact: Redactor | None = None

    @property
    def raw(self) -> str:
        """The raw response, bounded, on one line, secrets masked. Computed only when asked
        for (by the probe): every turn of a run builds an Exchange."""
        head = self.head
        if not isinstance(head, (bytes, str)):
            try:
                head = json.dumps(head, ensure_ascii=False)[: RAW_CHARS * 4]
            except (TypeError, ValueError):
                head = repr(head)[: RAW_CHARS * 4]
        return snippet(head, self.redact, RAW_CHARS)
