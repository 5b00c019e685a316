"""Every view turns a score into text through ``core.text.score_text``: no module formats a
score with its own ``:.2f`` or writes its own "unscored" for a missing one, so the CSV, the
reports, the terminal and the TUI cannot drift apart (one showed ``–`` where the others said
``unscored``)."""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui

from .source import parse_source

ROOT = Path(ragtui.__file__).parent
HOME = ROOT / "core" / "text" / "score_text.py"


def _names(node: ast.AST) -> set[str]:
    found: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name):
            found.add(sub.id)
        elif isinstance(sub, ast.Attribute):
            found.add(sub.attr)
    return found


def _is_score(node: ast.AST) -> bool:
    return any(name == "score" or name.endswith("_score") or name == "scores" for name in _names(node))


def own_score_formats(tree: ast.AST, where: str) -> list[str]:
    """``f"{x.score:.2f}"`` and ``"unscored" if score is None else …`` in ``tree``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = "".join(v.value for v in ast.walk(node.format_spec) if isinstance(v, ast.Constant))
            if spec == ".2f" and _is_score(node.value):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node.value)}:.2f")
        elif (
            isinstance(node, ast.IfExp)
            and isinstance(node.body, ast.Constant)
            and node.body.value == "unscored"
            and _is_score(node.test)
        ):
            found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_no_view_formats_a_score_itself():
    found = [
        hit
        for path in sorted(ROOT.rglob("*.py"))
        if path != HOME
        for hit in own_score_formats(parse_source(path), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_check_sees_a_score_formatted_by_hand():
    source = 'a = f"{j.score:.2f}"\nb = "unscored" if score is None else str(score)\nc = f"{p_yes:.2f}"\n'
    assert sorted(own_score_formats(ast.parse(source), "sample")) == [
        "sample:1: j.score:.2f",
        "sample:2: 'unscored' if score is None else str(score)",
    ]
