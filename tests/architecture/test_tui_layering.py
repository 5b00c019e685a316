"""The TUI's modules import one way only: no cycle among them, no import of the CLI or of the
testing fakes, and only the package's entry point imports the app module (screens see the app
through ``ragtui.tui.context``). Read from the source with ``ast``: every import counts, at
module level, inside a function or under ``TYPE_CHECKING``."""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui.tui

from .source import parse_source

TUI = Path(ragtui.tui.__file__).parent


def imported(path: Path, package: list[str] | None = None) -> set[str]:
    """Every module ``path`` imports, as absolute names (``from . import x`` gives ``ragtui.tui.x``);
    ``package``: the parts of the package it is read as being in (default ``ragtui.tui``)."""
    package = package or ["ragtui", "tui"]
    names: set[str] = set()
    for node in ast.walk(parse_source(path)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)  # `from . import x`
    return names


def tui_module(path: Path) -> str:
    """``screens/runs_screen.py`` is ``screens.runs_screen``; ``app.py`` is ``app``; a
    subpackage's ``__init__.py`` is the subpackage (``screens.main_screen``), the TUI's own is
    ``__init__``."""
    parts = list(path.relative_to(TUI).with_suffix("").parts)
    if len(parts) > 1 and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def tui_graph() -> dict[str, set[str]]:
    paths = sorted(TUI.rglob("*.py"))
    modules = {tui_module(p) for p in paths}
    graph: dict[str, set[str]] = {}
    for path in paths:
        package = ["ragtui", "tui", *path.relative_to(TUI).parts[:-1]]
        targets = {
            name.removeprefix("ragtui.tui.") for name in imported(path, package) if name.startswith("ragtui.tui.")
        }
        graph[tui_module(path)] = {t for t in targets if t in modules and t != tui_module(path)}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as a path (first module repeated at the end), or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph.get(module, ())):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (cycle := visit(target)):
                return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state and (cycle := visit(module)):
            return cycle
    return None


def test_the_reader_sees_relative_and_type_checking_imports(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "from .widgets import header\n"
        "if TYPE_CHECKING:\n    from .app import RagtuiApp\n"
        "def f():\n    from ..cli.output import error_line\n"
    )
    names = imported(sample)
    assert {"ragtui.tui.widgets.header", "ragtui.tui.app", "ragtui.cli.output"} <= names
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_tui_imports_neither_the_cli_nor_the_testing_fakes():
    offenders = sorted(
        f"{path.name} imports {name}"
        for path in TUI.rglob("*.py")
        for name in imported(path, ["ragtui", "tui", *path.relative_to(TUI).parts[:-1]])
        if name.split(".")[:2] in (["ragtui", "cli"], ["tests", "fakes"]) or name.split(".")[0] == "stand_ins"
    )
    assert offenders == []


def test_the_tui_modules_import_each_other_without_a_cycle():
    graph = tui_graph()
    assert {"app", "screens.main_screen", "widgets.event_view", "context"} <= set(graph)
    assert find_cycle(graph) is None


def test_only_the_entry_point_imports_the_app_module():
    importers = sorted(module for module, targets in tui_graph().items() if "app" in targets)
    assert importers == ["__init__"]
