"""Reading a file against its declaration (``declared.py``): the check of each class is derived
from the dataclass the first time that class is read and kept for the process. It is plain
Python — a config's few dozen keys take microseconds, and reading one imports no validation
library on the way to the TUI's first frame.

Types are strict, as TOML people expect: ``"3"`` is not an int, ``true`` is not a number, a
table must be a table; unknown keys are refused; a ``Path`` is relative to the file's folder.
Every problem found in a table is collected as pydantic-core reports them (type, location,
input, context), and the first becomes one ``ConfigError`` line naming the file, the table and
the key (``file_errors.config_error``, shared with the models still written in pydantic).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable, Mapping
from pathlib import Path, PurePath
from typing import Any, Literal, TypeVar

from .declared import form_of, is_table, keys_of, parts, relative_path
from .file_errors import config_error
from .rules import Rule

T = TypeVar("T")
Loc = tuple[str | int, ...]
# A value as the file has it, where it is, and the reader's context → the value ragtui keeps.
Check = Callable[[Any, Loc, Mapping[str, Any]], Any]


class Problems(Exception):
    """What a file got wrong, each as pydantic-core words it (``errors()``)."""

    def __init__(self, found: list[dict[str, Any]]) -> None:
        super().__init__(found)
        self.found = found

    def errors(self) -> list[dict[str, Any]]:
        return self.found


def read(cls: type[T], data: object, where: str, *, top_level: bool = False, note: str = "", **context: Any) -> T:
    """``cls`` from ``data`` as a file has it, or the first problem as one ``ConfigError`` line.
    ``context`` reaches the rules and the form's ``finish`` (``base``: the file's folder)."""
    try:
        return typing.cast(T, _check(cls)(data, (), context))
    except Problems as exc:
        raise config_error(exc, cls, data, where, top_level=top_level, note=note) from None


def override(value: T, changes: Mapping[str, object], flags: Mapping[str, str] | None = None) -> T:
    """``value`` with ``changes`` (field → new value), each checked by its field's own type and
    rules; a problem names the flag it came from (``flags``: field → ``--flag``)."""
    cls = type(value)
    checked: dict[str, object] = {}
    for name, new in changes.items():
        try:
            checked[name] = _check(cls, name)(new, (), {})
        except Problems as exc:
            raise config_error(exc, cls, new, (flags or {}).get(name, name)) from None
    return dataclasses.replace(value, **checked)  # type: ignore[type-var]


_CHECKS: dict[tuple[type, str], Check] = {}


def _check(cls: type, name: str = "") -> Check:
    """The check of ``cls`` as a table, or of its field ``name`` alone; made once."""
    found = _CHECKS.get((cls, name))
    if found is None:
        annotation = next(k.annotation for k in keys_of(cls) if k.field == name) if name else cls
        found = _CHECKS[cls, name] = check_of(annotation)
    return found


def problem(kind: str, loc: Loc, value: object, msg: str, **ctx: Any) -> Problems:
    return Problems([{"type": kind, "loc": loc, "msg": msg, "input": value, **({"ctx": ctx} if ctx else {})}])


def check_of(annotation: Any) -> Check:
    """The check of a value as a file writes it."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _annotated(annotation)
    if origin in (typing.Union, typing.get_origin(int | None)):
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise TypeError(f"a file value is of one type, not {annotation!r}")
        inner = check_of(rest[0])
        return lambda value, loc, context: None if value is None else inner(value, loc, context)
    if annotation is Any:
        return lambda value, loc, context: value
    if origin is Literal:
        return _literal(args)
    if origin in (list, tuple):
        return _array(check_of(args[0]), tuple if origin is tuple else list)
    if origin is dict:
        return _dict(check_of(args[1]))
    if is_table(annotation):
        return _table(annotation)
    if annotation is Path:
        return _path
    if annotation in _SCALARS:
        return _SCALARS[annotation]
    raise TypeError(f"no file form for {annotation!r}")


def _scalar(kind: str, msg: str, accepts: Callable[[object], bool], convert: Callable[[Any], Any]) -> Check:
    def check(value: Any, loc: Loc, context: Mapping[str, Any]) -> Any:
        if not accepts(value):
            raise problem(kind, loc, value, msg)
        return convert(value)

    return check


def _number(value: object) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_SCALARS: dict[Any, Check] = {
    str: _scalar("string_type", "Input should be a valid string", lambda v: isinstance(v, str), str),
    int: _scalar("int_type", "Input should be a valid integer", lambda v: isinstance(v, int) and not isinstance(v, bool), int),
    float: _scalar("float_type", "Input should be a valid number", _number, float),
    bool: _scalar("bool_type", "Input should be a valid boolean", lambda v: isinstance(v, bool), bool),
}  # fmt: skip


def _path(value: Any, loc: Loc, context: Mapping[str, Any]) -> Path:
    """A file's text, or a flag's path: relative to the file's folder (or to here)."""
    if isinstance(value, PurePath):
        value = str(value)
    return relative_path(_SCALARS[str](value, loc, context), context)


def _literal(choices: tuple[Any, ...]) -> Check:
    quoted = [repr(c) for c in choices]
    expected = quoted[0] if len(quoted) == 1 else f"{', '.join(quoted[:-1])} or {quoted[-1]}"

    def check(value: Any, loc: Loc, context: Mapping[str, Any]) -> Any:
        if not any(value == c and type(value) is type(c) for c in choices):
            raise problem("literal_error", loc, value, f"Input should be {expected}", expected=expected)
        return value

    return check


def _array(item: Check, kind: Callable[[list[Any]], Any]) -> Check:
    """A TOML array (kept as a tuple when the field is one); every item's problem is reported."""

    def check(value: Any, loc: Loc, context: Mapping[str, Any]) -> Any:
        if not isinstance(value, list):
            raise problem("list_type", loc, value, "Input should be a valid list")
        found, kept = [], []
        for index, each in enumerate(value):
            try:
                kept.append(item(each, (*loc, index), context))
            except Problems as exc:
                found += exc.found
        if found:
            raise Problems(found)
        return kind(kept)

    return check


def _dict(item: Check) -> Check:
    def check(value: Any, loc: Loc, context: Mapping[str, Any]) -> Any:
        if not isinstance(value, dict):
            raise problem("dict_type", loc, value, "Input should be a valid dictionary")
        found, kept = [], {}
        for key, each in value.items():
            try:
                kept[key] = item(each, (*loc, key), context)
            except Problems as exc:
                found += exc.found
        if found:
            raise Problems(found)
        return kept

    return check


def _annotated(annotation: Any) -> Check:
    """A field's type (or the shape its ``WrittenAs`` names) with its rules, in their order."""
    written, rules = parts(annotation)
    inner = typing.get_args(annotation)[0]
    # ``Annotated[X | None, ...]``: a stored form may hold None; a file never has null.
    nullable = typing.get_origin(inner) in (typing.Union, typing.get_origin(int | None))
    check = check_of(written)
    for rule in rules:
        check = _with_rule(rule, check)
    if not nullable:
        return check
    return lambda value, loc, context: None if value is None else check(value, loc, context)


def _with_rule(rule: Rule, inner: Check) -> Check:
    def run(value: Any, loc: Loc, context: Mapping[str, Any]) -> Any:
        try:
            return rule.check(value, context) if rule.with_context else rule.check(value)
        except ValueError as exc:  # ``invalid(...)``: the rule's own words
            raise broken(exc, loc, value) from None

    if rule.before:
        return lambda value, loc, context: inner(run(value, loc, context), loc, context)
    return lambda value, loc, context: run(inner(value, loc, context), loc, context)


def broken(exc: ValueError, loc: Loc, value: object) -> Problems:
    """A rule's ``invalid(...)`` (or any ValueError) as a problem at ``loc``."""
    kind = getattr(exc, "type", "value_error")
    context = getattr(exc, "context", None)
    return Problems(
        [{"type": kind, "loc": loc, "msg": str(exc), "input": value, **({"ctx": context} if context else {})}]
    )


def _table(cls: type) -> Check:
    """A table: its keys (unknown ones refused, required ones asked for), then the class built
    from them and the form's checks on it."""
    form = form_of(cls)
    keys = {k.key: k for k in keys_of(cls)}
    checks = {key: check_of(k.annotation) for key, k in keys.items()}

    def check(value: Any, loc: Loc, context: Mapping[str, Any]) -> Any:
        if not isinstance(value, dict):
            raise problem("dict_type", loc, value, "Input should be a valid dictionary")
        found: list[dict[str, Any]] = []
        arguments: dict[str, Any] = {}
        for key, each in keys.items():
            if key not in value:
                if each.required:
                    found += problem("missing", (*loc, key), value, "Field required").found
                continue
            try:
                arguments[each.field or key] = checks[key](value[key], (*loc, key), context)
            except Problems as exc:
                found += exc.found
        found += [problem("extra_forbidden", (*loc, k), v, "Extra inputs are not permitted").found[0]
                  for k, v in value.items() if k not in keys]  # fmt: skip
        if found:
            raise Problems(found)
        try:
            if form.finish is not None:
                arguments = form.finish(arguments, context)
            built = cls(**arguments)
            for after in form.after:
                after(built)
        except ValueError as exc:  # a rule on the whole table, in its own words
            raise broken(exc, loc, value) from None
        return built

    checked: Check = check
    for rule in reversed(form.before):
        checked = _with_rule(rule, checked)
    return checked
