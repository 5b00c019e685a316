"""The ``[bot] type = "openai"`` settings: any OpenAI-compatible chat endpoint (``openai_bot.py``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config.bot_config import DEFAULT_REPLY_TIMEOUT, PASSAGE_KEYS, PassageMapping, TableValues, check_key_env
from ..registry.bots import BotType, register_bot
from ..text.redaction import redact_url
from ..types.errors import ConfigError
from .context import BotContext

if TYPE_CHECKING:
    from .base import Bot

OPENAI_KEYS = {
    "type", "base_url", "model", "api_key_env", "temperature", "max_tokens", "timeout", "reply_timeout",
    "max_retries", "system_prompt", *PASSAGE_KEYS,
}  # fmt: skip


@dataclass
class OpenAIBotConfig:
    base_url: str
    model: str
    api_key_env: str | None = None
    temperature: float = 0.2
    max_tokens: int | None = None
    timeout: float = 120.0
    reply_timeout: float = DEFAULT_REPLY_TIMEOUT
    max_retries: int = 2
    system_prompt: str | None = None
    passages: PassageMapping | None = None  # None: look in the fields known servers use
    where: str = "[bot]"


def _key_env(value: str | None, where: str) -> str | None:
    if value is not None:
        check_key_env(value, where)
    return value


def parse_openai(table: dict[str, Any], where: str, base: Path) -> OpenAIBotConfig:
    values = TableValues(table, where)
    temperature = float(values.get("temperature", (int, float), 0.2))
    if not 0.0 <= temperature <= 2.0:
        raise ConfigError(f"{where} temperature must be between 0 and 2, got {temperature}")
    max_tokens = values.positive("max_tokens", None)
    return OpenAIBotConfig(
        base_url=values.required("base_url", str).rstrip("/"),
        model=values.required("model", str),
        api_key_env=_key_env(values.get("api_key_env", str), where),
        temperature=temperature,
        max_tokens=None if max_tokens is None else int(max_tokens),
        timeout=values.positive("timeout", 120.0),  # type: ignore[arg-type]
        reply_timeout=values.positive("reply_timeout", DEFAULT_REPLY_TIMEOUT),  # type: ignore[arg-type]
        max_retries=values.count("max_retries", 2),
        system_prompt=values.get("system_prompt", str),
        passages=values.passages(None) if "passages_path" in values.table else None,
        where=where,
    )


def public(o: OpenAIBotConfig) -> dict[str, Any]:
    return {"base_url": redact_url(o.base_url), "model": o.model, "api_key_env": o.api_key_env}


def build(settings: OpenAIBotConfig, context: BotContext) -> Bot:
    from .openai_bot import OpenAIBot, openai_endpoint

    return OpenAIBot(settings, context.pool.client_for(openai_endpoint(settings)))


OPENAI = register_bot(BotType("openai", build, frozenset(OPENAI_KEYS - {"type"}), parse_openai, public, order=2))
