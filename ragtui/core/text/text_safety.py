"""Model text made safe to show and to store elsewhere, while the database keeps it raw.

A reply may carry terminal escape sequences (a window title, a cleared screen, a C1 ``\\x9b``
that some terminals read as ESC [), other control characters, bidi overrides, or a lone UTF-16
surrogate from a JSON ``\\ud800`` escape. Two ways out, both defined here only:

- ``visible``: the CLI views and the CSV render controls *visibly* — ESC as ``␛``, so
  ``\\x1b[31m`` reads ``␛[31m`` — so a reader sees that they were there;
- ``strip_controls``: text kept as plain words — the scenarios the generator writes, and every
  widget of the TUI (``ragtui/tui/safe_text.py`` builds on it) — loses each escape sequence
  whole and every other control character.
"""

from __future__ import annotations

import json
import re
import sys

# C0 controls but tab and newline, DEL, C1 controls, bidi embeddings/overrides/isolates.
_CONTROLS = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROLS_BUT_NEWLINE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
CONTROL_CHARACTER = _CONTROLS_BUT_NEWLINE  # one that ``visible`` draws and ``strip_controls`` removes


# An escape sequence, removed whole: CSI (ESC [ … final byte), OSC (ESC ] … up to BEL or ST, or
# to the end when never ended) and any other two-character ESC sequence. A window title
# "ESC]0;pwned BEL" leaves neither the ESC nor "0;pwned" behind.
ESCAPE_SEQUENCE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?")


def strip_controls(text: str) -> str:
    """``text`` as plain words: escape sequences removed whole, every other control character
    but tab and newline removed, bidi embeddings, overrides and isolates removed; CR and CRLF
    become newlines and a lone surrogate U+FFFD. Nothing left in it can move the cursor, set a
    title, ring the bell or reorder what a reader sees."""
    text = fix_surrogates(text).replace("\r\n", "\n").replace("\r", "\n")
    return _CONTROLS_BUT_NEWLINE.sub("", ESCAPE_SEQUENCE.sub("", text))


def fix_surrogates(text: str) -> str:
    """Surrogate pairs become their character and a lone surrogate U+FFFD, instead of failing
    every later encode (SQLite, the terminal, the CSV) and losing the whole answer."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # the Unicode "control pictures": ␛ ␇ ␈ …
    if code == 0x7F:
        return "\u2421"  # ␡
    if code <= 0x9F:
        return "\u241b" + chr(code - 0x40)  # C1 as its 7-bit form: \x9b → ␛[
    return f"<U+{code:04X}>"  # bidi controls


def visible(text: str, *, keep_newlines: bool = True) -> str:
    """``text`` with every control character drawn visibly; tabs (and newlines unless told
    otherwise) kept. Safe to print to a terminal."""
    text = fix_surrogates(text).replace("\r\n", "\n")
    pattern = _CONTROLS_BUT_NEWLINE if keep_newlines else _CONTROLS
    return pattern.sub(_picture, text)


def error_line(message: str) -> None:
    """One error, on one line of stderr, unwrapped, so it can be grepped and read in CI logs.
    Shared by the CLI and the TUI's start-up, which must not import the CLI."""
    sys.stderr.write(" ".join(visible(message, keep_newlines=False).split()) + "\n")
    sys.stderr.flush()


def csv_text(text: str) -> str:
    """A CSV cell's text: no C0/C1 control but tab and newline (a lone CR becomes a newline)."""
    return visible(text.replace("\r\n", "\n").replace("\r", "\n"))


# JSON escapes C0 controls itself; these it would write raw with ensure_ascii=False. Line and
# paragraph separators too: some JSONL readers split lines on them.
_JSON_RAW_CONTROLS = re.compile(r"[\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def json_line(value: object) -> str:
    """One JSON text for a JSONL file: readable UTF-8, but every control character that a
    terminal or an editor would act on written as a ``\\uXXXX`` escape. Parsing it gives back the
    exact text (unlike ``visible``): the file is data for other tools, not a view."""
    text = json.dumps(value, ensure_ascii=False)
    return _JSON_RAW_CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
