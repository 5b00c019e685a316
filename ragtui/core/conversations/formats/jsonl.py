"""JSONL (or NDJSON) of chat messages, a conversation per line, as OpenAI's fine-tuning and eval
files write them::

    {"id": "c-17", "messages": [{"role": "user", "content": "…"}, {"role": "assistant", "content": "…"}]}

Also read: ``conversation_id`` for the id, ShareGPT's ``conversations`` with ``from``/``value``
(``human``/``gpt``), ``content`` as a list of parts (``[{"type": "text", "text": …}]``), and a
message time under ``time``, ``timestamp`` or ``created_at``. Blank lines are skipped."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ...registry.conversation_loaders import ConversationInput, ConversationLoader
from ...types.conversations import ImportProblem, RawConversation, RawMessage

SHAPE = 'an object per line: {"id": …, "messages": [{"role": …, "content": …}, …]}'
ID_KEYS = ("id", "conversation_id", "conversationId", "session_id", "ticket_id")
LIST_KEYS = ("messages", "conversations", "conversation", "turns", "dialogue")
ROLE_KEYS = ("role", "from", "speaker", "author", "sender")
TEXT_KEYS = ("content", "value", "text", "message", "body")
TIME_KEYS = ("time", "timestamp", "created_at", "date")


def read(source: ConversationInput) -> Iterator[RawConversation]:
    for text in source.lines():
        line = source.line_number
        if not text.strip():
            continue
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ImportProblem(f"not JSON ({exc.msg}, column {exc.colno})", line) from None
        yield conversation(value, line)


def conversation(value: Any, line: int) -> RawConversation:
    """One conversation object (a line of JSONL, or an item of a JSON list) as a RawConversation."""
    if not isinstance(value, dict):
        raise ImportProblem(f"a JSON {type(value).__name__}, not a conversation object; expected {SHAPE}", line)
    listed = next((value[k] for k in LIST_KEYS if isinstance(value.get(k), list)), None)
    if listed is None:
        raise ImportProblem(f"no 'messages' list; expected {SHAPE}", line)
    key = next((value[k] for k in ID_KEYS if isinstance(value.get(k), str | int) and str(value[k]).strip()), None)
    messages = tuple(_message(item, index, line) for index, item in enumerate(listed, start=1))
    return RawConversation(None if key is None else str(key), line, messages)


def _message(item: Any, index: int, line: int) -> RawMessage:
    if not isinstance(item, dict):
        raise ImportProblem(f"message {index} is a JSON {type(item).__name__}, not an object with a role", line)
    role = next((item[k] for k in ROLE_KEYS if isinstance(item.get(k), str) and item[k].strip()), None)
    if role is None:
        raise ImportProblem(f"message {index} has no 'role'", line)
    content = next((item[k] for k in TEXT_KEYS if k in item), "")
    when = next((str(item[k]) for k in TIME_KEYS if isinstance(item.get(k), str | int | float)), None)
    return RawMessage(role, text_of(content), line, when)


def text_of(content: Any) -> str:
    """A message's text: a string, or the text parts of a list of parts (images and tool calls
    carry none); None (a tool call's message) is empty."""
    if content is None:
        return ""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            part if isinstance(part, str) else part.get("text") for part in content if isinstance(part, str | dict)
        ]
        return "\n".join(t for t in texts if isinstance(t, str))
    if isinstance(content, dict) and isinstance(content.get("text"), str):
        return str(content["text"])
    return str(content) if isinstance(content, int | float) else ""


JSONL = ConversationLoader(
    "jsonl", (".jsonl", ".ndjson"), read, 'JSON Lines: {"id", "messages": [{"role", "content"}]}'
)
