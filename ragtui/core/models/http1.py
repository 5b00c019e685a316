"""HTTP/1.1 over asyncio streams, for chat streams to plain ``http://`` endpoints.

A team that drives a vLLM or SGLang cluster from one machine sends thousands of streamed
requests a minute to one plain-HTTP address inside its network. httpx (with httpcore, h11 and
anyio underneath) spent more CPU per call there than all of ragtui's own work for the call
(bench/bench_engine.py --sweep): a state machine per event, a lock and a cancel scope per read.
A chat stream needs a small part of HTTP/1.1: one POST with a JSON body, a response head, a
chunked or sized body read as it arrives, and keep-alive. This module does exactly that.

Everything else stays on httpx (``sse.Lanes`` decides): ``https://`` (certificates, TLS), and any
URL a proxy from the environment (``HTTP_PROXY``, ``ALL_PROXY``, not bypassed by ``NO_PROXY``)
applies to. The timeout is httpx's meaning of one number: connecting, and each wait for bytes.
"""

from __future__ import annotations

import asyncio
import urllib.request
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

READ_SIZE = 65536
MAX_HEAD_BYTES = 65536  # a response head larger than this is not a chat server's


class Http1Error(Exception):
    """The exchange failed: no connection, no (whole) answer in time, or a broken response."""

    def __init__(self, message: str, *, timed_out: bool = False) -> None:
        super().__init__(message)
        self.message = message
        self.timed_out = timed_out


class _Stale(Exception):
    """A kept-alive connection the server had closed: the request never reached it."""


def plain_http_target(base_url: str) -> tuple[str, int] | None:
    """(host, port) when ``base_url`` is plain http:// that no proxy from the environment
    applies to; None when httpx must carry it."""
    parts = urlsplit(base_url)
    if parts.scheme != "http" or not parts.hostname:
        return None
    proxies = urllib.request.getproxies()
    if ("http" in proxies or "all" in proxies) and not urllib.request.proxy_bypass(parts.hostname):
        return None
    return parts.hostname, parts.port or 80


class _Connection:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.reader = reader
        self.writer = writer

    def usable(self) -> bool:
        return not (self.reader.at_eof() or self.writer.is_closing())

    def close(self) -> None:
        self.writer.close()


class Http1Pool:
    """Keep-alive connections to one host; a request takes an idle one or opens a new one.

    Idle connections are a stack (the most recently used first, still warm), so taking and
    returning one costs the same whatever the number of connections."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.host = host
        self.port = port
        self.timeout = timeout
        self._idle: list[_Connection] = []
        self._closed = False
        self._targets: dict[str, tuple[str, str]] = {}  # url → (request target, Host header)

    async def post(self, url: str, headers: dict[str, str], content: bytes) -> Http1Response:
        """Send the request; return once the response head arrived (the body is streamed)."""
        target, host = self._target(url)
        head = [f"POST {target} HTTP/1.1", f"Host: {host}", f"Content-Length: {len(content)}"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        request = ("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + content
        while True:
            connection, reused = await self._take()
            try:
                return await self._exchange(connection, request, reused)
            except _Stale:
                connection.close()  # the server closed it while idle: once more, on a new one

    def _target(self, url: str) -> tuple[str, str]:
        known = self._targets.get(url)
        if known is None:
            parts = urlsplit(url)
            target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
            known = self._targets[url] = (target, parts.netloc.rpartition("@")[2])
        return known

    async def _take(self) -> tuple[_Connection, bool]:
        if self._closed:
            raise Http1Error("the connection pool is closed")
        while self._idle:
            connection = self._idle.pop()
            if connection.usable():
                return connection, True
            connection.close()
        try:
            async with asyncio.timeout(self.timeout):
                reader, writer = await asyncio.open_connection(self.host, self.port, limit=MAX_HEAD_BYTES)
        except TimeoutError:
            raise Http1Error("ConnectTimeout", timed_out=True) from None
        except OSError as exc:
            raise Http1Error(f"ConnectError: {exc.strerror or type(exc).__name__}") from None
        return _Connection(reader, writer), False

    async def _exchange(self, connection: _Connection, request: bytes, reused: bool) -> Http1Response:
        try:
            async with asyncio.timeout(self.timeout):
                connection.writer.write(request)
                await connection.writer.drain()
                head = await connection.reader.readuntil(b"\r\n\r\n")
        except asyncio.IncompleteReadError as exc:
            connection.close()
            if reused and not exc.partial:
                raise _Stale from None
            raise Http1Error("RemoteProtocolError: the server closed the connection without a response") from None
        except (ConnectionResetError, BrokenPipeError) as exc:
            connection.close()
            if reused:
                raise _Stale from None
            raise Http1Error(f"ReadError: {type(exc).__name__}") from None
        except TimeoutError:
            connection.close()
            raise Http1Error("ReadTimeout", timed_out=True) from None
        except asyncio.LimitOverrunError:
            connection.close()
            raise Http1Error("RemoteProtocolError: response head too large") from None
        except OSError as exc:
            connection.close()
            raise Http1Error(f"ReadError: {type(exc).__name__}") from None
        return Http1Response(self, connection, head)

    def _release(self, connection: _Connection) -> None:
        if self._closed or not connection.usable():
            connection.close()
        else:
            self._idle.append(connection)

    async def aclose(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for connection in idle:
            connection.close()


class Http1Response:
    """A response whose head has arrived; read the body once with ``aiter_bytes`` or ``aread``."""

    def __init__(self, pool: Http1Pool, connection: _Connection, head: bytes) -> None:
        self._pool = pool
        self._connection: _Connection | None = connection
        lines = head.decode("latin-1").split("\r\n")
        version, _, rest = lines[0].partition(" ")
        code, _, reason = rest.partition(" ")
        if not version.startswith("HTTP/1.") or not code.isdigit():
            connection.close()
            self._connection = None
            raise Http1Error(f"RemoteProtocolError: not an HTTP/1.x status line: {lines[0][:80]!r}")
        self.status_code = int(code)
        self.reason_phrase = reason
        self.headers: dict[str, str] = {}
        for line in lines[1:]:
            name, sep, value = line.partition(":")
            if sep:
                self.headers[name.strip().lower()] = value.strip()
        self._chunked = "chunked" in self.headers.get("transfer-encoding", "").lower()
        length = self.headers.get("content-length")
        self._length = int(length) if length is not None and length.isdigit() and not self._chunked else None
        if self.status_code in (204, 304):  # never a body, whatever the headers say
            self._chunked, self._length = False, 0
        self._keep = self.headers.get("connection", "").lower() != "close" and version != "HTTP/1.0"
        self.content = b""

    @property
    def text(self) -> str:
        return self.content.decode("utf-8", errors="replace")

    async def aread(self) -> bytes:
        self.content = b"".join([block async for block in self.aiter_bytes()])
        return self.content

    async def aiter_bytes(self) -> AsyncIterator[bytes]:
        """The body's bytes as they arrive; raises Http1Error when it breaks off."""
        connection = self._connection
        if connection is None:
            return
        reader = connection.reader
        try:
            if self._chunked:
                decoder = ChunkedDecoder()
                while not decoder.done:
                    data = await self._read(reader)
                    block = decoder.feed(data)
                    if block:
                        yield block
                reusable = self._keep and not decoder.extra
            elif self._length is not None:
                left = self._length
                while left > 0:
                    data = await self._read(reader, min(left, READ_SIZE))
                    left -= len(data)
                    yield data
                reusable = self._keep
            else:  # neither chunked nor sized: the body ends when the server closes
                while data := await self._read(reader, eof_ok=True):
                    yield data
                reusable = False
        except BaseException:
            self._drop()
            raise
        self._connection = None
        if reusable:
            self._pool._release(connection)
        else:
            connection.close()

    async def _read(self, reader: asyncio.StreamReader, size: int = READ_SIZE, *, eof_ok: bool = False) -> bytes:
        try:
            async with asyncio.timeout(self._pool.timeout):
                data = await reader.read(size)
        except TimeoutError:
            raise Http1Error("ReadTimeout", timed_out=True) from None
        except OSError as exc:
            raise Http1Error(f"ReadError: {type(exc).__name__}") from None
        if not data and not eof_ok:
            raise Http1Error("RemoteProtocolError: the server closed the connection mid-body")
        return data

    def _drop(self) -> None:
        if self._connection is not None:
            self._connection.close()  # mid-body: the connection's state is unknown
            self._connection = None

    async def aclose(self) -> None:
        """Done with the response: a body not read to its end closes the connection."""
        self._drop()


class ChunkedDecoder:
    """Incremental ``Transfer-Encoding: chunked`` decoding: feed bytes, get the payload so far."""

    def __init__(self) -> None:
        self._buffer = b""
        self._need = 0  # payload bytes still to come in the current chunk
        self._state = "size"  # size → data → crlf → size … → trailer → done
        self.done = False
        self.extra = False  # bytes after the last chunk (never expected; the connection is not reused)

    def feed(self, data: bytes) -> bytes:
        buffer = self._buffer + data if self._buffer else data
        out: list[bytes] = []
        position = 0
        while True:
            if self._state == "data":
                take = min(self._need, len(buffer) - position)
                if take:
                    out.append(buffer[position : position + take])
                    position += take
                    self._need -= take
                if self._need:
                    break
                self._state = "crlf"
            if self._state == "crlf":
                if len(buffer) - position < 2:
                    break
                if buffer[position : position + 2] != b"\r\n":
                    raise Http1Error("RemoteProtocolError: a chunk does not end with CRLF")
                position += 2
                self._state = "size"
            end = buffer.find(b"\r\n", position)
            if end < 0:
                if len(buffer) - position > 1024:
                    raise Http1Error("RemoteProtocolError: chunk size line too long")
                break
            line = buffer[position:end]
            position = end + 2
            if self._state == "trailer":
                if not line:
                    self.done = True
                    self.extra = position < len(buffer)
                    break
                continue  # a trailer field: nothing a chat stream needs
            try:
                size = int(line.split(b";", 1)[0].strip(), 16)
            except ValueError:
                raise Http1Error(f"RemoteProtocolError: bad chunk size {line[:20]!r}") from None
            if size == 0:
                self._state = "trailer"
            else:
                self._need, self._state = size, "data"
        self._buffer = buffer[position:]
        return b"".join(out)
