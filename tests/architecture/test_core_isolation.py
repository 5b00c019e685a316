"""ragtui.core must stay importable without Textual: the CLI, batch jobs and other front ends
depend on it, and a UI import there would drag the whole TUI into every headless run."""

from __future__ import annotations

import pkgutil
import subprocess
import sys

import ragtui.core


def core_modules() -> list[str]:
    return [m.name for m in pkgutil.walk_packages(ragtui.core.__path__, "ragtui.core.")]


def test_core_has_modules_to_check():
    names = core_modules()
    assert "ragtui.core.dialogue.engine" in names and "ragtui.core.store.store" in names


def test_importing_every_core_module_loads_no_textual():
    code = (
        "import importlib, sys\n"
        f"for name in {core_modules()!r}:\n"
        "    importlib.import_module(name)\n"
        "loaded = sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.'))\n"
        "print(','.join(loaded))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
