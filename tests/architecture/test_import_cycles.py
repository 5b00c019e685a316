"""No package of ragtui has an import cycle among its own modules: within a package, every module
can be read (and changed) after the ones it imports. Read from the source with ``ast`` like the
layering test, so every import counts — at module level, inside a function, under
``TYPE_CHECKING``: a lazy import hides a cycle from Python, not from the reader."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from .test_layering import ROOT, imports_of, module_name


def package_graph() -> dict[str, set[str]]:
    """module → the modules of its own package it imports (a package's ``__init__`` is the
    package's own module: ``ragtui.core.metrics``)."""
    package_of: dict[str, str] = {}
    paths: dict[str, Path] = {}
    for path in sorted(ROOT.rglob("*.py")):
        module, package = module_name(path)
        package_of[module], paths[module] = ".".join(package), path
    return {
        module: {t for t in imports_of(path) if t != module and package_of.get(t) == package_of[module]}
        for module, path in paths.items()
    }


def cycles(graph: Mapping[str, Iterable[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.get(root, ()))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return sorted(found)


def test_no_package_has_an_import_cycle_among_its_modules():
    found = cycles(package_graph())
    assert not found, "import cycles: " + "; ".join(" <-> ".join(group) for group in found)


def test_the_bot_settings_import_nothing_of_their_adapters():
    """Reading a config's [bot] table must not import an adapter (nor what the adapter imports)."""
    graph = package_graph()
    for kind in ("http", "openai", "python"):
        settings = f"ragtui.core.bots.{kind}_settings"
        assert not {name for name in graph[settings] if not name.endswith("_settings")}, settings


def test_the_cycle_finder_finds_cycles_and_only_cycles():
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a", "e"}, "e": set(), "f": {"g"}, "g": {"f"}}
    assert cycles(graph) == [["a", "b", "c"], ["f", "g"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_imports_between_modules_of_one_package():
    graph = package_graph()
    assert "ragtui.core.config.settings" in graph["ragtui.core.config.paths"] or (
        "ragtui.core.config.paths" in graph["ragtui.core.config.settings"]
    )
    # a module of another package is not an edge of this one's graph
    assert all(name.startswith("ragtui.core.config") for name in graph["ragtui.core.config.settings"])
