"""Code outside the tests imports no test code: the benchmarks (``bench/``) take their fake
server and synthetic runs from ``stand_ins/``, and ragtui itself imports neither ``tests`` nor
``stand_ins`` — the wheel carries neither (``.ci/run`` checks it). Read from the source with
``ast``: every import counts, inside a function too. (ragtui loading the embedded server's test
stand-in by its module name, ``--backend tests.fakes.stub_llama``, is not an import.)"""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui

from .source import parse_source

ROOT = Path(ragtui.__file__).parent
CHECKOUT = ROOT.parent


def top_level_imports(tree: ast.Module) -> set[str]:
    """The first part of every absolute module name ``tree`` imports."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            names.add(node.module.split(".")[0])
    return names


def importers(paths: list[Path], forbidden: set[str]) -> list[str]:
    return sorted(
        f"{path.relative_to(CHECKOUT)} imports {name}"
        for path in paths
        for name in top_level_imports(parse_source(path)) & forbidden
    )


def test_the_benchmarks_import_no_test_code():
    paths = sorted((CHECKOUT / "bench").rglob("*.py"))
    assert paths
    assert importers(paths, {"tests"}) == []


def test_ragtui_imports_neither_the_tests_nor_the_stand_ins():
    assert importers(sorted(ROOT.rglob("*.py")), {"tests", "stand_ins"}) == []


def test_the_check_sees_each_kind_of_import():
    sample = ast.parse(
        "import tests.fakes.stub_llama\n"
        "from stand_ins.fake_openai import FakeOpenAIServer\n"
        "def f():\n    from tests import conftest\n"
        "from . import sibling\n"
    )
    assert top_level_imports(sample) == {"tests", "stand_ins"}
