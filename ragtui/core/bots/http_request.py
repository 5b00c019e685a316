"""Building one request to an HTTP bot: slots in the body template, ``${NAME}`` in headers.

The body template is parsed TOML, and slots are substituted into that structure before it is
serialised, never spliced into JSON text: a customer message full of quotes, backslashes or
``{{`` cannot break the request or inject fields.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from ..types.errors import ConfigError
from ..types.turns import Utterance
from .errors import Redactor
from .http_settings import ENV_REF, SLOT, HttpBotConfig

ROLE_NAMES = {"user": "user", "bot": "assistant"}


@dataclass
class SlotValues:
    question: str
    history: list[dict[str, str]]  # earlier turns, before the question
    messages: list[dict[str, str]]  # every message, the question last
    session_id: str
    turn: int

    @classmethod
    def from_history(cls, history: list[Utterance], session_id: str, turn: int) -> SlotValues:
        messages = [{"role": ROLE_NAMES[u.speaker], "content": u.text} for u in history]
        question = history[-1].text if history and history[-1].speaker == "user" else ""
        earlier = messages[:-1] if question else messages
        return cls(question, earlier, messages, session_id, turn)

    def get(self, name: str) -> Any:
        return getattr(self, name)


def render(template: Any, values: SlotValues) -> Any:
    """A copy of ``template`` with ``{{slot}}`` strings replaced. A string that is exactly one
    slot becomes the value itself (a list for history, a number for turn); a slot inside a
    longer string is replaced by its text."""
    if isinstance(template, dict):
        return {key: render(value, values) for key, value in template.items()}
    if isinstance(template, list):
        return [render(value, values) for value in template]
    if isinstance(template, str):
        whole = SLOT.fullmatch(template.strip())
        if whole:
            return values.get(whole.group(1))
        return SLOT.sub(lambda m: str(values.get(m.group(1))), template)
    return template


def expand_env(value: str, where: str, redact: Redactor) -> str:
    """Replace ``${NAME}`` with the variable's value, now, and remember the value (and the
    whole expanded string) as secrets to mask in any message."""
    missing: list[str] = []

    def lookup(match: Any) -> str:
        name = match.group(1)
        found = os.environ.get(name)
        if found is None:
            missing.append(name)
            return ""
        redact.extend([found])
        return found

    expanded = ENV_REF.sub(lookup, value)
    if missing:
        raise ConfigError(
            f"{where} names the environment variable {missing[0]}, which is not set",
            f"export {missing[0]}=... before starting ragtui",
        )
    if expanded != value:
        redact.extend([expanded])
    return expanded


@dataclass
class RequestParts:
    url: str
    params: dict[str, str]
    headers: dict[str, str]
    body: Any


def build_request(config: HttpBotConfig, values: SlotValues, redact: Redactor) -> RequestParts:
    headers = {
        name: str(render(expand_env(value, f"{config.where} headers.{name}", redact), values))
        for name, value in config.headers.items()
    }
    params = {
        name: render(expand_env(value, f"{config.where} params.{name}", redact), values)
        for name, value in config.params.items()
    }
    body = render(config.body, values) if config.body is not None else None
    return RequestParts(config.url, {k: str(v) for k, v in params.items()}, headers, body)


def referenced_env(config: HttpBotConfig) -> list[tuple[str, str]]:
    """(variable, where) for every ``${NAME}`` the config uses, to check them before a run."""
    found = []
    for table, entries in (("headers", config.headers), ("params", config.params)):
        for key, value in entries.items():
            found += [(name, f"{config.where} {table}.{key}") for name in ENV_REF.findall(value)]
    return found


def check_env(config: HttpBotConfig) -> None:
    """Fail before any dialogue when a variable the headers name is not set."""
    for name, where in referenced_env(config):
        if name not in os.environ:
            raise ConfigError(
                f"{where} names the environment variable {name}, which is not set",
                f"export {name}=... before starting ragtui",
            )
