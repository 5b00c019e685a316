"""The HTTP bot: the team's own bot as a web service, driven with httpx.

One turn is one request built from the config's template (see ``http_request``); the response
is JSON mapped with JSON paths, or a stream (SSE events or chunked plain text) whose pieces are
passed on as they arrive. Everything that can go wrong — the bot unreachable, slow, answering
4xx/5xx, HTML instead of JSON, invalid UTF-8, megabytes, a connection cut mid-answer, a redirect
to some other host — becomes one ``BotError`` with the status and a bounded, secret-free
snippet. Connection failures, 5xx and 429 are retried with exponential backoff.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import uuid
from dataclasses import replace
from typing import Any

import httpx

from ..config.bot_config import BotConfig
from ..models.llm import DeltaCallback, stream_restarted
from ..text.redaction import redact_url
from ..types.calls import CallUsage
from ..types.errors import RATE_LIMIT_BY_HAND
from ..types.passages import Passage
from ..types.turns import Utterance
from .base import BotAnswer
from .call import Exchange, current_call
from .context import BotContext
from .cut_off import cut_off_answer
from .errors import BotError, BrokenBotStream, Redactor, snippet
from .http_read import Capped, SseParser, TooLarge, Utf8Stream
from .http_request import SlotValues, build_request, check_env
from .http_settings import HttpBotConfig
from .mapping import answer_text, passages_from

MAX_REDIRECTS = 5
MAX_BACKOFF = 10.0  # seconds; also the most a Retry-After header can make ragtui wait
RETRY_STATUSES = {429, 500, 502, 503, 504}


class HttpBot:
    def __init__(self, config: HttpBotConfig) -> None:
        self.config = config
        self.name = f"HTTP bot at {redact_url(config.url)}"
        self.host = httpx.URL(config.url).host
        # Different ragtui runs reuse session numbers (a fresh database starts at 1 again), so a
        # stateful bot gets ids that are unique to this process as well.
        self._prefix = f"ragtui-{uuid.uuid4().hex[:8]}"
        self._client: httpx.AsyncClient | None = None

    def public(self) -> dict[str, object]:
        """Stored with each session: header *names* only, never their values."""
        return BotConfig("http", self.config).public()

    @property
    def client(self) -> httpx.AsyncClient:
        # Created on first use, so it belongs to the event loop that runs the dialogues.
        if self._client is None:
            limits = httpx.Limits(max_connections=256, max_keepalive_connections=64)
            self._client = httpx.AsyncClient(timeout=self.config.timeout, limits=limits, follow_redirects=False)
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None

    async def answer(self, history: list[Utterance], on_delta: DeltaCallback | None = None) -> BotAnswer:
        return (await self.exchange(history, on_delta)).answer

    async def exchange(self, history: list[Utterance], on_delta: DeltaCallback | None = None) -> Exchange:
        """One turn. A streamed body that breaks off is tried again like a 429/500 (what it
        streamed is dropped from view); when it keeps breaking, the error carries the text
        that arrived so the dialogue keeps it as a partial record, never as the answer."""
        # What the attempt in progress streamed, and its number: for the answer's time limit.
        received: list[str] = []
        tries = [0]
        deadline = asyncio.timeout(self.config.reply_timeout)
        try:
            async with deadline:
                return await self._attempts(history, on_delta, received, tries)
        except TimeoutError:
            if not deadline.expired():
                raise
            # The whole answer's limit: not retried (its time is spent).
            text = "".join(received)
            error = BrokenBotStream(
                f"{self.name} took longer than reply_timeout {self.config.reply_timeout:g} s for the whole answer "
                f"({len(text)} characters received); the answer is kept only as a partial record",
                "check the bot's speed, or raise reply_timeout in [bot]",
                partial=text,
                cut_by_time=True,
                seconds=self.config.reply_timeout,
            )
            error.attempts = tries[0]
            # Still answering: what it said is its answer, marked (no passages: they come at the end).
            cut = cut_off_answer(error)
            if cut is None:
                raise error from None
            return Exchange(cut, 200, text, "text/event-stream")

    async def _attempts(
        self, history: list[Utterance], on_delta: DeltaCallback | None, received: list[str], tries: list[int]
    ) -> Exchange:
        attempts = self.config.max_retries + 1
        for attempt in range(1, attempts + 1):
            received.clear()
            tries[0] = attempt
            try:
                return await self._exchange_once(history, on_delta, received)
            except BrokenBotStream as exc:
                exc.attempts = attempt
                if attempt == attempts:
                    raise
                listener = stream_restarted.get()
                if listener is not None:
                    listener(attempt + 1, exc.message)
                await asyncio.sleep(self._delay(attempt - 1, None))
        raise AssertionError("unreachable")

    async def _exchange_once(
        self, history: list[Utterance], on_delta: DeltaCallback | None, received: list[str] | None = None
    ) -> Exchange:
        call = current_call.get()
        session_id = f"{self._prefix}-{call.session_id}" if call else f"{self._prefix}-probe"
        values = SlotValues.from_history(history, session_id, call.turn if call else 1)
        redact = Redactor()
        parts = build_request(self.config, values, redact)
        request = self.client.build_request(
            self.config.method, parts.url, params=parts.params or None, headers=parts.headers, json=parts.body
        )
        started = time.perf_counter()
        streaming = self.config.stream != "none"
        try:
            # Streams are bounded per read (a long answer may take a while); a plain response
            # must arrive whole within the timeout.
            async with contextlib.nullcontext() if streaming else asyncio.timeout(self.config.timeout):
                response = await self._send(request, redact)
                try:
                    exchange = await self._read(response, redact, on_delta, received if received is not None else [])
                finally:
                    await response.aclose()
        except TimeoutError:
            raise BotError(f"{self.name} did not answer within {self.config.timeout:g} s", _TIMEOUT_HINT) from None
        except httpx.TimeoutException:
            raise BotError(f"{self.name} did not answer within {self.config.timeout:g} s", _TIMEOUT_HINT) from None
        except httpx.HTTPError as exc:  # e.g. the connection reset before any response
            raise BotError(f"{self.name} failed: {type(exc).__name__}", "check the bot's log") from None
        answer = exchange.answer
        answer.usage = replace(answer.usage, latency_ms=(time.perf_counter() - started) * 1000)
        return exchange

    # -- sending ---------------------------------------------------------------------------

    async def _send(self, request: httpx.Request, redact: Redactor) -> httpx.Response:
        """Send with retries; returns an open response whose status is final."""
        attempts = self.config.max_retries + 1
        for attempt in range(attempts):
            last = attempt == attempts - 1
            try:
                response = await self._follow(request)
            except (httpx.ConnectError, httpx.ConnectTimeout, httpx.RemoteProtocolError) as exc:
                # RemoteProtocolError here means the server closed the connection before any
                # response: a restarting server or a stale keep-alive connection, worth a retry.
                if last:
                    raise BotError(
                        f"cannot reach {self.name} after {attempts} attempt(s): {type(exc).__name__}",
                        "is the bot running and the url right?",
                    ) from None
                await asyncio.sleep(self._delay(attempt, None))
                continue
            if response.status_code in RETRY_STATUSES and not last:
                await response.aclose()
                await asyncio.sleep(self._delay(attempt, response.headers.get("retry-after")))
                continue
            return response
        raise AssertionError("unreachable")

    def _delay(self, attempt: int, retry_after: str | None) -> float:
        delay = self.config.backoff * (2**attempt)
        if retry_after and retry_after.strip().replace(".", "", 1).isdigit():
            delay = max(delay, float(retry_after))
        return min(delay, MAX_BACKOFF)

    async def _follow(self, request: httpx.Request) -> httpx.Response:
        """Follow redirects by hand, and only on the bot's own host: a redirect elsewhere
        would hand the bot's credentials and the customer's words to a third party."""
        for _ in range(MAX_REDIRECTS + 1):
            response = await self.client.send(request, stream=True)
            if not response.is_redirect or response.next_request is None:
                return response
            target = response.next_request
            await response.aclose()
            if target.url.host != self.host:
                raise BotError(
                    f"{self.name} redirected to another host ({target.url.host or '?'} instead of {self.host})",
                    "point url at the final address, or fix the bot's redirect",
                    status=response.status_code,
                )
            request = target
        raise BotError(f"{self.name} redirected more than {MAX_REDIRECTS} times", "check the url")

    # -- reading ---------------------------------------------------------------------------

    async def _read(
        self, response: httpx.Response, redact: Redactor, on_delta: DeltaCallback | None, received: list[str]
    ) -> Exchange:
        """Read the response; ``received`` collects the streamed text as it arrives."""
        status = response.status_code
        content_type = response.headers.get("content-type", "")
        body = Capped(response, self.config.max_response_bytes)

        def tee(piece: str) -> None:
            received.append(piece)
            if on_delta is not None:
                on_delta(piece)

        try:
            if status >= 400:
                with contextlib.suppress(TooLarge, httpx.HTTPError):
                    await body.read()
                raise self._error("answered with an error", status, body, redact, _status_hint(status))
            if self.config.stream == "sse" or content_type.startswith("text/event-stream"):
                answer = await self._read_sse(body, redact, tee)
            elif self.config.stream == "text":
                answer = await self._read_text(body, tee)
            else:
                answer = self._parse_json(await body.read(), status, body, redact)
        except TooLarge as exc:
            size = f"declares {exc.declared} bytes" if exc.declared else f"sent more than {exc.limit} bytes"
            raise self._error(f"{size}, over the limit of {exc.limit}", status, body, redact, _SIZE_HINT) from None
        except UnicodeDecodeError:
            raise self._error("sent text that is not valid UTF-8", status, body, redact) from None
        except (httpx.ReadError, httpx.RemoteProtocolError, httpx.NetworkError, httpx.TimeoutException) as exc:
            if isinstance(exc, httpx.TimeoutException):  # ragtui's own limit stopped it, not the bot
                what, hint = (
                    f"sent no data for timeout {self.config.timeout:g} s after {body.received} bytes",
                    _STALL_HINT,
                )
            else:
                what = f"broke off the response after {body.received} bytes ({type(exc).__name__})"
                hint = "check the bot's log"
            error = self._error(what, status, body, redact, hint)
            raise BrokenBotStream(
                error.message, error.hint, status=status, snippet=error.snippet, partial="".join(received)
            ) from None
        return Exchange(answer, status, bytes(body.head), content_type, redact)

    def _parse_json(self, raw: bytes, status: int, body: Capped, redact: Redactor) -> BotAnswer:
        try:
            document = json.loads(raw.decode("utf-8"))
        except json.JSONDecodeError:
            raise self._error("did not send JSON", status, body, redact, "set stream if it streams text") from None
        text = self._answer_from(document, status, body, redact)
        model = document.get("model") if isinstance(document, dict) else None
        passages = passages_from(document, self.config.passages)
        return BotAnswer(
            text=text, passages=passages, usage=CallUsage(model=model if isinstance(model, str) else self.name)
        )

    def _answer_from(self, document: Any, status: int, body: Capped, redact: Redactor) -> str:
        path = self.config.answer_path
        found = path.find(document)
        if not found:
            raise self._error(f"sent JSON where answer_path {str(path)!r} matches nothing", status, body, redact)
        text = answer_text(found[0])
        if text is None:
            kind = type(found[0]).__name__
            raise self._error(f"sent JSON where answer_path {str(path)!r} is a {kind}, not text", status, body, redact)
        return text

    async def _read_sse(self, body: Capped, redact: Redactor, on_delta: DeltaCallback | None) -> BotAnswer:
        parser, state = SseParser(), _SseAnswer(self.config, on_delta)
        async for chunk in body.chunks():
            if any(state.event(data) for data in parser.feed(chunk)):
                break
        else:
            for data in parser.end():
                state.event(data)
        if state.final is None and not state.deltas:
            what = f"streamed no answer (neither delta_path {str(self.config.delta_path)!r} nor answer_path "
            raise self._error(what + f"{str(self.config.answer_path)!r} matched)", 200, body, redact)
        text = state.final if state.final is not None else "".join(state.deltas)
        return BotAnswer(text=text, passages=state.passages, usage=CallUsage(model=state.model or self.name))

    async def _read_text(self, body: Capped, on_delta: DeltaCallback | None) -> BotAnswer:
        decoder, parts = Utf8Stream(), []
        async for chunk in body.chunks():
            piece = decoder.feed(chunk)
            if piece:
                parts.append(piece)
                if on_delta is not None:
                    on_delta(piece)
        parts.append(decoder.end())
        return BotAnswer(text="".join(parts), usage=CallUsage(model=self.name))

    def _error(self, what: str, status: int, body: Capped, redact: Redactor, hint: str = "") -> BotError:
        shown = snippet(bytes(body.head), redact)
        error = BotError(f"{self.name} {what}; HTTP {status}, response: {shown}", hint, status=status, snippet=shown)
        if status == 429:  # "lower --concurrency" is a batch's advice, not a person's retrying the step
            error.by_hand = RATE_LIMIT_BY_HAND
        return error


class _SseAnswer:
    """The answer an SSE stream builds up. Per event: ``[DONE]`` ends the stream; a JSON event
    may carry a delta (``delta_path``), the whole answer (``answer_path``, which then wins over
    the deltas), passages and a ``model``; a non-JSON event is a plain-text delta."""

    def __init__(self, config: HttpBotConfig, on_delta: DeltaCallback | None) -> None:
        self.config, self.on_delta = config, on_delta
        self.deltas: list[str] = []
        self.final: str | None = None
        self.passages: list[Passage] = []
        self.model: str | None = None

    def event(self, data: str) -> bool:
        """Take one event; True when the stream says it is done."""
        if data.strip() == "[DONE]":
            return True
        try:
            document = json.loads(data)
        except json.JSONDecodeError:
            piece: str | None = data
        else:
            piece = answer_text(self.config.delta_path.first(document))
            if self.config.answer_path.steps:  # "$" would match every event
                whole = self.config.answer_path.find(document)
                if whole and answer_text(whole[0]) is not None:
                    self.final = answer_text(whole[0])
            self.passages = passages_from(document, self.config.passages) or self.passages
            if isinstance(document, dict) and isinstance(document.get("model"), str):
                self.model = document["model"]
        if piece:
            self.deltas.append(piece)
            if self.on_delta is not None:
                self.on_delta(piece)
        return False


_TIMEOUT_HINT = "raise timeout in [bot], or check the bot"
_STALL_HINT = "check the bot, or raise timeout in [bot] (the longest wait for the next piece)"
_SIZE_HINT = "raise max_response_bytes in [bot] if the bot really answers this much"


def _status_hint(status: int) -> str:
    if status in (401, 403):
        return "check the credentials the headers send"
    if status == 404:
        return "check the url and method"
    if status == 429:
        return "the bot is rate limiting: lower --concurrency or raise max_retries"
    if status >= 500:
        return "the bot failed: check its log"
    return "check the body template against the bot's API"


def build(settings: HttpBotConfig, context: BotContext) -> HttpBot:
    """The ``http`` type's bot (``http_settings`` names this by its path)."""
    check_env(settings)
    return HttpBot(settings)
