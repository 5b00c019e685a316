"""POST a streamed chat completion and read its server-sent events as plain dicts.

The POST goes over the lean HTTP/1.1 client of ``http1.py`` to a plain-http endpoint (the
cluster-inside-the-network case, where per-call CPU decides throughput), over httpx otherwise
(TLS, proxies).

The openai package's client costs more CPU per call than ragtui spends on everything else when
hundreds of dialogues run at once (bench/bench_engine.py): request building, its SSE decoder and
its per-event machinery run for every chunk. A chat stream needs little of it: one POST, then
``data:`` lines holding one JSON object each and a final ``[DONE]``. This module does exactly
that, plus what the client did that ragtui relies on: connection pooling, the bearer key in a
header (never logged), timeouts, and retrying connection failures, 408/409/429 and 5xx answers
with backoff (honouring ``retry-after-ms`` / ``retry-after``) *before* the stream begins. Faults
after it began are the caller's (``llm.ChatClient`` retries the whole reply).

Retries never stack on a gateway's own: an answer saying the server already retried (LiteLLM's
``x-litellm-attempted-retries``, or ``LiteLLM Retried: N times`` in its error text) or asking not
to be retried (``x-should-retry: false``) is final. Any other 4xx but 408/409/429 is final too:
a 400 is the same 400 when sent again. An HTML page where the stream should be is ``NotAnAPI``,
never retried: the URL reaches a web server, not the API.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx

from . import http1
from .http_answer import is_html, server_text

RETRYABLE_STATUS = frozenset({408, 409, 429})
INITIAL_BACKOFF_S = 0.5
MAX_BACKOFF_S = 8.0


class StatusError(Exception):
    """The server answered with an HTTP error status instead of a stream. ``message`` is the
    server's own error text, sanitised and short ('' when it sent none)."""

    def __init__(
        self, status: int, message: str, body: str = "", *, html: bool = False, gateway_retried: bool = False
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.body = body  # the raw answer, for naming a rejected option (never shown whole)
        self.html = html  # the answer was an HTML page
        self.gateway_retried = gateway_retried  # the server says it already retried (or not to)


class NotAnAPI(Exception):
    """The server answered a chat request with an HTML page: not an OpenAI-compatible API."""

    def __init__(self, status: int) -> None:
        super().__init__(f"answered {status} with an HTML page")
        self.status = status


class TransportError(Exception):
    """No answer: the connection failed (``timed_out`` when the time limit ran out)."""

    def __init__(self, message: str, *, timed_out: bool) -> None:
        super().__init__(message)
        self.message = message
        self.timed_out = timed_out


class StreamBroken(Exception):
    """The stream began and then broke: cut, malformed, or an error event mid-way."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind  # "cut", "timeout" (ragtui's own limit stopped it), "malformed" or "error"
        self.message = message


class Lanes:
    """Several httpx connection pools for one endpoint, used in turn, request by request.

    httpx's pool looks at every connection it holds on each request and each release, so one
    pool with 256 keep-alive connections spends more CPU per call than the call itself; many
    pools of a few connections do not (the engine asks for one per four concurrent dialogues).
    Connections stay alive between calls in every pool."""

    COUNT = 16

    def __init__(self, timeout: float, count: int = COUNT, base_url: str | None = None) -> None:
        # Plain http:// without a proxy: one lean HTTP/1.1 pool (http1.py) instead.
        target = http1.plain_http_target(base_url) if base_url else None
        self._plain = http1.Http1Pool(*target, timeout) if target else None
        if self._plain is not None:
            count = 0
        tls = httpx.create_ssl_context() if count else None  # one for all: loading the CA bundle is slow
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=1024)
        self._clients = (
            [
                httpx.AsyncClient(timeout=httpx.Timeout(timeout), limits=limits, follow_redirects=False, verify=tls)
                for _ in range(count)
            ]
            if tls is not None
            else []
        )
        self._next = 0

    def pick(self) -> httpx.AsyncClient | http1.Http1Pool:
        if self._plain is not None:
            return self._plain
        self._next += 1
        return self._clients[self._next % len(self._clients)]

    async def aclose(self) -> None:
        if self._plain is not None:
            await self._plain.aclose()
        for client in self._clients:
            await client.aclose()


class EventStream:
    """An open chat stream: iterate for chunk dicts; ``saw_done`` tells whether ``[DONE]`` came."""

    def __init__(self, response: httpx.Response | http1.Http1Response) -> None:
        self._response = response
        self.saw_done = False

    async def aclose(self) -> None:
        await self._response.aclose()

    async def __aiter__(self) -> AsyncIterator[dict[str, Any]]:
        buffer = b""
        data: list[bytes] = []
        event = b""
        started = False
        try:
            async for block in self._response.aiter_bytes():
                if self.saw_done:
                    continue  # read the body to its end (at once, here) so the connection is reused
                if not started and block.strip():
                    started = True
                    if is_html("", block):  # a page sent without saying text/html
                        raise NotAnAPI(200)
                buffer += block
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.endswith(b"\r"):
                        line = line[:-1]
                    if line:
                        field, _, value = line.partition(b":")
                        if value.startswith(b" "):
                            value = value[1:]
                        if field == b"data":
                            data.append(value)
                        elif field == b"event":
                            event = value
                        continue  # comments (":…") and other fields carry nothing for us
                    if not data:
                        continue
                    payload = b"\n".join(data)
                    data.clear()
                    kind, event = event, b""
                    if payload.startswith(b"[DONE]"):
                        self.saw_done = True
                        break
                    chunk = _decode(payload)
                    if kind == b"error" or "error" in chunk:
                        raise StreamBroken("error", _error_text(chunk.get("error", chunk)))
                    yield chunk
        except (httpx.HTTPError, http1.Http1Error) as exc:
            if self.saw_done:
                return  # the reply was whole; only the connection's tail went wrong
            if isinstance(exc, httpx.TimeoutException) or getattr(exc, "timed_out", False):
                raise StreamBroken("timeout", "no data within the timeout mid-stream") from None
            raise StreamBroken("cut", type(exc).__name__) from None


def _decode(payload: bytes) -> dict[str, Any]:
    try:
        chunk = json.loads(payload)
    except ValueError as exc:
        raise StreamBroken("malformed", f"not JSON: {exc}") from None
    if not isinstance(chunk, dict):
        raise StreamBroken("malformed", f"a chunk is a JSON {type(chunk).__name__}, not an object")
    return chunk


async def open_stream(
    client: httpx.AsyncClient | http1.Http1Pool, url: str, api_key: str, body: dict[str, Any], max_retries: int
) -> EventStream:
    """POST ``body`` and return the open stream once the server answered 200; retry what is
    worth retrying up to ``max_retries`` times; else raise StatusError or TransportError."""
    headers = {"Authorization": f"Bearer {api_key}", "Accept": "text/event-stream"}
    content = json.dumps(body, ensure_ascii=False).encode("utf-8")
    headers["Content-Type"] = "application/json"
    attempt = 0
    while True:
        wait: float | None = None
        try:
            response = await _post(client, url, headers, content)
        except httpx.TimeoutException as exc:
            failure: Exception = TransportError(type(exc).__name__, timed_out=True)
        except httpx.HTTPError as exc:
            failure = TransportError(type(exc).__name__, timed_out=False)
        except http1.Http1Error as exc:
            failure = TransportError(exc.message, timed_out=exc.timed_out)
        else:
            content_type = response.headers.get("content-type") or ""
            if response.status_code == 200 and not is_html(content_type):
                return EventStream(response)
            try:
                await response.aread()
            except (httpx.HTTPError, http1.Http1Error):
                pass
            finally:
                await response.aclose()
            if response.status_code == 200:
                raise NotAnAPI(200)
            failure = StatusError(
                response.status_code,
                server_text(response.text, content_type, secret=api_key) or response.reason_phrase,
                response.text,
                html=is_html(content_type, response.text),
                gateway_retried=_gateway_retried(response.headers, response.text),
            )
            # Final: any 4xx but 408/409/429 (sent again it fails again), and an answer from a
            # server that already retried upstream itself (our retries would multiply its own).
            # Otherwise retried up to max_retries, after the server's Retry-After when it names one.
            if response.status_code not in RETRYABLE_STATUS and response.status_code < 500:
                raise failure
            if failure.gateway_retried:
                raise failure
            wait = _retry_after(response.headers)
        if attempt >= max_retries:
            raise failure
        attempt += 1
        if wait is None:
            wait = min(INITIAL_BACKOFF_S * 2 ** (attempt - 1), MAX_BACKOFF_S) * (1 - 0.25 * random.random())
        await asyncio.sleep(wait)


async def _post(
    client: httpx.AsyncClient | http1.Http1Pool, url: str, headers: dict[str, str], content: bytes
) -> httpx.Response | http1.Http1Response:
    if isinstance(client, http1.Http1Pool):
        return await client.post(url, headers, content)
    request = client.build_request("POST", url, content=content, headers=headers)
    return await client.send(request, stream=True)


def _retry_after(headers: httpx.Headers | dict[str, str]) -> float | None:
    """The server's requested pause, when it names a sensible one (0 < s ≤ 60)."""
    for name, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        value = headers.get(name)
        if value is None:
            continue
        try:
            seconds = float(value) * scale
        except ValueError:
            continue
        if 0 < seconds <= 60:
            return seconds
    return None


_RETRIED_TEXT = re.compile(r"Retried: (\d+) times", re.IGNORECASE)


def _gateway_retried(headers: httpx.Headers | dict[str, str], body: str) -> bool:
    """True when the server says it has retried already, or asks not to be retried."""
    if (headers.get("x-should-retry") or "").strip().lower() == "false":
        return True
    attempted = (headers.get("x-litellm-attempted-retries") or "").strip()
    if attempted.isdigit() and int(attempted) > 0:
        return True
    found = _RETRIED_TEXT.search(body[:4000])
    return found is not None and int(found.group(1)) > 0


def _error_text(error: Any) -> str:
    if isinstance(error, dict):
        message = error.get("message")
        if isinstance(message, str) and message:
            return message
        return json.dumps(error, ensure_ascii=False)
    return str(error)
