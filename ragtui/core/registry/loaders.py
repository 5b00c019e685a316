"""Every document format the knowledge base can read, each declared beside its loader.

A ``DocumentLoader`` names the format, the file suffixes it reads and how it turns a file's
bytes into a ``Document`` (``load``: (bytes, path relative to the folder) → Document; it raises
``core.types.errors.KnowledgeFileError`` with the reason when it cannot). The built-in formats
(Markdown and text, HTML, PDF, CSV and JSON FAQs) are declared in ``core/knowledge/formats/``;
other packages add formats (a Zendesk or Confluence export) through the ``ragtui.loaders`` entry
point group (docs/plugins.md), loaded once, the first time a loader is looked up. A plugin that
fails to load is one warning line; the built-in formats keep working.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from .plugins import LoadOnce

ENTRY_POINT_GROUP = "ragtui.loaders"


@dataclass(frozen=True)
class DocumentLoader:
    name: str
    suffixes: tuple[str, ...]  # lower case, with the dot: (".html", ".htm")
    # (the file's bytes, its path relative to the folder) → core.types.knowledge.Document. Typed
    # loosely: the registry sits below the types' users it would otherwise name.
    load: Callable[[bytes, str], Any]
    description: str = ""  # one line for `ragtui knowledge --formats` and messages


_loaders: dict[str, DocumentLoader] = {}


def register_loader(loader: DocumentLoader) -> DocumentLoader:
    existing = _loaders.get(loader.name)
    if existing is not None and existing is not loader:
        raise ValueError(f"a document loader named {loader.name!r} is already registered")
    if not loader.suffixes or any(not s.startswith(".") or s != s.lower() for s in loader.suffixes):
        raise ValueError(f"loader {loader.name!r}: suffixes must be lower case and start with a dot")
    _loaders[loader.name] = loader
    return loader


def _register_plugin(loaded: Any) -> None:
    if not isinstance(loaded, DocumentLoader):
        raise TypeError(f"it is {type(loaded).__name__}, not a ragtui DocumentLoader")
    register_loader(loaded)


_ensure_loaded = LoadOnce(ENTRY_POINT_GROUP, "document loader", _register_plugin)


def loaders() -> tuple[DocumentLoader, ...]:
    _ensure_loaded()
    return tuple(_loaders.values())


def loader_for(suffix: str) -> DocumentLoader | None:
    """The loader for a file suffix (".pdf"); a plugin's loader wins over a built-in one for the
    same suffix, so a team can read its own flavour of .json."""
    _ensure_loaded()
    found = [loader for loader in _loaders.values() if suffix.lower() in loader.suffixes]
    return found[-1] if found else None


def known_suffixes() -> tuple[str, ...]:
    _ensure_loaded()
    return tuple(sorted({s for loader in _loaders.values() for s in loader.suffixes}))
