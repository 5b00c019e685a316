"""One OpenAI-compatible chat client for every role: streamed text, JSON replies, usage, retries.

Endpoints differ in what they accept. OpenAI takes ``json_schema`` response formats; some
gateways and older servers reject it, or reject ``stream_options`` or ``logprobs``. Rather than
asking the user to know this, the client drops an unsupported option after a 400, remembers that
for the endpoint, and tries again. (A judge asked for token log-probabilities then falls back to
the sampled value and marks it so: see ``metrics/probability.py``.) Only an option the 400's
error message (or its ``param`` field) names is dropped: any other 400 (a context-length error, a
gateway's budget or policy refusal, "No connected db.", a wrong model) is an error of that call,
final and reported with the server's text — never a change of how every later call is asked, or a
judge would switch from probabilities to sampling mid-run without a word. The rest of an error
body is not read for names: gateways echo the request there, options and all. What a server
rejected is remembered per server *and model* (one gateway serves models that differ). Transport failures become an ``EndpointError`` whose message names
the role, the URL and what to do.

``Completion.model`` is the model asked for; ``served_model`` the one the answer names in its
``model`` field when that differs (a gateway's alias resolved to a dated model, a fallback).

A streamed reply counts only when the stream ended properly: a choice's ``finish_reason``, or
``[DONE]``. A stream cut mid-way, one with a malformed chunk, or one that simply stops is
retried like a 429/500 (``max_retries`` times, backing off); whoever listens to the deltas is
told through ``stream_restarted`` to drop what it showed. When it still fails, the error is an
``IncompleteReply`` carrying what arrived, so the caller can keep it as a partial record —
never as the reply. ``finish_reason = "length"`` (cut by the token limit) is a complete stream
and is returned, marked, for the record to show.

Two limits bound a reply: ``timeout``, the longest wait for data (connecting, the first byte, the
gap between two pieces), and ``reply_timeout``, the whole reply with its retries. Without the
second a server that sends one piece just inside ``timeout`` keeps a dialogue waiting for ever.
A reply stopped by either is an ``IncompleteReply`` whose message names the limit; one over
``reply_timeout`` is not retried (the time for it is spent), and says so (``cut_by_time``): a
bot's answer stopped there is kept as far as it got and judged (``bots/cut_off.py``).
"""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

from ..text.redaction import redact_url
from ..text.text_safety import fix_surrogates
from ..types.calls import CallUsage
from ..types.errors import RATE_LIMIT_BY_HAND, EndpointError, IncompleteReply
from . import sse
from .endpoints import Endpoint
from .http_answer import HTML_HINT, host_port, key_hint, quoted
from .token_logprobs import TokenLogprob, from_chunk

Message = dict[str, str]
DeltaCallback = Callable[[str], None]

stream_restarted: ContextVar[Callable[[int, str], None] | None] = ContextVar("stream_restarted", default=None)
"""Set by whoever shows a role's deltas: called with (next attempt, why) before a retry, so the
text streamed so far can be dropped from view."""


def asked_again(reason: str) -> None:
    """A reply that came back whole but could not be read is asked for once more: whoever shows
    the role's deltas drops the first reply's text, as for a broken stream, instead of gluing
    the second to it (the verdict keeps both among its raw replies)."""
    listener = stream_restarted.get()
    if listener is not None:
        listener(2, reason)


STREAM_RETRY_BACKOFF_S = 0.5
"""First pause before retrying a broken stream; doubles per retry, up to 8 s."""

_BROKEN_HINT = "check the server's log, or raise max_retries for the role"
_STALL_HINT = "check the server, or raise timeout for the role (the longest wait for the next piece)"


class _StreamFault(Exception):
    """The stream broke after it began; retryable. ``partial`` is the text received."""

    def __init__(self, reason: str, partial: str, hint: str = _BROKEN_HINT) -> None:
        super().__init__(reason)
        self.reason = reason
        self.partial = partial
        self.hint = hint


@dataclass
class _Progress:
    """The attempt in progress of one reply and the text it received so far."""

    attempts: int = 1
    parts: list[str] = field(default_factory=list)


@dataclass
class Completion:
    text: str
    model: str
    prompt_tokens: int | None
    completion_tokens: int | None
    latency_ms: float
    first_token_ms: float | None = None
    finish_reason: str | None = None  # "stop", or "length" when the token limit cut it
    attempts: int = 1
    # Per sampled token, the alternatives' log-probabilities; empty when not asked for or when
    # the endpoint sent none (``logprobs_dropped``: it rejected the option and was asked without).
    logprobs: list[TokenLogprob] = field(default_factory=list)
    logprobs_dropped: bool = False
    served_model: str | None = None  # the model the answer names, when not the one asked for
    cached_tokens: int | None = None  # prompt tokens reused from the server's cache; None: not said

    @property
    def usage(self) -> CallUsage:
        """This call's cost and who answered, as the answer, the record and a verdict keep it."""
        return CallUsage(
            model=self.model,
            served_model=self.served_model,
            prompt_tokens=self.prompt_tokens,
            completion_tokens=self.completion_tokens,
            cached_tokens=self.cached_tokens,
            latency_ms=self.latency_ms,
            finish_reason=self.finish_reason,
            attempts=self.attempts,
        )


def usage_of(completions: list[Completion]) -> CallUsage:
    """A metric's several calls as one verdict's cost (``CallUsage.of_calls``)."""
    return CallUsage.of_calls([c.usage for c in completions])


def chat_options(
    endpoint: Endpoint,
    *,
    temperature: float | None = None,
    max_tokens: int | None = None,
    json_schema: dict[str, Any] | None = None,
    top_logprobs: int | None = None,
) -> dict[str, Any]:
    """A chat request's options besides model, messages and streaming. Shared by the streamed
    call and by batch request files (``ragtui rejudge --batch``), so both ask exactly the same."""
    options: dict[str, Any] = {"temperature": endpoint.temperature if temperature is None else temperature}
    limit = max_tokens or endpoint.max_tokens
    if limit:
        options["max_tokens"] = limit
    if json_schema is not None:
        options["response_format"] = {
            "type": "json_schema",
            "json_schema": {"name": json_schema.get("title", "reply"), "schema": json_schema, "strict": True},
        }
    if top_logprobs:
        options["logprobs"] = True
        options["top_logprobs"] = top_logprobs
    return options


class ChatClient:
    """A role's view of one endpoint. Cheap to create; share the connection pool via ``ClientPool``."""

    def __init__(self, endpoint: Endpoint, lanes: sse.Lanes | None, dropped: set[str] | None = None) -> None:
        self.endpoint = endpoint
        self._lanes = lanes
        # Options this server rejected once for this model; not sent again (see module
        # docstring). Shared by every ChatClient of the same server and model through ClientPool.
        self._dropped = dropped if dropped is not None else set()

    @property
    def where(self) -> str:
        return f"{self.endpoint.role} endpoint {redact_url(self.endpoint.base_url or '')} (model {self.endpoint.model})"

    async def complete(
        self,
        messages: list[Message],
        *,
        on_delta: DeltaCallback | None = None,
        temperature: float | None = None,
        max_tokens: int | None = None,
        json_schema: dict[str, Any] | None = None,
        on_chunk: Callable[[dict[str, Any]], None] | None = None,
        top_logprobs: int | None = None,
    ) -> Completion:
        """Stream a chat completion, calling ``on_delta`` per text fragment; return the whole.
        ``on_chunk`` sees every raw chunk (the OpenAI-compatible bot reads citations there).
        ``top_logprobs`` asks for that many alternatives per token (``Completion.logprobs``)."""
        options = {
            **chat_options(
                self.endpoint,
                temperature=temperature,
                max_tokens=max_tokens,
                json_schema=json_schema,
                top_logprobs=top_logprobs,
            ),
            "stream_options": {"include_usage": True},
        }
        progress = _Progress()
        deadline = asyncio.timeout(self.endpoint.reply_timeout)
        try:
            async with deadline:
                return await self._attempts(messages, options, on_delta, on_chunk, top_logprobs, progress)
        except TimeoutError:
            if not deadline.expired():
                raise
            # The whole reply's limit: not retried, whatever max_retries says (its time is spent).
            received = sum(map(len, progress.parts))
            raise IncompleteReply(
                f"{self.where} took longer than reply_timeout {self.endpoint.reply_timeout:g} s for the whole reply "
                f"({received} characters received); the reply is kept only as a partial record",
                "check the server's speed, or raise reply_timeout for the role",
                role=self.endpoint.role,
                partial="".join(progress.parts),
                attempts=progress.attempts,
                cut_by_time=True,
                seconds=self.endpoint.reply_timeout,
            ) from None

    async def _attempts(
        self,
        messages: list[Message],
        options: dict[str, Any],
        on_delta: DeltaCallback | None,
        on_chunk: Callable[[dict[str, Any]], None] | None,
        top_logprobs: int | None,
        progress: _Progress,
    ) -> Completion:
        """Ask until a reply completes, retrying broken streams; ``progress`` tells the caller
        what the attempt in progress received when the reply's time limit stops it."""
        attempts = 0
        while True:
            sent = {k: v for k, v in options.items() if k not in self._dropped}
            attempts += 1
            progress.attempts, progress.parts = attempts, []
            try:
                completion = await self._stream(messages, sent, on_delta, on_chunk, progress.parts)
                completion.attempts = attempts
                completion.logprobs_dropped = bool(top_logprobs) and "logprobs" not in sent
                return completion
            except sse.StatusError as exc:
                if exc.status != 400 or exc.html:
                    raise self._error(exc) from None
                attempts -= 1  # not a fault of the stream: the request changes and goes again
                droppable = _droppable(sent, error_naming(exc.body) or exc.message)
                if not droppable:
                    raise self._error(exc) from None
                # Drop the option the error names and try again;
                # remember it for this endpoint. logprobs and top_logprobs go together.
                self._dropped.add(droppable)
                if droppable == "logprobs":
                    self._dropped.add("top_logprobs")
            except _StreamFault as fault:
                if attempts > self.endpoint.max_retries:
                    tries = f" after {attempts} attempts" if attempts > 1 else ""
                    raise IncompleteReply(
                        f"{self.where} {fault.reason}{tries}; the reply is kept only as a partial record",
                        fault.hint,
                        role=self.endpoint.role,
                        partial=fault.partial,
                        attempts=attempts,
                    ) from None
                listener = stream_restarted.get()
                if listener is not None:
                    listener(attempts + 1, fault.reason)
                await asyncio.sleep(min(STREAM_RETRY_BACKOFF_S * 2 ** (attempts - 1), 8.0))

    async def _stream(
        self,
        messages: list[Message],
        options: dict[str, Any],
        on_delta: DeltaCallback | None,
        on_chunk: Callable[[dict[str, Any]], None] | None = None,
        parts: list[str] | None = None,
    ) -> Completion:
        """One attempt; ``parts`` receives the text as it arrives, so the caller still has it
        when the reply's time limit stops this attempt."""
        # httpx and a minimal SSE reader (sse.py), chunks kept as plain dicts: the openai
        # client's request building, decoder and per-chunk machinery cost more CPU than
        # ragtui spends on everything else per call (bench/bench_engine.py shows it).
        started = time.perf_counter()
        first: float | None = None
        parts = [] if parts is None else parts
        logprobs: list[TokenLogprob] = []
        usage: dict[str, Any] = {}
        timings: dict[str, Any] = {}
        model = self.endpoint.model
        served: str | None = None
        finish: str | None = None
        body = {"model": self.endpoint.model, "messages": messages, "stream": True, **options}
        url = (self.endpoint.base_url or "").rstrip("/") + "/chat/completions"
        try:
            assert self._lanes is not None, "a ChatClient made without a pool cannot call"
            stream = await sse.open_stream(
                self._lanes.pick(), url, self.endpoint.api_key, body, self.endpoint.max_retries
            )
        except sse.StatusError as exc:
            if exc.status == 400:
                raise  # complete() may drop an option and ask again
            raise self._error(exc) from None
        except (sse.TransportError, sse.NotAnAPI) as exc:
            raise self._error(exc) from None
        # From here on the request was accepted: whatever breaks is a broken stream, retried.
        wants_logprobs = "logprobs" in options
        try:
            async for chunk in stream:
                if on_chunk is not None:
                    on_chunk(chunk)
                usage = chunk.get("usage") or usage
                if isinstance(chunk.get("timings"), dict):
                    timings = chunk["timings"]  # llama.cpp: the prompt cache's figures
                if wants_logprobs:
                    logprobs += from_chunk(chunk)
                named = chunk.get("model")
                if served is None and isinstance(named, str) and named and named != model:
                    served = named  # the first chunk naming another model: a gateway may restamp later ones
                for choice in chunk.get("choices") or ():
                    if not isinstance(choice, dict):
                        continue
                    finish = choice.get("finish_reason") or finish
                    delta = choice.get("delta")
                    text = delta.get("content") if isinstance(delta, dict) else None
                    if isinstance(text, str) and text:
                        text = fix_surrogates(text)
                        if first is None:
                            first = time.perf_counter()
                        parts.append(text)
                        if on_delta is not None:
                            on_delta(text)
        except sse.StreamBroken as exc:
            hint = _STALL_HINT if exc.kind == "timeout" else _BROKEN_HINT
            raise _StreamFault(self._fault(exc, parts), "".join(parts), hint) from None
        except sse.NotAnAPI as exc:
            raise self._error(exc) from None
        finally:
            await stream.aclose()
        if finish is None and not stream.saw_done:
            received = sum(map(len, parts))
            raise _StreamFault(
                f"ended the stream after {received} characters without finishing it (no finish_reason, no [DONE])",
                "".join(parts),
            )
        end = time.perf_counter()
        prompt_tokens, cached = prompt_usage(usage, timings)
        return Completion(
            text="".join(parts),
            model=model,
            prompt_tokens=prompt_tokens,
            cached_tokens=cached,
            completion_tokens=usage.get("completion_tokens"),
            latency_ms=(end - started) * 1000,
            first_token_ms=None if first is None else (first - started) * 1000,
            finish_reason=finish,
            logprobs=logprobs,
            served_model=served,
        )

    def _fault(self, exc: sse.StreamBroken, parts: list[str]) -> str:
        received = sum(map(len, parts))
        if exc.kind == "malformed":
            return f"sent a malformed stream after {received} characters: {_brief(exc)}"
        if exc.kind == "error":
            return f"reported an error mid-stream after {received} characters: {_brief(exc)}"
        if exc.kind == "timeout":  # ragtui's own limit stopped it, not the server
            return f"sent no data for timeout {self.endpoint.timeout:g} s after {received} characters"
        return f"broke off the reply after {received} characters"

    async def check(self) -> None:
        """Open a chat stream with a one-word prompt, read its first event and hang up: proves
        the URL answers as an OpenAI-compatible chat API, the key and the model, for next to no
        tokens. Raises the EndpointError a real call would."""
        body = {"model": self.endpoint.model, "messages": [{"role": "user", "content": "Say OK."}], "stream": True}
        url = (self.endpoint.base_url or "").rstrip("/") + "/chat/completions"
        assert self._lanes is not None, "a ChatClient made without a pool cannot call"
        try:
            stream = await sse.open_stream(
                self._lanes.pick(), url, self.endpoint.api_key, body, self.endpoint.max_retries
            )
            try:
                async for _chunk in stream:
                    break
            finally:
                await stream.aclose()
        except (sse.StatusError, sse.TransportError, sse.NotAnAPI) as exc:
            raise self._error(exc) from None
        except sse.StreamBroken:
            pass  # the server answered with a stream: what follows is a run's business

    def _error(self, exc: Exception) -> EndpointError:
        """Translate a failed request into one line a support engineer can act on, quoting the
        server's own error text (behind a gateway it is often the only clue to *which* part failed)."""
        where = self.where
        url = self.endpoint.base_url or ""
        if isinstance(exc, sse.TransportError):
            if exc.timed_out:
                return EndpointError(
                    f"{where} did not answer within {self.endpoint.timeout:g} s",
                    "check the server, or raise timeout in the role's config",
                )
            refused = "refused" in exc.message.lower()
            why = f"connection refused at {host_port(url)}" if refused else f"{exc.message} ({host_port(url)})"
            return EndpointError(f"cannot reach {where}: {why}", "is the server running and the URL right?")
        if isinstance(exc, sse.NotAnAPI) or getattr(exc, "html", False):
            status = getattr(exc, "status", 200)
            return EndpointError(
                f"{where} answered{'' if status == 200 else f' {status}'} with an HTML page, "
                "not an OpenAI-compatible API",
                HTML_HINT,
            )
        status = getattr(exc, "status", None)
        said = quoted(getattr(exc, "message", "") or "")
        if status in (401, 403):
            return EndpointError(f"{where} refused the request ({status}){said}", key_hint(self.endpoint.api_key_env))
        if status == 404:
            return EndpointError(f"{where} answered 404{said}", "check the model name and the base URL (…/v1)")
        if status == 429:
            return EndpointError(
                f"{where} is rate limiting (429) after {self.endpoint.max_retries} retries{said}",
                "lower --concurrency or raise max_retries",
                by_hand=RATE_LIMIT_BY_HAND,
            )
        if status == 400:
            return EndpointError(
                f"{where} answered 400{said}",
                f"the server refused the request (a gateway also answers 400 to a wrong key in ${self.endpoint.api_key_env})",
            )
        if status is not None:
            retried = " (the server had already retried it)" if getattr(exc, "gateway_retried", False) else ""
            return EndpointError(f"{where} answered {status}{retried}{said}", "check the server's log")
        return EndpointError(f"{where} failed: {_brief(exc)}")


def prompt_usage(usage: dict[str, Any], timings: dict[str, Any]) -> tuple[int | None, int | None]:
    """(prompt tokens sent, of them reused from the server's prompt cache) from a stream's
    ``usage`` and llama.cpp's ``timings`` (``cache_n`` reused, ``prompt_n`` computed). Either
    figure is None when the server did not say; a reused count is never guessed as 0."""
    sent = _count(usage.get("prompt_tokens"))
    cached: int | None = None
    details = usage.get("prompt_tokens_details")
    if isinstance(details, dict):
        cached = _count(details.get("cached_tokens"))
    cache_n, prompt_n = _count(timings.get("cache_n")), _count(timings.get("prompt_n"))
    if cache_n is not None:
        cached = cache_n  # llama.cpp's own figure for this request
        if sent is None and prompt_n is not None:
            sent = cache_n + prompt_n
    if sent is not None and cached is not None and cached > sent:
        cached = None  # figures that contradict each other say nothing
    return sent, cached


def _count(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None


# Options a 400 may be blamed on, in the order tried when the error names several
# (``top_logprobs`` goes with ``logprobs``).
_DROPPABLE = ("response_format", "logprobs", "stream_options")


# How an error message names each option: the option itself as a word (``top_logprobs`` names
# ``logprobs``' pair), and for the response format its JSON schema.
_NAMES = {
    "response_format": re.compile(r"response_format|response format|json_schema|\bschema\b", re.IGNORECASE),
    "logprobs": re.compile(r"\b(?:top_)?logprobs\b|\blog ?probs?\b|\blogprob\b", re.IGNORECASE),
    "stream_options": re.compile(r"\bstream_options\b|\binclude_usage\b", re.IGNORECASE),
}


def _droppable(sent: dict[str, Any], message: str) -> str | None:
    """The option to drop after a 400: one the error names; None when it names none (the 400
    is then about something else, and sending the request again would only repeat it)."""
    named = [k for k in _DROPPABLE if k in sent and _NAMES[k].search(message)]
    return named[0] if named else None


def error_naming(body: str) -> str:
    """The parts of a 400's body that may name a rejected option: the error's message and its
    ``param`` (OpenAI's field for the offending option). A body that is not JSON counts whole when
    short (a proxy's plain-text line); anything else in a JSON body — an echoed request — does not."""
    try:
        data = json.loads(body)
    except ValueError:
        return body if len(body) <= 2000 else ""
    if not isinstance(data, dict):
        return ""
    error = data.get("error")
    parts: list[Any] = [data.get("message"), data.get("detail"), data.get("param")]
    if isinstance(error, dict):
        parts += [error.get("message"), error.get("msg"), error.get("param")]
    else:
        parts.append(error)
    detail = data.get("detail")
    if isinstance(detail, list):  # FastAPI's validation errors name the field in ``loc``
        parts.append(json.dumps(detail, ensure_ascii=False))
    return " ".join(p for p in parts if isinstance(p, str))


def _brief(exc: Exception, limit: int = 200) -> str:
    """A bounded, single-line rendering of an error (server bodies can be huge)."""
    text = " ".join(str(getattr(exc, "message", None) or exc).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


class ClientPool:
    """The connection pools of each distinct endpoint (``sse.Lanes``), shared by dialogues."""

    def __init__(self, lanes: int = sse.Lanes.COUNT) -> None:
        self._count = lanes
        self._lanes: dict[tuple[str, float], sse.Lanes] = {}
        self._dropped: dict[tuple[str, str], set[str]] = {}

    def client_for(self, endpoint: Endpoint) -> ChatClient:
        if endpoint.base_url is None:
            raise EndpointError(f"the {endpoint.role} role uses the embedded model, which is not started")
        # The key and the retry count travel with each request, so one pool serves them all.
        key = (endpoint.base_url, endpoint.timeout)
        if key not in self._lanes:
            self._lanes[key] = sse.Lanes(endpoint.timeout, self._count, endpoint.base_url)
        dropped = self._dropped.setdefault((endpoint.base_url, endpoint.model), set())
        return ChatClient(endpoint, self._lanes[key], dropped)

    async def aclose(self) -> None:
        for lanes in self._lanes.values():
            await lanes.aclose()
        self._lanes.clear()
