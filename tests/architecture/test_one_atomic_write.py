"""Every file ragtui replaces goes through one atomic write (``ragtui/core/files/atomic.py``):
no other module renames a temporary file over a target by hand. Read from the source with
``ast``: ``os.replace``, ``os.rename``, ``tempfile.mkstemp`` and a one-argument ``.replace(x)``
or ``.rename(x)`` (``Path.replace``; ``str.replace`` always takes two) count."""

from __future__ import annotations

import ast
from pathlib import Path

import ragtui

from .source import parse_source

ROOT = Path(ragtui.__file__).parent
ATOMIC = ROOT / "core" / "files" / "atomic.py"
BY_MODULE = {("os", "replace"), ("os", "rename"), ("tempfile", "mkstemp")}
# Calls that look like a rename and are not a write: (file, call) -> why.
NOT_A_WRITE = {
    ("ragtui/core/models/local_model.py", "path.replace"): "rotates the server log to .1; writes nothing",
    ("ragtui/tui/widgets/panes.py", "self.replace"): "a message view replacing its text, not a file",
}


def renames_in(path: Path) -> list[tuple[int, str]]:
    """(line, call) for each hand-written rename or temporary file in ``path``."""
    found = []
    for node in ast.walk(parse_source(path)):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        owner = node.func.value.id if isinstance(node.func.value, ast.Name) else None
        name = node.func.attr
        by_path = name in ("replace", "rename") and owner != "os" and len(node.args) == 1 and not node.keywords
        if (owner, name) in BY_MODULE or by_path:
            found.append((node.lineno, ast.unparse(node.func)))
    return sorted(found)


def test_only_the_atomic_module_renames_files():
    offenders = [
        f"{path.relative_to(ROOT.parent)}:{line} {call}"
        for path in sorted(ROOT.rglob("*.py"))
        if path != ATOMIC
        for line, call in renames_in(path)
        if (str(path.relative_to(ROOT.parent)), call) not in NOT_A_WRITE
    ]
    assert offenders == []


def test_the_check_sees_each_kind_of_rename(tmp_path: Path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import os, tempfile\nos.replace(a, b)\ntmp.replace(path)\nfd, t = tempfile.mkstemp()\ntext.replace('a', 'b')\n",
        encoding="utf-8",
    )
    assert [call for _, call in renames_in(sample)] == ["os.replace", "tmp.replace", "tempfile.mkstemp"]
    assert renames_in(ATOMIC)  # the one module that does it is seen doing it
