"""The conversations of a JSON export one by one, without reading the file whole.

A helpdesk export is a list of conversations — ``[{…}, {…}]`` — or an object holding one under a
key — ``{"conversations": [{…}, …], "pages": …}`` — or a single conversation object. The text is
read in pieces; each element of the list is decoded on its own (``json.JSONDecoder.raw_decode``)
as soon as its text is in, then dropped, so memory holds one conversation, never the file. Every
element comes with the line it starts on, for messages.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ..types.conversations import ImportProblem

MAX_ITEM_CHARS = 64 * 1024 * 1024  # one conversation's JSON; past it, the file is taken as broken
_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


class _Reader:
    def __init__(self, pieces: Iterator[str]) -> None:
        self.pieces = pieces
        self.buf = ""
        self.pos = 0
        self.line = 1  # the line of buf[0]
        self.eof = False
        # A place in buf whose line is known: lines are counted on from there, never from buf[0]
        # again (a minified export is one line of gigabytes; counting it per item would be quadratic).
        self.mark_pos, self.mark_line = 0, 1

    def more(self) -> bool:
        if self.eof:
            return False
        piece = next(self.pieces, None)
        if piece is None:
            self.eof = True
            return False
        if self.pos:  # drop what is read: memory holds the current item and a piece, no more
            self.line = self.line_at(self.pos)
            self.buf, self.pos = self.buf[self.pos :], 0
            self.mark_pos, self.mark_line = 0, self.line
        self.buf += piece
        return True

    def line_at(self, pos: int) -> int:
        if pos < self.mark_pos:  # behind the mark: an error's place, once
            return self.line + self.buf.count("\n", 0, pos)
        self.mark_line += self.buf.count("\n", self.mark_pos, pos)
        self.mark_pos = pos
        return self.mark_line

    def peek(self) -> str:
        """The next character that is not white space ('' at the end of the file)."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _SPACE:
                self.pos += 1
            if self.pos < len(self.buf):
                return self.buf[self.pos]
            if not self.more():
                return ""

    def expect(self, chars: str, what: str) -> str:
        found = self.peek()
        if not found or found not in chars:
            shown = repr(found) if found else "the end of the file"
            raise ImportProblem(f"not the JSON expected: {what}, found {shown}", self.line_at(self.pos))
        self.pos += 1
        return found

    def value(self) -> tuple[Any, int]:
        """The next JSON value and the line it starts on."""
        self.peek()
        start_line = self.line_at(self.pos)
        while True:
            try:
                value, end = _DECODER.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if self.eof or len(self.buf) - self.pos > MAX_ITEM_CHARS:
                    where = self.line_at(exc.pos)
                    raise ImportProblem(f"not valid JSON ({exc.msg})", where) from None
                self._grow()
                continue
            if end == len(self.buf) and not self.eof and not isinstance(value, dict | list | str):
                self._grow()  # a number or a word may go on in the next piece
                continue
            self.pos = end
            return value, start_line

    def _grow(self) -> None:
        """Read on until the unread text has doubled: a long item is decoded a few times, not once per piece."""
        target = max(2 * (len(self.buf) - self.pos), 1)
        while len(self.buf) - self.pos < target and self.more():
            pass


def conversation_objects(pieces: Iterator[str], key: str = "conversations") -> Iterator[tuple[Any, int]]:
    """Each conversation of the export with the line it starts on: the elements of a top-level list
    or of the list under ``key``; a top-level object without that key is one conversation."""
    reader = _Reader(pieces)
    first = reader.peek()
    if first == "[":
        yield from _elements(reader)
    elif first == "{":
        yield from _object(reader, key)
    else:
        raise ImportProblem("not a JSON list or object of conversations", reader.line_at(reader.pos))
    if reader.peek():
        raise ImportProblem("more text after the JSON value", reader.line_at(reader.pos))


def _elements(reader: _Reader) -> Iterator[tuple[Any, int]]:
    reader.expect("[", "'['")
    if reader.peek() == "]":
        reader.pos += 1
        return
    while True:
        yield reader.value()
        if reader.expect(",]", "',' or ']' after a conversation") == "]":
            return


def _object(reader: _Reader, key: str) -> Iterator[tuple[Any, int]]:
    """Members of the top-level object; the list under ``key`` streamed, the rest kept (small) in
    case the object is itself one conversation."""
    start_line = reader.line_at(reader.pos)
    reader.expect("{", "'{'")
    members: dict[str, Any] = {}
    streamed = False
    if reader.peek() == "}":
        reader.pos += 1
    else:
        while True:
            name, _ = reader.value()
            if not isinstance(name, str):
                raise ImportProblem("not valid JSON (an object key that is not a string)", reader.line_at(reader.pos))
            reader.expect(":", "':' after a key")
            if name == key and reader.peek() == "[":
                yield from _elements(reader)
                streamed = True
            else:
                members[name], _ = reader.value()
            if reader.expect(",}", "',' or '}'") == "}":
                break
    if not streamed:
        yield members, start_line
