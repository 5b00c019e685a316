"""The OpenAI-compatible bot: any chat-completions endpoint, given the dialogue as messages.

Many teams put their RAG bot behind an OpenAI-compatible API (LiteLLM, vLLM with a retrieval
proxy, Azure "on your data", Perplexity). The dialogue goes out as chat messages (an optional
``system_prompt`` first); the answer is streamed back through ``ChatClient``.

Passages: with ``passages_path`` set, that path is looked up in every streamed chunk (the last
chunk that matches wins). Without it, these fields are tried, covering the servers above:
``choices[0].delta.context.citations``, ``choices[0].message.context.citations``,
``context.citations``, ``citations``, ``search_results``, ``passages``, ``sources``. A
plain string is a passage's text (Perplexity's ``citations`` are URLs, so they are only used
when nothing richer is there). When the response carries none, the answer has no passages
and the judge is told so: the rubric shows "(no passages were given to the bot)", so the
verdict says it judged without context.
"""

from __future__ import annotations

import os
from typing import Any
from urllib.parse import urlsplit

from ..config.bot_config import PassageMapping
from ..models.endpoints import PLACEHOLDER_KEY, Endpoint
from ..models.llm import ChatClient, DeltaCallback, Message
from ..text.json_path import JsonPath
from ..text.redaction import redact_url
from ..types.errors import ConfigError, IncompleteReply
from ..types.passages import Passage
from ..types.turns import Utterance
from .base import BotAnswer
from .call import Exchange
from .context import BotContext
from .cut_off import cut_off_answer
from .mapping import passages_from
from .openai_settings import OpenAIBotConfig

KNOWN_PATHS = (
    "choices[0].delta.context.citations",
    "choices[0].message.context.citations",
    "context.citations",
    "passages",
    "sources",
    "search_results",
    "citations",  # last: often bare URLs
)
DEFAULT_MAPPINGS = tuple(PassageMapping(JsonPath.parse(p)) for p in KNOWN_PATHS)


def openai_endpoint(config: OpenAIBotConfig) -> Endpoint:
    """An ``Endpoint`` for the bot's server; the key is read from the environment now."""
    key_env = config.api_key_env or "OPENAI_API_KEY"
    api_key = os.environ.get(key_env) or ""
    hosted = (urlsplit(config.base_url).hostname or "").endswith("openai.com")
    if not api_key and (config.api_key_env or hosted):
        raise ConfigError(
            f"{config.where} needs an API key for {redact_url(config.base_url)}, but {key_env} is not set",
            f"export {key_env}=... (keys are read from the environment, never from files)",
        )
    return Endpoint(
        role="bot",
        base_url=config.base_url,
        model=config.model,
        temperature=config.temperature,
        api_key_env=key_env,
        max_tokens=config.max_tokens,
        timeout=config.timeout,
        reply_timeout=config.reply_timeout,
        max_retries=config.max_retries,
        api_key=api_key or PLACEHOLDER_KEY,
    )


class OpenAIBot:
    def __init__(self, config: OpenAIBotConfig, client: ChatClient) -> None:
        self.config = config
        self.client = client
        self.name = f"OpenAI-compatible bot {config.model} at {redact_url(config.base_url)}"

    def public(self) -> dict[str, object]:
        return {"type": "openai", **self.client.endpoint.public(), "system_prompt": bool(self.config.system_prompt)}

    def messages(self, history: list[Utterance]) -> list[Message]:
        messages: list[Message] = []
        if self.config.system_prompt:
            messages.append({"role": "system", "content": self.config.system_prompt})
        for utterance in history:
            messages.append({"role": "user" if utterance.speaker == "user" else "assistant", "content": utterance.text})
        return messages

    async def answer(self, history: list[Utterance], on_delta: DeltaCallback | None = None) -> BotAnswer:
        return (await self.exchange(history, on_delta)).answer

    async def exchange(self, history: list[Utterance], on_delta: DeltaCallback | None = None) -> Exchange:
        collector = _PassageCollector(self.config.passages)
        try:
            completion = await self.client.complete(self.messages(history), on_delta=on_delta, on_chunk=collector)
        except IncompleteReply as exc:
            # Still answering when reply_timeout stopped it: what it said is its answer, marked.
            cut = cut_off_answer(exc, collector.passages, self.config.model)
            if cut is None:
                raise
            return Exchange(cut, 200, collector.last_chunk or "", "text/event-stream")
        answer = BotAnswer(
            text=completion.text.strip(),
            passages=collector.passages,
            usage=completion.usage,
        )
        return Exchange(answer, 200, collector.last_chunk or "", "text/event-stream")


class _PassageCollector:
    """Watches the streamed chunks for passages; keeps the last chunk for the probe's raw view."""

    def __init__(self, mapping: PassageMapping | None) -> None:
        self.mappings = (mapping,) if mapping is not None else DEFAULT_MAPPINGS
        self.passages: list[Passage] = []
        self.last_chunk: dict[str, Any] | None = None

    def __call__(self, chunk: dict[str, Any]) -> None:
        for mapping in self.mappings:
            found = passages_from(chunk, mapping)
            if found:
                self.passages = found
                break
        self.last_chunk = chunk


def build(settings: OpenAIBotConfig, context: BotContext) -> OpenAIBot:
    """The ``openai`` type's bot (``openai_settings`` names this by its path)."""
    return OpenAIBot(settings, context.pool.client_for(openai_endpoint(settings)))
