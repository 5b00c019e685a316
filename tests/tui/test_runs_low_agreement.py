"""A run whose scores all come from a judge under the agreement floor shows them with ≈ in the
Runs tables of the CLI and the TUI, as the run summary and the report do (it read a plain 0.28)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import DataTable

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.metrics import PRIMARY_METRIC
from ragtui.core.metrics.base import Judgment
from ragtui.core.store.store import Store
from stand_ins.synthetic_runs import write_dialogue

from .conftest import SIZE
from .test_runs_compare_fork import cell_texts

LOW = {"metric": PRIMARY_METRIC, "language": "en", "model": "j", "fingerprint": "f", "figure": "spearman",
       "value": 0.1, "n": 30, "on": "labels.jsonl", "source": "calibrate"}  # fmt: skip


def judged(store: Store, run: str, scenario: str, score: float, agreement: dict | None) -> None:
    session_id = write_dialogue(store, run, scenario, "calm", [score])
    bot = store.session(session_id).messages[1]
    details = {"conclusion": "again", **({"agreement": agreement} if agreement else {})}
    store.add_judgment(session_id, bot.id, 1, Judgment(PRIMARY_METRIC, score, details, raw_reply="x"))
    store.refresh_score(session_id, PRIMARY_METRIC)


@pytest.fixture
def two_runs(store: Store) -> Store:
    judged(store, "20260101-low", "refund", 0.28, LOW)
    judged(store, "20260102-trusted", "refund", 0.28, None)
    return store


async def test_a_low_agreement_run_s_score_carries_the_mark_in_both_runs_tables(
    two_runs: Store, make_app, tmp_path: Path, capsys, monkeypatch
):
    monkeypatch.setattr(output.console, "_width", 200)
    config = tmp_path / "c.toml"
    config.write_text(f'database = "{two_runs.path}"\n', encoding="utf-8")
    assert main(["runs", "--config", str(config)]) == 0
    rows = {line.split()[0].strip("│"): line for line in capsys.readouterr().out.splitlines() if "2026010" in line}
    assert "≈0.28" in rows["20260101-low"] and "≈0.28" not in rows["20260102-trusted"]

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("R")
        await pilot.pause()
        shown = cell_texts(app.screen.query_one("#runs", DataTable))
        assert shown[1].startswith("20260101-low") and " ≈0.28 " in shown[1]
        assert shown[0].startswith("20260102-trusted") and "≈" not in shown[0]
