"""The views loop over the metric registry: no module of the front ends, the runs or the store
names a built-in dialogue metric — not in code, not inside an SQL string, whatever comment sits
beside it. Where behaviour belongs to one metric (the resolution rate and its gate, the
expectation rate and its gate), the view asks the registry which metric declares that gate role
(``gate_metric(RESOLUTION_RATE)``). A plugin's dialogue metric then shows wherever a built-in one
does, and a plugin may take a gate role (tests/plugins proves both)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ragtui
from ragtui.core.registry import metrics as registry

from .source import parse_source

ROOT = Path(ragtui.__file__).parent
VIEWS = ("cli", "tui", "core/runs", "core/store")


def builtin_dialogue_metrics() -> frozenset[str]:
    """Every dialogue metric ragtui itself ships, as the registry lists them (plugins left out)."""
    return frozenset(
        cls.info.name for cls in registry.metric_classes(registry.DIALOGUE) if cls.__module__.startswith("ragtui.")
    )


def named_metrics(tree: ast.AST, names: frozenset[str], where: str) -> list[str]:
    """Each string constant that is a metric's name, or quotes one inside it (``d.metric =
    'resolution'`` in SQL, ``"expectations"`` in a JSON path). Docstrings are prose, not read."""
    quoted = re.compile("|".join(rf"['\"]{re.escape(n)}['\"]" for n in sorted(names)))
    docstrings = {
        id(node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)
    }
    strings = [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]
    found = [
        f"{where}:{node.lineno}: {node.value[:80]!r}"
        for node in strings
        if node.value in names or quoted.search(node.value)
    ]
    return sorted(found, key=lambda hit: int(hit.split(":")[1]))


def test_no_view_names_a_builtin_dialogue_metric():
    names = builtin_dialogue_metrics()
    assert {"resolution", "expectations"} <= names  # the registry was read, not an empty set
    found = []
    for part in VIEWS:
        for path in sorted((ROOT / part).rglob("*.py")):
            found += named_metrics(parse_source(path), names, str(path.relative_to(ROOT)))
    assert found == []


def test_the_check_sees_a_metric_named_in_a_view_comment_or_not():
    source = (
        'a = verdicts.get("retention")\n'
        "# resolution decides the gate\n"
        'b = verdicts.get("resolution")  # its own rate\n'
        "c = db.execute(\"SELECT * FROM d WHERE d.metric = 'expectations'\")\n"
        'd = "the resolution rate"\n'
    )
    names = frozenset({"resolution", "retention", "expectations"})
    assert named_metrics(ast.parse(source), names, "x.py") == [
        "x.py:1: 'retention'",
        "x.py:3: 'resolution'",
        "x.py:4: \"SELECT * FROM d WHERE d.metric = 'expectations'\"",
    ]
