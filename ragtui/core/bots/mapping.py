"""From whatever a bot returned to ragtui's answer text and passages.

Bots describe their retrieved passages in many shapes: plain strings, ``{title, text, source}``,
``{content, url}``, LangChain documents (``page_content`` + ``metadata``). The configured JSON
paths are tried first, then the usual field names, so most bots need no passage settings.
"""

from __future__ import annotations

from typing import Any

from ..config.bot_config import PassageMapping
from ..text.json_path import JsonPath
from ..types.passages import Passage

# A bot that returns hundreds of passages would drown the judge's prompt; these bound it.
MAX_PASSAGES = 50
MAX_PASSAGE_CHARS = 20_000
TEXT_KEYS = ("text", "content", "page_content", "chunk", "snippet", "body", "passage")
TITLE_KEYS = ("title", "name", "heading")
SOURCE_KEYS = ("source", "url", "uri", "doc_id", "id", "filepath", "path", "document")


def passages_from(document: Any, mapping: PassageMapping | None) -> list[Passage]:
    """The passages ``mapping.path`` reaches in a JSON document (a list there is flattened)."""
    if mapping is None or mapping.path is None:
        return []
    items: list[Any] = []
    for found in mapping.path.find(document):
        items.extend(found if isinstance(found, list) else [found])
    return coerce_passages(items, mapping)


def coerce_passages(items: Any, mapping: PassageMapping | None = None) -> list[Passage]:
    """Passages from a list of strings, objects or LangChain-style documents; others skipped."""
    if items is None:
        return []
    if isinstance(items, (str, dict)) or not hasattr(items, "__iter__"):
        items = [items]
    passages = []
    for item in items:
        passage = to_passage(item, mapping)
        if passage is not None:
            passages.append(passage)
        if len(passages) >= MAX_PASSAGES:
            break
    return passages


def to_passage(item: Any, mapping: PassageMapping | None = None) -> Passage | None:
    if isinstance(item, str):
        return _passage(item, "", "") if item.strip() else None
    if not isinstance(item, dict):
        item = _object_as_dict(item)
        if item is None:
            return None
    metadata = item.get("metadata") if isinstance(item.get("metadata"), dict) else {}
    text = _pick(item, mapping.text if mapping else None, TEXT_KEYS)
    title = _pick(item, mapping.title if mapping else None, TITLE_KEYS) or _pick(metadata, None, TITLE_KEYS)
    source = _pick(item, mapping.source if mapping else None, SOURCE_KEYS) or _pick(metadata, None, SOURCE_KEYS)
    if not text:
        return None
    return _passage(text, title, source)


def _pick(item: dict[str, Any], path: JsonPath | None, fallbacks: tuple[str, ...]) -> str:
    candidates = [path.first(item)] if path is not None else []
    candidates += [item.get(key) for key in fallbacks]
    for value in candidates:
        if isinstance(value, str) and value.strip():
            return value
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return str(value)
    return ""


def _object_as_dict(item: Any) -> dict[str, Any] | None:
    """LangChain ``Document``, dataclasses and similar: read their attributes."""
    fields = {key: getattr(item, key, None) for key in (*TEXT_KEYS, *TITLE_KEYS, *SOURCE_KEYS, "metadata")}
    fields = {key: value for key, value in fields.items() if value is not None}
    return fields or None


def _passage(text: str, title: str, source: str) -> Passage:
    return Passage(doc_id=source, title=title, text=text[:MAX_PASSAGE_CHARS])


def answer_text(value: Any) -> str | None:
    """The answer a path reached, as text; None when it is not text (an object, a list…)."""
    if isinstance(value, str):
        return value
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return None


def passages_to_json(passages: list[Passage]) -> list[dict[str, str]]:
    """The reference contract's passage shape: ``{title, text, source}``."""
    return [{"title": p.title, "text": p.text, "source": p.doc_id} for p in passages]
