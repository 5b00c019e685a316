"""A fake OpenAI-compatible chat server for tests and benchmarks.

Why a real HTTP server rather than mocking the client: ragtui drives endpoints through the
official ``openai`` client, and the behaviour worth testing (SSE parsing, retries on 429/5xx,
timeouts, connection pooling, a stream that dies half way) lives in that client and its HTTP
stack. A socket on 127.0.0.1 exercises all of it, for the sync and the async client alike.

Why stdlib only and a hand-written HTTP/1.1 parser: the benchmarks use it too, with only
ragtui's own dependencies installed, so it must not pull in a web framework, and it must be fast (hundreds of
requests per second, many concurrent keep-alive connections) and able to misbehave on purpose
(cut a chunked body, never answer), which frameworks make awkward.

The server runs ``asyncio.start_server`` on its own event loop in a daemon thread, so it works
from plain sync tests and from async tests whose event loop is a different one.

Typical use::

    with FakeOpenAIServer() as server:
        server.script("bot", Reply("hello"), Reply(status=429))
        client = OpenAI(base_url=server.base_url, api_key="sk-test", max_retries=0)
        ...

Command line: ``python -m stand_ins.fake_openai --port 8000 [--latency 0.1]``.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import email.parser
import email.policy
import hashlib
import http
import itertools
import json
import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

__all__ = [
    "FakeOpenAIServer",
    "Gate",
    "level_reply",
    "RecordedRequest",
    "Reply",
    "Responder",
    "schema_responder",
]

_DEFAULT_MODEL = "fake-model"
_MAX_HEADER_BYTES = 64 * 1024
_MAX_BODY_BYTES = 64 * 1024 * 1024
_STOP_TIMEOUT = 60.0  # a generous bound for a loaded machine; stopping takes milliseconds
# Past this nesting depth the schema generator only emits what the schema requires, so that
# recursive schemas (a node whose children are nodes) still terminate.
_SCHEMA_OPTIONAL_DEPTH = 8
_SCHEMA_MAX_DEPTH = 64


class Gate:
    """Holds a reply until the test opens it: for a test whose key must land while a model is
    "thinking", instead of a delay that a busy machine outruns. ``Reply(gate=gate)`` waits, before
    its first byte, until :meth:`open`; :meth:`wait_reached` tells the test a request is waiting.
    Usable from any thread and from any event loop; a stopped server drops the held requests."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._reached = threading.Event()
        self._opened = False
        self._waiters: list[tuple[asyncio.AbstractEventLoop, asyncio.Event]] = []

    def wait_reached(self, timeout: float = 60.0) -> bool:
        """Block until a request is held at the gate; False after ``timeout`` (a generous bound)."""
        return self._reached.wait(timeout)

    def open(self) -> None:
        """Let every held request, and every later one, answer."""
        with self._lock:
            self._opened = True
            waiters, self._waiters = self._waiters, []
        for loop, event in waiters:
            loop.call_soon_threadsafe(event.set)

    async def _hold(self) -> None:
        event = asyncio.Event()
        with self._lock:
            if self._opened:
                return
            self._waiters.append((asyncio.get_running_loop(), event))
        self._reached.set()
        await event.wait()


@dataclass
class Reply:
    """What the fake server answers to one chat-completion request.

    The knobs beyond ``text`` exist to reproduce the failure modes a real endpoint shows:
    rate limits and server errors (``status``/``headers``), slow models (``delay_*``),
    connections dropped mid-stream (``cut_after_chunks``), streams that stop sending
    (``stall_after_chunks``) and requests that never come back (``hang``).
    """

    text: str = "ok"
    status: int = 200
    """Anything but 200 sends a JSON error body in OpenAI's shape, never a stream."""
    error_message: str = "fake error"
    headers: dict[str, str] = field(default_factory=dict)
    """Extra response headers; they override the defaults. For an immediate client retry use
    ``{"retry-after-ms": "1"}``: openai 3.x ignores ``retry-after: 0`` and backs off ~0.5 s."""
    chunk_chars: int = 8
    """A streamed text is split into content chunks of this many characters."""
    delay_first: float = 0.0
    """Seconds before the first byte of the response (status line included)."""
    delay_per_chunk: float = 0.0
    """Seconds between two streamed content chunks."""
    cut_after_chunks: int | None = None
    """Streaming: close the connection after the role chunk and this many content chunks,
    without the finish chunk, ``[DONE]`` or the terminating zero-length chunk. Non-streaming:
    close the connection without sending any response."""
    hang: bool = False
    """Never answer; the connection stays open until the client closes it or the server stops."""
    gate: Gate | None = None
    """Answer only once the gate is opened (before ``delay_first``): the test decides when."""
    stall_after_chunks: int | None = None
    """Streaming: send the role chunk and this many content chunks, then nothing more; the
    connection stays open until the client closes it or the server stops (a stalled model).
    :meth:`FakeOpenAIServer.wait_for_stalls` tells when the chunks are out."""
    finish_reason: str = "stop"
    """The streamed finish chunk's reason; ``"length"`` is a reply the token limit cut."""
    unfinished: bool = False
    """Streaming: end the body properly after the content but send neither the finish chunk nor
    ``[DONE]`` (a proxy that gave up upstream looks like this)."""
    malformed_after_chunks: int | None = None
    """Streaming: after this many content chunks send an event whose data is not JSON, then end
    the body properly."""
    logprobs: list[tuple[str, dict[str, float]]] | None = None
    """Per sampled token, ``(token, {alternative: logprob})``. When set, the text sent is the
    tokens joined (one streamed chunk per token) and, if the request asks for ``logprobs``, each
    token carries its alternatives in ``logprobs_shape``."""
    logprobs_shape: str = "openai"
    """``"openai"``: ``choices[].logprobs.content[]`` with ``top_logprobs`` (OpenAI and current
    llama.cpp); ``"llamacpp"``: older llama.cpp's top-level ``completion_probabilities`` with
    ``probs: [{tok_str, prob}]`` (plain probabilities)."""
    model: str | None = None
    """The ``model`` field the answer names; by default the one requested. A gateway answering
    for an alias names the model that answered (``gpt-4o-mini-2024-07-18`` for ``gpt-4o-mini``)."""
    raw: str | None = None
    """Send this text as the whole body, with ``status`` and ``content_type``, instead of a
    stream or a JSON error: the HTML page of a web server or login portal, a proxy's plain text."""
    content_type: str = "text/html; charset=utf-8"
    """The content type of a ``raw`` body."""
    extra: dict[str, Any] = field(default_factory=dict)
    """Extra top-level fields of the response, as servers with retrieval add (``citations``,
    ``context``): merged into a non-streamed completion; streamed, sent as one more chunk with
    no choices after the finish chunk."""


Responder = Callable[[dict], Reply]
"""Builds a Reply from the parsed JSON request body. Runs on the server's event loop thread,
so it must be quick and must not block."""


@dataclass
class RecordedRequest:
    """One HTTP request as the server received it. Header names are lower-cased (HTTP header
    names are case-insensitive, and this makes lookups like ``headers["authorization"]``
    reliable); ``body`` is the parsed JSON object, or None when absent or not a JSON object."""

    method: str
    path: str
    headers: dict[str, str]
    body: dict | None


class _BadRequest(Exception):
    """The bytes on the wire are not an HTTP/1.1 request we can answer; the connection is
    closed after an error response, as there is no reliable way to find the next request."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class _HttpRequest:
    method: str
    path: str
    version: str
    headers: dict[str, str]
    body: bytes

    @property
    def keep_alive(self) -> bool:
        tokens = {token.strip().lower() for token in self.headers.get("connection", "").split(",")}
        if self.version == "HTTP/1.1":
            return "close" not in tokens
        return "keep-alive" in tokens


class FakeOpenAIServer:
    """An OpenAI-compatible ``/v1/chat/completions`` and ``/v1/models`` server on 127.0.0.1.

    Replies to chat requests are chosen per request, in this order: the FIFO queue filled by
    :meth:`script` for the request's ``model``, then that model's default from
    :meth:`set_default`, then the global default (constructor or ``set_default(None, ...)``),
    then :func:`schema_responder`. Scripting is thread-safe and may happen while the server
    runs.
    """

    def __init__(
        self,
        host: str = "127.0.0.1",
        port: int = 0,
        default: Reply | Responder | None = None,
    ) -> None:
        self.host = host
        self.port = port
        self.requests: list[RecordedRequest] = []
        self._initial_default = default
        self._global_default: Reply | Responder | None = default
        self._queues: dict[str, deque[Reply | Responder]] = {}
        self._model_defaults: dict[str, Reply | Responder] = {}
        self._known_models: dict[str, None] = {}  # an insertion-ordered set
        self._models_reply: Reply | None = None  # what GET /models answers instead of the list
        self._lock = threading.Lock()
        self._ids = itertools.count(1)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.Server | None = None
        self._connections: set[asyncio.Task[None]] = set()
        self._stalls = 0  # streams that sent their chunks and stalled (``stall_after_chunks``)
        self._stalled = threading.Condition(self._lock)
        self.batch = FakeBatchAPI(self)  # /v1/files and /v1/batches
        # A prompt cache to report (``report_prompt_cache``): per model and slot, the last prompt.
        self._cache_form: str | None = None
        self._cached_prompts: dict[tuple[str, Any], str] = {}

    # -- lifecycle -------------------------------------------------------------------------

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT/v1``, ready to pass as the openai client's ``base_url``."""
        if self._server is None:
            raise RuntimeError("FakeOpenAIServer.base_url is only known after start()")
        return f"http://{self.host}:{self.port}/v1"

    def start(self) -> FakeOpenAIServer:
        """Bind and serve in a background thread; returns once the socket is listening, so
        ``base_url`` can be used right away."""
        if self._thread is not None:
            raise RuntimeError("FakeOpenAIServer is already running")
        loop = asyncio.new_event_loop()
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            asyncio.set_event_loop(loop)
            try:
                self._server = loop.run_until_complete(
                    asyncio.start_server(
                        self._handle_connection,
                        self.host,
                        self.port,
                        backlog=1024,
                        limit=_MAX_HEADER_BYTES,
                    )
                )
            except BaseException as exc:  # handed to start(), which re-raises it
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.close()

        thread = threading.Thread(target=run, name="fake-openai-server", daemon=True)
        thread.start()
        ready.wait()
        if failure:
            thread.join()
            raise failure[0]
        assert self._server is not None
        self.port = self._server.sockets[0].getsockname()[1]
        self._loop = loop
        self._thread = thread
        return self

    def stop(self) -> None:
        """Close the listener and every connection, hanging and streaming ones included, and
        join the thread. Idempotent."""
        loop, thread = self._loop, self._thread
        if loop is None or thread is None:
            return
        try:
            asyncio.run_coroutine_threadsafe(self._shutdown(), loop).result(_STOP_TIMEOUT)
        finally:
            loop.call_soon_threadsafe(loop.stop)
            thread.join(_STOP_TIMEOUT)
            self._loop = self._thread = self._server = None

    async def _shutdown(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._connections):
            task.cancel()
        await asyncio.gather(*self._connections, return_exceptions=True)
        await self._server.wait_closed()

    def __enter__(self) -> FakeOpenAIServer:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    # -- scripting and inspection ----------------------------------------------------------

    def script(self, model: str, *replies: Reply | Responder) -> None:
        """Queue replies for ``model``; each chat request for that model pops the oldest."""
        with self._lock:
            self._queues.setdefault(model, deque()).extend(replies)
            self._known_models[model] = None

    def set_default(self, model: str | None, reply: Reply | Responder) -> None:
        """Set what ``model`` answers once its queue is empty; ``model=None`` sets the
        global default used for every model without one."""
        with self._lock:
            if model is None:
                self._global_default = reply
            else:
                self._model_defaults[model] = reply
                self._known_models[model] = None

    def report_prompt_cache(self, form: str | None) -> None:
        """Report, for each streamed reply, how many prompt tokens a prompt cache would have
        reused: those of the longest common prefix with the previous prompt of the same model
        and ``id_slot`` (4 characters a token, as the rest of the usage). ``form``: "openai"
        (``usage.prompt_tokens_details.cached_tokens``), "llamacpp" (a ``timings`` chunk with
        ``cache_n`` / ``prompt_n``, as llama.cpp's server sends), or None (say nothing, the
        default: most servers do not)."""
        if form not in (None, "openai", "llamacpp"):
            raise ValueError(f"unknown prompt cache form {form!r}")
        with self._lock:
            self._cache_form = form
            self._cached_prompts.clear()

    def _cache_figures(self, body: dict, usage: dict[str, Any]) -> tuple[str | None, int]:
        """(the form to report in, prompt tokens reused) for one request; remembers its prompt."""
        prompt = "".join(
            f"<{m.get('role')}>{_message_text(m.get('content'))}"
            for m in (body.get("messages") or [])
            if isinstance(m, dict)
        )
        key = (str(body.get("model")), body.get("id_slot"))
        with self._lock:
            form = self._cache_form
            previous = self._cached_prompts.get(key, "")
            self._cached_prompts[key] = prompt
        if form is None:
            return None, 0
        same = 0
        for a, b in zip(prompt, previous, strict=False):
            if a != b:
                break
            same += 1
        return form, min(same // 4, usage["prompt_tokens"])

    def _usage_chunks(self, body: dict, text: str, base: dict[str, Any], include_usage: bool) -> list[bytes]:
        """The closing chunks of a stream: usage when asked for, and the prompt cache's figures
        in the form ``report_prompt_cache`` chose."""
        usage: dict[str, Any] = _usage(body, text)
        form, cached = self._cache_figures(body, usage)
        chunks = []
        if form == "llamacpp":
            timings = {"cache_n": cached, "prompt_n": usage["prompt_tokens"] - cached}
            chunks.append(_sse_chunk({**base, "choices": [], "timings": timings}))
        elif form == "openai":
            usage["prompt_tokens_details"] = {"cached_tokens": cached}
        if include_usage:
            chunks.append(_sse_chunk({**base, "choices": [], "usage": usage}))
        return chunks

    def set_models_reply(self, reply: Reply | None) -> None:
        """Make ``GET /models`` answer ``reply`` (its ``status`` with a JSON error, or its
        ``raw`` body) instead of the model list; None restores the list."""
        with self._lock:
            self._models_reply = reply

    def answer_everything(self, reply: Reply) -> None:
        """Every request, chat and ``GET /models`` alike, answers ``reply``: a server that is
        not an OpenAI-compatible API at all, or a gateway refusing every key."""
        with self._lock:
            self._queues.clear()
            self._model_defaults.clear()
            self._global_default = reply
            self._models_reply = reply

    def chat_requests(self, model: str | None = None) -> list[dict]:
        """Bodies of the chat-completion requests received so far, oldest first, optionally
        only those for ``model``."""
        with self._lock:
            recorded = list(self.requests)
        return [
            request.body
            for request in recorded
            if request.body is not None
            and _is_chat_path(request.path)
            and (model is None or request.body.get("model") == model)
        ]

    def wait_for_stalls(self, count: int = 1, timeout: float = 60.0) -> bool:
        """Block until ``count`` streams have sent their chunks and stalled since the last
        :meth:`clear` (the bytes are then in the client's socket); False after ``timeout``."""
        with self._stalled:
            return self._stalled.wait_for(lambda: self._stalls >= count, timeout)

    def clear(self) -> None:
        """Back to the freshly constructed state: forget recorded requests, queued replies,
        per-model defaults and scripted model names, and restore the constructor's default.
        Lets one long-lived server be shared by many tests."""
        with self._lock:
            self.requests.clear()
            self._queues.clear()
            self._model_defaults.clear()
            self._known_models.clear()
            self._models_reply = None
            self._global_default = self._initial_default
            self._stalls = 0
            self._cache_form = None
            self._cached_prompts.clear()
        self.batch.clear()

    def _record(self, request: RecordedRequest) -> None:
        with self._lock:
            self.requests.append(request)

    def _select_reply(self, body: dict) -> Reply:
        model = body.get("model")
        with self._lock:
            queue = self._queues.get(model) if isinstance(model, str) else None
            if queue:
                choice: Reply | Responder = queue.popleft()
            elif isinstance(model, str) and model in self._model_defaults:
                choice = self._model_defaults[model]
            elif self._global_default is not None:
                choice = self._global_default
            else:
                choice = schema_responder
        if isinstance(choice, Reply):
            return choice
        reply = choice(body)
        if not isinstance(reply, Reply):
            raise TypeError(f"responder {choice!r} returned {type(reply).__name__}, not Reply")
        return reply

    def _model_ids(self) -> list[str]:
        with self._lock:
            known = list(self._known_models)
        return known + ([] if _DEFAULT_MODEL in known else [_DEFAULT_MODEL])

    def _next_id(self) -> int:
        return next(self._ids)

    # -- HTTP ------------------------------------------------------------------------------

    async def _handle_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._connections.add(task)
        aborted = False
        try:
            while True:
                try:
                    request = await _read_request(reader)
                except _BadRequest as exc:
                    writer.write(_json_response(exc.status, _error_payload(exc.status, str(exc)), False))
                    await writer.drain()
                    break
                if request is None or not await self._respond(request, reader, writer):
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.LimitOverrunError):
            aborted = True  # the client went away; nothing left to tell it
        except asyncio.CancelledError:
            # stop() cancels us. Not re-raised on purpose: Python 3.11's start_server calls
            # task.exception() on the finished handler task, which raises (and logs noise)
            # for a cancelled one.
            aborted = True
        finally:
            self._connections.discard(task)
            if aborted:
                writer.transport.abort()
            else:
                writer.close()  # flushes what was written, then FIN

    async def _respond(self, request: _HttpRequest, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        """Answer one request; returns whether the connection may serve another one."""
        body = _parse_json(request.body)
        self._record(
            RecordedRequest(request.method, request.path, request.headers, body if isinstance(body, dict) else None)
        )
        keep_alive = request.keep_alive
        if request.method == "POST" and _is_chat_path(request.path):
            if not isinstance(body, dict):
                message = "We could not parse the JSON body of your request."
                writer.write(_json_response(400, _error_payload(400, message), keep_alive))
            else:
                return await self._chat(body, keep_alive, reader, writer)
        elif self.batch.handles(request.path):
            with self._lock:
                status, payload, content_type = self.batch.answer(request)
            headers = {"content-type": content_type, "content-length": str(len(payload))}
            writer.write(_head(status, headers, keep_alive) + payload)
        elif request.method == "GET" and request.path.rstrip("/").endswith("/models") and self._models_reply:
            writer.write(_plain_response(self._models_reply, keep_alive))
        elif request.method == "GET" and request.path.rstrip("/").endswith("/models"):
            models = [
                {"id": model, "object": "model", "created": 0, "owned_by": "ragtui-fake"} for model in self._model_ids()
            ]
            writer.write(_json_response(200, {"object": "list", "data": models}, keep_alive))
        else:
            message = f"Invalid URL ({request.method} {request.path})"
            writer.write(_json_response(404, _error_payload(404, message, "unknown_url"), keep_alive))
        await writer.drain()
        return keep_alive

    async def _chat(
        self, body: dict, keep_alive: bool, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        try:
            reply = self._select_reply(body)
        except Exception as exc:  # a broken responder should fail the test loudly, not hang it
            message = f"fake server responder failed: {exc!r}"
            writer.write(_json_response(500, _error_payload(500, message), keep_alive))
            await writer.drain()
            return keep_alive
        if reply.hang:
            # Never answer. Waiting for the client's EOF rather than forever releases the
            # connection once the client gives up, so a long-lived server does not pile up
            # hung handlers; stop() cancels this wait too.
            while await reader.read(65536):
                pass
            return False
        if reply.gate is not None:
            await reply.gate._hold()
        if reply.delay_first > 0:
            await asyncio.sleep(reply.delay_first)
        if reply.raw is not None or reply.status != 200:
            writer.write(_plain_response(reply, keep_alive))
            await writer.drain()
            return keep_alive
        if body.get("stream"):
            completed = await self._stream(body, reply, keep_alive, reader, writer)
            return keep_alive and completed
        if reply.cut_after_chunks is not None:
            return False  # drop the connection without a response
        completion = completion_body(body, reply, f"chatcmpl-fake{self._next_id()}")
        writer.write(_json_response(200, completion, keep_alive, reply.headers))
        await writer.drain()
        return keep_alive

    async def _stream(
        self, body: dict, reply: Reply, keep_alive: bool, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
    ) -> bool:
        """Send ``reply`` as OpenAI's SSE stream; returns False when it was cut on purpose."""
        stream_options = body.get("stream_options")
        include_usage = isinstance(stream_options, dict) and bool(stream_options.get("include_usage"))
        base = {
            "id": f"chatcmpl-fake{self._next_id()}",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": reply.model or str(body.get("model", _DEFAULT_MODEL)),
            "system_fingerprint": "fp_fake",
        }

        # Every chunk shares everything but its delta and finish_reason, so the JSON around
        # them is serialized once per stream: this is the server's hot loop in benchmarks.
        usage_field = b', "usage": null' if include_usage else b""
        prefix = b"data: " + json.dumps({**base, "choices": []})[:-3].encode() + b'[{"index": 0, "delta": '
        suffix = b"}]" + usage_field + b"}\n\n"

        def event(delta: dict[str, Any], finish_reason: str | None = None) -> bytes:
            middle = b', "logprobs": null, "finish_reason": ' + json.dumps(finish_reason).encode()
            return _chunk(prefix + json.dumps(delta).encode() + middle + suffix)

        headers = {
            "content-type": "text/event-stream; charset=utf-8",
            "transfer-encoding": "chunked",
            "cache-control": "no-cache",
        }
        # Buffered and written in as few calls as delays and cuts allow: a single send per
        # stream when neither is asked for.
        pending = [_head(200, headers, keep_alive, reply.headers), event({"role": "assistant", "content": ""})]

        async def flush() -> None:
            writer.write(b"".join(pending))
            pending.clear()
            await writer.drain()

        if reply.logprobs is not None:
            return await self._stream_tokens(body, reply, base, pending, flush, include_usage)
        pieces = _split(reply.text, reply.chunk_chars)
        for index, piece in enumerate(pieces):
            if reply.cut_after_chunks is not None and index >= reply.cut_after_chunks:
                await flush()
                return False
            if reply.stall_after_chunks is not None and index >= reply.stall_after_chunks:
                await flush()
                await self._stall(reader)
                return False
            if reply.malformed_after_chunks is not None and index >= reply.malformed_after_chunks:
                break
            if index and reply.delay_per_chunk > 0:
                await flush()
                await asyncio.sleep(reply.delay_per_chunk)
            pending.append(event({"content": piece}))
        if reply.cut_after_chunks is not None:  # asked to cut after at least every content chunk
            await flush()
            return False
        if reply.malformed_after_chunks is not None:
            pending.append(_chunk(b'data: {"choices": [{"delta": {"content": "tru\n\n') + b"0\r\n\r\n")
            await flush()
            return keep_alive
        if reply.unfinished:
            pending.append(b"0\r\n\r\n")
            await flush()
            return keep_alive
        pending.append(event({}, reply.finish_reason))
        if reply.extra:
            pending.append(_sse_chunk({**base, "choices": [], **reply.extra}))
        pending.extend(self._usage_chunks(body, reply.text, base, include_usage))
        # [DONE] and the terminating chunk go out with the rest: the async openai client
        # drains the body after [DONE] to reuse the connection, and must not wait for it.
        pending.append(_chunk(b"data: [DONE]\n\n") + b"0\r\n\r\n")
        await flush()
        return True

    async def _stall(self, reader: asyncio.StreamReader) -> None:
        """Send nothing more; wait for the client to close (stop() cancels the wait too)."""
        with self._stalled:
            self._stalls += 1
            self._stalled.notify_all()
        while await reader.read(65536):
            pass

    async def _stream_tokens(
        self,
        body: dict,
        reply: Reply,
        base: dict[str, Any],
        pending: list[bytes],
        flush: Callable[[], Any],
        include_usage: bool,
    ) -> bool:
        """One chunk per token, each with its alternatives when the request asked for them."""
        wants = bool(body.get("logprobs"))
        for index, (token, top) in enumerate(reply.logprobs or []):
            if reply.cut_after_chunks is not None and index >= reply.cut_after_chunks:
                await flush()
                return False
            choice: dict[str, Any] = {"index": 0, "delta": {"content": token}, "logprobs": None, "finish_reason": None}
            chunk: dict[str, Any] = {**base, "choices": [choice]}
            if wants and reply.logprobs_shape == "openai":
                choice["logprobs"] = _openai_logprobs([(token, top)])
            elif wants:
                chunk["completion_probabilities"] = _llamacpp_probs([(token, top)])
            pending.append(_sse_chunk(chunk))
        pending.append(
            _sse_chunk({**base, "choices": [{"index": 0, "delta": {}, "finish_reason": reply.finish_reason}]})
        )
        pending.extend(self._usage_chunks(body, _reply_text(reply), base, include_usage))
        pending.append(_chunk(b"data: [DONE]\n\n") + b"0\r\n\r\n")
        await flush()
        return True


def completion_body(body: dict, reply: Reply, completion_id: str) -> dict[str, Any]:
    """A whole (non-streamed) chat completion answering ``body`` with ``reply``: what the chat
    endpoint sends without ``stream`` and what a Batch API result carries, log-probabilities
    (in ``reply.logprobs_shape``) included when the request asks for them."""
    text = _reply_text(reply)
    wants = bool(body.get("logprobs")) and reply.logprobs is not None
    completion = {
        "id": completion_id,
        "object": "chat.completion",
        "created": int(time.time()),
        "model": reply.model or str(body.get("model", _DEFAULT_MODEL)),
        "system_fingerprint": "fp_fake",
        "choices": [
            {
                "index": 0,
                "message": {"role": "assistant", "content": text, "refusal": None},
                "logprobs": _openai_logprobs(reply.logprobs or [])
                if wants and reply.logprobs_shape == "openai"
                else None,
                "finish_reason": reply.finish_reason,
            }
        ],
        "usage": _usage(body, text),
        **reply.extra,
    }
    if wants and reply.logprobs_shape == "llamacpp":
        completion["completion_probabilities"] = _llamacpp_probs(reply.logprobs or [])
    return completion


def _reply_text(reply: Reply) -> str:
    return "".join(token for token, _ in reply.logprobs) if reply.logprobs is not None else reply.text


def _openai_logprobs(tokens: list[tuple[str, dict[str, float]]]) -> dict[str, Any]:
    def entry(token: str, logprob: float) -> dict[str, Any]:
        return {"token": token, "logprob": logprob, "bytes": list(token.encode())}

    return {
        "content": [
            {
                **entry(token, top.get(token, -9999.0)),
                "top_logprobs": [entry(t, lp) for t, lp in sorted(top.items(), key=lambda kv: -kv[1])],
            }
            for token, top in tokens
        ],
        "refusal": None,
    }


def _llamacpp_probs(tokens: list[tuple[str, dict[str, float]]]) -> list[dict[str, Any]]:
    return [
        {
            "content": token,
            "probs": [{"tok_str": t, "prob": math.exp(lp)} for t, lp in sorted(top.items(), key=lambda kv: -kv[1])],
        }
        for token, top in tokens
    ]


# -- HTTP/1.1 wire format ----------------------------------------------------------------


async def _read_request(reader: asyncio.StreamReader) -> _HttpRequest | None:
    """Read one request; None on a clean end of stream between requests."""
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except asyncio.IncompleteReadError as exc:
        if exc.partial.strip():
            raise _BadRequest(400, "incomplete request head") from exc
        return None
    except asyncio.LimitOverrunError as exc:
        raise _BadRequest(431, "request header fields too large") from exc
    lines = head.decode("latin-1").strip("\r\n").split("\r\n")
    try:
        method, target, version = lines[0].split(" ", 2)
    except ValueError as exc:
        raise _BadRequest(400, f"malformed request line {lines[0]!r}") from exc
    if version not in ("HTTP/1.1", "HTTP/1.0"):
        raise _BadRequest(505, f"unsupported protocol {version!r}")
    headers: dict[str, str] = {}
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not name.strip():
            raise _BadRequest(400, f"malformed header line {line!r}")
        name, value = name.strip().lower(), value.strip()
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    body = await _read_body(reader, headers)
    return _HttpRequest(method.upper(), target.split("?", 1)[0], version, headers, body)


async def _read_body(reader: asyncio.StreamReader, headers: dict[str, str]) -> bytes:
    if "chunked" in headers.get("transfer-encoding", "").lower():
        parts: list[bytes] = []
        total = 0
        while True:
            size_line = await reader.readuntil(b"\r\n")
            try:
                size = int(size_line.split(b";", 1)[0].strip(), 16)
            except ValueError as exc:
                raise _BadRequest(400, "malformed chunk size") from exc
            if size == 0:
                while (await reader.readuntil(b"\r\n")) != b"\r\n":
                    pass  # skip trailer fields
                return b"".join(parts)
            total += size
            if total > _MAX_BODY_BYTES:
                raise _BadRequest(413, "request body too large")
            parts.append((await reader.readexactly(size + 2))[:-2])
    length_text = headers.get("content-length")
    if not length_text:
        return b""
    try:
        length = int(length_text)
    except ValueError as exc:
        raise _BadRequest(400, f"invalid content-length {length_text!r}") from exc
    if length < 0 or length > _MAX_BODY_BYTES:
        raise _BadRequest(413 if length > 0 else 400, f"unacceptable content-length {length}")
    return await reader.readexactly(length)


def _head(status: int, headers: dict[str, str], keep_alive: bool, extra: dict[str, str] | None = None) -> bytes:
    try:
        reason = http.HTTPStatus(status).phrase
    except ValueError:
        reason = "Unknown"
    merged = {
        "server": "ragtui-fake-openai",
        "connection": "keep-alive" if keep_alive else "close",
        **headers,
    }
    for name, value in (extra or {}).items():
        merged[name.lower()] = value
    lines = [f"HTTP/1.1 {status} {reason}", *(f"{name}: {value}" for name, value in merged.items())]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _json_response(
    status: int, payload: dict[str, Any], keep_alive: bool, extra: dict[str, str] | None = None
) -> bytes:
    data = json.dumps(payload).encode()
    headers = {"content-type": "application/json", "content-length": str(len(data))}
    return _head(status, headers, keep_alive, extra) + data


def _plain_response(reply: Reply, keep_alive: bool) -> bytes:
    """A reply that is no stream: its ``raw`` body, else OpenAI's JSON error for its status."""
    if reply.raw is None:
        return _json_response(
            reply.status, _error_payload(reply.status, reply.error_message), keep_alive, reply.headers
        )
    data = reply.raw.encode()
    headers = {"content-type": reply.content_type, "content-length": str(len(data))}
    return _head(reply.status, headers, keep_alive, reply.headers) + data


def _chunk(data: bytes) -> bytes:
    return b"%x\r\n%s\r\n" % (len(data), data)


def _sse_chunk(payload: dict[str, Any]) -> bytes:
    return _chunk(b"data: " + json.dumps(payload).encode() + b"\n\n")


def _error_payload(status: int, message: str, code: str | None = None) -> dict[str, Any]:
    """OpenAI's error body; ``type``/``code`` follow what the real API sends per status."""
    if status == 429:
        error_type, default_code = "requests", "rate_limit_exceeded"
    elif status >= 500:
        error_type, default_code = "server_error", None
    elif status == 401:
        error_type, default_code = "invalid_request_error", "invalid_api_key"
    else:
        error_type, default_code = "invalid_request_error", None
    return {"error": {"message": message, "type": error_type, "param": None, "code": code or default_code}}


def _parse_json(data: bytes) -> Any:
    if not data:
        return None
    try:
        return json.loads(data)
    except ValueError:
        return None


def _is_chat_path(path: str) -> bool:
    return path.rstrip("/").endswith("/chat/completions")


def _split(text: str, size: int) -> list[str]:
    size = max(1, size)
    return [text[start : start + size] for start in range(0, len(text), size)]


# -- token accounting ------------------------------------------------------------------------


def _approx_tokens(chars: int) -> int:
    return math.ceil(chars / 4)


def _message_text(content: Any) -> str:
    """Text of a message's ``content``: a string, or a list of parts of which text parts count."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part["text"] for part in content if isinstance(part, dict) and isinstance(part.get("text"), str))
    return ""


def _usage(body: dict, completion: str) -> dict[str, Any]:
    messages = body.get("messages")
    prompt_chars = sum(
        len(_message_text(message.get("content")))
        for message in (messages if isinstance(messages, list) else [])
        if isinstance(message, dict)
    )
    prompt_tokens = _approx_tokens(prompt_chars)
    completion_tokens = _approx_tokens(len(completion))
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


# -- schema-driven replies -------------------------------------------------------------------


def level_reply(distribution: dict[str, float], shape: str = "openai", **options: Any) -> Reply:
    """A one-token reply to a level question: the likeliest token, with every token of
    ``distribution`` (token → probability) as its alternatives, as a judge with logprobs sends."""
    token = max(distribution, key=lambda t: distribution[t])
    top = {t: math.log(p) for t, p in distribution.items() if p > 0}
    return Reply(logprobs=[(token, top)], logprobs_shape=shape, **options)


def schema_responder(body: dict) -> Reply:
    """A plausible reply for any request, so full dialogues run without scripting.

    With ``response_format`` of type ``json_schema`` the text is a JSON instance valid for
    that schema (see :func:`_example_for_schema`); with ``json_object`` it is ``{"ok": true}``;
    otherwise a short sentence that echoes the start of the last user message, which keeps
    transcripts distinguishable in tests.
    """
    response_format = body.get("response_format")
    if isinstance(response_format, dict):
        if response_format.get("type") == "json_schema":
            spec = response_format.get("json_schema")
            schema = spec.get("schema") if isinstance(spec, dict) else None
            return Reply(text=json.dumps(_example_for_schema(schema if isinstance(schema, dict) else {})))
        if response_format.get("type") == "json_object":
            return Reply(text='{"ok": true}')
    last_user = ""
    messages = body.get("messages")
    for message in messages if isinstance(messages, list) else []:
        if isinstance(message, dict) and message.get("role") == "user":
            last_user = _message_text(message.get("content"))
    snippet = " ".join(last_user.split())[:40]
    return Reply(text=f"Reply to: {snippet}" if snippet else "ok")


def demo_responder(body: dict) -> Reply:
    """:func:`schema_responder`, plus answers to one-token level questions (a judge's yes/no or
    digit checks asking for logprobs), so a demo run against the standalone server is scored.

    The answer's distribution is a deterministic function of the request's messages: the same
    turn gets the same score every time, different turns different ones. It means nothing about
    the reply's quality — it only lets every screen and report show scores."""
    wants_level = bool(body.get("logprobs")) and (body.get("max_tokens") or body.get("max_completion_tokens")) == 1
    if not wants_level:
        return schema_responder(body)
    text = json.dumps(body.get("messages"), ensure_ascii=False, sort_keys=True)
    seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")
    asked = text.lower()
    if "はい" in asked:
        labels = ["はい", "いいえ"]
    elif "yes" in asked:
        labels = ["yes", "no"]
    else:
        labels = [str(level) for level in range(6)]
    if len(labels) == 2:
        p_first = 0.35 + 0.6 * (seed % 1000) / 1000  # P(yes) between 0.35 and 0.95
        weights = [p_first, 1.0 - p_first]
    else:
        peak = 2 + seed % 4  # a level from 2 to 5, with some mass on its neighbours
        weights = [0.7 if level == peak else 0.3 / 5 for level in range(6)]
    top = {label: math.log(weight) for label, weight in zip(labels, weights, strict=True)}
    return Reply(logprobs=[(max(top, key=top.__getitem__), top)])


_STRING_FORMATS = {
    "date-time": "2024-01-01T00:00:00Z",
    "date": "2024-01-01",
    "time": "00:00:00Z",
    "email": "ok@example.com",
    "uri": "https://example.com/",
    "uuid": "00000000-0000-4000-8000-000000000000",
}


def _example_for_schema(schema: dict[str, Any]) -> Any:
    """A JSON value valid for ``schema`` (the subset of JSON Schema that structured-output
    schemas use: types, properties/required, enum/const, anyOf/oneOf/allOf, local $ref,
    string/number/array bounds). Integer enums yield their maximum so that score-like fields
    read as "best"; every other choice is the first or smallest valid one."""
    return _example(schema, schema, 0)


def _example(schema: Any, root: dict[str, Any], depth: int) -> Any:
    if depth > _SCHEMA_MAX_DEPTH:
        return None
    schema = _resolve_ref(schema, root)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return _pick_enum(schema["enum"])
    for key in ("anyOf", "oneOf"):
        options = schema.get(key)
        if isinstance(options, list) and options:
            non_null = [option for option in options if _resolve_ref(option, root).get("type") != "null"]
            return _example((non_null or options)[0], root, depth + 1)
    if isinstance(schema.get("allOf"), list):
        merged: dict[str, Any] = {key: value for key, value in schema.items() if key != "allOf"}
        for part in schema["allOf"]:
            part = _resolve_ref(part, root)
            merged["properties"] = {**merged.get("properties", {}), **part.get("properties", {})}
            merged["required"] = [*merged.get("required", []), *part.get("required", [])]
            merged.update({key: value for key, value in part.items() if key not in ("properties", "required")})
        return _example(merged, root, depth + 1)

    schema_type = schema.get("type")
    if isinstance(schema_type, list):
        schema_type = next((name for name in schema_type if name != "null"), "null")
    if schema_type is None:
        schema_type = "object" if "properties" in schema else "array" if "items" in schema else "string"

    if schema_type == "object":
        properties = schema.get("properties") or {}
        required = schema.get("required") or []
        names = list(properties) if depth < _SCHEMA_OPTIONAL_DEPTH else [n for n in properties if n in required]
        value = {name: _example(properties[name], root, depth + 1) for name in names}
        value.update({name: "ok" for name in required if name not in value})
        return value
    if schema_type == "array":
        min_items = int(schema.get("minItems", 0))
        count = max(1, min_items) if depth < _SCHEMA_OPTIONAL_DEPTH else min_items
        if "maxItems" in schema:
            count = min(count, int(schema["maxItems"]))
        prefix = schema.get("prefixItems") or []
        items = schema.get("items") if isinstance(schema.get("items"), dict) else {}
        return [_example(prefix[i] if i < len(prefix) else items, root, depth + 1) for i in range(count)]
    if schema_type in ("integer", "number"):
        return _number(schema, integer=schema_type == "integer")
    if schema_type == "boolean":
        return True
    if schema_type == "null":
        return None
    return _string(schema)


def _resolve_ref(schema: Any, root: dict[str, Any]) -> dict[str, Any]:
    """Follow local ``$ref`` pointers (``#/$defs/X``, ``#/definitions/X``), keeping sibling
    keywords of the reference; unknown or remote references resolve to "anything"."""
    for _ in range(32):
        if not isinstance(schema, dict):
            return {}
        ref = schema.get("$ref")
        if not isinstance(ref, str):
            return schema
        target: Any = root
        if not ref.startswith("#"):
            return {}
        for token in ref[1:].split("/"):
            if token:
                token = token.replace("~1", "/").replace("~0", "~")
                target = target.get(token) if isinstance(target, dict) else None
        if not isinstance(target, dict):
            return {}
        schema = {**target, **{key: value for key, value in schema.items() if key != "$ref"}}
    return {}


def _pick_enum(values: Any) -> Any:
    if not isinstance(values, list) or not values:
        return None
    if all(isinstance(value, int) and not isinstance(value, bool) for value in values):
        return max(values)
    return values[0]


def _number(schema: dict[str, Any], *, integer: bool) -> int | float:
    value = schema.get("minimum")
    if value is None and isinstance(schema.get("exclusiveMinimum"), (int, float)):
        value = schema["exclusiveMinimum"] + 1
    if value is None:
        value = 1
    maximum = schema.get("maximum")
    if isinstance(maximum, (int, float)) and value > maximum:
        value = maximum
    exclusive_maximum = schema.get("exclusiveMaximum")
    if isinstance(exclusive_maximum, (int, float)) and value >= exclusive_maximum:
        value = exclusive_maximum - 1
    return math.ceil(value) if integer else value


def _string(schema: dict[str, Any]) -> str:
    text = _STRING_FORMATS.get(schema.get("format", ""), "ok")
    min_length = int(schema.get("minLength", 0))
    while len(text) < min_length:
        text += " ok"
    if "maxLength" in schema:
        text = text[: int(schema["maxLength"])]
    return text


# -- the Batch API ---------------------------------------------------------------------------


class FakeBatchAPI:
    """OpenAI's Batch API on the fake server: ``POST /v1/files`` (multipart, purpose "batch"),
    ``GET /v1/files/{id}/content``, ``POST /v1/batches`` and ``GET /v1/batches/{id}``.

    Each request line is answered by the server's usual reply selection (scripts, defaults,
    schema replies), non-streamed; a scripted error status becomes a line of the error file, as
    the real API does. Knobs for the failure modes: ``polls_before_done`` (how many retrievals
    report ``in_progress`` first), ``expire_after`` (only that many requests run, the batch
    ``expired`` and the rest are in the error file as ``batch_expired``), ``validation_error``
    (the batch ``failed`` before running anything). ``bodies`` are the request bodies it ran.
    A result's completion is the one the chat endpoint sends unstreamed, so a request asking for
    ``logprobs`` gets the reply's log-probabilities, as from the streaming endpoint.
    Called under the server's lock.
    """

    def __init__(self, server: FakeOpenAIServer) -> None:
        self.server = server
        self.clear()

    def clear(self) -> None:
        self.files: dict[str, dict[str, Any]] = {}
        self.batches: dict[str, dict[str, Any]] = {}
        self.bodies: list[dict[str, Any]] = []
        self.polls_before_done = 1
        self.expire_after: int | None = None
        self.validation_error: str | None = None
        self._polls: dict[str, int] = {}

    @staticmethod
    def handles(path: str) -> bool:
        parts = path.strip("/").split("/")
        return "files" in parts or "batches" in parts

    def answer(self, request: _HttpRequest) -> tuple[int, bytes, str]:
        parts = request.path.strip("/").split("/")
        try:
            if request.method == "POST" and parts[-1] == "files":
                return self._json(200, self._upload(request))
            if request.method == "GET" and len(parts) >= 3 and parts[-3] == "files" and parts[-1] == "content":
                stored = self.files.get(parts[-2])
                if stored is None:
                    return self._json(404, _error_payload(404, f"No such File object: {parts[-2]}"))
                return 200, stored["content"], "application/octet-stream"
            if request.method == "POST" and parts[-1] == "batches":
                return self._json(200, self._create(_parse_json(request.body)))
            if request.method == "GET" and len(parts) >= 2 and parts[-2] == "batches":
                batch = self.batches.get(parts[-1])
                if batch is None:
                    return self._json(404, _error_payload(404, f"No such batch: {parts[-1]}"))
                return self._json(200, self._advance(batch))
        except ValueError as exc:
            return self._json(400, _error_payload(400, str(exc)))
        return self._json(404, _error_payload(404, f"Invalid URL ({request.method} {request.path})", "unknown_url"))

    @staticmethod
    def _json(status: int, payload: dict[str, Any]) -> tuple[int, bytes, str]:
        return status, json.dumps(payload).encode(), "application/json"

    def _new_id(self, prefix: str) -> str:
        return f"{prefix}-fake{self.server._next_id()}"

    def _store_file(self, content: bytes, filename: str, purpose: str) -> dict[str, Any]:
        file_id = self._new_id("file")
        meta = {
            "id": file_id,
            "object": "file",
            "bytes": len(content),
            "created_at": int(time.time()),
            "filename": filename,
            "purpose": purpose,
            "status": "processed",
        }
        self.files[file_id] = {**meta, "content": content}
        return meta

    def _upload(self, request: _HttpRequest) -> dict[str, Any]:
        content_type = request.headers.get("content-type", "")
        if "multipart/form-data" not in content_type:
            raise ValueError("files must be uploaded as multipart/form-data")
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + request.body
        )
        fields: dict[str, Any] = {}
        filename = "upload.jsonl"
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            given = part.get_filename()
            if given:
                filename = given
            fields[str(name)] = part.get_payload(decode=True)
        if "file" not in fields or fields.get("purpose") != b"batch":
            raise ValueError("expected a 'file' part and purpose 'batch'")
        return self._store_file(fields["file"], filename, "batch")

    def _create(self, body: Any) -> dict[str, Any]:
        if not isinstance(body, dict) or body.get("input_file_id") not in self.files:
            raise ValueError("input_file_id does not name an uploaded file")
        if body.get("endpoint") != "/v1/chat/completions":
            raise ValueError("only /v1/chat/completions batches are supported")
        batch = {
            "id": self._new_id("batch"),
            "object": "batch",
            "endpoint": body["endpoint"],
            "errors": None,
            "input_file_id": body["input_file_id"],
            "completion_window": body.get("completion_window", "24h"),
            "status": "validating",
            "output_file_id": None,
            "error_file_id": None,
            "created_at": int(time.time()),
            "request_counts": {"total": 0, "completed": 0, "failed": 0},
            "metadata": body.get("metadata"),
        }
        self.batches[batch["id"]] = batch
        self._polls[batch["id"]] = 0
        return batch

    def _advance(self, batch: dict[str, Any]) -> dict[str, Any]:
        """Each retrieval moves the batch on: validating → in_progress (× polls) → done."""
        if batch["status"] in ("completed", "expired", "failed", "cancelled"):
            return batch
        if self.validation_error is not None:
            batch["status"] = "failed"
            batch["errors"] = {
                "object": "list",
                "data": [{"code": "invalid_request", "message": self.validation_error, "line": 1}],
            }
            return batch
        lines = [line for line in self.files[batch["input_file_id"]]["content"].decode().splitlines() if line.strip()]
        batch["request_counts"]["total"] = len(lines)
        self._polls[batch["id"]] += 1
        if self._polls[batch["id"]] <= self.polls_before_done:
            batch["status"] = "in_progress"
            return batch
        self._run(batch, [json.loads(line) for line in lines])
        return batch

    def _run(self, batch: dict[str, Any], requests: list[dict[str, Any]]) -> None:
        output: list[dict[str, Any]] = []
        errors: list[dict[str, Any]] = []
        for index, line in enumerate(requests):
            custom_id = line.get("custom_id")
            if self.expire_after is not None and index >= self.expire_after:
                message = "This request could not be executed before the completion window expired."
                errors.append(
                    {
                        "id": self._new_id("batch_req"),
                        "custom_id": custom_id,
                        "response": None,
                        "error": {"code": "batch_expired", "message": message},
                    }
                )
                continue
            body = line.get("body") or {}
            self.bodies.append(body)
            reply = self._reply(body)
            if reply.status != 200:
                response = {
                    "status_code": reply.status,
                    "request_id": "req-fake",
                    "body": _error_payload(reply.status, reply.error_message),
                }
                errors.append(
                    {"id": self._new_id("batch_req"), "custom_id": custom_id, "response": response, "error": None}
                )
                continue
            # The same completion the chat endpoint sends unstreamed, log-probabilities included.
            completion = completion_body(body, reply, f"chatcmpl-fake{self.server._next_id()}")
            response = {"status_code": 200, "request_id": "req-fake", "body": completion}
            output.append(
                {"id": self._new_id("batch_req"), "custom_id": custom_id, "response": response, "error": None}
            )
        failed = sum(1 for e in errors if e["error"] is None)
        batch["request_counts"] = {"total": len(requests), "completed": len(output), "failed": failed}
        batch["status"] = (
            "expired" if self.expire_after is not None and len(requests) > self.expire_after else "completed"
        )
        if output:
            text = "".join(json.dumps(o) + "\n" for o in output).encode()
            batch["output_file_id"] = self._store_file(text, "output.jsonl", "batch_output")["id"]
        if errors:
            text = "".join(json.dumps(e) + "\n" for e in errors).encode()
            batch["error_file_id"] = self._store_file(text, "errors.jsonl", "batch_output")["id"]

    def _reply(self, body: dict[str, Any]) -> Reply:
        """``_select_reply`` without taking the server's lock, which the caller holds."""
        model = body.get("model")
        queue = self.server._queues.get(model) if isinstance(model, str) else None
        if queue:
            choice: Reply | Responder = queue.popleft()
        elif isinstance(model, str) and model in self.server._model_defaults:
            choice = self.server._model_defaults[model]
        elif self.server._global_default is not None:
            choice = self.server._global_default
        else:
            choice = schema_responder
        return choice if isinstance(choice, Reply) else choice(body)


# -- command line ------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> None:
    """Serve :func:`demo_responder` replies until Ctrl-C, for manual runs of ragtui and
    for benchmarks that need a process-level endpoint."""
    parser = argparse.ArgumentParser(
        prog="python -m stand_ins.fake_openai",
        description="Fake OpenAI-compatible chat server (schema-aware replies).",
    )
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds before each response's first byte")
    args = parser.parse_args(argv)

    def responder(body: dict) -> Reply:
        return dataclasses.replace(demo_responder(body), delay_first=args.latency)

    server = FakeOpenAIServer(args.host, args.port, default=responder).start()
    print(server.base_url, flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()


if __name__ == "__main__":
    main()
