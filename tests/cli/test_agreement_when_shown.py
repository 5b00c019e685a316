"""Agreement is the judge card's when a verdict is shown, not frozen when it was judged: a run
judged by an unmeasured judge, then ``judge-card`` entries for exactly that judge and prompt —
every view of the old run (show, the CSV, compare's loader, the run's agreement line, a fresh
store's session) states the new figures, turn and dialogue verdicts alike. The gate-change line
still reads what the earlier run gated on. Against the fake server with a real SQLite file."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.config.settings import load_config
from ragtui.core.judge_quality.card_entry import CardEntry
from ragtui.core.judge_quality.card_store import save_entry
from ragtui.core.runs.agreement_line import run_agreement_line
from ragtui.core.runs.bootstrap import open_store
from ragtui.core.runs.dialogues import load_run
from ragtui.core.runs.gate_changes import sessions_as_judged
from ragtui.core.store.store import Store
from ragtui.core.types.judge_key import JUDGE_KEY

from ..conftest import JUDGE, endpoint_toml
from .test_dialogue_cli import judge_two_dialogues


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 220)


def measure(database: Path, metric: str, fingerprint: str, value: float, low: float, high: float) -> None:
    store = Store.open(database)
    try:
        entry = CardEntry(metric, "en", JUDGE, fingerprint, "spearman", value, 30, "labels", "measured", low, high)
        save_entry(store, entry)
    finally:
        store.close()


def test_a_measurement_made_after_a_run_reaches_every_view_of_that_run(server, tmp_path: Path, capsys):
    config = tmp_path / "ragtui.toml"
    config.write_text(
        'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\n' + endpoint_toml(server.base_url), encoding="utf-8"
    )
    server.set_default(JUDGE, judge_two_dialogues())
    args = ["--config", str(config)]
    assert main(["run", *args, "-s", "id-linking", "-s", "useless", "-p", "calm"]) in (0, 1)
    capsys.readouterr()
    database = tmp_path / "runs.db"

    # Judged unmeasured: every scored verdict carries its judge key and no agreement.
    raw = Store.open(database)
    try:
        session = raw.session(1)
        rubric = next(j for j in session.judgments if j.metric == "rubric" and j.score is not None)
        resolution = next(j for j in session.dialogue_judgments if j.metric == "resolution")
        run_id = session.run_id
    finally:
        raw.close()
    assert rubric.details[JUDGE_KEY]["model"] == JUDGE and "agreement" not in rubric.details
    assert resolution.details[JUDGE_KEY]["model"] == JUDGE and "agreement" not in resolution.details
    assert main(["show", "1", *args]) == 0
    before = capsys.readouterr().out
    assert before.count("unmeasured — ragtui judge-card") == 3  # rubric, resolution, repetition

    # Measured afterwards, for exactly that judge and prompt: the rubric low, resolution trusted.
    measure(database, "rubric", rubric.details[JUDGE_KEY]["fingerprint"], 0.20, -0.17, 0.52)
    measure(database, "resolution", resolution.details[JUDGE_KEY]["fingerprint"], 0.81, 0.63, 0.91)

    assert main(["show", "1", *args]) == 0
    shown = capsys.readouterr().out
    assert "agreement with people: Spearman 0.20 (n=30, 95% CI -0.17–0.52, labels) · ≈ low agreement" in shown
    assert "agreement with people: Spearman 0.81 (n=30, 95% CI 0.63–0.91, labels)" in shown
    assert shown.count("unmeasured — ragtui judge-card") == 1  # repetition: still unmeasured

    out_csv = tmp_path / "run.csv"
    assert main(["export", *args, "--run", "last", "--csv", str(out_csv)]) == 0
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert rows[0]["judge_agreement"].startswith("Spearman 0.20 [-0.17–0.52] (n=30)")
    assert rows[0]["resolution_judge_agreement"].startswith("Spearman 0.81 [0.63–0.91] (n=30)")

    store = open_store(load_config(config))
    try:
        fresh = store.session(1)
        assert next(j for j in fresh.judgments if j.metric == "rubric").details["agreement"]["value"] == 0.20
        dialogues = load_run(store, run_id)
        assert dialogues[0].agreement["rubric"]["value"] == 0.20
        assert dialogues[0].agreement["resolution"]["value"] == 0.81
        assert "Spearman 0.20" in run_agreement_line(store, run_id)
        # What that run gated on is still what it was judged with.
        then = sessions_as_judged(store, run_id)[0]
        assert "agreement" not in next(j for j in then.judgments if j.metric == "rubric").details
        assert "agreement" in next(j for j in store.run_sessions(run_id)[0].judgments if j.metric == "rubric").details
    finally:
        store.close()
