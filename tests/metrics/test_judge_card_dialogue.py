"""The judge card's rows for the verdicts that gate a run besides the rubric: expectations,
resolution and repetition, per language, measured with ``judge-card --measure`` on the bundled
labelled sets and keyed by the judge of the verdict as a run builds it. Against the fake server."""

from __future__ import annotations

from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.prompts import load_prompt
from ragtui.core.judge_quality.card_store import all_entries
from ragtui.core.judge_quality.fit import prompt_fingerprint
from ragtui.core.metrics.dialogue.repetition import Repetition
from ragtui.core.store.store import Store

from ..card_table import card_cells
from ..conftest import JUDGE, yes_no_reply


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 240)


def stored(config_file: Path) -> list:
    store = Store.open(config_file.parent / "cal.db")
    try:
        return all_entries(store)
    finally:
        store.close()


def test_the_card_lists_expectations_resolution_and_repetition_per_language(config_file, capsys):
    assert main(["judge-card", "--config", str(config_file)]) == 0
    out = capsys.readouterr().out
    rows = card_cells(out)
    for metric in ("expectations", "resolution", "repetition"):
        for language in ("en", "ja"):
            assert (metric, language) in rows
    assert "measured: the 95% interval's lower bound at or over the floor" in out  # the rule, under the card


def test_quick_expectation_measurement_is_stored_as_quick_and_shown_beside_the_unmeasured_row(
    config_file, server, capsys
):
    server.set_default(JUDGE, lambda body: yes_no_reply(0.9))
    args = ["judge-card", "--config", str(config_file), "--measure", "--quick", "--metric", "expectations"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "expectations · en · κ" in out and "expectations · ja · κ" in out
    entries = [e for e in stored(config_file) if e.metric == "expectations"]
    assert {e.language for e in entries} == {"en", "ja"} and all(e.quick and e.n == 4 for e in entries)
    assert len(server.chat_requests(JUDGE)) <= 8  # at most 4 checks per language (some decided in code)

    assert main(["judge-card", "--config", str(config_file), "--metric", "expectations"]) == 0
    rows = card_cells(capsys.readouterr().out)
    assert rows[("expectations", "en")][0] == "unmeasured"  # a quick figure decides nothing
    assert rows[("expectations", "en/quick")][0].startswith("quick κ")


def test_repetition_is_measured_on_the_labelled_dialogues_keyed_by_the_runs_judge(config_file, server, capsys):
    server.set_default(JUDGE, lambda body: yes_no_reply(0.5))
    args = ["judge-card", "--config", str(config_file), "--measure", "--metric", "repetition", "--language", "en"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "repetition: " in out and "dialogues.jsonl (report half)" in out
    (entry,) = [e for e in stored(config_file) if e.metric == "repetition"]
    template = load_prompt(bundled_dir("prompts"), "en", "metric_repetition")
    assert entry.fingerprint == prompt_fingerprint(Repetition(None, template))  # type: ignore[arg-type]
    assert entry.figure == "spearman" and not entry.quick and entry.n + entry.unscored >= 11  # the whole en half


def test_an_interrupted_expectation_measurement_resumes_where_it_stopped(config_file, server, monkeypatch, capsys):
    from ragtui.core.metrics.dialogue.expectation_judge import ExpectationJudge

    server.set_default(JUDGE, lambda body: yes_no_reply(0.9))
    real_check = ExpectationJudge.check
    asked: list[str] = []

    async def check(self, expectation, answer):  # noqa: ANN001, ANN202 - the real check, counted
        if len(asked) == stop_after:
            raise KeyboardInterrupt  # Ctrl-C between two items
        asked.append(expectation.id)
        return await real_check(self, expectation, answer)

    monkeypatch.setattr(ExpectationJudge, "check", check)
    args = ["judge-card", "--config", str(config_file), "--measure", "--metric", "expectations", "--language", "en"]
    stop_after = 5
    assert main(args) == 130
    first = list(asked)
    assert len(first) == 5 and not [e for e in stored(config_file) if e.metric == "expectations"]
    capsys.readouterr()

    stop_after = -1  # never again
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "expectations en: 5 already judged" in out
    again = asked[5:]
    assert not set(again) & set(first) and len(first) + len(again) == 36  # the rest, each once
    (entry,) = [e for e in stored(config_file) if e.metric == "expectations"]
    assert entry.n + entry.unscored == 36 and not entry.quick
