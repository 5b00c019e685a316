"""The views loop over the metric registry: outside ``core/metrics`` no module of the front
ends, the runs or the store names a built-in dialogue metric, except where the behaviour really
is that metric's (resolution's rate decides the gate, expectations' rate too), each such place
saying why in a comment on its line or the line above. A plugin's dialogue metric then shows
wherever a built-in one does (tests/plugins proves it)."""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui

ROOT = Path(ragtui.__file__).parent
VIEWS = ("cli", "tui", "core/runs", "core/store")
BUILTIN = frozenset({"resolution", "retention", "repetition", "expectations"})
# The store's resolution rate (``dialogue_verdicts.resolution_rate``) is resolution's own figure.
EXEMPT = {"core/store/dialogue_verdicts.py"}


def unexplained_names(source: str, where: str) -> list[str]:
    """Each string constant naming a built-in dialogue metric with no comment on its line or the
    line above."""
    lines = source.splitlines()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and node.value in BUILTIN:
            line = lines[node.lineno - 1]
            above = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
            if "#" not in line and not above.startswith("#"):
                found.append(f"{where}:{node.lineno}: {line.strip()}")
    return found


def test_no_view_names_a_dialogue_metric_without_saying_why():
    found = []
    for part in VIEWS:
        for path in sorted((ROOT / part).rglob("*.py")):
            where = str(path.relative_to(ROOT))
            if where not in EXEMPT:
                found += unexplained_names(path.read_text(encoding="utf-8"), where)
    assert found == []


def test_the_check_sees_a_metric_named_in_a_view():
    source = 'a = verdicts.get("retention")\n# resolution decides the gate\nb = verdicts.get("resolution")\n'
    assert unexplained_names(source, "x.py") == ['x.py:1: a = verdicts.get("retention")']
