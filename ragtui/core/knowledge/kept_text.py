"""Text set aside while a static-site page is cleaned (code, ``{% raw %}`` blocks), so that no
rule meant for prose touches it, and put back at the end exactly as it was.

Each kept piece is replaced by a token of NUL characters and digits, which no rule matches and
which a decoded document never holds (a file with NUL bytes is refused as binary)."""

from __future__ import annotations

import re

_TOKEN = re.compile("\x00(\\d+)\x00")


class KeptText:
    def __init__(self) -> None:
        self._pieces: list[str] = []

    def keep(self, text: str) -> str:
        """A token standing for ``text`` until ``restore``."""
        self._pieces.append(text)
        return f"\x00{len(self._pieces) - 1}\x00"

    def restore(self, text: str) -> str:
        # A kept piece may hold an earlier piece's token (a ``{% raw %}`` inside a code fence);
        # a piece only ever holds earlier ones, so this ends.
        while _TOKEN.search(text):
            text = _TOKEN.sub(lambda m: self._pieces[int(m.group(1))], text)
        return text
