"""A conversation file is streamed, never read whole: reading (and importing) a file many times
larger than the memory it may use keeps Python's peak allocation bounded, in every format. The
files are made by a generator here, a few megabytes each — the same code path a 2 GB export takes."""

from __future__ import annotations

import csv
import json
import tracemalloc
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ragtui.core.conversations.reading import ReadOptions, read_conversations
from ragtui.core.runs.importing import ImportRequest, import_conversations
from ragtui.core.store.store import Store

# Files of many megabytes, read and imported: the slow tier (`pytest -m slow`).
pytestmark = pytest.mark.slow

TARGET_BYTES = 4 * 1024 * 1024
BOUND_BYTES = 1536 * 1024  # well under half the file: a file read whole would not fit


def _turns(index: int, length: int = 1) -> Iterator[tuple[str, str]]:
    yield "user", f"Conversation {index}: my account {index} is locked and I tried everything. " * 3 * length
    yield "assistant", "Accounts lock for 30 minutes after five wrong passwords; reset it from the sign-in screen. " * 2
    yield "user", f"Thanks, mail me at user{index}@example.com"


def write_jsonl(path: Path, length: int = 1) -> int:
    """Conversations of about 700 bytes (``length`` times more of the customer's first message)."""
    count = 0
    with path.open("w", encoding="utf-8") as out:
        while out.tell() < TARGET_BYTES:
            messages = [{"role": r, "content": t} for r, t in _turns(count, length)]
            out.write(json.dumps({"id": f"c{count}", "messages": messages}) + "\n")
            count += 1
    return count


def write_csv(path: Path) -> int:
    count = 0
    with path.open("w", encoding="utf-8", newline="") as out:
        writer = csv.writer(out)
        writer.writerow(["conversation_id", "role", "text", "time"])
        while out.tell() < TARGET_BYTES:
            for role, text in _turns(count):
                writer.writerow([f"c{count}", role, text, "2024-01-01T00:00:00Z"])
            count += 1
    return count


def write_helpdesk(path: Path) -> int:
    """One minified JSON document on a single line: no line to split on, read in pieces."""
    count = 0
    with path.open("w", encoding="utf-8") as out:
        out.write('{"type":"conversation.list","conversations":[')
        while out.tell() < TARGET_BYTES:
            (_, first), *rest = list(_turns(count))
            parts = [
                {
                    "part_type": "comment",
                    "author": {"type": "bot" if role == "assistant" else "user"},
                    "body": f"<p>{text}</p>",
                }
                for role, text in rest
            ]
            item = {"id": count, "source": {"author": {"type": "user"}, "body": f"<p>{first}</p>"}}
            item["conversation_parts"] = {"conversation_parts": parts}
            out.write(("," if count else "") + json.dumps(item, separators=(",", ":")))
            count += 1
        out.write('],"pages":{"next":null}}')
    return count


WRITERS: dict[str, Callable[[Path], int]] = {"c.jsonl": write_jsonl, "c.csv": write_csv, "c.json": write_helpdesk}


@pytest.mark.parametrize("name", list(WRITERS))
def test_reading_a_large_file_keeps_memory_bounded(tmp_path, name):
    path = tmp_path / name
    written = WRITERS[name](path)
    assert path.stat().st_size >= TARGET_BYTES
    tracemalloc.start()
    try:
        count = last = 0
        for conversation in read_conversations(path, ReadOptions()):
            count += 1
            last = len(conversation.messages)
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == written and last == 3
    assert peak < BOUND_BYTES, f"{name}: peak {peak:,} bytes reading a {path.stat().st_size:,}-byte file"


def test_importing_a_large_file_keeps_memory_bounded_and_stores_every_conversation(tmp_path):
    """Fewer, longer conversations than above (each about 25 kB): what is held per conversation
    while it is redacted and stored must be let go before the next."""
    path = tmp_path / "c.jsonl"
    written = write_jsonl(path, length=100)
    warm = tmp_path / "warm.jsonl"  # modules loaded on first use (sqlite-utils) are not the file's memory
    warm.write_text('{"messages": [{"role": "user", "content": "hi"}]}\n', encoding="utf-8")
    import_conversations(tmp_path / "warm.db", ImportRequest([warm]))
    tracemalloc.start()
    try:
        outcome = import_conversations(tmp_path / "r.db", ImportRequest([path]))
        _current, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert outcome.conversations == written and outcome.redactions["email"] == written
    assert peak < BOUND_BYTES, f"peak {peak:,} bytes importing a {path.stat().st_size:,}-byte file"
    store = Store.open_read_only(tmp_path / "r.db")
    try:
        assert store._db.execute("SELECT COUNT(*) FROM sessions WHERE kind = 'imported'").fetchone()[0] == written
        leaked = store._db.execute("SELECT COUNT(*) FROM messages WHERE text LIKE '%@example.com%'").fetchone()[0]
        assert leaked == 0
    finally:
        store.close()
