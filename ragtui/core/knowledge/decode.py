"""Bytes of a text file to text: UTF-8 (with or without a BOM), UTF-16/32 by their BOM, then
Japanese (CP932/Shift_JIS or EUC-JP) when the bytes decode cleanly as one and read as Japanese
— kana make up a good share of what is not ASCII — and otherwise the encoding charset-normalizer
finds (Windows-1252, …). A file that is binary, or whose encoding cannot be told, is refused with
the reason.

Japanese first, because on a short file charset-normalizer's statistics have too little to go
on: 「配送料は無料です」 in Shift_JIS comes back as Korean (봹몭뿿궼뼰뿿궳궥) with no chaos at
all. Kana are the tell: a Korean or Chinese file read as EUC-JP gives kanji and no kana, and an
EUC-JP file read as CP932 gives half-width katakana, which are not counted. A file that reads
cleanly as Japanese without kana (all kanji) and that charset-normalizer calls something else is
refused: which it is cannot be told, and mojibake indexed is mojibake the bot quotes."""

from __future__ import annotations

import codecs
import re

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
# Tried in this order; EUC-JP read as CP932 is half-width katakana, so the kana share tells them apart.
JAPANESE_CODECS = ("cp932", "euc_jp")
_KANA = re.compile(r"[\u3041-\u3096\u30a1-\u30fa\u30fc]")  # full-width hiragana and katakana
# Private-use characters (CP932's user-defined area) and C1 controls: never in a real document.
_UNLIKELY = re.compile(r"[\u0080-\u009f\ue000-\uf8ff]")
# Japanese prose is a third or more kana (particles, endings); a title of kanji and one particle
# is still above this, and garbage read from another script has none.
MIN_KANA_SHARE = 0.15
MIN_KANA = 2
_JAPANESE_NAMES = ("cp932", "shift_jis", "euc_j", "iso2022_jp", "iso-2022-jp")


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
    japanese = _as_japanese(data)
    if japanese is not None:
        return japanese
    from charset_normalizer import from_bytes  # only for the files that need it

    best = from_bytes(data).best()
    if best is None or best.chaos > MAX_CHAOS:
        raise KnowledgeFileError("not UTF-8, and its encoding could not be told", "save it as UTF-8")
    clean = _clean_japanese(data)
    if clean is not None and not best.encoding.lower().startswith(_JAPANESE_NAMES):
        raise KnowledgeFileError(
            f"not UTF-8, and its encoding could not be told: it reads as {best.encoding} ({best.language}) "
            f"and as Japanese {clean}",
            "save it as UTF-8",
        )
    return str(best), best.encoding


def _as_japanese(data: bytes) -> tuple[str, str] | None:
    """(text, codec) for the Japanese codec under which the bytes decode cleanly and read most
    as Japanese, kana being at least ``MIN_KANA_SHARE`` of the characters outside ASCII."""
    found: list[tuple[float, str, str]] = []
    for codec in JAPANESE_CODECS:
        text = _decoded(data, codec)
        if text is None:
            continue
        wide = [c for c in text if not c.isascii() and not c.isspace()]
        kana = len(_KANA.findall(text))
        if kana >= MIN_KANA and kana / len(wide) >= MIN_KANA_SHARE:
            found.append((kana / len(wide), text, codec))
    if not found:
        return None
    _, text, codec = max(found, key=lambda f: f[0])
    return text, codec


def _clean_japanese(data: bytes) -> str | None:
    """The first Japanese codec under which the bytes decode with nothing unlikely, or None."""
    return next((codec for codec in JAPANESE_CODECS if _decoded(data, codec) is not None), None)


def _decoded(data: bytes, codec: str) -> str | None:
    try:
        text = data.decode(codec)
    except UnicodeDecodeError:
        return None
    return None if _UNLIKELY.search(text) else text
