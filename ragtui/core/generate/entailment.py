"""The judge's yes/no checks of a reference answer: that it follows from the quote it rests on
(asked for every generated item, and again when a person edits a reference in the Drafts
screen), and that it answers the question asked (one that follows from its quote may answer
another question). Anything but a clear "yes" or "no" is ``UNREADABLE`` — never taken as a yes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Literal

from ..content.prompts import PromptTemplate
from ..metrics.json_reply import ReplyParseError, extract_json_object
from ..models.llm import ChatClient, Message

ENTAILS_SCHEMA: dict[str, Any] = {
    "title": "entailment",
    "type": "object",
    "properties": {"follows": {"type": "string", "enum": ["yes", "no"]}},
    "required": ["follows"],
    "additionalProperties": False,
}
ANSWERS_SCHEMA: dict[str, Any] = {
    "title": "answers",
    "type": "object",
    "properties": {"answers": {"type": "string", "enum": ["yes", "no"]}},
    "required": ["answers"],
    "additionalProperties": False,
}
# Two answers to one question compared (the round trip of ``pipeline._answered_again``).
SAME_SCHEMA: dict[str, Any] = {
    "title": "same_answer",
    "type": "object",
    "properties": {"same": {"type": "string", "enum": ["yes", "no"]}},
    "required": ["same"],
    "additionalProperties": False,
}
MAX_REPLY_TOKENS = 50
Follows = Literal["yes", "no", "unreadable"]
UNREADABLE: Follows = "unreadable"
Ask = Callable[[list[Message], dict[str, Any]], Awaitable[str]]


def entailment_messages(template: PromptTemplate, quote: str, reference: str) -> list[Message]:
    return [
        {"role": "system", "content": template.render("entails_system")},
        {"role": "user", "content": template.render("entails", quote=quote, reference=reference)},
    ]


def answers_messages(template: PromptTemplate, question: str, reference: str) -> list[Message]:
    return [
        {"role": "system", "content": template.render("answers_system")},
        {"role": "user", "content": template.render("answers", question=question, reference=reference)},
    ]


def same_answer_messages(template: PromptTemplate, question: str, first: str, second: str) -> list[Message]:
    return [
        {"role": "system", "content": template.render("same_answer_system")},
        {"role": "user", "content": template.render("same_answer", question=question, first=first, second=second)},
    ]


def read_same(reply: str) -> Follows:
    return read_follows(reply, "same")


def read_answers(reply: str) -> Follows:
    return read_follows(reply, "answers")


def read_follows(reply: str, key: str = "follows") -> Follows:
    try:
        answer = str(extract_json_object(reply).get(key, "")).strip().lower()
    except ReplyParseError:
        return UNREADABLE
    return answer if answer in ("yes", "no") else UNREADABLE  # type: ignore[return-value]


async def reference_follows(client: ChatClient, template: PromptTemplate, quote: str, reference: str) -> Follows:
    """Ask ``client`` once; endpoint errors propagate (the caller says which endpoint failed)."""
    messages = entailment_messages(template, quote, reference)
    completion = await client.complete(messages, json_schema=ENTAILS_SCHEMA, max_tokens=MAX_REPLY_TOKENS)
    return read_follows(completion.text)
