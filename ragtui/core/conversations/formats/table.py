"""CSV and TSV with one row per message: a conversation id, who spoke, the text, and optionally
when. The rows of a conversation are together, in the order they were said.

The columns are found by their header, in English or Japanese (case, width and spaces aside):

- id: conversation_id, conversation, ticket, ticket_id, thread_id, session_id, chat_id, case_id,
  会話ID, チケット, チケットID, 問い合わせID, スレッドID
- role: role, speaker, author, sender, from, who, author_type, 話者, 発言者, 送信者, 役割
- text: text, message, body, content, utterance, comment, 本文, 内容, メッセージ, 発言, 発話
- time (optional): time, timestamp, created_at, date, datetime, sent_at, 日時, 時刻, 日付, 送信日時

``--columns id=…,role=…,text=…,time=…`` names them when the header says otherwise. A CSV's
delimiter is read from its header line (comma, semicolon or tab); a .tsv is tab-separated."""

from __future__ import annotations

import csv
import itertools
import sys
import unicodedata
from collections.abc import Iterator, Mapping

from ...registry.conversation_loaders import ConversationInput, ConversationLoader
from ...types.conversations import ImportProblem, RawConversation, RawMessage

FIELDS = ("id", "role", "text", "time")
NAMES: dict[str, tuple[str, ...]] = {
    "id": (
        "conversation_id", "conversation", "conversationid", "ticket", "ticket_id", "thread", "thread_id",
        "session", "session_id", "chat_id", "dialog_id", "dialogue_id", "case_id", "会話id", "会話番号", "チケット",
        "チケットid", "チケット番号", "問い合わせid", "お問い合わせid", "問い合わせ番号", "スレッドid", "セッションid",
    ),
    "role": (
        "role", "speaker", "author", "sender", "from", "who", "author_type", "speaker_type", "sender_type",
        "話者", "発言者", "送信者", "役割", "ロール", "発信者",
    ),
    "text": (
        "text", "message", "body", "content", "utterance", "comment", "message_text", "本文", "内容", "メッセージ",
        "発言", "発話", "テキスト", "発言内容",
    ),
    "time": (
        "time", "timestamp", "created_at", "date", "datetime", "sent_at", "日時", "時刻", "日付", "送信日時",
        "作成日時", "発言日時",
    ),
}  # fmt: skip
MAX_FIELD = 16 * 1024 * 1024


def column_key(name: str) -> str:
    text = unicodedata.normalize("NFKC", name).strip().casefold()
    return "_".join(text.replace("-", " ").split())


def pick_columns(header: list[str], given: Mapping[str, str]) -> dict[str, int]:
    """field → column index; ImportProblem (row 1) for a --columns name not in the header, or a
    header without an id, a role or a text column."""
    keys = [column_key(name) for name in header]
    shown = ", ".join(repr(name) for name in header[:12]) or "none"
    found: dict[str, int] = {}
    for field, name in given.items():
        if name in header:
            found[field] = header.index(name)
        elif column_key(name) in keys:
            found[field] = keys.index(column_key(name))
        else:
            raise ImportProblem(f"--columns {field}={name}: no such column; the columns are {shown}", 1)
    for field in FIELDS:
        if field not in found:
            index = next((keys.index(n) for n in NAMES[field] if n in keys), None)
            if index is not None:
                found[field] = index
    for field in ("role", "text", "id"):
        if field not in found:
            what = {"id": "conversation id", "role": "role (who spoke)", "text": "message text"}[field]
            raise ImportProblem(
                f"no {what} column; the columns are {shown}",
                1,
                f"name it with --columns {field}=COLUMN (e.g. --columns id=ticket,role=speaker,text=body)",
            )
    return found


def read_csv(source: ConversationInput) -> Iterator[RawConversation]:
    return _read(source, None)


def read_tsv(source: ConversationInput) -> Iterator[RawConversation]:
    return _read(source, "\t")


def _read(source: ConversationInput, delimiter: str | None) -> Iterator[RawConversation]:
    csv.field_size_limit(max(csv.field_size_limit(), min(MAX_FIELD, sys.maxsize)))
    lines = source.lines()
    first = next(lines, None)
    if first is None or not first.strip():
        raise ImportProblem("an empty file, or no header row", 1)
    delimiter = delimiter or max(",;\t", key=first.count)
    reader = csv.reader(itertools.chain([first], lines), delimiter=delimiter)
    at = [1]  # the row being read (the header is row 1, as a spreadsheet numbers them)
    try:
        header = next(reader)
        columns = pick_columns(header, source.columns)
        yield from _conversations(reader, columns, header, at)
    except csv.Error as exc:
        raise ImportProblem(f"not readable as CSV ({exc})", at[0] + 1) from None


def _conversations(
    reader: Iterator[list[str]], columns: dict[str, int], header: list[str], at: list[int]
) -> Iterator[RawConversation]:
    key: str | None = None
    start = 0
    messages: list[RawMessage] = []
    began: dict[str, int] = {}  # conversation id → its first row (a conversation's rows must be together)
    for row, cells in enumerate(reader, start=2):
        at[0] = row
        if not any(cell.strip() for cell in cells):
            continue
        cell = {field: cells[i].strip() if i < len(cells) else "" for field, i in columns.items()}
        if not cell["id"]:
            raise ImportProblem(f"no conversation id in column {header[columns['id']]!r}", row)
        if not cell["role"]:
            raise ImportProblem(f"no role in column {header[columns['role']]!r}", row)
        if cell["id"] != key:
            if key is not None:
                yield RawConversation(key, start, tuple(messages))
            if cell["id"] in began:
                raise ImportProblem(
                    f"conversation {cell['id']!r} goes on here after other conversations (it began at row "
                    f"{began[cell['id']]}); the rows of a conversation must be together",
                    row,
                    "sort the rows by conversation id, keeping each conversation's rows in their order",
                )
            key, start, messages = cell["id"], row, []
            began[key] = row
        text = cells[columns["text"]] if columns["text"] < len(cells) else ""  # unstripped: the importer tidies it
        messages.append(RawMessage(cell["role"], text, row, cell.get("time") or None))
    if key is not None:
        yield RawConversation(key, start, tuple(messages))


CSV = ConversationLoader("csv", (".csv",), read_csv, "CSV, a row per message: conversation id, role, text, time", "row")
TSV = ConversationLoader(
    "tsv", (".tsv", ".tab"), read_tsv, "TSV, a row per message: conversation id, role, text, time", "row"
)
