"""Choosing named items (personas, scenarios) from the command line's list of names."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..types.errors import ConfigError

T = TypeVar("T")


@dataclass(frozen=True)
class Skipped:
    """A persona file or scenario entry left out because it is broken: the name it goes by
    (the file's name, the scenario's id) and what is wrong, naming the file."""

    name: str
    error: ConfigError
    path: Path | None = None  # the broken file, so an editor can open it to be fixed


def pick_named(
    items: list[T],
    names: list[str] | None,
    name_of: Callable[[T], str],
    kind: str,
    skipped: Sequence[Skipped] = (),
) -> list[T]:
    """The items with the given names, in the order asked (all of them when ``names`` is empty);
    an unknown name is an error that lists the known ones, and a name whose file or entry was
    ``skipped`` as broken is that error."""
    if not names:
        return items
    by_name = {name_of(item): item for item in items}
    broken = {s.name: s.error for s in skipped}
    chosen = []
    for name in names:
        if name not in by_name and name in broken:
            raise broken[name]
        if name not in by_name:
            known = ", ".join(sorted(by_name)) or "none"
            raise ConfigError(f"unknown {kind} {name!r}", f"known {kind}s: {known}")
        chosen.append(by_name[name])
    return chosen
