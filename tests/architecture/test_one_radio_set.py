"""Every radio set in the TUI is a ``widgets.choice_set.ChoiceSet``: ↑/↓ choose as they move, so
what is highlighted when a dialog is submitted is what it stores. A plain Textual ``RadioSet``
moves only the highlight, and the Label dialog stored "no opinion" under a highlighted
"Disagree"."""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui.tui

from .source import parse_source

TUI = Path(ragtui.tui.__file__).parent
HOME = TUI / "widgets" / "choice_set.py"


def plain_radio_sets(tree: ast.AST, where: str) -> list[str]:
    """Every ``RadioSet(…)`` built (or ``with RadioSet(…)``) in ``tree``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            name = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
            if name == "RadioSet":
                found.append(f"{where}:{node.lineno}: {ast.unparse(node)}")
    return found


def test_the_reader_finds_a_plain_radio_set():
    tree = ast.parse("from textual import widgets\nwith widgets.RadioSet(id='x'):\n    pass\nRadioSet()\n")
    assert len(plain_radio_sets(tree, "sample.py")) == 2
    assert plain_radio_sets(ast.parse("ChoiceSet(id='x')"), "sample.py") == []


def test_every_radio_set_chooses_as_it_moves():
    found = [
        hit
        for path in sorted(TUI.rglob("*.py"))
        if path != HOME
        for hit in plain_radio_sets(parse_source(path), str(path.relative_to(TUI)))
    ]
    assert found == []
