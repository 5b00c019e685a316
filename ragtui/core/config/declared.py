"""A file format declared once: the dataclass ragtui works with says what a table of the file may
hold, and how it is checked is derived from it (``reader.py``).

A field's type and its rules (``Annotated[float, between(0, 1)]``) are the key's; a field without
a default is a key the file must give. What a dataclass cannot say about its file is its ``FileForm``,
given once with :func:`declare`: a key spelt otherwise than the field (``[[policy]]`` fills
``policies``), fields no file gives (set by whoever reads it), rules for a class declared in
``core/types`` (below these rules), keys only the file has (a scenario's ``expect`` and
``expect_not`` make its ``expectations``) and checks on the whole table.

``WrittenAs`` marks a field the file writes in another shape than the field's type (a table of
prices, a list of policy tables): the file is checked against that shape, and the field's last
rule turns it into the field's value. Nothing here imports pydantic.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .rules import Rule


@dataclass(frozen=True)
class WrittenAs:
    """In a file the field is written as ``annotation``; its rules turn that into its value."""

    annotation: Any


@dataclass(frozen=True)
class FileForm:
    """How a declared class is written in a file, beyond its fields' types and rules."""

    keys: Mapping[str, str] = field(default_factory=dict)  # field → its key, where they differ
    omit: frozenset[str] = frozenset()  # fields no file gives: the reader (``finish``) sets them
    optional: frozenset[str] = frozenset()  # fields the class needs but a file may leave to ``finish``
    rules: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # field → more rules (or WrittenAs)
    extra: Mapping[str, Any] = field(default_factory=dict)  # key only the file has → its type
    before: tuple[Rule, ...] = ()  # checks on the table as written (a dict, or what stands for one)
    after: tuple[Callable[[Any], None], ...] = ()  # checks on the built value; raise ``invalid``
    # The file's values (by field name, the file-only keys by their key) and the reader's context
    # → the class's keyword arguments; may raise ``invalid`` (a rule on keys the file gives together).
    finish: Callable[[dict[str, Any], Mapping[str, Any]], dict[str, Any]] | None = None
    named_arrays: frozenset[str] = frozenset()  # arrays of tables whose items are named by their id
    missing_hints: Mapping[str, str] = field(default_factory=dict)  # key → advice when it is missing


_FORMS: dict[type, FileForm] = {}


def declare(cls: type, form: FileForm) -> None:
    """``cls`` is written in files as ``form`` says (one form per class)."""
    # Names only: the annotations are read when the class is first read, not at import.
    fields = (
        {f.name for f in dataclasses.fields(cls)} if dataclasses.is_dataclass(cls) else set(getattr(cls, "_fields", ()))
    )
    named = set(form.keys) | set(form.omit) | set(form.optional) | set(form.rules)
    unknown = sorted(named - fields)
    if unknown:
        raise TypeError(f"the form of {cls.__qualname__} names fields it does not have: {', '.join(unknown)}")
    _FORMS[cls] = form


def form_of(cls: type) -> FileForm:
    return _FORMS.get(cls) or FileForm()


def is_table(annotation: Any) -> bool:
    """A dataclass or a NamedTuple: written as a table of its fields."""
    return isinstance(annotation, type) and (dataclasses.is_dataclass(annotation) or hasattr(annotation, "_fields"))


@dataclass(frozen=True)
class TableField:
    name: str
    annotation: Any  # with its Annotated rules, and the form's
    has_default: bool


def table_fields(cls: type) -> list[TableField]:
    hints = typing.get_type_hints(cls, include_extras=True)
    if dataclasses.is_dataclass(cls):
        return [
            TableField(
                f.name,
                hints[f.name],
                f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING,
            )
            for f in dataclasses.fields(cls)
            if f.init
        ]
    defaults: Mapping[str, Any] = getattr(cls, "_field_defaults", {})
    return [TableField(name, hints[name], name in defaults) for name in getattr(cls, "_fields", ())]


@dataclass(frozen=True)
class Key:
    """One key a table may hold: its name in the file, the field it fills (None: a file-only key),
    its type with every rule, and whether the file must give it."""

    key: str
    field: str | None
    annotation: Any
    required: bool


def keys_of(cls: type) -> Iterator[Key]:
    form = form_of(cls)
    for f in table_fields(cls):
        if f.name in form.omit:
            continue
        extra = form.rules.get(f.name, ())
        annotation = typing.Annotated[(f.annotation, *extra)] if extra else f.annotation
        required = not f.has_default and f.name not in form.optional
        yield Key(form.keys.get(f.name, f.name), f.name, annotation, required)
    for key, annotation in form.extra.items():
        yield Key(key, None, annotation, False)


def parts(annotation: Any) -> tuple[Any, list[Any]]:
    """``Annotated[X | None, *rules]`` → ``(X as the file writes it, [rules])``."""
    rules: list[Any] = []
    while True:
        origin = typing.get_origin(annotation)
        if origin is typing.Annotated:
            inner, *meta = typing.get_args(annotation)
            written = next((m for m in meta if isinstance(m, WrittenAs)), None)
            rules = [m for m in meta if isinstance(m, Rule)] + rules
            annotation = written.annotation if written is not None else inner
        elif origin in (typing.Union, types.UnionType):
            rest = [a for a in typing.get_args(annotation) if a is not type(None)]
            if len(rest) != 1:
                return annotation, rules
            annotation = rest[0]
        else:
            return annotation, rules


def table_at(root: type, loc: tuple[Any, ...]) -> type | None:
    """The declared class of the table at ``loc`` (keys, list items and dict values followed)."""
    current: Any = root
    for part in loc:
        if is_table(current):
            key = next((k for k in keys_of(current) if k.key == str(part)), None)
            current = parts(key.annotation)[0] if key is not None else None
        else:
            args = [a for a in typing.get_args(current) if a is not Ellipsis]
            current = parts(args[-1])[0] if args else None
        if current is None:
            return None
    return current if is_table(current) else None


def file_keys(cls: type) -> list[str]:
    return sorted(k.key for k in keys_of(cls))


def relative_path(value: str, context: Mapping[str, Any]) -> Path:
    """A path in a file is relative to the file's folder (``context["base"]``), not to wherever
    ragtui was started."""
    base: Path = context.get("base") or Path.cwd()
    return (base / Path(value).expanduser()).resolve()
