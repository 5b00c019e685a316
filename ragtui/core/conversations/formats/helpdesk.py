"""A helpdesk's JSON export in Intercom's conversation shape: each conversation opens with its
``source`` (or ``conversation_message``) and goes on in ``conversation_parts``, each written by an
author whose ``type`` says who they are, with an HTML body::

    {"conversations": [{"id": "123",
                        "source": {"author": {"type": "user"}, "body": "<p>Hello</p>"},
                        "conversation_parts": {"conversation_parts": [
                            {"part_type": "comment", "author": {"type": "bot"}, "body": "<p>Hi!</p>"},
                            {"part_type": "note", "author": {"type": "admin"}, "body": "<p>VIP</p>"}]}}]}

A top-level list of conversations, or one conversation object, is read too. Author types: ``user``,
``lead``, ``contact`` — the customer; ``bot`` — the bot; ``admin``, ``team`` — a human agent. A part
of type ``note`` is an internal note (a system message, whoever wrote it); parts without a body
(assignments, open, close, snooze) are events, not messages, and are left out. Bodies become plain
text (core/conversations/html_body.py); ``created_at`` (Unix seconds) becomes the message's time.
The file is read in pieces, one conversation at a time (core/conversations/json_stream.py)."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime
from typing import Any

from ...registry.conversation_loaders import ConversationInput, ConversationLoader
from ...types.conversations import ImportProblem, RawConversation, RawMessage, Speaker
from ..html_body import html_to_text
from ..json_stream import conversation_objects

AUTHORS: dict[str, Speaker] = {
    "user": "customer",
    "lead": "customer",
    "contact": "customer",
    "visitor": "customer",
    "bot": "bot",
    "admin": "agent",
    "team": "agent",
}


def read(source: ConversationInput) -> Iterator[RawConversation]:
    for index, (value, line) in enumerate(conversation_objects(source.pieces()), start=1):
        yield conversation(value, line, index)


def conversation(value: Any, line: int, index: int) -> RawConversation:
    if not isinstance(value, dict):
        raise ImportProblem(f"conversation {index} is a JSON {type(value).__name__}, not an object", line)
    key = value.get("id")
    name = f"conversation {key!r}" if isinstance(key, str | int) else f"conversation {index}"
    opening = value.get("source") or value.get("conversation_message")
    parts_value = value.get("conversation_parts")
    parts = parts_value.get("conversation_parts") if isinstance(parts_value, dict) else parts_value
    if not isinstance(opening, dict) and not isinstance(parts, list):
        raise ImportProblem(
            f"{name} has neither a 'source' nor 'conversation_parts'; expected Intercom's conversation shape", line
        )
    messages: list[RawMessage] = []
    if isinstance(opening, dict):
        messages += _message(opening, "comment", value.get("created_at"), line, f"{name}, its source")
    for number, part in enumerate(parts if isinstance(parts, list) else [], start=1):
        if not isinstance(part, dict):
            raise ImportProblem(f"{name}: part {number} is not an object", line)
        kind = str(part.get("part_type") or "comment")
        messages += _message(part, kind, part.get("created_at"), line, f"{name}, part {number}")
    return RawConversation(None if key is None else str(key), line, tuple(messages))


def _message(item: dict[str, Any], kind: str, created: Any, line: int, where: str) -> list[RawMessage]:
    body = item.get("body")
    text = html_to_text(body) if isinstance(body, str) else ""
    if not text:
        return []  # an event (assigned, closed, snoozed) or an attachment alone: no message
    author = item.get("author")
    author_type = str(author.get("type") or "") if isinstance(author, dict) else ""
    if kind == "note":
        speaker: Speaker | None = "system"
    else:
        speaker = AUTHORS.get(author_type.strip().lower())
        if speaker is None:
            known = ", ".join(AUTHORS)
            raise ImportProblem(f"{where} has author type {author_type or '(none)'!r}; known: {known}", line)
    return [RawMessage(author_type or kind, text, line, _time(created), speaker)]


def _time(value: Any) -> str | None:
    if isinstance(value, int | float) and not isinstance(value, bool) and 0 < value < 1e11:
        return datetime.fromtimestamp(value, UTC).isoformat(timespec="seconds")
    return str(value) if isinstance(value, str) and value.strip() else None


INTERCOM = ConversationLoader(
    "intercom",
    (".json",),
    read,
    "a helpdesk's JSON export, Intercom's shape: conversations → parts by user, bot or admin; HTML bodies",
)
