"""FAQ exports, CSV or JSON: one question and answer per row, each row a section of its own (its
question as the heading), so every row becomes one passage unless its answer is very long.

Columns (CSV header or JSON keys) are recognised by name in English and Japanese — question /
q / 質問, answer / a / 回答, and an optional category / カテゴリ that goes above the question."""

from __future__ import annotations

import csv
import io
import json
from pathlib import PurePosixPath
from typing import Any

from ...registry.loaders import DocumentLoader
from ...types.errors import KnowledgeFileError
from ...types.knowledge import Document, Section
from ..decode import decode_text

QUESTION = ("question", "q", "title", "faq", "質問", "問い", "質問文", "タイトル")
ANSWER = ("answer", "a", "body", "content", "response", "回答", "答え", "回答文", "本文")
CATEGORY = ("category", "section", "topic", "カテゴリ", "カテゴリー", "分類")
WANTED = "a 'question' and an 'answer' column (or 質問 / 回答)"


def _column(names: list[str], wanted: tuple[str, ...]) -> str | None:
    lowered = {name.strip().lower(): name for name in names}
    return next((lowered[w] for w in wanted if w in lowered), None)


def faq_document(rows: list[dict[str, Any]], path: str, format_name: str) -> Document:
    names = list(dict.fromkeys(k for row in rows for k in row if isinstance(k, str)))
    question, answer = _column(names, QUESTION), _column(names, ANSWER)
    if question is None or answer is None:
        raise KnowledgeFileError(f"a FAQ without {WANTED}; its columns are: {', '.join(names[:8]) or 'none'}")
    category = _column(names, CATEGORY)
    text = ""
    sections = []
    for row in rows:
        q, a = _cell(row.get(question)), _cell(row.get(answer))
        if not q or not a:
            continue  # a row without both halves answers nothing
        block = f"{q}\n\n{a}"
        if text:
            text += "\n\n"
        heading = (c, q) if category and (c := _cell(row.get(category))) else (q,)
        sections.append(Section(heading, len(text), len(text) + len(block)))
        text += block
    if not sections:
        raise KnowledgeFileError("a FAQ with no row that has both a question and an answer")
    return Document(path, format_name, PurePosixPath(path).stem, text, tuple(sections))


def _cell(value: Any) -> str:
    return " ".join(str(value).split()) if value is not None and not isinstance(value, (dict, list)) else ""


def load_csv(data: bytes, path: str) -> Document:
    text, _ = decode_text(data)
    try:
        dialect: Any = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        rows = list(csv.DictReader(io.StringIO(text), dialect=dialect))
    except csv.Error as exc:
        raise KnowledgeFileError(f"not a readable CSV ({exc})") from None
    return faq_document(rows, path, "faq-csv")


def load_json(data: bytes, path: str) -> Document:
    text, _ = decode_text(data)
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        raise KnowledgeFileError(f"not valid JSON (line {exc.lineno}: {exc.msg})") from None
    rows = _rows(value)
    if rows is None:
        raise KnowledgeFileError(f"JSON without a list of FAQ entries; each entry needs {WANTED}")
    return faq_document(rows, path, "faq-json")


def _rows(value: Any) -> list[dict[str, Any]] | None:
    """The entries: the top-level list, or the first list of objects under a key ({"faqs": […]})."""
    if isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        return value
    if isinstance(value, dict):
        for inner in value.values():
            if (rows := _rows(inner)) is not None:
                return rows
    return None


FAQ_CSV = DocumentLoader("faq-csv", (".csv",), load_csv, "FAQ sheets: one question/answer row each")
FAQ_JSON = DocumentLoader("faq-json", (".json",), load_json, "FAQ exports: a list of question/answer objects")
