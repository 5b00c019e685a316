"""A file's first problem as one line: the file, the table path, the key, and what was expected
or what rule is broken — for a declared dataclass (``reader.py``) and a pydantic model
(``validation.py``) alike, from the error list pydantic-core gives both. Imports no pydantic:
it runs when reading has already failed.
"""

from __future__ import annotations

import json
import re
import typing
from collections.abc import Mapping
from typing import Any, Protocol

from ..types.errors import ConfigError
from .declared import file_keys, form_of, is_table, parts, table_at
from .rules import RAGTUI, got


class Problems(Protocol):
    """pydantic-core's ``ValidationError``, or ``reader.Problems``: the problems found, each a
    dict with its ``type``, ``loc``, ``msg``, ``input`` and ``ctx``."""

    def errors(self) -> Any: ...


# What a wrong-typed value should have been, in TOML people's words (Python's type names, as before).
EXPECTED = {
    "string_type": "str",
    "int_type": "int",
    "float_type": "int or float",
    "bool_type": "bool",
    "list_type": "list",
    "dict_type": "dict",
    "model_type": "dict",
    "model_attributes_type": "dict",
}
TABLE_ERRORS = {"dict_type", "model_type", "model_attributes_type"}
BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def config_error(
    exc: Problems, model: type, data: object, where: str, *, top_level: bool = False, note: str = ""
) -> ConfigError:
    """The first problem of ``exc`` as one line: ``where`` (the file, and the table when the data is
    one), the dotted table path, the key, and what was expected or what rule is broken.

    ``top_level``: ``data`` is a whole file, so its tables are written ``[roles.judge]``; inside a
    table they are dotted keys (``headers.X-Api-Key``). ``note`` follows the table in messages about
    its keys (``[bot] (type http): unknown key 'answer'``)."""
    errors = exc.errors()
    # Like the checks before them: a typo in a key name is reported before what its neighbours hold.
    error = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])
    kind, loc = error["type"], tuple(error["loc"])
    whole = kind in TABLE_ERRORS or (kind == RAGTUI and isinstance(_value_at(data, loc), dict))
    if kind in ("extra_forbidden", "missing"):
        parent, key = _where(where, loc[:-1], data, model, top_level, whole=True), loc[-1]
        parent += f" ({note})" if note else ""
        if kind == "missing":
            return ConfigError(f"{parent}: missing key {key!r}", _hint(model, loc[:-1], str(key)))
        allowed = _fields(model, loc[:-1])
        return ConfigError(f"{parent}: unknown key {key!r}", f"allowed keys: {', '.join(allowed)}" if allowed else "")
    at = _where(where, loc, data, model, top_level, whole=whole)
    if kind == RAGTUI:
        context = error.get("ctx") or {}
        problem, hint = str(context.get("problem", error["msg"])), str(context.get("hint", ""))
        return ConfigError(f"{at}{'' if problem[:1] in ':.' else ' '}{problem}", hint)
    value = error.get("input")
    if kind == "literal_error":
        choices = re.findall(r"'([^']*)'", str((error.get("ctx") or {}).get("expected", "")))
        return ConfigError(f"{at} must be one of {', '.join(choices)}, got {value!r}")
    expected = EXPECTED.get(kind)
    if expected is not None:
        return ConfigError(f"{at} must be {expected}, got {type(value).__name__} {value!r}")
    return ConfigError(f"{at}: {error['msg'].lower()}, got {got(value)}")


def _where(where: str, loc: tuple[Any, ...], data: object, model: type, top_level: bool, whole: bool) -> str:
    """``where`` and ``loc`` in a person's words: ``f: [roles.judge] temperature``, ``f: policy #2 text``,
    ``f: [bot] headers.X-Api-Key``, ``f: scenario 'x' expect[1] contains``."""
    segments: list[str] = []
    names: list[str] = []  # the keys since the last segment, dotted
    node: object = data
    arrays = _named_arrays(model)
    for part in loc:
        child = _child(node, part)
        if isinstance(part, int) and names and names[-1] in arrays:
            segments += [_tables(names[:-1], top_level and not segments)] if names[:-1] else []
            eid = child.get("id") if isinstance(child, dict) else None
            segments.append(f"{names[-1]} {eid!r}" if isinstance(eid, str) else f"{names[-1]} #{part + 1}")
            names = []
        elif isinstance(part, int) and names:
            names[-1] += f"[{part + 1}]"
        elif names and names[-1].endswith("]"):
            # a key of a list's item follows it after a space: ``expect[1] contains``
            segments += [_tables(names, top_level and not segments)]
            names = [_key(part)]
        else:
            names.append(_key(part))
        node = child
    tables, key = (names, []) if whole else (names[:-1], names[-1:])
    if tables and top_level and not segments:
        segments.append(_tables(tables, bracket=True))
        tables = []
    segments += [".".join(tables + key)] if tables or key else []
    if not segments:
        return where
    return f"{where}{': ' if top_level else ' '}{' '.join(segments)}"


def _key(part: object) -> str:
    """A key as TOML writes it: bare when it can be (``gpt-4o``), else quoted (``"gpt-4.1"``)."""
    text = str(part)
    return text if BARE_KEY.fullmatch(text) else json.dumps(text, ensure_ascii=False)


def _tables(names: list[str], bracket: bool) -> str:
    return f"[{'.'.join(names)}]" if bracket else ".".join(names)


def _child(node: object, part: object) -> object:
    if isinstance(node, Mapping):
        return node.get(part)
    if isinstance(node, list) and isinstance(part, int) and 0 <= part < len(node):
        return node[part]
    return None


def _value_at(data: object, loc: tuple[Any, ...]) -> object:
    for part in loc:
        data = _child(data, part)
    return data


def _is_model(cls: object) -> bool:
    """A pydantic model (``TomlTable``), told by its fields rather than by importing pydantic."""
    return isinstance(cls, type) and isinstance(getattr(cls, "model_fields", None), dict)


def _named_arrays(table: type) -> frozenset[str]:
    return getattr(table, "named_arrays", frozenset()) if _is_model(table) else form_of(table).named_arrays


def _table_at(model: type, loc: tuple[Any, ...]) -> type | None:
    """The model or declared class that reads the table at ``loc`` (for the keys it allows),
    following fields, ``dict`` values and ``list`` items."""
    if not _is_model(model):
        return table_at(model, loc)
    current: Any = model
    for index, part in enumerate(loc):
        if _is_model(current):
            field = current.model_fields.get(str(part))
            current = _unwrap(field.annotation) if field is not None else None
        elif is_table(current):
            return table_at(current, loc[index:])
        else:
            args = [a for a in typing.get_args(current) if a is not type(None)]
            current = _unwrap(args[-1]) if args else None
        if current is None:
            return None
    return current if _is_model(current) or is_table(current) else None


def _unwrap(annotation: Any) -> Any:
    """``X | None`` and ``Annotated[X, ...]`` → ``X``."""
    return parts(annotation)[0]


def _fields(model: type, loc: tuple[Any, ...]) -> list[str]:
    found = _table_at(model, loc)
    if found is None:
        return []
    return sorted(typing.cast(Any, found).model_fields) if _is_model(found) else file_keys(found)


def _hint(model: type, loc: tuple[Any, ...], key: str) -> str:
    """A table's own advice for a missing key (its ``missing_hints``), if it has one."""
    found = _table_at(model, loc)
    if found is None:
        return ""
    hints: Mapping[str, str] = getattr(found, "missing_hints", {}) if _is_model(found) else form_of(found).missing_hints
    return hints.get(key, "")
