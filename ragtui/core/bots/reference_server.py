"""``ragtui serve-bot``: the built-in RAG bot as an HTTP service with a small, documented contract.

It is the working example the README points to, and a real HTTP service for tests, demos and
the benchmark to run ragtui's HTTP adapter against.

Contract (JSON, UTF-8)::

    POST /chat   {"question": str, "history": [{"role": "user"|"assistant", "content": str}],
                  "session_id": str, "stream": bool}
      200  {"answer": str, "passages": [{"title": str, "text": str, "source": str}], "model": str}
      with "stream": true or /chat?stream=1, server-sent events instead:
           data: {"delta": "..."}                       one per piece of the answer
           data: {"answer": ..., "passages": [...], "model": ...}
           data: [DONE]
      400  {"error": ...} bad JSON or missing question; 502 {"error": ...} the bot's model failed
    GET /health  {"status": "ok"}

``history`` holds the turns before ``question``; ``session_id`` is accepted and ignored (the
reference bot is stateless). Stdlib asyncio with a minimal HTTP/1.1 parser (keep-alive,
Content-Length bodies, chunked responses), because ragtui must not pull in a web framework.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
from collections.abc import Callable
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

from ..config.settings import Config
from ..content.prompts import PromptSet
from ..knowledge.index import KnowledgeBase
from ..models.endpoints import Endpoint
from ..models.llm import ClientPool
from ..types.errors import RagtuiError
from ..types.turns import Utterance
from .base import Bot
from .builtin_rag import BuiltinRagBot
from .mapping import passages_to_json

log = logging.getLogger("ragtui")
MAX_HEAD_BYTES = 64 * 1024
MAX_BODY_BYTES = 1024 * 1024
SPEAKERS = {"user": "user", "assistant": "bot", "bot": "bot"}


class BadRequest(Exception):
    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


class ReferenceServer:
    """Serves ``bot`` (built on the server's own loop by ``bot_factory``) on ``host:port``."""

    def __init__(self, bot_factory: Callable[[], Bot], host: str = "127.0.0.1", port: int = 0) -> None:
        self.bot_factory = bot_factory
        self.host, self.port = host, port
        self.bot: Bot | None = None
        self._server: asyncio.Server | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._stopped: asyncio.Event | None = None

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}/chat"

    async def open(self) -> None:
        """Build the bot and start listening on the running loop; ``port`` is then the real one."""
        self.bot = self.bot_factory()
        self._server = await asyncio.start_server(self._connection, self.host, self.port, limit=MAX_HEAD_BYTES)
        self.port = self._server.sockets[0].getsockname()[1]
        self._stopped = asyncio.Event()

    async def serve_until_stopped(self) -> None:
        assert self._server is not None and self._stopped is not None
        try:
            await self._stopped.wait()
        finally:
            await self.close()

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        aclose = getattr(self.bot, "aclose", None)
        if aclose is not None:
            await aclose()

    # -- in a thread, for tests ------------------------------------------------------------

    def start(self) -> ReferenceServer:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            async def main() -> None:
                try:
                    await self.open()
                except BaseException as exc:
                    failure.append(exc)
                    ready.set()
                    return
                self._loop = asyncio.get_running_loop()
                ready.set()
                await self.serve_until_stopped()

            asyncio.run(main())

        self._thread = threading.Thread(target=run, name="ragtui-reference-bot", daemon=True)
        self._thread.start()
        ready.wait()
        if failure:
            raise failure[0]
        return self

    def stop(self) -> None:
        if self._loop is not None and self._stopped is not None:
            self._loop.call_soon_threadsafe(self._stopped.set)
        if self._thread is not None:
            self._thread.join(5)
        self._loop = self._thread = None

    def __enter__(self) -> ReferenceServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP ------------------------------------------------------------------------------

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                try:
                    head = await reader.readuntil(b"\r\n\r\n")
                except (asyncio.IncompleteReadError, asyncio.LimitOverrunError):
                    return
                keep_alive = await self._request(head, reader, writer)
                if not keep_alive:
                    return
        except (ConnectionError, asyncio.IncompleteReadError):
            pass  # the client went away
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _request(self, head: bytes, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> bool:
        try:
            method, target, version, headers = _parse_head(head)
        except BadRequest as exc:
            _respond(writer, exc.status, {"error": str(exc)}, keep_alive=False)
            await writer.drain()
            return False
        keep_alive = version == "HTTP/1.1" and headers.get("connection", "").lower() != "close"
        length = headers.get("content-length", "0")
        if not length.isdigit() or int(length) > MAX_BODY_BYTES or "transfer-encoding" in headers:
            _respond(writer, 413, {"error": f"send a JSON body of at most {MAX_BODY_BYTES} bytes"}, keep_alive=False)
            await writer.drain()
            return False
        body = await reader.readexactly(int(length))
        url = urlsplit(target)
        try:
            if url.path == "/health" and method == "GET":
                _respond(writer, 200, {"status": "ok"}, keep_alive)
            elif url.path == "/chat" and method == "POST":
                request = _parse_chat(body)
                stream = bool(request.get("stream")) or parse_qs(url.query).get("stream", ["0"])[0] in ("1", "true")
                if stream:
                    return await self._stream(request, writer)
                answer = await self._answer(request, None)
                _respond(writer, 200, answer, keep_alive)
            elif url.path in ("/chat", "/health"):
                _respond(writer, 405, {"error": f"{method} is not allowed on {url.path}"}, keep_alive)
            else:
                _respond(writer, 404, {"error": f"no route {url.path}; POST /chat or GET /health"}, keep_alive)
        except BadRequest as exc:
            _respond(writer, exc.status, {"error": str(exc)}, keep_alive)
        await writer.drain()
        return keep_alive

    async def _answer(self, request: dict[str, Any], on_delta: Callable[[str], None] | None) -> dict[str, Any]:
        assert self.bot is not None
        history = [*request["history"], Utterance("user", request["question"])]
        try:
            answer = await self.bot.answer(history, on_delta=on_delta)
        except RagtuiError as exc:
            raise BadRequest(502, str(exc)) from None
        except Exception as exc:
            log.exception("reference bot failed")
            raise BadRequest(500, f"internal error: {type(exc).__name__}") from None
        return {"answer": answer.text, "passages": passages_to_json(answer.passages), "model": answer.usage.model}

    async def _stream(self, request: dict[str, Any], writer: asyncio.StreamWriter) -> bool:
        """SSE over a chunked response. A failure after the first byte aborts the connection,
        so a client can never take half an answer for a whole one."""
        writer.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream; charset=utf-8\r\n"
            b"Cache-Control: no-cache\r\nTransfer-Encoding: chunked\r\n\r\n"
        )
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(self._answer(request, queue.put_nowait))
        task.add_done_callback(lambda _t: queue.put_nowait(None))
        try:
            ended = False
            while not ended:
                # Every delta that arrived while the last write drained goes out in one write:
                # fewer syscalls and wake-ups on both sides when the model is fast.
                pieces = [await queue.get()]
                while not queue.empty():
                    pieces.append(queue.get_nowait())
                ended = pieces[-1] is None
                events = b"".join(_event({"delta": piece}) for piece in pieces if piece is not None)
                if events:
                    writer.write(_chunk(events))
                    await writer.drain()
            final = await task
        except BadRequest as exc:
            writer.write(_chunk(_event({"error": str(exc)})))
            await writer.drain()
            writer.transport.abort()
            return False
        finally:
            task.cancel()
        writer.write(_chunk(_event(final)) + _chunk(b"data: [DONE]\n\n") + b"0\r\n\r\n")
        await writer.drain()
        return True


class PooledRagBot(BuiltinRagBot):
    """The built-in bot that also owns its connection pool, so the server can close both."""

    def __init__(self, pool: ClientPool, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.pool = pool

    async def aclose(self) -> None:
        await self.pool.aclose()


def builtin_factory(config: Config, endpoint: Endpoint) -> Callable[[], Bot]:
    """Load prompts and knowledge now, so their errors surface before listening; build the bot
    on the server's loop, where its HTTP client must live."""
    prompts = PromptSet.load(config.prompts, config.language, config.product())
    knowledge = KnowledgeBase.from_folder(config.knowledge, config.language)

    def make() -> Bot:
        pool = ClientPool()
        return PooledRagBot(pool, pool.client_for(endpoint), prompts.bot, knowledge, config.top_k)

    return make


def _parse_head(head: bytes) -> tuple[str, str, str, dict[str, str]]:
    try:
        lines = head.decode("latin-1").split("\r\n")
        method, target, version = lines[0].split(" ")
    except ValueError:
        raise BadRequest(400, "malformed request line") from None
    headers: dict[str, str] = {}
    for line in lines[1:]:
        if line:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
    return method, target, version, headers


def _parse_chat(body: bytes) -> dict[str, Any]:
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError):
        raise BadRequest(400, "the body must be UTF-8 JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("question"), str) or not data["question"].strip():
        raise BadRequest(400, 'the body needs "question": a non-empty string')
    history: list[Utterance] = []
    for item in data.get("history") or []:
        if not isinstance(item, dict) or item.get("role") not in SPEAKERS or not isinstance(item.get("content"), str):
            raise BadRequest(400, 'each "history" item must be {"role": "user"|"assistant", "content": str}')
        history.append(Utterance(SPEAKERS[item["role"]], item["content"]))  # type: ignore[arg-type]
    return {"question": data["question"], "history": history, "stream": data.get("stream")}


def _respond(writer: asyncio.StreamWriter, status: int, payload: dict[str, Any], keep_alive: bool) -> None:
    body = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    reason = HTTPStatus(status).phrase
    head = (
        f"HTTP/1.1 {status} {reason}\r\nContent-Type: application/json; charset=utf-8\r\n"
        f"Content-Length: {len(body)}\r\nConnection: {'keep-alive' if keep_alive else 'close'}\r\n\r\n"
    )
    writer.write(head.encode("latin-1") + body)


def _event(payload: dict[str, Any]) -> bytes:
    return b"data: " + json.dumps(payload, ensure_ascii=False).encode("utf-8") + b"\n\n"


def _chunk(data: bytes) -> bytes:
    return f"{len(data):x}\r\n".encode() + data + b"\r\n"
