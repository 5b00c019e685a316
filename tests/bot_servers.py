"""Loopback servers for the bot adapter tests: a faulty HTTP bot with one route per fault,
and the reference bot (``ragtui serve-bot``'s server) on the fake OpenAI server."""

from __future__ import annotations

import json
import socket
import struct
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from ragtui.core.bots.http_bot import HttpBot
from ragtui.core.config.bot_config import parse_bot

OK = {"answer": "Fine.", "sources": [{"content": "Passage one.", "title": "Doc 1", "url": "kb/1"}]}
BIG_BYTES = 6 * 1024 * 1024


class _Handler(BaseHTTPRequestHandler):
    server: FaultyServer

    def log_message(self, *args: Any) -> None:  # keep test output clean
        pass

    def do_GET(self) -> None:
        self.do_POST()

    def do_POST(self) -> None:
        length = int(self.headers.get("content-length") or 0)
        body = self.rfile.read(length) if length else b""
        self.server.record(self.path, dict(self.headers), body)
        route = getattr(self, "route_" + self.path.strip("/").split("?")[0].replace("-", "_"), None)
        if route is None:
            self.send_json(404, {"detail": f"no route {self.path}"})
        else:
            route()

    def send_json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
        self.send_raw(status, json.dumps(payload).encode(), "application/json", headers)

    def send_raw(self, status: int, data: bytes, content_type: str, headers: dict[str, str] | None = None) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(data)

    def route_ok(self) -> None:
        self.send_json(200, OK)

    def route_nested(self) -> None:
        self.send_json(200, {"data": {"reply": {"text": "Nested answer."}}, "docs": ["plain passage"]})

    def route_nonjson(self) -> None:
        self.send_raw(200, b"<html><body>Internal\nportal\tlogin</body></html>", "text/html")

    def route_latin1(self) -> None:
        self.send_raw(200, '{"answer": "café"}'.encode("latin-1"), "application/json")

    def route_nomatch(self) -> None:
        self.send_json(200, {"reply": "somewhere else"})

    def route_notext(self) -> None:
        self.send_json(200, {"answer": {"nested": True}})

    def route_flaky(self) -> None:
        if self.server.bump("flaky") == 1:
            self.send_json(500, {"error": "warming up"})
        else:
            self.send_json(200, OK)

    def route_limited(self) -> None:
        if self.server.bump("limited") == 1:
            self.send_json(429, {"error": "slow down"}, {"Retry-After": "0"})
        else:
            self.send_json(200, OK)

    def route_broken(self) -> None:
        self.send_json(500, {"error": "boom " + "x" * 2000})

    def route_unauthorized(self) -> None:
        # A careless server that echoes the credentials it was sent.
        echoed = self.headers.get("Authorization", "")
        self.send_json(401, {"error": f"bad token: {echoed}", "x-api-key": self.headers.get("X-Api-Key", "")})

    def route_redirect_away(self) -> None:
        self.send_raw(302, b"", "text/plain", {"Location": f"http://localhost:{self.server.port}/ok"})

    def route_redirect_same(self) -> None:
        self.send_raw(307, b"", "text/plain", {"Location": "/ok"})

    def route_hang(self) -> None:
        self.server.release.wait(10)

    def route_big(self) -> None:
        self.send_raw(200, b'{"answer": "' + b"a" * BIG_BYTES + b'"}', "application/json")

    def route_big_undeclared(self) -> None:
        # No Content-Length: the cap must hold while reading, not only on the header.
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(b'{"answer": "')
        for _ in range(BIG_BYTES // 65536):
            self.wfile.write(b"a" * 65536)
        self.wfile.write(b'"}')
        self.close_connection = True

    def route_sse(self) -> None:
        events = [{"delta": "Hel"}, {"delta": "lo"}, {"sources": [{"content": "P", "title": "T"}]}]
        data = b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events) + b"data: [DONE]\n\n"
        self.send_raw(200, data, "text/event-stream")

    def route_text(self) -> None:
        self.send_raw(200, "Plain streamed text — ok".encode(), "text/plain")

    def route_reset(self) -> None:
        """A stream that dies mid-answer: headers, one event, then a TCP reset."""
        event = b'data: {"delta": "Half"}\n\n'
        self.wfile.write(
            b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n"
            + f"{len(event):x}\r\n".encode()
            + event
            + b"\r\n"
        )
        self.wfile.flush()
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True


class FaultyServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.port = self.server_address[1]
        self.requests: list[tuple[str, dict[str, str], bytes]] = []
        self.counts: dict[str, int] = {}
        self.release = threading.Event()
        self._lock = threading.Lock()
        # A short poll interval: shutdown() waits for it, once per test.
        self._thread = threading.Thread(target=self.serve_forever, args=(0.02,), daemon=True)

    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # clients that hang up on purpose (size cap, timeout) are expected here

    def url(self, route: str) -> str:
        return f"http://127.0.0.1:{self.port}/{route}"

    def record(self, path: str, headers: dict[str, str], body: bytes) -> None:
        with self._lock:
            self.requests.append((path, headers, body))

    def bump(self, name: str) -> int:
        with self._lock:
            self.counts[name] = self.counts.get(name, 0) + 1
            return self.counts[name]

    def __enter__(self) -> FaultyServer:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release.set()
        self.shutdown()
        self.server_close()


def http_bot(url: str, **table: Any) -> HttpBot:
    """An HTTP bot configured as a user would, with no backoff so retries are instant. Its
    timeout is generous (a busy machine can take seconds to answer on loopback); a test of the
    timeout itself passes its own."""
    table = {"timeout": 60, **table}
    settings = parse_bot({"type": "http", "url": url, "backoff": 0, **table}, "t.toml: [bot]", Path("."))
    assert settings.http is not None
    return HttpBot(settings.http)
