"""The ``[bot] type = "openai"`` settings: any OpenAI-compatible chat endpoint (``openai_bot.py``,
named by its path: this module imports nothing of its adapter)."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BeforeValidator

from ..config.bot_config import DEFAULT_REPLY_TIMEOUT, PassageMapping
from ..config.bot_table import PassageKeys
from ..config.config_file import KeyEnv
from ..config.validation import at_least, between, positive
from ..registry.bots import BotType
from ..text.redaction import redact_url


def whole(value: object) -> object:
    return int(value) if isinstance(value, float) and value.is_integer() else value


class OpenAIBotConfig(PassageKeys):
    base_url: Annotated[str, AfterValidator(lambda url: url.rstrip("/"))]
    model: str
    api_key_env: KeyEnv | None = None
    temperature: Annotated[float, between(0, 2)] = 0.2
    # A whole number of tokens; 512.0 is read as 512, as before.
    max_tokens: Annotated[int, BeforeValidator(whole), positive()] | None = None
    timeout: Annotated[float, positive()] = 120.0
    reply_timeout: Annotated[float, positive()] = DEFAULT_REPLY_TIMEOUT
    max_retries: Annotated[int, at_least(0, "0 or more")] = 2
    system_prompt: str | None = None

    @property
    def passages(self) -> PassageMapping | None:  # type: ignore[override]
        """None without ``passages_path``: look in the fields known servers use."""
        return super().passages if self.passages_path is not None else None


def public(o: OpenAIBotConfig) -> dict[str, Any]:
    return {"base_url": redact_url(o.base_url), "model": o.model, "api_key_env": o.api_key_env}


OPENAI = BotType("openai", "ragtui.core.bots.openai_bot:build", OpenAIBotConfig, public, order=2)
