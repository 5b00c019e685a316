"""``ragtui judge-card`` and the agreement shown beside scores: measured figures for exactly this
judge model and prompt (a stored ``calibrate --fit``, or ragtui's shipped fit for its embedded
judge), "unmeasured" otherwise — in the card, in ``ragtui show`` and under the run summary."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.prompts import load_prompt
from ragtui.core.judge_quality.fit import FitReport, fit, prompt_fingerprint
from ragtui.core.judge_quality.fit_store import save_fit
from ragtui.core.judge_quality.judge_card import shipped_card_entries
from ragtui.core.metrics.rubric import CheckedRubricJudge
from ragtui.core.models.endpoints import EMBEDDED_MODEL
from ragtui.core.store.store import Store

from ..card_table import card_cells
from ..conftest import JUDGE, check_answers, endpoint_toml


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 220)


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    path.write_text(
        'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\ndialogue_metrics = []\n'
        + endpoint_toml(server.base_url),
        encoding="utf-8",
    )
    return path


def card_rows(out: str) -> dict[tuple[str, str], str]:
    return {key: " ".join(cells) for key, cells in card_cells(out).items()}


def test_a_judge_nothing_was_measured_for_is_unmeasured_everywhere(config_file, capsys):
    assert main(["judge-card", "--config", str(config_file)]) == 0
    rows = card_rows(capsys.readouterr().out)
    assert rows[("rubric", "en")].startswith("unmeasured")
    assert "ragtui judge-card --measure --metric rubric" in rows[("rubric", "en")]
    assert ("faithfulness", "ja") in rows and all(r.startswith("unmeasured") for r in rows.values())


def test_the_embedded_judge_shows_the_shipped_figure_for_the_rubric_in_english(config_file, capsys):
    assert main(["judge-card", "--config", str(config_file), "--model", EMBEDDED_MODEL]) == 0
    rows = card_rows(capsys.readouterr().out)
    # The shipped card's figure comes first (the shipped fit's report half only when the card has none).
    assert "bundled labelled set" in rows[("rubric", "en")]
    for entry in shipped_card_entries():  # the card ragtui ships, every metric and language
        figure = "κ" if entry.figure == "kappa" else "Spearman"
        row = rows[(entry.metric, entry.language)]
        if (entry.metric, entry.language) == ("expectations", "en"):
            # The embedded judge reads English prohibitions against a content-free answer; the same
            # model behind a configured endpoint does not, so its scores are not the card's.
            assert row.startswith("unmeasured")
            continue
        floor = 0.4 if entry.figure == "kappa" else 0.5
        # The floor reads the interval: its lower bound must clear it.
        low = entry.value is None or entry.low is None or entry.low < floor or entry.n < 10
        assert row.startswith(f"≈ {figure} " if low else f"{figure} ") and "shipped" in row and "report half" in row
        assert entry.value is None or f"{entry.value:.2f}" in row  # the card's own figure, also for the rubric


def test_a_stored_fit_puts_its_figure_on_the_card_and_beside_the_scores(config_file, server, capsys):
    judge = CheckedRubricJudge(None, load_prompt(bundled_dir("prompts"), "en", "judge_probes"))  # type: ignore[arg-type]
    raw, labels = [0.2, 0.3, 0.4, 0.5, 0.6], [0.2, 0.2, 0.6, 1.0, 1.0]
    stored = fit("rubric", JUDGE, prompt_fingerprint(judge), False, raw, labels)
    report = FitReport(5, 5, {"spearman": 0.61, "mae": 0.2}, {"spearman": 0.6, "mae": 0.1})
    store = Store.open(config_file.parent / "runs.db")
    try:
        save_fit(store, stored, report, "labels.jsonl", None)
    finally:
        store.close()
    assert main(["judge-card", "--config", str(config_file)]) == 0
    rows = card_rows(capsys.readouterr().out)
    # 5 items, fewer than the floor's 10: shown as quick, and what decides the gate stays unmeasured.
    assert rows[("rubric", "en/quick")].startswith("quick Spearman 0.61 5")
    assert rows[("rubric", "en")].startswith("unmeasured")

    server.set_default(JUDGE, check_answers(4.0))
    main(["run", "--config", str(config_file), "-s", "id-linking", "-p", "calm"])
    out = capsys.readouterr().out
    assert "rubric scores: unmeasured" in out
    assert main(["show", "1", "--config", str(config_file)]) == 0
    shown = capsys.readouterr().out
    assert "(raw 0.80)" in shown  # the fit still maps the score


def test_scores_of_an_unmeasured_judge_say_so_in_the_summary_and_in_show(config_file, server, capsys):
    server.set_default(JUDGE, check_answers(4.0))
    main(["run", "--config", str(config_file), "-s", "id-linking", "-p", "calm"])
    assert "rubric scores: unmeasured — ragtui judge-card" in capsys.readouterr().out
    assert main(["show", "1", "--config", str(config_file)]) == 0
    assert "unmeasured — ragtui judge-card" in capsys.readouterr().out
