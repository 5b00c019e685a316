"""The lean HTTP/1.1 client (models/http1.py) that carries chat streams to plain-http endpoints:
chunked bodies split anywhere, keep-alive and a connection the server closed while idle, sized
and close-delimited bodies, refused and silent servers, and which URLs it takes at all. The
chat-level faults (cut streams, 429/500, malformed events) run through it in test_stream_faults
and test_sse, whose servers are plain http on loopback."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable

import httpx
import pytest

from ragtui.core.models import http1, sse
from ragtui.core.models.http1 import ChunkedDecoder, Http1Error, Http1Pool, plain_http_target
from stand_ins.fake_openai import FakeOpenAIServer, Reply

CHUNKED = b"5;ext=1\r\nhello\r\n1\r\n \r\n5\r\nworld\r\n0\r\nx-trailer: t\r\n\r\n"


@pytest.mark.parametrize("cut", range(1, len(CHUNKED)))
def test_a_chunked_body_split_anywhere_decodes_whole(cut: int) -> None:
    decoder = ChunkedDecoder()
    out = decoder.feed(CHUNKED[:cut])
    assert not decoder.done or cut == len(CHUNKED)
    out += decoder.feed(CHUNKED[cut:])
    assert out == b"hello world" and decoder.done and not decoder.extra


def test_a_chunked_body_one_byte_at_a_time() -> None:
    decoder = ChunkedDecoder()
    out = b"".join(decoder.feed(CHUNKED[i : i + 1]) for i in range(len(CHUNKED)))
    assert out == b"hello world" and decoder.done


@pytest.mark.parametrize(
    ("body", "says"),
    [(b"zz\r\nhello\r\n", "bad chunk size"), (b"5\r\nhelloXX0\r\n\r\n", "does not end with CRLF")],
)
def test_a_broken_chunked_body_is_an_error(body: bytes, says: str) -> None:
    with pytest.raises(Http1Error, match=says):
        ChunkedDecoder().feed(body)


def test_bytes_after_the_last_chunk_are_noticed() -> None:
    decoder = ChunkedDecoder()
    decoder.feed(b"0\r\n\r\nHTTP/1.1 200 OK\r\n")
    assert decoder.done and decoder.extra


Handler = Callable[[asyncio.StreamReader, asyncio.StreamWriter], Awaitable[None]]


async def read_request(reader: asyncio.StreamReader) -> bytes:
    head = await reader.readuntil(b"\r\n\r\n")
    length = next(
        int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")
    )
    return head + await reader.readexactly(length)


async def raw_server(handler: Handler) -> AsyncIterator[tuple[int, list[int]]]:
    """A loopback server answering each connection with ``handler``; yields (port, connection count)."""
    connections: list[int] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(1)
        try:
            await handler(reader, writer)
        finally:
            writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    async with server:
        yield server.sockets[0].getsockname()[1], connections


async def post(pool: Http1Pool, port: int) -> tuple[int, bytes]:
    response = await pool.post(f"http://127.0.0.1:{port}/v1/chat", {"Authorization": "Bearer k"}, b"{}")
    return response.status_code, await response.aread()


def answering_each(response: bytes) -> Handler:
    """A keep-alive handler: every request on the connection gets ``response``."""

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            try:
                await read_request(reader)
            except asyncio.IncompleteReadError:
                return
            writer.write(response)
            await writer.drain()

    return handle


async def test_keep_alive_reuses_one_connection_for_sequential_requests() -> None:
    answer_each = answering_each(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n" + CHUNKED)
    async for port, connections in raw_server(answer_each):
        pool = Http1Pool("127.0.0.1", port, timeout=5)
        assert [await post(pool, port) for _ in range(3)] == [(200, b"hello world")] * 3
        assert len(connections) == 1
        await pool.aclose()


async def test_a_connection_the_server_closed_while_idle_is_replaced_without_losing_the_request() -> None:
    async def answer_once_then_close(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        await writer.drain()  # keep-alive promised, then closed: a server's idle timeout

    async for port, connections in raw_server(answer_once_then_close):
        pool = Http1Pool("127.0.0.1", port, timeout=5)
        assert await post(pool, port) == (200, b"ok")
        await asyncio.sleep(0)  # let the close reach the client (no wall-clock wait)
        assert await post(pool, port) == (200, b"ok")
        assert len(connections) == 2
        await pool.aclose()


async def test_a_close_delimited_body_and_connection_close_are_read_to_the_end() -> None:
    async def http10(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.0 503 Service Unavailable\r\nRetry-After: 2\r\n\r\n" + b'{"error": "busy"}')
        await writer.drain()

    async for port, connections in raw_server(http10):
        pool = Http1Pool("127.0.0.1", port, timeout=5)
        response = await pool.post(f"http://127.0.0.1:{port}/v1/chat", {}, b"{}")
        assert (response.status_code, response.headers["retry-after"]) == (503, "2")
        assert await response.aread() == b'{"error": "busy"}' and response.text == '{"error": "busy"}'
        await post(pool, port)
        assert len(connections) == 2  # a close-delimited body leaves nothing to reuse
        await pool.aclose()


async def test_a_body_cut_short_is_an_error_and_the_connection_is_not_reused() -> None:
    async def cut(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")
        await writer.drain()

    async for port, _ in raw_server(cut):
        pool = Http1Pool("127.0.0.1", port, timeout=5)
        response = await pool.post(f"http://127.0.0.1:{port}/v1/chat", {}, b"{}")
        with pytest.raises(Http1Error, match="mid-body"):
            await response.aread()
        assert pool._idle == []
        await pool.aclose()


async def test_a_refused_connection_and_a_silent_server_are_told_apart() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await read_request(reader)
        await asyncio.Event().wait()  # never answers; cancelled when the server closes

    async for port, _ in raw_server(silent):
        pool = Http1Pool("127.0.0.1", port, timeout=0.2)
        with pytest.raises(Http1Error) as waited:
            await post(pool, port)
        assert waited.value.timed_out
    refused = Http1Pool("127.0.0.1", port, timeout=5)  # the server above is gone
    with pytest.raises(Http1Error) as failed:
        await post(refused, port)
    assert not failed.value.timed_out and "ConnectError" in failed.value.message


def test_only_plain_http_without_a_proxy_takes_the_lean_client(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY", "no_proxy", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
    assert plain_http_target("http://gpu-box:8000/v1") == ("gpu-box", 8000)
    assert plain_http_target("http://localhost/v1") == ("localhost", 80)
    assert plain_http_target("https://api.openai.com/v1") is None
    monkeypatch.setenv("HTTP_PROXY", "http://proxy.corp:3128")
    assert plain_http_target("http://gpu-box:8000/v1") is None  # the proxy carries it: httpx
    monkeypatch.setenv("NO_PROXY", "gpu-box")
    assert plain_http_target("http://gpu-box:8000/v1") == ("gpu-box", 8000)


async def test_lanes_pick_the_lean_pool_for_http_and_httpx_for_https(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)
    plain, tls = sse.Lanes(5, base_url="http://127.0.0.1:9/v1"), sse.Lanes(5, base_url="https://example.test/v1")
    assert isinstance(plain.pick(), http1.Http1Pool) and isinstance(tls.pick(), httpx.AsyncClient)
    await plain.aclose()
    await tls.aclose()


async def test_a_whole_chat_stream_through_the_lean_client_reuses_its_connection() -> None:
    with FakeOpenAIServer() as server:
        server.set_default(None, Reply(text="Tap Settings, then Link."))
        lanes = sse.Lanes(5, base_url=server.base_url)
        texts = []
        for _ in range(2):
            stream = await sse.open_stream(
                lanes.pick(), server.base_url + "/chat/completions", "k", {"model": "m", "stream": True}, 0
            )
            parts = [c["choices"][0]["delta"].get("content") or "" async for c in stream if c.get("choices")]
            await stream.aclose()
            texts.append("".join(parts))
            assert stream.saw_done
        assert texts == ["Tap Settings, then Link."] * 2
        assert len(lanes.pick()._idle) == 1  # one kept-alive connection served both
        await lanes.aclose()


async def test_a_no_content_answer_has_no_body_to_wait_for() -> None:
    async for port, connections in raw_server(answering_each(b"HTTP/1.1 204 No Content\r\n\r\n")):
        pool = Http1Pool("127.0.0.1", port, timeout=5)
        assert [await post(pool, port) for _ in range(2)] == [(204, b"")] * 2
        assert len(connections) == 1
        await pool.aclose()
