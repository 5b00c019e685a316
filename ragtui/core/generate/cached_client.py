"""The judge's client as the generator's proofs use it: each reply kept in the reply cache with its
token probabilities (a proof reads P(yes), not the text), and each call counted on the report, so
generating again after an interruption asks nothing twice and the budget counts every token.

It stands in for a ``ChatClient`` where the run's expectation judge is built
(``metrics.dialogue.ExpectationJudge``): the same ``endpoint``, the same ``complete``."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from ..models.llm import ChatClient, Completion, Message
from ..models.token_logprobs import TokenLogprob
from .drafts import GenerationReport
from .reply_cache import ReplyCache, request_key

_KIND = "completion/1"  # a cached whole completion, not a writer's text


@dataclass
class CachedClient:
    client: ChatClient
    cache: ReplyCache
    report: GenerationReport

    @property
    def endpoint(self) -> Any:
        return self.client.endpoint

    async def complete(self, messages: list[Message], **options: Any) -> Completion:
        asked = {k: v for k, v in options.items() if k not in ("on_delta", "on_chunk")}
        key = request_key(self.client.endpoint.model, [dict(m) for m in messages], {_KIND: asked})
        cached = _completion(self.cache.get(key), self.client.endpoint.model)
        if cached is not None:
            self.report.cached_calls += 1
            return cached
        completion = await self.client.complete(messages, **options)
        self.report.spend(completion.prompt_tokens, completion.completion_tokens)
        self.cache.put(key, _stored(completion))
        return completion


def _stored(completion: Completion) -> str:
    return json.dumps(
        {
            "text": completion.text,
            "finish_reason": completion.finish_reason,
            "logprobs": [t.to_dict() for t in completion.logprobs],
            "logprobs_dropped": completion.logprobs_dropped,
        },
        ensure_ascii=False,
    )


def _completion(stored: str | None, model: str) -> Completion | None:
    """The cached completion; None when there is none, or the line is not one (asked again)."""
    try:
        data = json.loads(stored) if stored is not None else None
        if not isinstance(data, dict):
            return None
        logprobs = [
            TokenLogprob(str(t["token"]), float(t["logprob"]), dict(t.get("top") or {})) for t in data["logprobs"]
        ]
    except (ValueError, KeyError, TypeError):
        return None
    return Completion(
        text=str(data.get("text", "")),
        model=model,
        prompt_tokens=0,
        completion_tokens=0,
        latency_ms=0.0,
        finish_reason=data.get("finish_reason"),
        logprobs=logprobs,
        logprobs_dropped=bool(data.get("logprobs_dropped")),
    )
