"""A conversation file opened for a loader: its text decoded strictly, line by line or in pieces,
never read whole (an export can be gigabytes), with the number of the line being read.

UTF-8 by default (a byte-order mark is dropped); ``--encoding`` names another encoding that keeps
the line ending a byte of its own (cp932/Shift_JIS, EUC-JP, Latin-1 …). A byte that is not of the
encoding is one ``ImportProblem`` naming the line, the byte and what to do. UTF-16 and UTF-32 are
refused with advice: their line endings are two or four bytes, and converting is one command.
"""

from __future__ import annotations

import codecs
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path

from ..types.conversations import ImportProblem

MAX_LINE_BYTES = 64 * 1024 * 1024  # a line this long is no chat message: say so rather than hold it
PIECE_BYTES = 64 * 1024  # small: the JSON reader holds the item being read and a piece or two
_WIDE_BOMS = (codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
_WIDE = ("utf_16", "utf_16_le", "utf_16_be", "utf_32", "utf_32_le", "utf_32_be")


def codec_name(encoding: str | None) -> str:
    """The codec for ``--encoding`` (default UTF-8); ImportProblem for an unknown or wide one."""
    name = encoding or "utf-8"
    try:
        found = codecs.lookup(name).name.replace("-", "_")
    except LookupError:
        raise ImportProblem(
            f"--encoding {name!r} is not an encoding Python knows", hint="e.g. utf-8, cp932, euc-jp"
        ) from None
    if found in _WIDE:
        raise ImportProblem(
            f"--encoding {name} is not read line by line",
            hint="convert the file to UTF-8 first (iconv -f UTF-16 -t UTF-8)",
        )
    return found


class FileInput:
    """``ConversationInput`` over a file on disk. ``on_bytes`` sees every byte read, in order (the
    importer hashes the file with it while reading, so a file changed between its reads is noticed)."""

    def __init__(
        self,
        path: Path,
        *,
        columns: Mapping[str, str] | None = None,
        encoding: str | None = None,
        on_bytes: Callable[[bytes], None] | None = None,
    ) -> None:
        self._path = path
        self._columns = dict(columns or {})
        self._codec = codec_name(encoding)
        self._on_bytes = on_bytes
        self._line = 0

    @property
    def path(self) -> Path:
        return self._path

    @property
    def columns(self) -> Mapping[str, str]:
        return self._columns

    @property
    def line_number(self) -> int:
        return self._line

    def lines(self) -> Iterator[str]:
        self._line = 0
        with self._path.open("rb") as handle:
            while True:
                raw = handle.readline(MAX_LINE_BYTES + 1)
                if not raw:
                    return
                self._line += 1
                if self._on_bytes is not None:
                    self._on_bytes(raw)
                if self._line == 1:
                    raw = self._first(raw)
                if len(raw) > MAX_LINE_BYTES and not raw.endswith(b"\n"):
                    raise ImportProblem(f"a line longer than {MAX_LINE_BYTES // (1024 * 1024)} MB", self._line)
                try:
                    yield raw.decode(self._codec)
                except UnicodeDecodeError as exc:
                    raise self._not_decodable(raw, exc.start, self._line) from None

    def pieces(self) -> Iterator[str]:
        self._line = 1
        decoder = codecs.getincrementaldecoder(self._codec)("strict")
        with self._path.open("rb") as handle:
            first = True
            while True:
                raw = handle.read(PIECE_BYTES)
                if self._on_bytes is not None and raw:
                    self._on_bytes(raw)
                if first:
                    raw, first = self._first(raw), False
                try:
                    text = decoder.decode(raw, final=not raw)
                except UnicodeDecodeError as exc:
                    at = max(0, min(len(raw), exc.start))
                    raise self._not_decodable(raw, at, self._line + raw[:at].count(b"\n")) from None
                if text:
                    yield text
                    self._line += text.count("\n")
                if not raw:
                    return

    def _first(self, raw: bytes) -> bytes:
        """The file's first bytes: a wide byte-order mark or a NUL byte refused, UTF-8's mark dropped."""
        if any(raw.startswith(bom) for bom in _WIDE_BOMS):
            raise ImportProblem("a UTF-16 or UTF-32 file", hint="convert it to UTF-8 first (iconv -f UTF-16 -t UTF-8)")
        if b"\x00" in raw[:8192]:
            raise ImportProblem("a binary file, not text")
        if self._codec == "utf_8" and raw.startswith(codecs.BOM_UTF8):
            return raw[len(codecs.BOM_UTF8) :]
        return raw

    def _not_decodable(self, raw: bytes, at: int, line: int) -> ImportProblem:
        byte = raw[at : at + 1].hex() or "end"
        what = "UTF-8" if self._codec == "utf_8" else self._codec
        return ImportProblem(
            f"not {what} text (byte 0x{byte} cannot be decoded)",
            line,
            "save the file as UTF-8, or name its encoding with --encoding (e.g. cp932 for Shift_JIS)",
        )
