"""Every view turns a score into text through ``core.text.score_text``: no module formats a
score with its own ``:.2f`` or writes its own "unscored" for a missing one, so the CSV, the
reports, the terminal and the TUI cannot drift apart (one showed ``–`` where the others said
``unscored``). In a view (the front ends, the runs, the store) no number at all is written with
a score's two decimals outside that module — whatever the variable is called, in an f-string,
a ``format`` call, a ``%`` template or a ``str.format`` template: a figure beside the scores
(an agreement, P(yes), pass^k) is ``figure_text``, a change ``delta_text``, a pass mark
``mark_text``."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ragtui

from .source import parse_source

ROOT = Path(ragtui.__file__).parent
HOME = ROOT / "core" / "text" / "score_text.py"
VIEWS = ("cli", "tui", "core/runs", "core/store")
# A format spec with two decimals (``.2f``, ``+.2f``, ``>6.2f``, ``.2%``, ``.2``), alone or inside
# a template (``{x:.2f}``, ``%.2f``).
TWO_DECIMALS = re.compile(r"^[^.{}]*\.2[a-zA-Z%]?$")
IN_TEMPLATE = re.compile(r"\{[^{}]*:[^{}.]*\.2[a-zA-Z%]?\}|%[-+ #0]*\d*\.2[fFeEgG]")


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


def _spec(node: ast.AST) -> str:
    return "".join(v.value for v in ast.walk(node) if isinstance(v, ast.Constant) and isinstance(v.value, str))


def two_decimal_formats(tree: ast.AST, where: str) -> list[str]:
    """Every number written with two decimals in ``tree``, whatever it is called."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            if TWO_DECIMALS.match(_spec(node.format_spec)):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node.value)}:{_spec(node.format_spec)}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "format":
            if len(node.args) == 2 and TWO_DECIMALS.match(_spec(node.args[1])):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and IN_TEMPLATE.search(node.value):
            found.append(f"{where}:{node.lineno}: {node.value[:60]!r}")
    return sorted(found, key=lambda hit: int(hit.split(":")[1]))


def test_no_view_writes_two_decimals_itself():
    found = [
        hit
        for part in VIEWS
        for path in sorted((ROOT / part).rglob("*.py"))
        for hit in two_decimal_formats(parse_source(path), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_check_sees_two_decimals_whatever_the_name():
    source = (
        'a = f"{p_yes:.2f}"\n'
        'b = f"{gap:+.2f} {seconds:.1f} s"\n'
        'c = format(value, ".2f")\n'
        'd = "P(yes) %.2f" % p\n'
        'e = "{label} {value:.2f}".format(label=x, value=y)\n'
        'f = f"{rate:.0%} {p_value:.3f}"\n'
    )
    assert two_decimal_formats(ast.parse(source), "s") == [
        "s:1: p_yes:.2f",
        "s:2: gap:+.2f",
        "s:3: format(value, '.2f')",
        "s:4: 'P(yes) %.2f'",
        "s:5: '{label} {value:.2f}'",
    ]


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
