"""Hand-written TOML checked by declaration: pydantic models, and one translation of their errors.

Every table people write (ragtui.toml, the ``[bot]`` table, personas, scenarios, expectations)
is a ``TomlTable``: unknown keys are refused (a typo must fail loudly, not be ignored) and types
are strict (``true`` is not a number, ``"3"`` is not an int, as TOML people expect). Rules a type
cannot say are validators that raise ``invalid(...)`` with the wording the user reads.

:func:`validate` runs a model and turns the first problem into one ``ConfigError`` line naming
the file, the table path and the key, and what was expected (``config_error``).
"""

from __future__ import annotations

import json
import re
import types
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, ValidationError
from pydantic_core import PydanticCustomError

from ..types.errors import ConfigError
from .limits import count_text

Model = TypeVar("Model", bound=BaseModel)

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
RAGTUI = "ragtui"  # the error type of ``invalid``: its message is the user's wording


class TomlTable(BaseModel):
    """A table of a hand-written TOML file: unknown keys refused, types strict."""

    model_config = ConfigDict(extra="forbid", strict=True, protected_namespaces=(), arbitrary_types_allowed=True)

    # The arrays of tables (``[[policy]]``) whose items are named by their ``id`` (else ``#n``) in messages.
    named_arrays: typing.ClassVar[frozenset[str]] = frozenset()
    # Advice for a missing key, by key, added to the message's hint.
    missing_hints: typing.ClassVar[Mapping[str, str]] = {}


def invalid(problem: str, hint: str = "") -> PydanticCustomError:
    """A rule broken, in the user's words, said after the key: ``"must be positive, got 0"``.
    A problem that starts with ``:`` or ``.`` is joined to the key without a space."""
    return PydanticCustomError(RAGTUI, "{problem}", {"problem": problem, "hint": hint})


def got(value: object) -> str:
    """A value as a message shows it: numbers short (``3``, ``0.5``), anything else quoted."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return repr(value)
    if isinstance(value, int):
        return count_text(value)  # whole when it fits: `:g` would show 999999999 as 1e+09
    return f"{value:g}"


def between(low: float, high: float, hint: str = "") -> AfterValidator:
    def check(value: float) -> float:
        if not low <= value <= high:
            raise invalid(f"must be between {low:g} and {high:g}, got {got(value)}", hint)
        return value

    return AfterValidator(check)


def at_least(low: int, words: str = "", hint: str = "") -> AfterValidator:
    """``words`` replaces "at least N" (``"0 or more"``, ``"0 (automatic) or more"``)."""

    def check(value: int) -> int:
        if value < low:
            raise invalid(f"must be {words or f'at least {low}'}, got {got(value)}", hint)
        return value

    return AfterValidator(check)


def at_most(high: int) -> AfterValidator:
    """A count with a ceiling (``limits.py``): past it the value is a typo, not a plan."""

    def check(value: int) -> int:
        if value > high:
            raise invalid(f"must be at most {high}, got {got(value)}", f"set {high} or fewer")
        return value

    return AfterValidator(check)


def positive() -> AfterValidator:
    def check(value: float) -> float:
        if value <= 0:
            raise invalid(f"must be positive, got {got(value)}")
        return value

    return AfterValidator(check)


def validate(model: type[Model], data: object, where: str, *, top_level: bool = False, note: str = "") -> Model:
    """``model`` of ``data``, or the first problem as one ``ConfigError`` line (see :func:`config_error`)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise config_error(exc, model, data, where, top_level=top_level, note=note) from None


def config_error(
    exc: ValidationError, model: type[BaseModel], data: object, where: str, *, top_level: bool = False, note: str = ""
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


def _where(where: str, loc: tuple[Any, ...], data: object, model: type[BaseModel], top_level: bool, whole: bool) -> str:
    """``where`` and ``loc`` in a person's words: ``f: [roles.judge] temperature``, ``f: policy #2 text``,
    ``f: [bot] headers.X-Api-Key``, ``f: scenario 'x' expect[1] contains``."""
    segments: list[str] = []
    names: list[str] = []  # the keys since the last segment, dotted
    node: object = data
    arrays: frozenset[str] = getattr(model, "named_arrays", frozenset())
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


def _model_at(model: type[BaseModel], loc: tuple[Any, ...]) -> type[BaseModel] | None:
    """The model that reads the table at ``loc`` (for the keys it allows), following fields,
    ``dict`` values and ``list`` items."""
    current: Any = model
    for part in loc:
        if isinstance(current, type) and issubclass(current, BaseModel):
            field = current.model_fields.get(str(part))
            current = _unwrap(field.annotation) if field is not None else None
        else:
            args = [a for a in typing.get_args(current) if a is not type(None)]
            current = _unwrap(args[-1]) if args else None
        if current is None:
            return None
    return current if isinstance(current, type) and issubclass(current, BaseModel) else None


def _unwrap(annotation: Any) -> Any:
    """``X | None`` and ``Annotated[X, ...]`` → ``X``."""
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            annotation = typing.get_args(annotation)[0]
        elif origin in (typing.Union, types.UnionType):
            rest = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(rest) != 1:
                return annotation
            annotation = rest[0]
        else:
            return annotation


def _fields(model: type[BaseModel], loc: tuple[Any, ...]) -> list[str]:
    found = _model_at(model, loc)
    return sorted(found.model_fields) if found is not None else []


def _hint(model: type[BaseModel], loc: tuple[Any, ...], key: str) -> str:
    """A table's own advice for a missing key (its ``missing_hints``), if it has one."""
    hints: Mapping[str, str] = getattr(_model_at(model, loc), "missing_hints", {})
    return hints.get(key, "")
