"""Metrics, bot types and file formats, through entry points — ragtui's own and other packages'.

A package declares ``[project.entry-points."ragtui.metrics"]`` (a metric class),
``"ragtui.bots"`` (a ``BotType``), ``"ragtui.loaders"`` or ``"ragtui.conversations"``; ragtui
declares its built-ins the same way in its own pyproject.toml. The registries load each group
once, the first time they are consulted: ragtui's own entries first, in the order it declares
them, then every other package's by name. A plugin that cannot be imported, or is not what its
group expects, is one warning line naming the entry point and the error — never a traceback —
and everything else keeps working; a built-in that fails is a bug in ragtui and is raised.
docs/plugins.md has a worked example.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from ..text.text_safety import visible
from ..types.errors import RagtuiError

if TYPE_CHECKING:  # importlib.metadata is imported when a group is first loaded, not with a config
    from importlib.metadata import EntryPoint

log = logging.getLogger("ragtui")
# Every plugin problem seen in this process, as shown ("ragtui: warning: …"), for the TUI and tests.
PROBLEMS: list[str] = []
OWN_DISTRIBUTION = "ragtui"  # whose entry points are the built-ins


def is_own(entry: EntryPoint) -> bool:
    """Whether ``entry`` is one of ragtui's own (declared in its pyproject.toml)."""
    dist = getattr(entry, "dist", None)
    return dist is not None and dist.name.lower().replace("_", "-") == OWN_DISTRIBUTION


def describe(entry: EntryPoint) -> str:
    """``name = module:attr`` and the distribution it comes from, when known."""
    dist = getattr(entry, "dist", None)
    source = f" (from {dist.name} {dist.version})" if dist is not None else ""
    return f"{entry.name} = {entry.value}{source}"


def report(group: str, entry: EntryPoint | str, error: BaseException) -> None:
    """One line on stderr and in the log: which plugin, and why it was left out."""
    name = entry if isinstance(entry, str) else describe(entry)
    detail = " ".join(str(error).split()) or "no details"
    line = visible(
        f"ragtui: warning: plugin {name} in {group} was not loaded: {type(error).__name__}: {detail}",
        keep_newlines=False,
    )
    PROBLEMS.append(line)
    log.warning("%s", line)
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def group_entries(group: str, what: str) -> tuple[list[EntryPoint], list[EntryPoint]]:
    """ragtui's own entry points of ``group`` in the order it declares them, and every other
    package's by name."""
    try:
        from importlib.metadata import entry_points

        found = list(entry_points(group=group))
    except Exception as exc:  # a broken distribution's metadata must not stop ragtui
        report(group, f"(listing {what} plugins)", exc)
        return [], []
    own = [e for e in found if is_own(e)]
    return own, sorted((e for e in found if not is_own(e)), key=lambda e: e.name)


def load_entry_points(group: str, what: str) -> Iterator[tuple[EntryPoint, Any]]:
    """Each plugin entry point of ``group`` (ragtui's own left out) that imports, with the object
    it names. One that does not import is reported and skipped; ``what`` names the kind of
    object, for the message."""
    for entry in group_entries(group, what)[1]:
        try:
            loaded = entry.load()
        except Exception as exc:  # any error at all in third-party code: one line, then go on
            report(group, entry, exc)
            continue
        yield entry, loaded


class MissingBuiltins(RagtuiError):
    """ragtui's installed metadata declares none of its own entry points for a group."""


class LoadOnce:
    """Fills a registry the first time it is consulted: hands ragtui's own entry points of
    ``group`` to ``register`` (a failure there is raised: a bug, or metadata older than the
    source), then each plugin's (one that ``register`` refuses with TypeError or ValueError is
    reported in one line and left out). Safe to call again from inside a built-in module's import
    (a registry consulted while it loads)."""

    def __init__(self, group: str, what: str, register: Callable[[Any], object]) -> None:
        self.group, self.what, self.register = group, what, register
        self._state = "new"  # new → loading → loaded

    def __call__(self) -> None:
        if self._state != "new":
            return
        self._state = "loading"
        try:
            own, _ = group_entries(self.group, self.what)
            if not own:
                raise MissingBuiltins(
                    f"ragtui's own {self.what}s are missing from its installed metadata (entry point group {self.group})",
                    "the installed metadata is older than the source: reinstall ragtui (`pip install -e .` in a checkout)",
                )
            for entry in own:
                self.register(entry.load())
            for entry, loaded in load_entry_points(self.group, self.what):
                try:
                    self.register(loaded)
                except (TypeError, ValueError) as exc:
                    report(self.group, entry, exc)
            self._state = "loaded"
        finally:
            if self._state == "loading":
                self._state = "new"
