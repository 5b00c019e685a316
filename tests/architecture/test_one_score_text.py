"""Every view turns a number into text through ``core/text``: a score through ``score_text``
(``score_text``, ``figure_text`` for a 0–1 figure beside it, ``delta_text`` for a change,
``mark_text`` for a pass mark), any other number through ``number_text`` (a rate, a p-value, a
setting, a count, seconds, money, a chart coordinate). No module formats a score with its own
``:.2f`` or writes its own "unscored" for a missing one, so the CSV, the reports, the terminal
and the TUI cannot drift apart (one showed ``–`` where the others said ``unscored``). In a view
(the front ends, the runs, the store) no float is formatted at all outside those modules —
whatever the variable is called and whatever the precision: an f-string spec of type ``f``,
``e``, ``g`` or ``%`` (``{x:.1f}``, ``{x:g}``, ``{x:.0%}``, ``{x:.{n}f}``), a ``format(x, ".2f")``
call, a ``%.2f`` template or a ``str.format`` template."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import ragtui

from .source import parse_source

ROOT = Path(ragtui.__file__).parent
HOME = ROOT / "core" / "text" / "score_text.py"
VIEWS = ("cli", "tui", "core/runs", "core/store")
# A format spec that writes a float: any fill, align, sign, width, grouping and precision, then a
# float type (``f``, ``e``, ``g``, ``%``). Nested fields (``.{n}f``) are read as a digit.
FLOAT_SPEC = re.compile(r"^(?:.?[<>=^])?[-+ ]?z?#?0?\d*[,_]?(?:\.\d+)?[eEfFgG%]$")
# The same inside a ``str.format`` template (``{x:.1f}``, ``{:g}``), or a ``%`` template with a
# float conversion (``%.2f``, ``%5.1e``, ``%g``).
BRACE_FIELD = re.compile(r"\{[^{}]*:((?:.?[<>=^])?[-+ ]?z?#?0?\d*[,_]?(?:\.\d+)?[eEfFgG%])\}")
PERCENT_FIELD = re.compile(r"%[-+ #0]*\d*(?:\.\d+)?[eEfFgG]")
KEPT_TEMPLATE = re.compile(r"%[-+ #0]*\d*\.\d+[eEfFgG]")  # with a precision: a template, not prose


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
    """A format spec's text, each nested field (``{digits}``) read as ``0``."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, str) else ""
    if isinstance(node, ast.JoinedStr):
        return "".join(_spec(part) for part in node.values)
    return "0"


def _template(node: ast.AST) -> str | None:
    """The string a ``str.format`` call or a ``%`` operator fills in, if ``node`` is one."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        target = node.func.value
    elif isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        target = node.left
    else:
        return None
    return target.value if isinstance(target, ast.Constant) and isinstance(target.value, str) else None


def float_formats(tree: ast.AST, where: str) -> list[str]:
    """Every float written with a format of its own in ``tree``, whatever it is called."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.FormattedValue) and node.format_spec is not None:
            spec = _spec(node.format_spec)
            if FLOAT_SPEC.match(spec):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node.value)}:{spec}")
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "format":
            if len(node.args) == 2 and FLOAT_SPEC.match(_spec(node.args[1])):
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
        elif (template := _template(node)) is not None:
            if BRACE_FIELD.search(template) or (isinstance(node, ast.BinOp) and PERCENT_FIELD.search(template)):
                found.append(f"{where}:{node.lineno}: {template[:60]!r}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and KEPT_TEMPLATE.search(node.value):
            # A ``%`` template kept in a name before it is filled (CSS's ``100%`` has no float type).
            found.append(f"{where}:{node.lineno}: {node.value[:60]!r}")
    return sorted(set(found), key=lambda hit: (int(hit.split(":")[1]), hit))


def test_no_view_formats_a_float_itself():
    found = [
        hit
        for part in VIEWS
        for path in sorted((ROOT / part).rglob("*.py"))
        for hit in float_formats(parse_source(path), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_check_sees_any_float_format_whatever_the_name():
    source = (
        'a = f"{p_yes:.2f}"\n'
        'b = f"{gap:+.2f} {seconds:.1f} s"\n'
        'c = format(value, ".2f")\n'
        'd = "P(yes) %.2f" % p\n'
        'e = "{label} {value:.2f}".format(label=x, value=y)\n'
        'f = f"{rate:.0%} {p_value:.3f} {alpha:g} {tokens:,.0f} {tiny:.1e}"\n'
        'g = f"{value:.{digits}f}"\n'
        'h = "{:g} s".format(t)\n'
        'i = "%5.1f%%" % share\n'
        'TEMPLATE = "waited %.1f s"\n'
        'j = f"{count:d} {name:>10} {width:5}"\n'  # whole numbers and text: no float
        'k = "{width:100%}"\n'  # CSS, not a template
    )
    assert float_formats(ast.parse(source), "s") == [
        "s:1: p_yes:.2f",
        "s:2: gap:+.2f",
        "s:2: seconds:.1f",
        "s:3: format(value, '.2f')",
        "s:4: 'P(yes) %.2f'",
        "s:5: '{label} {value:.2f}'",
        "s:6: alpha:g",
        "s:6: p_value:.3f",
        "s:6: rate:.0%",
        "s:6: tiny:.1e",
        "s:6: tokens:,.0f",
        "s:7: value:.0f",
        "s:8: '{:g} s'",
        "s:9: '%5.1f%%'",
        "s:10: 'waited %.1f s'",
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
