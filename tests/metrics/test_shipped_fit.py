"""The fit ragtui ships for its embedded judge: valid for the bundled prompts as they are (a prompt
edit without measuring the fit — or the shipped judge card — again fails here), applied by default to the embedded judge's
rubric scores with the raw score kept, and never to another judge model."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.prompts import load_prompt
from ragtui.core.judge_quality import judge_card as judge_card_module
from ragtui.core.judge_quality import shipped_fits as shipped_fits_module
from ragtui.core.judge_quality.card_judges import card_judge
from ragtui.core.judge_quality.fit import prompt_fingerprint
from ragtui.core.judge_quality.judge_card import shipped_card_entries
from ragtui.core.judge_quality.shipped_fits import shipped_fit, shipped_fits
from ragtui.core.metrics import BINARY_METRICS, MetricSettings
from ragtui.core.metrics.rubric import CheckedRubricJudge
from ragtui.core.models.endpoints import EMBEDDED_MODEL
from ragtui.core.store.store import Store

from ..conftest import JUDGE, check_answers, endpoint_toml


def bundled_fingerprint(language: str) -> str:
    judge = CheckedRubricJudge(None, load_prompt(bundled_dir("prompts"), language, "judge_probes"))  # type: ignore[arg-type]
    return prompt_fingerprint(judge)


def test_the_shipped_fit_matches_the_bundled_prompts():
    fits = [s for s in shipped_fits() if s.fit.metric == "rubric"]
    assert any(s.language == "en" for s in fits), "ragtui ships no rubric fit for its embedded judge in English"
    for shipped in fits:
        assert shipped.fit.model == EMBEDDED_MODEL
        assert shipped.fit.fingerprint == bundled_fingerprint(shipped.language), (
            f"prompts/{shipped.language}/judge_probes.toml changed since the shipped fit was measured: measure it "
            "again (bench/rubric_recheck.py, docs/judge-calibration.md) and update ragtui/core/judge_quality/shipped_fits.json"
        )
        assert shipped.fit.ys == sorted(shipped.fit.ys) and 0.0 <= shipped.fit.ys[0] <= shipped.fit.ys[-1] <= 1.0


def bundled_metric_fingerprint(metric: str, language: str) -> str:
    """The fingerprint of the judge a run builds for ``metric`` (a dialogue verdict's too)."""
    # The embedded judge (the card's): builds, never calls.
    client = SimpleNamespace(endpoint=SimpleNamespace(model=EMBEDDED_MODEL, embedded=True))
    judge = card_judge(metric, client, bundled_dir("prompts"), language, MetricSettings())  # type: ignore[arg-type]
    return prompt_fingerprint(judge)


def test_the_shipped_judge_card_matches_the_bundled_prompts():
    entries = shipped_card_entries()
    assert entries, "ragtui ships no judge card for its embedded judge (ragtui/core/judge_quality/shipped_card.json)"
    for entry in entries:
        assert entry.model == EMBEDDED_MODEL and entry.source == "shipped"
        assert entry.fingerprint == bundled_metric_fingerprint(entry.metric, entry.language), (
            f"the bundled {entry.language} prompt of {entry.metric} changed since its shipped judge card entry "
            f"was measured: measure it again with no endpoint configured (the embedded judge), "
            f"`ragtui judge-card --measure --metric {entry.metric} --language {entry.language} --db card.db`, "
            "then `python bench/ship_judge_card.py --db card.db` (docs/judge-calibration.md, The judge card)"
        )
        # expectations: one met / not met per labelled item, so κ, like the binary turn metrics
        binary = entry.metric in BINARY_METRICS or entry.metric == "expectations"
        assert entry.figure == ("kappa" if binary else "spearman")
        assert not entry.quick and "report half" in entry.on and entry.n > 0
        if entry.value is not None and entry.low is not None and entry.high is not None:
            assert entry.low <= entry.value <= entry.high + 1e-9


def test_the_shipped_fit_says_what_it_was_measured_on_and_maps_onto_the_label_scale():
    en = next(s for s in shipped_fits() if s.fit.metric == "rubric" and s.language == "en")
    assert "choose half" in en.fitted_on and en.report["n"] > 0
    for figures in (en.report["raw"], en.report["fitted"]):  # the report half's gate shares, both ways
        assert {"spearman", "good_at_or_above_0.7", "bad_below_0.7"} <= set(figures)
    raws = [i / 20 for i in range(21)]
    fitted = [en.fit.apply(r) for r in raws]
    assert fitted == sorted(fitted) and all(0.0 <= f <= 1.0 for f in fitted)  # monotone: ranking kept


def test_no_shipped_fit_for_another_model_or_an_edited_prompt():
    fingerprint = bundled_fingerprint("en")
    assert shipped_fit("rubric", EMBEDDED_MODEL, fingerprint) is not None
    assert shipped_fit("rubric", "gpt-4o-mini", fingerprint) is None
    assert shipped_fit("rubric", EMBEDDED_MODEL, "0000000000000000") is None


@pytest.fixture
def config_file(server, tmp_path: Path) -> Path:
    path = tmp_path / "ragtui.toml"
    toml = endpoint_toml(server.base_url).replace(f'model = "{JUDGE}"', f'model = "{EMBEDDED_MODEL}"')
    path.write_text(
        'language = "en"\nmax_turns = 1\ndatabase = "runs.db"\ndialogue_metrics = []\n' + toml, encoding="utf-8"
    )
    return path


def ship(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, *, applied: bool) -> None:
    """A shipped-fits file of one English rubric entry for the bundled prompt, in place of ragtui's."""
    entry = {
        "metric": "rubric",
        "model": EMBEDDED_MODEL,
        "language": "en",
        "fingerprint": bundled_fingerprint("en"),
        "kind": "isotonic",
        "xs": [0.3, 0.5],
        "ys": [0.2, 0.9],
        "fitted_on": "test",
        "report": {"half": "en report half", "n": 12, "raw": {"spearman": 0.55}, "fitted": {"spearman": 0.55}},
        "applied": applied,
    }
    path = tmp_path / "shipped_fits.json"
    path.write_text(json.dumps({"fits": [entry]}), encoding="utf-8")
    monkeypatch.setattr(shipped_fits_module, "SHIPPED_FITS", path)
    # No shipped card: the card measured on the whole report half would come first (judge_card).
    monkeypatch.setattr(judge_card_module, "SHIPPED_CARD", tmp_path / "no_card.json")


def judged(config_file: Path, server, capsys) -> tuple[float, dict, str]:
    server.set_default(EMBEDDED_MODEL, check_answers(3.2))
    main(["run", "--config", str(config_file), "-s", "id-linking", "-p", "calm"])
    summary = capsys.readouterr().out
    store = Store.open(config_file.parent / "runs.db")
    try:
        score, details = store._db.execute("SELECT score, details FROM judgments WHERE metric = 'rubric'").fetchone()
    finally:
        store.close()
    return score, json.loads(details), summary


def test_a_run_on_the_embedded_judge_is_scored_through_the_shipped_fit_with_the_raw_score_kept(
    config_file, server, monkeypatch, tmp_path, capsys
):
    monkeypatch.setattr(output.console, "_width", 220)
    ship(monkeypatch, tmp_path, applied=True)
    score, details, summary = judged(config_file, server, capsys)
    fit = details["fit"]
    assert fit["source"] == "shipped" and 0.0 < fit["raw_score"] < 1.0
    expected = shipped_fit("rubric", EMBEDDED_MODEL, bundled_fingerprint("en"))
    assert expected is not None and score == pytest.approx(expected.apply(fit["raw_score"])) != fit["raw_score"]
    assert (
        "rubric scores: agreement with people: Spearman 0.55 (n=12, 95% CI -0.08–0.87, bundled labelled set, en report half)"
        in summary
    )
    assert main(["show", "1", "--config", str(config_file)]) == 0
    assert f"(raw {fit['raw_score']:.2f})" in capsys.readouterr().out


def test_a_shipped_fit_that_did_not_help_is_not_applied_but_its_agreement_is_shown(
    config_file, server, monkeypatch, tmp_path, capsys
):
    monkeypatch.setattr(output.console, "_width", 220)
    ship(monkeypatch, tmp_path, applied=False)
    score, details, summary = judged(config_file, server, capsys)
    assert "fit" not in details and details["agreement"]["value"] == 0.55
    assert 0.0 < score < 1.0  # the judge's own score
    assert "rubric scores: agreement with people: Spearman 0.55" in summary
