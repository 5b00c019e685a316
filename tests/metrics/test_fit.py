"""Fitting raw judge scores to labels (isotonic; a threshold for binary metrics), reported on
held-out folds, stored with the judge model and prompt fingerprint, and applied at run time only
on an exact match — end to end through ``ragtui calibrate --fit`` and the fake server."""

from __future__ import annotations

import json
import shutil

import pytest

from ragtui.cli.main import main
from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.prompts import PromptSet
from ragtui.core.judge_quality.fit import cross_validate, fit, isotonic_fit, isotonic_predict, prompt_fingerprint
from ragtui.core.judge_quality.fit_store import FittedMetric, find_fit, fitted_metrics, save_fit
from ragtui.core.metrics import build_metrics
from ragtui.core.metrics.base import TurnContext
from ragtui.core.models.endpoints import resolve_endpoints
from ragtui.core.models.llm import ClientPool
from ragtui.core.store.store import Store
from stand_ins.fake_openai import level_reply

from ..conftest import JUDGE


def test_isotonic_pools_violators_and_stays_monotone():
    xs, ys = isotonic_fit([0.1, 0.2, 0.3, 0.4], [0.0, 0.6, 0.4, 1.0])
    assert ys == pytest.approx([0.0, 0.5, 1.0]) and xs == [0.1, 0.3, 0.4]
    mapped = [isotonic_predict(xs, ys, x) for x in (0.0, 0.1, 0.2, 0.3, 0.35, 0.9)]
    assert mapped == sorted(mapped) and mapped[0] == 0.0 and mapped[-1] == 1.0


def test_threshold_fit_maximises_kappa_and_cross_validation_is_held_out():
    raw = [0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5, 0.45] * 2
    labels = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0] * 2
    fitted = fit("answerability", "m", "fp", True, raw, [float(y) for y in labels])
    assert 0.65 < fitted.threshold < 0.7  # everything scores "yes" at 0.5; the fit finds the gap
    report = cross_validate(True, raw, [float(y) for y in labels])
    assert report.folds == 5 and report.n == 20
    assert report.before["kappa"] < 0.2 and report.after["kappa"] >= 0.7


def correctness_by_marker(body: dict):
    """Level N for "LN" in the answer: a judge that ranks right but uses a squeezed scale (2–3)."""
    text = body["messages"][-1]["content"].split("Text 2:")[-1]
    level = next(int(c) for c in "012345" if f"L{c}" in text)
    return level_reply({"2": 1 - level / 5, "3": level / 5} if 0 < level < 5 else {"2" if level == 0 else "3": 1.0})


def test_calibrate_fit_reports_held_out_figures_and_stores_the_fit(config_file, tmp_path, server, capsys):
    server.set_default(JUDGE, correctness_by_marker)
    rows = [{"id": f"i{n}", "reference": "r", "response": f"L{n % 6}", "label": (n % 6) / 5} for n in range(24)]
    data = tmp_path / "c.jsonl"
    data.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    assert main(["calibrate", "answer_correctness", str(data), "--fit", "--config", str(config_file)]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "Fit #1 · answer_correctness · en · isotonic" in out
    assert "held-out (5-fold cross-validation, n=24)" in out and "mae" in out
    store = Store.open(tmp_path / "cal.db")
    rows = store._db.execute("SELECT metric, model, kind, report FROM judge_fits").fetchall()
    store.close()
    assert rows[0][:3] == ("answer_correctness", JUDGE, "isotonic")
    report = json.loads(rows[0][3])
    assert report["after"]["mae"] < report["before"]["mae"]  # the squeezed scale is stretched back


@pytest.fixture
async def judge_client(config):
    pool = ClientPool()
    yield pool.client_for(resolve_endpoints(config)["judge"])
    await pool.aclose()


CONTEXT = TurnContext(1, "q", "L1", [], [], "en", reference="r")


async def test_a_fit_applies_only_to_the_exact_model_and_prompt(config, store, server, judge_client, tmp_path):
    prompts = PromptSet.load(config.prompts, "en")
    [metric] = build_metrics(["answer_correctness"], judge_client, prompts, include_primary=False)
    fingerprint = prompt_fingerprint(metric)
    stored = fit("answer_correctness", JUDGE, fingerprint, False, [0.4, 0.6], [0.0, 1.0])
    save_fit(store, stored, cross_validate(False, [0.4, 0.6, 0.5], [0.0, 1.0, 0.5]), "data.jsonl", None)
    assert find_fit(store, "answer_correctness", JUDGE, fingerprint) is not None

    [same] = fitted_metrics([metric], store, JUDGE)
    [other_model] = fitted_metrics([metric], store, "another-judge")
    assert isinstance(same, FittedMetric) and same.fit is not None
    assert isinstance(other_model, FittedMetric) and other_model.fit is None  # only its judge key

    # An edited prompt has another fingerprint: the fit is not applied to it.
    edited = tmp_path / "prompts"
    shutil.copytree(bundled_dir("prompts"), edited)
    path = edited / "en" / "metric_answer_correctness.toml"
    path.write_text(path.read_text(encoding="utf-8").replace("Rating:", "Your rating:"), encoding="utf-8")
    [changed] = build_metrics(["answer_correctness"], judge_client, PromptSet.load(edited, "en"), include_primary=False)
    assert prompt_fingerprint(changed) != fingerprint
    [not_fitted] = fitted_metrics([changed], store, JUDGE)
    assert isinstance(not_fitted, FittedMetric) and not_fitted.fit is None

    # Applied: the score is mapped, the raw score and the fit are in the details.
    server.set_default(JUDGE, level_reply({"2": 0.5, "3": 0.5}))  # raw 2.5 / 5 = 0.5
    judgment = await same.judge(CONTEXT)
    assert judgment.details["fit"]["raw_score"] == pytest.approx(0.5)
    assert judgment.score == pytest.approx(0.5) and judgment.details["fit"]["kind"] == "isotonic"
    server.set_default(JUDGE, level_reply({"3": 1.0}))  # raw 0.6 → fitted 1.0
    assert (await same.judge(CONTEXT)).score == pytest.approx(1.0)
