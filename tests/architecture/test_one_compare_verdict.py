"""What a comparison concludes — each pair's verdict, the exit status, the headline, under
``--strict`` — is decided once (``core/runs/compare_verdict.decide``, read as
``Comparison.verdict``). No view of a comparison decides it again from the statistics: the
Markdown and the HTML once said "no regression: within noise" and the JUnit had ``failures="0"``
while ``--strict`` exited 1, because each view worked its outcome out for itself."""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui

from .source import parse_source

ROOT = Path(ragtui.__file__).parent
VIEWS = (
    "core/runs/compare_report.py",
    "core/runs/html_report/page.py",
    "cli/compare_command.py",
    "tui/screens/compare_screen.py",
)
# What decides a regression: read only by ``decide``.
DECIDING = frozenset(
    {"exit_status", "strict_exit_status", "scores_gated", "run_regression", "significant", "dropped", "decide"}
)


def deciding_reads(tree: ast.AST, where: str) -> list[str]:
    return [
        f"{where}:{node.lineno}: .{node.attr}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr in DECIDING
    ] + [
        f"{where}:{node.lineno}: {node.id}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Name) and node.id in DECIDING
    ]


def test_no_compare_view_decides_the_outcome_itself():
    found = [hit for view in VIEWS for hit in deciding_reads(parse_source(ROOT / view), view)]
    assert found == []


def test_the_check_sees_a_view_deciding_for_itself():
    source = "status = c.strict_exit_status if strict else c.exit_status\nif c.noise.significant: pass\n"
    assert sorted(deciding_reads(ast.parse(source), "x.py")) == [
        "x.py:1: .exit_status",
        "x.py:1: .strict_exit_status",
        "x.py:2: .significant",
    ]
