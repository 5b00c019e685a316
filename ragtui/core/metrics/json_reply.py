"""Tolerant extraction of a JSON object from an LLM reply.

Models wrap JSON in code fences, add a sentence before it, or double the braces as a template
showed them. This finds the outermost object and parses it; it never guesses values.
"""

from __future__ import annotations

import json
import re
from typing import Any

_FENCE = re.compile(r"```(?:json)?", re.IGNORECASE)


def one_text_schema(title: str, key: str, max_length: int) -> dict[str, Any]:
    """The JSON schema of a reply that is one object with one string: ``{key: "…"}``."""
    return {
        "title": title,
        "type": "object",
        "properties": {key: {"type": "string", "maxLength": max_length}},
        "required": [key],
        "additionalProperties": False,
    }


class ReplyParseError(ValueError):
    """The reply holds no JSON object of the expected shape; the message says what is wrong."""


def extract_json_object(reply: str) -> dict[str, Any]:
    text = _FENCE.sub("", reply).strip()
    start = text.find("{")
    end = text.rfind("}")
    if start < 0 or end <= start:
        raise ReplyParseError("no JSON object in the reply")
    candidate = text[start : end + 1]
    for attempt in (candidate, candidate.replace("{{", "{").replace("}}", "}")):
        try:
            value = json.loads(attempt)
        except json.JSONDecodeError:
            continue
        if isinstance(value, dict):
            return value
    # A reply cut off by max_tokens ends mid-object; say so, it is the most common cause.
    raise ReplyParseError("the reply's JSON is malformed or cut off")


def lower_keys(value: dict[str, Any]) -> dict[str, Any]:
    return {str(k).strip().lower(): v for k, v in value.items()}


def as_int_in_range(value: Any, low: int, high: int, name: str) -> int:
    """Accept 4, 4.0 and "4"; reject 4.5, "four", booleans and out-of-range numbers."""
    if isinstance(value, bool):
        raise ReplyParseError(f"{name} is a boolean, not a score")
    if isinstance(value, str):
        value = value.strip()
        if not re.fullmatch(r"-?\d+(\.0+)?", value):
            raise ReplyParseError(f"{name} is not a number: {value[:20]!r}")
        value = float(value)
    if isinstance(value, float):
        if not value.is_integer():
            raise ReplyParseError(f"{name} is not a whole number: {value}")
        value = int(value)
    if not isinstance(value, int):
        raise ReplyParseError(f"{name} is missing or not a number")
    if not low <= value <= high:
        raise ReplyParseError(f"{name} is {value}, outside {low}–{high}")
    return value
