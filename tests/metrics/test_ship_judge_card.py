"""bench/ship_judge_card.py: the shipped card is written from a real card database; ``--metric``
replaces only the named metrics' rows and keeps every other row of the card file as it was."""

from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

import pytest

from ragtui.core.judge_quality.card_entry import CardEntry
from ragtui.core.judge_quality.card_store import save_entry
from ragtui.core.models.endpoints import EMBEDDED_MODEL
from ragtui.core.store.store import Store

SCRIPT = Path(__file__).resolve().parents[2] / "bench" / "ship_judge_card.py"

# A row another measurement shipped: it must come back exactly, key order and rounding included.
RUBRIC_ROW = {
    "metric": "rubric",
    "language": "ja",
    "model": EMBEDDED_MODEL,
    "fingerprint": "aaaaaaaaaaaaaaaa",
    "figure": "spearman",
    "value": 0.21,
    "n": 18,
    "on": "bundled labelled set, ja report half",
    "low": -0.3,
    "high": 0.63,
    "unscored": 0,
    "quick": False,
    "measured_at": "2026-12-01T10:00:00+00:00",
}
OLD_ANSWERABILITY = {**RUBRIC_ROW, "metric": "answerability", "language": "en", "figure": "kappa", "n": 4}


def measured(metric: str, language: str, value: float) -> CardEntry:
    figure = "kappa" if metric == "answerability" else "spearman"
    on = f"bundled labelled set, {language} report half"
    return CardEntry(metric, language, EMBEDDED_MODEL, "bbbbbbbbbbbbbbbb", figure, value, 12, on, "measured", 0.1, 0.9)


@pytest.fixture
def card_db(tmp_path: Path) -> Path:
    path = tmp_path / "card.db"
    store = Store.open(path)
    try:
        save_entry(store, measured("answerability", "en", 0.6666))
        save_entry(store, measured("faithfulness", "ja", 0.5))
        save_entry(store, measured("rubric", "ja", 0.99))  # in the database, but not asked for
    finally:
        store.close()
    return path


@pytest.fixture
def card_file(tmp_path: Path) -> Path:
    path = tmp_path / "shipped_card.json"
    path.write_text(json.dumps({"about": "x", "entries": [OLD_ANSWERABILITY, RUBRIC_ROW]}), encoding="utf-8")
    return path


def ship(monkeypatch: pytest.MonkeyPatch, *args: str) -> None:
    monkeypatch.setattr(sys, "argv", [str(SCRIPT), *args])
    runpy.run_path(str(SCRIPT), run_name="__main__")


def test_metric_replaces_only_that_metrics_rows(monkeypatch, card_db, card_file, capsys):
    ship(monkeypatch, "--db", str(card_db), "--out", str(card_file), "--metric", "answerability")
    rows = json.loads(card_file.read_text(encoding="utf-8"))["entries"]
    assert [(r["metric"], r["language"]) for r in rows] == [("answerability", "en"), ("rubric", "ja")]
    assert rows[1] == RUBRIC_ROW and list(rows[1]) == list(RUBRIC_ROW)  # kept as it was, not the database's 0.99
    assert rows[0]["value"] == 0.667 and rows[0]["n"] == 12 and "source" not in rows[0]
    assert "answerability" in capsys.readouterr().out


def test_repeated_metric_adds_a_metric_the_card_did_not_have(monkeypatch, card_db, card_file):
    args = ("--db", str(card_db), "--out", str(card_file), "--metric", "answerability", "--metric", "faithfulness")
    ship(monkeypatch, *args)
    rows = json.loads(card_file.read_text(encoding="utf-8"))["entries"]
    assert [(r["metric"], r["language"]) for r in rows] == [
        ("answerability", "en"),
        ("faithfulness", "ja"),
        ("rubric", "ja"),
    ]
    assert rows[2] == RUBRIC_ROW


def test_without_metric_the_whole_card_comes_from_the_database(monkeypatch, card_db, card_file):
    ship(monkeypatch, "--db", str(card_db), "--out", str(card_file))
    rows = json.loads(card_file.read_text(encoding="utf-8"))["entries"]
    assert [(r["metric"], r["language"], r["value"]) for r in rows] == [
        ("answerability", "en", 0.667),
        ("faithfulness", "ja", 0.5),
        ("rubric", "ja", 0.99),
    ]
