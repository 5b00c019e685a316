"""Metrics and bot types from other installed packages, through entry points.

A package declares ``[project.entry-points."ragtui.metrics"]`` (a metric class) or
``[project.entry-points."ragtui.bots"]`` (a ``BotType``); the registries load each group once,
the first time they are consulted. A plugin that cannot be imported, or is not what its group
expects, is one warning line naming the entry point and the error — never a traceback — and
everything else keeps working. docs/plugins.md has a worked example.
"""

from __future__ import annotations

import importlib
import logging
import sys
from collections.abc import Callable, Iterator
from importlib.metadata import EntryPoint, entry_points
from typing import Any

from ..text.text_safety import visible

log = logging.getLogger("ragtui")
# Every plugin problem seen in this process, as shown ("ragtui: warning: …"), for the TUI and tests.
PROBLEMS: list[str] = []


def describe(entry: EntryPoint) -> str:
    """``name = module:attr`` and the distribution it comes from, when known."""
    dist = getattr(entry, "dist", None)
    source = f" (from {dist.name} {dist.version})" if dist is not None else ""
    return f"{entry.name} = {entry.value}{source}"


def report(group: str, entry: EntryPoint | str, error: BaseException) -> None:
    """One line on stderr and in the log: which plugin, and why it was left out."""
    name = describe(entry) if isinstance(entry, EntryPoint) else entry
    detail = " ".join(str(error).split()) or "no details"
    line = visible(
        f"ragtui: warning: plugin {name} in {group} was not loaded: {type(error).__name__}: {detail}",
        keep_newlines=False,
    )
    PROBLEMS.append(line)
    log.warning("%s", line)
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def load_entry_points(group: str, what: str) -> Iterator[tuple[EntryPoint, Any]]:
    """Each entry point of ``group`` that imports, with the object it names. One that does not
    import is reported and skipped; ``what`` names the kind of object, for the message."""
    try:
        found = sorted(entry_points(group=group), key=lambda e: e.name)
    except Exception as exc:  # a broken distribution's metadata must not stop ragtui
        report(group, f"(listing {what} plugins)", exc)
        return
    for entry in found:
        try:
            loaded = entry.load()
        except Exception as exc:  # any error at all in third-party code: one line, then go on
            report(group, entry, exc)
            continue
        yield entry, loaded


class LoadOnce:
    """Fills a registry the first time it is consulted: imports the built-in modules (they
    register themselves), then hands each plugin of ``group`` to ``register``. A plugin that
    ``register`` refuses (TypeError, ValueError) is reported in one line and left out. Safe to
    call again from inside a built-in module's import (a registry consulted while it loads)."""

    def __init__(self, group: str, what: str, builtins: tuple[str, ...], register: Callable[[Any], object]) -> None:
        self.group, self.what, self.builtins, self.register = group, what, builtins, register
        self._state = "new"  # new → loading → loaded

    def __call__(self) -> None:
        if self._state != "new":
            return
        self._state = "loading"
        try:
            for module in self.builtins:
                importlib.import_module(module)
            for entry, loaded in load_entry_points(self.group, self.what):
                try:
                    self.register(loaded)
                except (TypeError, ValueError) as exc:
                    report(self.group, entry, exc)
            self._state = "loaded"
        finally:
            if self._state == "loading":
                self._state = "new"
