"""`ragtui` with no subcommand opens the TUI; setup errors are one line and exit 2; the
re-judge helper stays free of Textual so it can move into the core."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from ragtui.core.runs.bootstrap import Overrides
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


# The metrics package's face is light (a view imports a metric's description, ``rubric_info``);
# its judges and the model client they use are what must wait.
HEAVY = (
    "openai",
    "httpx",
    "sqlite_utils",
    "textual",
    "rich",
    "ragtui.core.models.llm",
    "ragtui.core.metrics.build",
    "ragtui.core.metrics.rubric",
    "ragtui.core.dialogue.engine",
)


def imported_after(code: str) -> list[str]:
    probe = f"import sys\n{code}\nprint(','.join(m for m in {HEAVY!r} if m in sys.modules))\n"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    last = (result.stdout.strip().splitlines() or [""])[-1]
    return [m for m in last.split(",") if m]


def test_version_and_help_import_nothing_heavy():
    for argv in (["--version"], ["--help"]):
        code = (
            "import contextlib, io\nfrom ragtui.cli.main import main\n"
            f"with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit):\n    main({argv!r})"
        )
        assert imported_after(code) == [], argv


def test_the_first_frame_needs_no_llm_client_and_no_sqlite_utils():
    # What `ragtui` imports before its first frame: the entry point, the app, the main screen.
    code = "import ragtui.cli.main, ragtui.tui, ragtui.tui.app, ragtui.tui.screens.main_screen"
    assert set(imported_after(code)) == {"textual", "rich"}


def test_a_metrics_description_imports_without_its_judge():
    """The views import the rubric's description, not the rubric: no copy of its criteria, and
    no model client on the way."""
    assert imported_after("import ragtui.core.metrics, ragtui.core.metrics.rubric_info") == []
    from ragtui.core.metrics import rubric, rubric_info
    from ragtui.tui import formatting

    assert formatting.CRITERIA is rubric_info.CRITERIA is rubric.CRITERIA
    assert rubric.CheckedRubricJudge.info is rubric_info.INFO
