"""The list commands at 80 columns and piped: run ids stay told apart, names are shortened from
the middle so rows stay distinct, and a header is a whole word — never ``l…``, ``sc…`` or
``202612…``. The terminal case is the module's console made a terminal of 80 columns; the
piped case is a real child process whose output is a pipe."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from rich.cells import cell_len

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue

from .test_cli_robustness import child_env

RUNS = ("20261204-093012-ab12", "20261204-101500-cd34", "20261205-101500-ef56")
PAIRS = (("id-linking", "in-a-hurry"), ("refund-partial", "skeptical"), ("reset-link-expired", "angry"))
ANSI = re.compile(r"\x1b\[[0-9;]*m")


def synthetic_db(path: Path) -> Path:
    store = Store.open(path)
    try:
        for run in RUNS:
            for scenario, persona in PAIRS:
                for trial in (1, 2):
                    write_dialogue(store, run, scenario, persona, [0.8, 0.6 + trial / 10], trial=trial)
    finally:
        store.close()
    return path


@pytest.fixture
def terminal_80(monkeypatch: pytest.MonkeyPatch) -> None:
    """The console as a terminal 80 columns wide (its output still captured)."""
    monkeypatch.setattr(output.console, "_force_terminal", True)
    monkeypatch.setattr(output.console, "_width", 80)


def shown(capsys: pytest.CaptureFixture[str]) -> list[str]:
    return [ANSI.sub("", line) for line in capsys.readouterr().out.splitlines()]


def test_sessions_at_80_columns_tells_runs_and_pairs_apart(tmp_path: Path, terminal_80, capsys):
    db = synthetic_db(tmp_path / "ragtui.db")
    assert main(["sessions", "--db", str(db), "-n", "18"]) == 0
    lines = shown(capsys)
    assert all(cell_len(line) <= 80 for line in lines), lines
    head = next(line for line in lines if " id " in line or line.lstrip("┃ ").startswith("id"))
    for word in ("id", "started", "run", "scenario", "persona", "turns", "score", "stop"):
        assert re.search(rf"\b{re.escape(word)}\b", head), (word, head)
    rows = [line for line in lines if re.search(r"\b\d+/2\b", line)]
    assert len(rows) == 18
    for run in RUNS:  # each row names its run by the end that tells it apart
        assert sum(run[-4:] in row for row in rows) == 6, (run, rows)
    assert not any("202612…" in row for row in rows)
    for scenario, persona in PAIRS:  # and its pair, one row per line
        assert sum(1 for row in rows if scenario[:3] in row and persona[-3:] in row) == 6, (scenario, rows)


def test_runs_at_80_columns_keeps_figures_and_headers_whole(tmp_path: Path, terminal_80, capsys):
    db = synthetic_db(tmp_path / "ragtui.db")
    assert main(["runs", "--db", str(db)]) == 0
    lines = shown(capsys)
    table = [line for line in lines if not line.startswith(("pass:", "trend:"))]
    head = next(line for line in table if re.search(r"\brun\b", line))
    for word in ("run", "score", "pass", "unsc", "trend"):
        assert re.search(rf"\b{re.escape(word)}\b", head), (word, head)
    assert "…" not in head
    rows = [line for line in table if any(run[-4:] in line for run in RUNS)]
    assert len(rows) == 3, rows
    assert all(re.search(r" 0\.\d\d ", row) and "100%" in row and "1.00 (2)" in row for row in rows), rows
    assert all(cell_len(line) <= 80 for line in lines), lines


def test_piped_runs_heads_every_column_with_its_whole_name(tmp_path: Path):
    db = synthetic_db(tmp_path / "ragtui.db")
    result = subprocess.run(
        [sys.executable, "-m", "ragtui", "runs", "--db", str(db)],
        capture_output=True,
        text=True,
        env=child_env(COLUMNS="80"),
        cwd=tmp_path,
        timeout=120,
        check=True,
    )
    lines = result.stdout.splitlines()
    head = next(line for line in lines if line.startswith("run"))
    assert head.split() == [
        "run", "started", "lang", "n", "score", "resol.", "pass", "pass^K", "(K)", "unsc", "bot", "·", "models", "trend",
    ]  # fmt: skip
    for run in RUNS:
        assert sum(line.startswith(run + " ") for line in lines) == 1


def test_a_run_s_results_at_80_columns_keep_each_pair_apart(tmp_path: Path, terminal_80, capsys):
    from ragtui.cli.run_results import RESULTS_FIT, results_table

    store = Store.open(synthetic_db(tmp_path / "ragtui.db"))
    try:
        sessions = store.run_sessions(RUNS[0])
    finally:
        store.close()
    names = [(f"{s.scenario_id}-for-a-long-while", f"{s.persona_name}-and-then-some") for s in sessions]
    for s, (scenario, persona) in zip(sessions, names, strict=True):
        s.scenario_id, s.persona_name = scenario, persona
    output.print_table(results_table(sessions, {}, {}, None), RESULTS_FIT)
    lines = shown(capsys)
    assert all(cell_len(line) <= 80 for line in lines), lines
    rows = [line for line in lines if re.match(r"\s*\d+ ", line)]
    assert len(rows) == 6 and len({" ".join(row.split()[1:3]) for row in rows[::2]}) == 3, rows
    assert all("max_turns" in row for row in rows)  # the stop reason whole
