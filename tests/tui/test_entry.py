"""`ragtui` with no subcommand opens the TUI; setup errors are one line and exit 2; the
re-judge helper stays free of Textual so it can move into the core."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from ragtui.core.bootstrap import Overrides
from ragtui.tui import run_tui


def test_no_subcommand_launches_the_tui_with_the_top_level_flags(monkeypatch: pytest.MonkeyPatch):
    seen: list[Overrides] = []
    monkeypatch.setattr("ragtui.tui.run_tui", lambda overrides: seen.append(overrides) or 0)
    cli_main = importlib.import_module("ragtui.cli.main")  # the package re-exports main() itself
    assert cli_main.main(["--db", "x.db", "--model", "m", "--language", "ja"]) == 0
    assert (seen[0].db, seen[0].model, seen[0].language) == (Path("x.db"), "m", "ja")


def test_a_setup_error_is_one_line_and_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path):
    assert run_tui(Overrides(config_path=tmp_path / "missing.toml")) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.toml does not exist" in err


def test_rejudge_and_safe_text_import_without_textual():
    code = (
        "import sys\n"
        "import ragtui.tui.rejudge, ragtui.tui.safe_text\n"
        "print(','.join(m for m in sys.modules if m == 'textual' or m.startswith('textual.')))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == ""
