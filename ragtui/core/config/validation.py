"""Hand-written TOML checked by a pydantic model, for the tables still declared as one (a persona,
each bot type's settings): ``TomlTable``, and :func:`validate`, which turns the first problem
into the same one line as a declared dataclass's (``file_errors.config_error``).

The rest of ragtui's files are declared as dataclasses and read by ``reader.read``; both refuse
unknown keys (a typo must fail loudly, not be ignored) and check types strictly (``true`` is not
a number, ``"3"`` is not an int, as TOML people expect), and both use the rules of ``rules.py``.
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from .file_errors import config_error
from .rules import RAGTUI, at_least, at_most, between, got, invalid, positive

__all__ = [
    "RAGTUI",
    "TomlTable",
    "at_least",
    "at_most",
    "between",
    "config_error",
    "got",
    "invalid",
    "positive",
    "validate",
]

Model = TypeVar("Model", bound=BaseModel)


class TomlTable(BaseModel):
    """A table of a hand-written TOML file: unknown keys refused, types strict."""

    model_config = ConfigDict(extra="forbid", strict=True, protected_namespaces=(), arbitrary_types_allowed=True)

    # The arrays of tables (``[[policy]]``) whose items are named by their ``id`` (else ``#n``) in messages.
    named_arrays: typing.ClassVar[frozenset[str]] = frozenset()
    # Advice for a missing key, by key, added to the message's hint.
    missing_hints: typing.ClassVar[Mapping[str, str]] = {}


def validate(model: type[Model], data: object, where: str, *, top_level: bool = False, note: str = "") -> Model:
    """``model`` of ``data``, or the first problem as one ``ConfigError`` line (see :func:`config_error`)."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        raise config_error(exc, model, data, where, top_level=top_level, note=note) from None
