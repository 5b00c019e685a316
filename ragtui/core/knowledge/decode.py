"""Bytes of a text file to text: UTF-8 (with or without a BOM), UTF-16/32 by their BOM, and
otherwise the encoding charset-normalizer finds (Shift_JIS, CP932, EUC-JP, Windows-1252, …).
A file that is binary, or whose encoding cannot be told, is refused with the reason."""

from __future__ import annotations

import codecs

from ..types.errors import KnowledgeFileError

_BOMS = (
    (codecs.BOM_UTF32_LE, "utf-32"),
    (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)
# Below this, charset-normalizer's guess is noise more often than not: refuse rather than index
# mojibake the bot would then quote.
MAX_CHAOS = 0.2


def looks_binary(data: bytes) -> bool:
    """A NUL byte in the first 8 KiB: no text format ragtui reads (without a UTF-16/32 BOM) has one."""
    head = data[:8192]
    return b"\x00" in head and not any(head.startswith(bom) for bom, _ in _BOMS)


def decode_text(data: bytes) -> tuple[str, str]:
    """(text, encoding name); raises KnowledgeFileError when the bytes are not text."""
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return data.decode(encoding), encoding
            except UnicodeDecodeError:
                break
    if looks_binary(data):
        raise KnowledgeFileError("a binary file, not text")
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    from charset_normalizer import from_bytes  # only for the files that need it

    best = from_bytes(data).best()
    if best is None or best.chaos > MAX_CHAOS:
        raise KnowledgeFileError("not UTF-8, and its encoding could not be told", "save it as UTF-8")
    return str(best), best.encoding
