"""Labelled data for calibration: a JSON array or JSONL file of objects, field names mapped.

Each object becomes a ``LabelledItem`` — the texts a metric needs and a human label, normalised
to 0–1 — or an ``InputProblem`` that names the line and what is wrong (a missing field, a wrong
type, a label out of range, a duplicated id). The caller decides whether problems stop the run
or are skipped; nothing here silently drops an item.

Line numbers are real for JSON arrays too: elements are decoded one by one with
``raw_decode`` so each one's starting line is known.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from ..config.settings import LANGUAGES
from ..registry.metrics import DIALOGUE, MetricInfo, metric_info
from ..types.errors import RagtuiError

FIELDS = ("id", "question", "response", "reference", "context", "label", "language", "messages")
# The texts each metric cannot do without are its ``MetricInfo.label_fields``; others are optional
# (e.g. no question for STS pairs). Dialogue metrics judge a whole conversation: ``messages`` is a
# list of {role, content}.
# A labelled dialogue file may hold every label in one object, ``"labels": {"resolution": 0.5,
# "outcome": "partly_resolved", "retention": 1, "repetition": 0.8}``. Its repetition label counts
# repetition (1: the same answer in every turn); ragtui's score is 1 for *no* repetition, so that
# label (a metric's with ``inverted_label``) is inverted on load. A label named with --field is
# taken in ragtui's own direction.
CUSTOMER_ROLES = frozenset({"user", "customer"})
BOT_ROLES = frozenset({"assistant", "bot", "agent", "support"})


@dataclass(frozen=True)
class LabelledItem:
    key: str  # the item's id, or "line N" when the file has none; resuming matches on it
    line: int
    label: float  # 0–1; 0 or 1 for binary metrics
    language: str
    question: str = ""
    response: str = ""
    reference: str | None = None
    passages: tuple[str, ...] = ()
    # Earlier turns as (role, text), role "user" or "assistant" (the rubric set has multi-turn items).
    history: tuple[tuple[str, str], ...] = ()
    good: bool | None = None  # the rubric set's good/bad verdict, for the AUC between them
    messages: tuple[tuple[str, str], ...] = ()  # dialogue metrics: (user | bot, text) in order
    outcome: str | None = None  # resolution: the human outcome label, when the file has one


@dataclass(frozen=True)
class InputProblem:
    line: int
    message: str

    def __str__(self) -> str:
        return f"line {self.line}: {self.message}"


@dataclass
class LabelledSet:
    path: Path
    items: list[LabelledItem] = field(default_factory=list)
    problems: list[InputProblem] = field(default_factory=list)


def parse_field_options(options: list[str]) -> dict[str, str]:
    """``--field question=q`` options → {our name: the file's key}; the rest map to themselves."""
    mapping = {name: name for name in FIELDS}
    for option in options:
        name, sep, key = option.partition("=")
        name, key = name.strip(), key.strip()
        if not sep or not key:
            raise RagtuiError(f"--field {option!r} is not NAME=KEY", "for example --field label=similarity")
        if name not in FIELDS:
            raise RagtuiError(f"--field {name!r} is not a field ragtui uses", f"fields: {', '.join(FIELDS)}")
        mapping[name] = key
    return mapping


def read_records(path: Path) -> Iterator[tuple[int, Any]]:
    """(line number, decoded value) for each record of a JSONL file or a JSON array."""
    try:
        content = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise RagtuiError(f"labelled file {path} does not exist", "check the path") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise RagtuiError(f"cannot read labelled file {path}: {exc}", "it must be UTF-8 JSON or JSONL") from None
    stripped = content.lstrip()
    if path.suffix.lower() == ".json" or stripped.startswith("["):
        yield from _array_records(content, path)
        return
    for number, line in enumerate(content.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as exc:
            yield number, _BadJson(f"not valid JSON ({exc.msg} at column {exc.colno})")


@dataclass(frozen=True)
class _BadJson:
    message: str


def _array_records(content: str, path: Path) -> Iterator[tuple[int, Any]]:
    decoder = json.JSONDecoder()
    index = _skip_space(content, 0)
    if index >= len(content) or content[index] != "[":
        raise RagtuiError(f"{path} is not a JSON array of objects", "use a JSON array, or JSONL (one object per line)")
    index = _skip_space(content, index + 1)
    if index < len(content) and content[index] == "]":
        return
    while True:
        line = content.count("\n", 0, index) + 1
        try:
            value, index = decoder.raw_decode(content, index)
        except json.JSONDecodeError as exc:
            raise RagtuiError(f"{path}: line {exc.lineno}: not valid JSON ({exc.msg})", "fix the file") from None
        yield line, value
        index = _skip_space(content, index)
        if index < len(content) and content[index] == ",":
            index = _skip_space(content, index + 1)
            continue
        if index < len(content) and content[index] == "]":
            return
        line = content.count("\n", 0, index) + 1
        raise RagtuiError(f"{path}: line {line}: expected ',' or ']' in the JSON array", "fix the file")


def _skip_space(content: str, index: int) -> int:
    while index < len(content) and content[index] in " \t\r\n":
        index += 1
    return index


def load_labelled(
    path: Path,
    metric: str,
    fields: dict[str, str],
    *,
    binary: bool,
    label_max: float = 1.0,
    language: str = "en",
) -> LabelledSet:
    """Every record of ``path`` as an item or a problem, in file order."""
    result = LabelledSet(path)
    seen: dict[str, int] = {}
    for line, record in read_records(path):
        try:
            item = _item(record, line, metric, fields, binary, label_max, language)
        except _Problem as exc:
            result.problems.append(InputProblem(line, str(exc)))
            continue
        if item.key in seen:
            result.problems.append(InputProblem(line, f"duplicate id {item.key!r} (first on line {seen[item.key]})"))
            continue
        seen[item.key] = line
        result.items.append(item)
    return result


class _Problem(Exception):
    pass


def _item(
    record: Any, line: int, metric: str, fields: dict[str, str], binary: bool, label_max: float, language: str
) -> LabelledItem:
    if isinstance(record, _BadJson):
        raise _Problem(record.message)
    if not isinstance(record, dict):
        raise _Problem(f"expected a JSON object, got {type(record).__name__}")

    def text(name: str, required: bool) -> str | None:
        key = fields[name]
        if key not in record or record[key] is None:
            if required:
                raise _Problem(
                    f"missing field {key!r} ({name})" + (f" — map it with --field {name}=KEY" if key == name else "")
                )
            return None
        value = record[key]
        if not isinstance(value, str):
            raise _Problem(f"field {key!r} ({name}) must be text, got {type(value).__name__}")
        return value

    info = metric_info(metric)
    if info is None:
        raise RagtuiError(f"unknown metric {metric!r}")
    needed = info.label_fields
    if info.kind == DIALOGUE:
        return _dialogue_item(record, line, info, fields, label_max, language, text)
    question = text("question", "question" in needed) or ""
    response = text("response", "response" in needed) or ""
    reference = text("reference", "reference" in needed)
    passages = _passages(record, fields["context"], "context" in needed)
    label = _label(record, fields["label"], binary, label_max)
    item_language = text("language", False) or language
    if item_language not in LANGUAGES:
        raise _Problem(f"language must be one of {', '.join(LANGUAGES)}, got {item_language!r}")
    raw_id = record.get(fields["id"])
    if raw_id is not None and not isinstance(raw_id, (str, int)):
        raise _Problem(f"field {fields['id']!r} (id) must be text or a number")
    key = str(raw_id) if raw_id is not None else f"line {line}"
    good = record.get("good")
    if good is not None and not isinstance(good, bool):
        raise _Problem("field 'good' must be true or false")
    history = _history(record.get("history"))
    return LabelledItem(key, line, label, item_language, question, response, reference, passages, history, good)


def _history(value: Any) -> tuple[tuple[str, str], ...]:
    if value is None:
        return ()
    turns = []
    if isinstance(value, list):
        for turn in value:
            if not (isinstance(turn, dict) and turn.get("role") in ("user", "assistant")):
                break
            if not isinstance(turn.get("content"), str):
                break
            turns.append((turn["role"], turn["content"]))
        else:
            return tuple(turns)
    raise _Problem('field \'history\' must be a list of {"role": "user"|"assistant", "content": text}')


def _dialogue_item(
    record: dict[str, Any],
    line: int,
    info: MetricInfo,
    fields: dict[str, str],
    label_max: float,
    language: str,
    text: Any,
) -> LabelledItem:
    metric = info.name
    key = fields["messages"]
    raw = record.get(key)
    if not isinstance(raw, list) or not raw:
        raise _Problem(f"missing field {key!r} (messages): a non-empty list of {{role, content}} objects")
    messages: list[tuple[str, str]] = []
    for index, message in enumerate(raw, start=1):
        if not isinstance(message, dict):
            raise _Problem(f"message {index} must be an object with role and content")
        role = str(message.get("role", "")).strip().lower()
        content = message.get("content", message.get("text"))
        if role not in CUSTOMER_ROLES | BOT_ROLES:
            raise _Problem(f"message {index} has role {role!r}; use user or assistant")
        if not isinstance(content, str):
            raise _Problem(f"message {index} has no text in content")
        messages.append(("user" if role in CUSTOMER_ROLES else "bot", content))
    passages = _passages(record, fields["context"], False)
    found = record.get("labels")
    labels: dict[str, Any] = found if isinstance(found, dict) else {}
    if fields["label"] == "label" and "label" not in record and metric in labels:
        label = _label(labels, metric, False, label_max)
        if info.inverted_label:
            label = 1.0 - label
    else:
        label = _label(record, fields["label"], False, label_max)
    outcome = labels.get("outcome") if isinstance(labels.get("outcome"), str) else None
    item_language = text("language", False) or language
    if item_language not in LANGUAGES:
        raise _Problem(f"language must be one of {', '.join(LANGUAGES)}, got {item_language!r}")
    raw_id = record.get(fields["id"])
    key_text = str(raw_id) if isinstance(raw_id, (str, int)) else f"line {line}"
    return LabelledItem(
        key_text, line, label, item_language, passages=passages, messages=tuple(messages), outcome=outcome
    )


def _passages(record: dict[str, Any], key: str, required: bool) -> tuple[str, ...]:
    if key not in record or record[key] is None:
        if required:
            raise _Problem(f"missing field {key!r} (context)")
        return ()
    value = record[key]
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return tuple(value)
    raise _Problem(f"field {key!r} (context) must be text or a list of texts")


def _label(record: dict[str, Any], key: str, binary: bool, label_max: float) -> float:
    if key not in record or record[key] is None:
        raise _Problem(f"missing field {key!r} (label)")
    value = record[key]
    if isinstance(value, bool):
        if binary:
            return float(value)
        raise _Problem(f"label {key!r} must be a number, got a boolean")
    if not isinstance(value, (int, float)):
        raise _Problem(f"label {key!r} must be a number, got {type(value).__name__} {str(value)[:20]!r}")
    if binary:
        if value not in (0, 1):
            raise _Problem(f"label {key!r} must be 0 or 1 for a binary metric, got {value}")
        return float(value)
    if not 0 <= value <= label_max:
        raise _Problem(
            f"label {key!r} is {value}, outside 0–{label_max:g}"
            + ("" if label_max != 1 else " (use --label-max for other scales)")
        )
    return float(value) / label_max


class _HasLanguage(Protocol):
    @property
    def language(self) -> str: ...


Item = TypeVar("Item", bound=_HasLanguage)


def alternate_halves(items: list[Item], split: str) -> list[Item]:
    """``choose``: the 1st, 3rd, 5th… item of each language; ``report``: the 2nd, 4th…; ``all``:
    every item. One half tunes prompts and thresholds, the other reports agreement."""
    if split == "all":
        return items
    seen: dict[str, int] = {}
    chosen = []
    for item in items:
        position = seen.get(item.language, 0)
        seen[item.language] = position + 1
        if (position % 2 == 0) == (split == "choose"):
            chosen.append(item)
    return chosen
