"""Reading an HTTP bot's response safely: a size cap, strict UTF-8, and SSE events.

The cap is enforced while reading (a declared Content-Length over it fails before the first
byte), so a runaway response costs at most the cap in memory. Text is decoded strictly and
incrementally: a multi-byte character split across two network chunks is fine, invalid UTF-8
is an error rather than silently mangled text going to the judge.
"""

from __future__ import annotations

import codecs
from collections.abc import AsyncIterator

import httpx


class TooLarge(Exception):
    def __init__(self, limit: int, declared: int | None = None) -> None:
        super().__init__(f"over {limit} bytes")
        self.limit = limit
        self.declared = declared


class Capped:
    """The body of ``response`` as chunks, never more than ``limit`` bytes in total; keeps the
    head of what was read for error snippets."""

    HEAD_BYTES = 4096

    def __init__(self, response: httpx.Response, limit: int) -> None:
        self.response = response
        self.limit = limit
        self.received = 0
        self.head = bytearray()

    async def chunks(self) -> AsyncIterator[bytes]:
        declared = self.response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > self.limit:
            raise TooLarge(self.limit, int(declared))
        async for chunk in self.response.aiter_bytes():
            self.received += len(chunk)
            if len(self.head) < self.HEAD_BYTES:
                self.head += chunk[: self.HEAD_BYTES - len(self.head)]
            if self.received > self.limit:
                raise TooLarge(self.limit)
            yield chunk

    async def read(self) -> bytes:
        parts = [chunk async for chunk in self.chunks()]
        return b"".join(parts)


class Utf8Stream:
    """Strict incremental UTF-8: raises UnicodeDecodeError on the first invalid byte."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")("strict")

    def feed(self, data: bytes) -> str:
        return self._decoder.decode(data)

    def end(self) -> str:
        return self._decoder.decode(b"", final=True)


class SseParser:
    """Server-sent events → the ``data`` of each event (multi-line data joined by newlines).

    Only ``data:`` matters to ragtui; ``event:``, ``id:``, ``retry:`` and comments are skipped.
    A stream that ends without a final blank line still delivers its last event.
    """

    def __init__(self) -> None:
        self._text = Utf8Stream()
        self._pending = ""
        self._data: list[str] = []

    def feed(self, data: bytes) -> list[str]:
        self._pending += self._text.feed(data)
        events: list[str] = []
        *lines, self._pending = self._pending.split("\n")
        for line in lines:
            self._line(line.removesuffix("\r"), events)
        return events

    def end(self) -> list[str]:
        events: list[str] = []
        rest = self._pending + self._text.end()
        self._pending = ""
        for line in rest.split("\n"):
            self._line(line.removesuffix("\r"), events)
        if self._data:
            events.append("\n".join(self._data))
            self._data = []
        return events

    def _line(self, line: str, events: list[str]) -> None:
        if not line:
            if self._data:
                events.append("\n".join(self._data))
                self._data = []
            return
        if line.startswith(":"):
            return
        name, _, value = line.partition(":")
        if name == "data":
            self._data.append(value.removeprefix(" "))
