"""The minimal SSE reader (models/sse.py) over real loopback HTTP, for the wire details the fake
OpenAI server does not vary: CRLF line ends, comments, events split across reads, an error
event mid-stream, a 503 answered later, and the API key sent only as a header."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

import ragtui.core.models.llm as llm
from ragtui.core.models.endpoints import Endpoint
from ragtui.core.models.llm import ClientPool
from ragtui.core.types.errors import EndpointError, IncompleteReply


def chunk(text: str | None = None, finish: str | None = None) -> dict[str, Any]:
    delta = {} if text is None else {"content": text}
    return {"model": "raw-model", "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


class _Handler(BaseHTTPRequestHandler):
    server: RawServer

    def log_message(self, *args: Any) -> None:
        pass

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("content-length") or 0))
        self.server.auth.append(self.headers.get("authorization", ""))
        status, headers, pieces = self.server.replies.pop(0)
        self.send_response(status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for piece in pieces:  # each piece its own HTTP chunk: the reader must join them
            self.wfile.write(f"{len(piece):x}\r\n".encode() + piece + b"\r\n")
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")


class RawServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.replies: list[tuple[int, dict[str, str], list[bytes]]] = []
        self.auth: list[str] = []

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"


@pytest.fixture
def raw() -> Iterator[RawServer]:
    server = RawServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.shutdown()
    server.server_close()


@pytest.fixture(autouse=True)
def _quick_retries(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(llm, "STREAM_RETRY_BACKOFF_S", 0.01)


async def complete(raw: RawServer, retries: int = 1) -> llm.Completion:
    endpoint = Endpoint("bot", raw.base_url, "raw-model", 0.0, "RAW_KEY", max_retries=retries, api_key="sk-raw")
    pool = ClientPool()
    try:
        return await pool.client_for(endpoint).complete([{"role": "user", "content": "hi"}])
    finally:
        await pool.aclose()


def sse(*chunks: dict[str, Any], done: bool = True, newline: bytes = b"\n") -> bytes:
    text = b"".join(b"data: " + json.dumps(c).encode() + newline + newline for c in chunks)
    return text + (b"data: [DONE]" + newline + newline if done else b"")


async def test_crlf_comments_and_events_split_across_reads(raw: RawServer):
    body = b": keep-alive comment\r\n\r\n" + sse(chunk("Hel"), chunk("lo"), chunk(finish="stop"), newline=b"\r\n")
    raw.replies.append((200, {"content-type": "text/event-stream"}, [body[i : i + 7] for i in range(0, len(body), 7)]))
    reply = await complete(raw)
    assert (reply.text, reply.finish_reason, reply.attempts) == ("Hello", "stop", 1)
    assert raw.auth == ["Bearer sk-raw"]


async def test_an_error_event_mid_stream_is_retried_then_reported(raw: RawServer):
    broken = sse(chunk("Hal"), done=False) + b'data: {"error": {"message": "engine overloaded"}}\n\n'
    raw.replies += [(200, {}, [broken]), (200, {}, [broken])]
    with pytest.raises(IncompleteReply) as caught:
        await complete(raw, retries=1)
    assert "reported an error mid-stream" in caught.value.message and "engine overloaded" in caught.value.message
    assert caught.value.partial == "Hal" and caught.value.attempts == 2


async def test_a_503_is_retried_as_the_server_asks(raw: RawServer):
    overloaded = json.dumps({"error": {"message": "try later"}}).encode()
    raw.replies += [(503, {"retry-after-ms": "1"}, [overloaded]), (200, {}, [sse(chunk("ok"), chunk(finish="stop"))])]
    assert (await complete(raw, retries=1)).text == "ok"


async def test_a_status_error_is_one_line_naming_the_endpoint_and_never_the_key(raw: RawServer):
    raw.replies.append((500, {}, [json.dumps({"error": {"message": "kaboom"}}).encode()]))
    with pytest.raises(EndpointError) as caught:
        await complete(raw, retries=0)
    text = str(caught.value)
    assert "bot endpoint" in text and "answered 500: kaboom" in text and "sk-raw" not in text


async def test_a_stream_cut_at_any_byte_is_never_a_shorter_complete_reply(raw: RawServer):
    """The connection ends cleanly after every possible prefix of a good stream: the reply is
    either the whole text (once the finish chunk arrived whole) or an IncompleteReply whose
    partial is a prefix of it — never a cut text passed off as complete."""
    body = sse(chunk("Open Settings, "), chunk("then Account, "), chunk("and choose Reset."), chunk(finish="stop"))
    whole = "Open Settings, then Account, and choose Reset."
    finish_end = body.index(b"data: [DONE]")  # the finish chunk's event ends just before [DONE]
    for cut in range(len(body) + 1):
        raw.replies.append((200, {}, [body[:cut]] if cut else []))
        try:
            reply = await complete(raw, retries=0)
        except IncompleteReply as incomplete:
            assert whole.startswith(incomplete.partial), cut
            assert cut < finish_end, cut  # a stream that said finish_reason whole is complete
        else:
            assert (reply.text, reply.finish_reason) == (whole, "stop"), cut
            assert cut >= finish_end - 1, cut
