"""Wiring the embedded model into a run: attach to (or start) the shared server when a role has
no endpoint, point those roles at it with its token, give them token limits a 1.5B model on two
cores can afford, and bring the server back once if it dies mid-dialogue."""

from __future__ import annotations

import asyncio
import importlib.util

from ..config.settings import Config
from ..types.errors import EndpointError, RagtuiError
from .endpoints import Endpoint
from .local_model import LocalModel, LocalModelSettings, StageProgress, log_path

# A small local model rambles; a customer line or an answer past these lengths is noise, and
# every token costs ~100 ms on two cores. Fitted to a chat reply: the customer is asked for one
# or two short sentences (≈20–50 tokens), the bot for 150 words or 300 Japanese characters at
# most (≈200–260 tokens). The judge sets its own limit (metrics.rubric).
EMBEDDED_MAX_TOKENS = {"user": 80, "bot": 300}


def needs_embedded(endpoints: dict[str, Endpoint]) -> bool:
    return any(e.embedded and e.base_url is None for e in endpoints.values())


def judge_caveat(endpoints: dict[str, Endpoint], language: str) -> str | None:
    """What a user must know before reading the embedded judge's Japanese turn scores: on
    ragtui's own held-out labelled turns they rank against people's (docs/judge-calibration.md)."""
    judge = endpoints.get("judge")
    if judge is None or not judge.embedded or language != "ja":
        return None
    return (
        "The embedded judge's Japanese turn scores do not agree with people's: on ragtui's held-out "
        "labelled Japanese turns they rank good answers below bad ones (docs/judge-calibration.md). "
        "Read them as demo figures, or point the judge role at a stronger model."
    )


def start_embedded(config: Config, endpoints: dict[str, Endpoint], progress: StageProgress | None = None) -> LocalModel:
    """Start the embedded model and point every embedded role at it. The caller stops it."""
    if importlib.util.find_spec("xllamacpp") is None:
        raise RagtuiError(
            "The embedded offline model's runtime (xllamacpp) is not installed",
            "install it with: pip install 'ragtui[embedded]', or point ragtui at an endpoint "
            "(OPENAI_BASE_URL=... and --model NAME)",
        )
    model = LocalModel(LocalModelSettings.from_config(config.embedded, config.concurrency))
    url = model.start(progress)
    attach(endpoints, url, model.token)
    return model


def attach(endpoints: dict[str, Endpoint], base_url: str, token: str | None = None) -> None:
    """Point the embedded roles at ``base_url``, with the server's API ``token``."""
    for role, endpoint in endpoints.items():
        if endpoint.embedded:
            endpoint.base_url = base_url
            if token:
                endpoint.api_key = token  # never stored or shown: Endpoint.public() leaves it out
            if endpoint.max_tokens is None and role in EMBEDDED_MAX_TOKENS:
                endpoint.max_tokens = EMBEDDED_MAX_TOKENS[role]


class ServerRecovery:
    """Called by a dialogue whose step failed on an endpoint error: if the embedded server has
    died, start it again on the same address (same port and token) so the step can be retried
    once. Returns a note for the error message should the retry fail too, or None when a
    restart cannot help (the server is up, so the failure was something else)."""

    def __init__(self, model: LocalModel) -> None:
        self.model = model
        self.restarts = 0
        self._lock = asyncio.Lock()  # dialogues that notice the same death restart it once

    async def __call__(self, error: RagtuiError) -> str | None:
        if not isinstance(error, EndpointError):
            return None
        seen = self.restarts
        before = self.model.address
        async with self._lock:
            if self.restarts != seen:
                return self._note()  # another dialogue restarted it while we waited
            if self.model.is_running:
                return None
            try:
                after = await asyncio.to_thread(self.model.restart)
            except RagtuiError as exc:
                raise EndpointError(
                    f"{error.message}; the embedded model's server stopped and could not be restarted "
                    f"(log: {log_path()}): {exc.message}",
                    exc.hint,
                ) from None
            self.restarts += 1
        if before is not None and after != before:
            return None  # the old port was taken: clients still point at the old address
        return self._note()

    @staticmethod
    def _note() -> str:
        return f"the embedded model's server stopped; it was restarted and the step retried (log: {log_path()})"
