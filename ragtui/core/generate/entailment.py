"""The judge's yes/no check that a reference answer follows from the quote it rests on: asked for
every generated item, and again when a person edits a reference in the Drafts screen. Anything
but a clear "yes" or "no" is ``UNREADABLE`` — never taken as a yes."""

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
MAX_REPLY_TOKENS = 50
Follows = Literal["yes", "no", "unreadable"]
UNREADABLE: Follows = "unreadable"
Ask = Callable[[list[Message], dict[str, Any]], Awaitable[str]]


def entailment_messages(template: PromptTemplate, quote: str, reference: str) -> list[Message]:
    return [
        {"role": "system", "content": template.render("entails_system")},
        {"role": "user", "content": template.render("entails", quote=quote, reference=reference)},
    ]


def read_follows(reply: str) -> Follows:
    try:
        answer = str(extract_json_object(reply).get("follows", "")).strip().lower()
    except ReplyParseError:
        return UNREADABLE
    return answer if answer in ("yes", "no") else UNREADABLE  # type: ignore[return-value]


async def reference_follows(client: ChatClient, template: PromptTemplate, quote: str, reference: str) -> Follows:
    """Ask ``client`` once; endpoint errors propagate (the caller says which endpoint failed)."""
    messages = entailment_messages(template, quote, reference)
    completion = await client.complete(messages, json_schema=ENTAILS_SCHEMA, max_tokens=MAX_REPLY_TOKENS)
    return read_follows(completion.text)
