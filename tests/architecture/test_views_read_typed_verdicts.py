"""The views read a verdict typed: its outcome, conclusion, pass mark, criteria, steps, how it
was re-judged and read are fields of ``Verdict`` (``core/types/verdicts.py``), reached through
``judgment.verdict`` or ``metric_views.verdict_of``. No view file — the front ends, the runs and
their reports, the store's exports — reads a key of a judgment's ``details`` dict itself
(``details["scores"]``, ``j.details.get("reason")``, ``"agreement" in details``): a metric that
renames a key then changes one reader, and a plugin's verdict shows wherever a built-in one does.
Passing ``details`` whole to a helper below the views (the agreement words, a metric's
``explain``) is not a read. Read from the source with ``ast``."""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui

from .source import parse_source

ROOT = Path(ragtui.__file__).parent
VIEWS = ("cli", "tui", "core/runs")
# The store's modules that are views: the CSV and label exports.
STORE_VIEWS = ("core/store/export.py", "core/store/label_export.py", "core/store/expectation_cells.py")
DICT_READS = {"get", "items", "keys", "values", "pop", "setdefault"}


def _is_details(node: ast.AST) -> bool:
    return (isinstance(node, ast.Name) and node.id == "details") or (
        isinstance(node, ast.Attribute) and node.attr == "details"
    )


def _reads_a_key(node: ast.AST) -> bool:
    """``details[...]``, ``details.get(...)`` (or another dict read), ``... in details``."""
    if isinstance(node, ast.Subscript):
        return isinstance(node.ctx, ast.Load) and _is_details(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
        return node.func.attr in DICT_READS and _is_details(node.func.value)
    if isinstance(node, ast.Compare):
        membership = any(isinstance(op, ast.In | ast.NotIn) for op in node.ops)
        return membership and any(_is_details(c) for c in node.comparators)
    return False


def details_reads(tree: ast.AST, where: str) -> list[str]:
    """Each read of a key of a ``details`` dict (a name or an attribute so called) in ``tree``."""
    found = [f"{where}:{node.lineno}: {ast.unparse(node)}" for node in ast.walk(tree) if _reads_a_key(node)]
    return sorted(found, key=lambda hit: int(hit.split(":")[1]))


def view_files() -> list[Path]:
    return [p for part in VIEWS for p in sorted((ROOT / part).rglob("*.py"))] + [ROOT / p for p in STORE_VIEWS]


def test_no_view_reads_a_details_key():
    found = [hit for path in view_files() for hit in details_reads(parse_source(path), str(path.relative_to(ROOT)))]
    assert found == []


def test_the_check_sees_each_kind_of_read():
    source = (
        'a = j.details.get("reason")\n'
        'b = details["scores"]\n'
        'c = "agreement" in j.details\n'
        "d = {k: v for k, v in judgment.details.items()}\n"
        'e = "agreement" not in details\n'
        "f = is_low(j.details, floor)\n"  # passed whole to a helper: not a read
        "g = {**j.details, 'rejudge': {}}\n"  # a new dict for a write: not a read
        "h = j.verdict.criteria.get('overall')\n"  # typed
    )
    assert details_reads(ast.parse(source), "x.py") == [
        "x.py:1: j.details.get('reason')",
        "x.py:2: details['scores']",
        "x.py:3: 'agreement' in j.details",
        "x.py:4: judgment.details.items()",
        "x.py:5: 'agreement' not in details",
    ]
