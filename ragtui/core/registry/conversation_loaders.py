"""Every conversation format ``ragtui import`` reads, each declared beside its loader.

A ``ConversationLoader`` names the format, the file suffixes it reads, whether it counts places in
lines or rows, and a ``read`` that turns an opened file into ``RawConversation`` records one at a
time (core/types/conversations.py) — never the whole file at once: an export can be gigabytes.
``read`` gets a ``ConversationInput``: the file's text line by line or in pieces, decoded strictly,
and the options the person gave (``--columns``). It raises ``ImportProblem`` with the line or row
for input it cannot read; ragtui names the file and stores nothing.

The built-in formats (JSONL of chat messages, CSV/TSV with a row per message, a helpdesk's JSON
export) are declared in ``core/conversations/formats/``; other packages add their helpdesk's
export through the ``ragtui.conversations`` entry point group (docs/plugins.md), loaded once, the
first time a loader is looked up. A plugin that fails to load is one warning line.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, Protocol

from ..types.conversations import RawConversation
from .plugins import LoadOnce

ENTRY_POINT_GROUP = "ragtui.conversations"


class ConversationInput(Protocol):
    """An opened conversation file, as a loader reads it."""

    @property
    def path(self) -> Path: ...

    @property
    def columns(self) -> Mapping[str, str]:
        """``--columns id=…,role=…,text=…,time=…``: which column holds what (table formats)."""
        ...

    def lines(self) -> Iterator[str]:
        """The text line by line, each with its line ending; ``line_number`` is the last one's."""
        ...

    def pieces(self) -> Iterator[str]:
        """The text in pieces of a few hundred kilobytes (for formats not made of lines)."""
        ...

    @property
    def line_number(self) -> int: ...


@dataclass(frozen=True)
class ConversationLoader:
    name: str  # what --format names
    suffixes: tuple[str, ...]  # lower case, with the dot: (".jsonl", ".ndjson")
    read: Callable[[ConversationInput], Iterator[RawConversation]]
    description: str = ""  # one line for `ragtui import --formats`
    unit: Literal["line", "row"] = "line"  # how the places in its messages count


_loaders: dict[str, ConversationLoader] = {}


def register_conversation_loader(loader: ConversationLoader) -> ConversationLoader:
    existing = _loaders.get(loader.name)
    if existing is not None and existing is not loader:
        raise ValueError(f"a conversation loader named {loader.name!r} is already registered")
    if not loader.suffixes or any(not s.startswith(".") or s != s.lower() for s in loader.suffixes):
        raise ValueError(f"loader {loader.name!r}: suffixes must be lower case and start with a dot")
    if loader.unit not in ("line", "row"):
        raise ValueError(f"loader {loader.name!r}: unit must be 'line' or 'row'")
    _loaders[loader.name] = loader
    return loader


def _register_plugin(loaded: object) -> None:
    if not isinstance(loaded, ConversationLoader):
        raise TypeError(f"it is {type(loaded).__name__}, not a ragtui ConversationLoader")
    register_conversation_loader(loaded)


_ensure_loaded = LoadOnce(ENTRY_POINT_GROUP, "conversation loader", _register_plugin)


def conversation_loaders() -> tuple[ConversationLoader, ...]:
    _ensure_loaded()
    return tuple(_loaders.values())


def conversation_loader(name: str) -> ConversationLoader | None:
    """The loader ``--format`` names."""
    _ensure_loaded()
    return _loaders.get(name)


def loader_for_suffix(suffix: str) -> ConversationLoader | None:
    """The loader for a file suffix; a plugin's wins over a built-in one for the same suffix."""
    _ensure_loaded()
    found = [loader for loader in _loaders.values() if suffix.lower() in loader.suffixes]
    return found[-1] if found else None
