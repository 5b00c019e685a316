"""ragtui's packages import downward only: plain types at the bottom, then text utilities,
the registries, the config, content and model clients, the store, metrics, judging the judge,
bots, the dialogue engine, runs, the two front ends, and the plugins' public module on top. Read from the source with ``ast``: every import
counts — at module level, inside a function, under ``TYPE_CHECKING`` — so an upward import
cannot hide behind a lazy import. (Loading a plugin or a backend by its name at run time, as
the registries and the embedded server's test stand-in do, is not an import of the source.)"""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui

from .source import parse_source

ROOT = Path(ragtui.__file__).parent

# (module prefix, layer): a module may import its own layer and the layers below it.
LAYERS: list[tuple[str, int]] = [
    ("ragtui.core.types", 0),
    ("ragtui.core.text", 1),
    ("ragtui.core.files", 1),
    ("ragtui.core.registry", 2),
    ("ragtui.core.config", 3),
    ("ragtui.core.content", 4),
    ("ragtui.core.models", 4),
    ("ragtui.core.knowledge", 4),
    ("ragtui.core.conversations", 4),
    ("ragtui.core.store", 5),
    ("ragtui.core.metrics", 6),
    # Judging the judge (cards, fits, agreement, calibration, re-judging): it builds and runs
    # metrics, and no metric may import it.
    ("ragtui.core.judge_quality", 7),
    ("ragtui.core.bots", 8),
    ("ragtui.core.dialogue", 9),
    ("ragtui.core.runs", 10),
    ("ragtui.core.generate", 10),
    ("ragtui.tui", 11),
    ("ragtui.cli", 12),
    ("ragtui.__main__", 13),
    # The plugins' one door (``ragtui.plugin``): it names things from every layer, and nothing of
    # ragtui may import it — plugins do.
    ("ragtui.plugin", 14),
    ("ragtui.core", 1),  # the package's face
    ("ragtui", 1),
]


def layer_of(module: str) -> tuple[str, int] | None:
    for prefix, layer in LAYERS:
        if module == prefix or module.startswith(prefix + "."):
            return prefix, layer
    return None


def module_name(path: Path) -> tuple[str, list[str]]:
    """The module's dotted name and its package's parts (for relative imports)."""
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
        return ".".join(parts), parts
    return ".".join(parts), parts[:-1]


def is_module(name: str) -> bool:
    relative = Path(*name.split("."))
    return (ROOT.parent / relative).with_suffix(".py").is_file() or (ROOT.parent / relative / "__init__.py").is_file()


def imports_of(path: Path, package: list[str] | None = None) -> set[str]:
    """Every ragtui module ``path`` imports, absolute: ``from ..config import paths`` is ``ragtui.core.config.paths``,
    ``from ..types.turns import Utterance`` is ``ragtui.core.types.turns``. ``package``: the
    parts of the package it is read as being in (default: where it is)."""
    if package is None:
        _, package = module_name(path)
    found: set[str] = set()
    for node in ast.walk(parse_source(path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            submodules = {f"{module}.{alias.name}" for alias in node.names} if module else set()
            named = {name for name in submodules if is_module(name)}
            found.update(named or {module})
    return {name for name in found if name == "ragtui" or name.startswith("ragtui.")}


def upward(module: str, targets: set[str]) -> list[str]:
    source = layer_of(module)
    assert source is not None, f"{module} has no layer: add it to LAYERS"
    found = []
    for target in sorted(targets):
        place = layer_of(target)
        if place is not None and place[1] > source[1]:
            found.append(f"{module} (layer {source[1]}) imports {target} (layer {place[1]})")
    return found


def upward_imports() -> list[str]:
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        module, _ = module_name(path)
        found += upward(module, imports_of(path))
    return found


def test_every_package_imports_only_downward():
    assert upward_imports() == []


def test_the_types_import_nothing_of_ragtui():
    types = ROOT / "core" / "types"
    offenders = {
        f"{path.name} imports {name}"
        for path in types.glob("*.py")
        for name in imports_of(path)
        if not name.startswith("ragtui.core.types")
    }
    assert sorted(offenders) == []


def test_the_reader_sees_every_kind_of_import(tmp_path: Path):
    """The checker itself: lazy, TYPE_CHECKING and relative imports are all seen and placed."""
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from typing import TYPE_CHECKING\n"
        "from ..config import paths\n"
        "if TYPE_CHECKING:\n    from ..metrics.base import TurnContext\n"
        "def f():\n    from ..dialogue import engine\n"
        "import ragtui.tui.app\n",
        encoding="utf-8",
    )
    names = imports_of(sample, ["ragtui", "core", "store"])
    assert names == {
        "ragtui.core.config.paths",
        "ragtui.core.metrics.base",
        "ragtui.core.dialogue.engine",
        "ragtui.tui.app",
    }
    # As a module of the store (layer 5): metrics, the engine and the TUI sit above it, paths below.
    assert len(upward("ragtui.core.store.sample", names)) == 3


def test_the_layers_name_every_package():
    packages = {module_name(p)[0] for p in ROOT.rglob("__init__.py")}
    assert all(layer_of(p) is not None for p in packages)
    assert layer_of("ragtui.core.types.turns") == ("ragtui.core.types", 0)
    assert layer_of("ragtui.core.store.store") == ("ragtui.core.store", 5)
