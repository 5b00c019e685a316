"""Nothing reads Textual's private list of toasts, ``App._notifications``: each toast leaves it
when its timeout passes, by the wall clock, so a test that reads it passes on an idle machine
and fails on a busy one (one did, twice, under load). What the operator was told is kept by the
app itself, in ``RagtuiApp.notices`` (``ragtui/tui/notices.py``), and read from there — or from
the screen. Read from the source with ``ast``: an attribute ``._notifications`` or a
``getattr(x, "_notifications")`` in ragtui, the tests or the benchmarks counts."""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui

from .source import parse_source

PROJECT = Path(ragtui.__file__).parent.parent
PRIVATE = "_notifications"


def reads_in(path: Path) -> list[int]:
    """The lines of ``path`` that read ``._notifications``."""
    found = []
    for node in ast.walk(parse_source(path)):
        attribute = isinstance(node, ast.Attribute) and node.attr == PRIVATE
        by_name = (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value == PRIVATE
        )
        if attribute or by_name:
            found.append(node.lineno)
    return sorted(found)


def sources() -> list[Path]:
    return sorted(p for folder in ("ragtui", "tests", "bench") for p in (PROJECT / folder).rglob("*.py"))


def test_no_code_reads_the_expiring_toast_list():
    offenders = [f"{path.relative_to(PROJECT)}:{line}" for path in sources() for line in reads_in(path)]
    assert offenders == [], "read app.notices (what the operator was told, kept) instead"


def test_the_check_sees_each_way_of_reading_it(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "a = app._notifications\nb = getattr(app, '_notifications')\nc = app.notices\nd = '_notifications'\n",
        encoding="utf-8",
    )
    assert reads_in(sample) == [1, 2]
    assert (PROJECT / "tests" / "tui" / "conftest.py") in sources()  # the folder the helper lives in is read
