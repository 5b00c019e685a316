"""Model replies kept by what was asked, so generating again after an interruption (Ctrl-C, a
budget, a dead endpoint) pays only for what was not answered yet. One JSON line per reply,
appended and flushed as it arrives: a kill loses at most the line being written, and a torn last
line is ignored when read.

Items generated at once may ask the very same request (two kinds of item written for one part of
a passage check the same quote): the second waits for the first's reply instead of asking again,
so several slots ask exactly the requests one slot asks."""

from __future__ import annotations

import asyncio
import hashlib
import json
from pathlib import Path
from typing import Any


def request_key(model: str, messages: list[dict[str, str]], schema: dict[str, Any]) -> str:
    blob = json.dumps([model, messages, schema], ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class ReplyCache:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._replies: dict[str, str] = {}
        self._asking: dict[str, asyncio.Lock] = {}
        if path is not None and path.is_file():
            for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                try:
                    entry = json.loads(line)
                    self._replies[str(entry["key"])] = str(entry["reply"])
                except (ValueError, KeyError, TypeError):
                    continue  # the torn last line of a killed run

    def asking(self, key: str) -> asyncio.Lock:
        """Held while ``key`` is being asked: an identical request waits, then reads the cache."""
        return self._asking.setdefault(key, asyncio.Lock())

    def get(self, key: str) -> str | None:
        return self._replies.get(key)

    def put(self, key: str, reply: str) -> None:
        self._replies[key] = reply
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps({"key": key, "reply": reply}, ensure_ascii=False) + "\n")
            handle.flush()
