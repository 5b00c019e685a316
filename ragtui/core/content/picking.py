"""Choosing named items (personas, scenarios) from the command line's list of names."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from ..errors import ConfigError

T = TypeVar("T")


def pick_named(items: list[T], names: list[str] | None, name_of: Callable[[T], str], kind: str) -> list[T]:
    """The items with the given names, in the order asked (all of them when ``names`` is empty);
    an unknown name is an error that lists the known ones."""
    if not names:
        return items
    by_name = {name_of(item): item for item in items}
    chosen = []
    for name in names:
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise ConfigError(f"unknown {kind} {name!r}", f"known {kind}s: {known}")
        chosen.append(by_name[name])
    return chosen
