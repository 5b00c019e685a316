"""Reading a file against its declaration (``declared.py``): the validator is derived from the
dataclass the first time that class is read, kept for the process, and run by pydantic-core —
the engine under pydantic, without pydantic's model layer, so reading a config costs
milliseconds and imports no model library on the way to the TUI's first frame.

Types are strict, as TOML people expect: ``"3"`` is not an int, ``true`` is not a number, a
table must be a table; unknown keys are refused; a ``Path`` is relative to the file's folder.
Every problem is one ``ConfigError`` line naming the file, the table and the key
(``file_errors.config_error``).
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Mapping
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from .declared import form_of, is_table, keys_of, parts, relative_path
from .file_errors import config_error
from .rules import Rule

if TYPE_CHECKING:
    from pydantic_core import CoreSchema, SchemaValidator

T = TypeVar("T")


def read(cls: type[T], data: object, where: str, *, top_level: bool = False, note: str = "", **context: Any) -> T:
    """``cls`` from ``data`` as a file has it, or the first problem as one ``ConfigError`` line.
    ``context`` reaches the rules and the form's ``finish`` (``base``: the file's folder)."""
    from pydantic_core import ValidationError

    try:
        return typing.cast(T, _validator(cls).validate_python(data, context=context))
    except ValidationError as exc:
        raise config_error(exc, cls, data, where, top_level=top_level, note=note) from None


def override(value: T, changes: Mapping[str, object], flags: Mapping[str, str] | None = None) -> T:
    """``value`` with ``changes`` (field → new value), each checked by its field's own type and
    rules; a problem names the flag it came from (``flags``: field → ``--flag``)."""
    from pydantic_core import ValidationError

    cls = type(value)
    checked: dict[str, object] = {}
    for name, new in changes.items():
        where = (flags or {}).get(name, name)
        try:
            checked[name] = _validator(cls, name).validate_python(new)
        except ValidationError as exc:
            raise config_error(exc, cls, new, where) from None
    return dataclasses.replace(value, **checked)  # type: ignore[type-var]


# Built the first time a class (or one of its fields) is read, then kept: a declaration costs
# nothing until its file is read.
_VALIDATORS: dict[tuple[type, str], SchemaValidator] = {}


def _validator(cls: type, name: str = "") -> SchemaValidator:
    """The validator of ``cls`` as a table, or of its field ``name`` alone."""
    found = _VALIDATORS.get((cls, name))
    if found is None:
        from pydantic_core import SchemaValidator

        annotation = next(k.annotation for k in keys_of(cls) if k.field == name) if name else cls
        found = _VALIDATORS[cls, name] = SchemaValidator(schema_of(annotation))
    return found


def schema_of(annotation: Any) -> CoreSchema:
    """The pydantic-core schema of a value as a file writes it."""
    from pydantic_core import core_schema as cs

    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Annotated:
        return _annotated(annotation)
    if origin in (typing.Union, typing.get_origin(int | None)):
        rest = [a for a in args if a is not type(None)]
        if len(rest) != 1:
            raise TypeError(f"a file value is of one type, not {annotation!r}")
        return cs.nullable_schema(schema_of(rest[0]))
    if annotation is Any:
        return cs.any_schema()
    if origin is Literal:
        return cs.literal_schema(list(args))
    if origin is list:
        return cs.list_schema(schema_of(args[0]), strict=True)
    if origin is tuple:  # a TOML array, kept as a tuple
        return cs.no_info_after_validator_function(tuple, cs.list_schema(schema_of(args[0]), strict=True))
    if origin is dict:
        return cs.dict_schema(cs.str_schema(strict=True), schema_of(args[1]), strict=True)
    if is_table(annotation):
        return _table(annotation)
    if annotation is Path:  # a file's text, or a flag's path: relative to the file (or to here)
        text = Rule(lambda value: str(value) if isinstance(value, PurePath) else value, before=True)
        return text.wrap(Rule(relative_path, with_context=True).wrap(cs.str_schema(strict=True)))
    scalars: dict[Any, CoreSchema] = {
        str: cs.str_schema(strict=True),
        int: cs.int_schema(strict=True),
        float: cs.float_schema(strict=True),
        bool: cs.bool_schema(strict=True),
    }
    if annotation in scalars:
        return scalars[annotation]
    raise TypeError(f"no file form for {annotation!r}")


def _annotated(annotation: Any) -> CoreSchema:
    """A field's type (or the shape its ``WrittenAs`` names) with its rules, in their order."""
    written, rules = parts(annotation)
    inner = typing.get_args(annotation)[0]
    # ``Annotated[X | None, ...]``: the value may be absent in a stored form; a file never has null.
    nullable = typing.get_origin(inner) in (typing.Union, typing.get_origin(int | None))
    schema = schema_of(written)
    for rule in rules:
        schema = rule.wrap(schema)
    if nullable:
        from pydantic_core import core_schema as cs

        schema = cs.nullable_schema(schema)
    return schema


def _table(cls: type) -> CoreSchema:
    """A table: its keys (unknown ones refused), then the class built from them."""
    from pydantic_core import core_schema as cs

    form = form_of(cls)
    keys = list(keys_of(cls))
    fields = {k.key: cs.typed_dict_field(schema_of(k.annotation), required=k.required) for k in keys}
    names = {k.key: k.field or k.key for k in keys}

    def build(values: dict[str, Any], info: cs.ValidationInfo) -> Any:
        arguments = {names[key]: value for key, value in values.items()}
        if form.finish is not None:
            arguments = form.finish(arguments, info.context or {})
        built = cls(**arguments)
        for check in form.after:
            check(built)
        return built

    schema: CoreSchema = cs.with_info_after_validator_function(
        build, cs.typed_dict_schema(fields, extra_behavior="forbid", strict=True)
    )
    for rule in reversed(form.before):
        schema = rule.wrap(schema)
    return schema
