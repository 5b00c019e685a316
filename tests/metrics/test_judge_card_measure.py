"""``ragtui judge-card --measure``: the judge measured on the bundled report halves (against the
fake server) or on the team's own labels, stored on the card with a 95% interval, resumed after
an interruption, and shown by ``ragtui judge-card`` and beside the scores."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from ragtui.cli import output
from ragtui.cli.main import main
from ragtui.core.config.paths import bundled_dir
from ragtui.core.content.prompts import load_prompt
from ragtui.core.judge_quality.agreement import spearman
from ragtui.core.judge_quality.card_interval import kappa_interval, spearman_interval
from ragtui.core.judge_quality.fit import prompt_fingerprint
from ragtui.core.judge_quality.fit_store import FittedMetric, fitted_metrics
from ragtui.core.judge_quality.judge_card import UNMEASURED, agreement_text, entry_for, newest_entry
from ragtui.core.judge_quality.labelled import LabelledItem, alternate_halves, load_labelled, parse_field_options
from ragtui.core.metrics.rubric import CheckedRubricJudge
from ragtui.core.models.endpoints import EMBEDDED_MODEL
from ragtui.core.store.labels import save_label
from ragtui.core.store.store import Store
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.passages import Passage
from ragtui.core.types.personas import Persona
from stand_ins.fake_openai import Reply, level_reply

from ..card_table import card_cells
from ..conftest import JUDGE

LABELLED = bundled_dir("sample_data") / "labelled"


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(output.console, "_width", 260)


def bundled(metric: str) -> list[LabelledItem]:
    data = load_labelled(LABELLED / f"{metric}.jsonl", metric, parse_field_options([]), binary=False)
    return data.items


def correctness_judge(fail_on: str | None = None, garble: str | None = None):
    """Gives each bundled answer_correctness item the level of its own label (perfect agreement);
    a 500 for the item whose response contains ``fail_on``, an unreadable reply for ``garble``."""
    items = sorted(bundled("answer_correctness"), key=lambda i: -len(i.response))

    def respond(body: dict) -> Reply:
        text = body["messages"][-1]["content"]
        item = next((i for i in items if i.response in text), None)
        if item is None:  # the retry after an unreadable reply: still unreadable
            return Reply("no idea")
        if fail_on and fail_on in item.response:
            return Reply(status=500, error_message="down")
        if garble and garble in item.response:
            return Reply("no idea")
        return level_reply({str(round(item.label * 5)): 1.0})

    return respond


def measure(config_file: Path, *args: str) -> int:
    return main(["judge-card", "--measure", *args, "--config", str(config_file)])


def card_rows(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute(
            "SELECT metric, language, figure, value, n, low, high, unscored, source, measured_on, quick "
            "FROM judge_card_entries ORDER BY id"
        ).fetchall()


def printed_row(card: str, metric: str, language: str) -> list[str]:
    """The cells after metric and language of the card's row for ``metric`` and ``language``."""
    row = card_cells(card).get((metric, language))
    assert row is not None, f"no {metric} {language} row in {card}"
    return row


def report_half(metric: str, language: str) -> list[LabelledItem]:
    return [i for i in alternate_halves(bundled(metric), "report") if i.language == language]


def expected_r(language: str) -> float:
    """Spearman of ``correctness_judge``'s levels (each label rounded to 0–5) with the labels."""
    items = report_half("answer_correctness", language)
    r = spearman([round(i.label * 5) / 5 for i in items], [i.label for i in items])
    assert r is not None
    return r


def test_measuring_stores_an_entry_per_language_with_its_interval_and_the_card_shows_it(config_file, server, capsys):
    server.set_default(JUDGE, correctness_judge())
    assert measure(config_file, "--metric", "answer_correctness") == 0
    out = capsys.readouterr().out
    en, ja = len(report_half("answer_correctness", "en")), len(report_half("answer_correctness", "ja"))
    assert out.index("Estimate: ") < out.index("answer_correctness · en")  # the estimate comes first
    assert f"Estimate: {en + ja} item(s), ≈{en + ja} judge call(s)" in out
    assert len(server.chat_requests(JUDGE)) == en + ja
    rows = card_rows(config_file.parent / "cal.db")
    assert [(r[0], r[1], r[2], r[4], r[8], r[10]) for r in rows] == [
        ("answer_correctness", "en", "spearman", en, "measured", 0),
        ("answer_correctness", "ja", "spearman", ja, "measured", 0),
    ]
    for row in rows:
        assert row[3] == pytest.approx(expected_r(row[1])) and row[7] == 0
        assert row[5] is not None and row[5] < row[3] <= row[6] + 1e-6  # low < value ≤ high
        assert row[9] == f"bundled labelled set, {row[1]} report half"

    assert main(["judge-card", "--config", str(config_file), "--metric", "answer_correctness"]) == 0
    card = capsys.readouterr().out
    r = expected_r("en")
    low, high = spearman_interval(r, en)  # type: ignore[misc]
    assert printed_row(card, "answer_correctness", "en") == [
        f"Spearman {r:.2f}",
        str(en),
        f"{low:.2f}–{high:.2f}",
        "measured: bundled labelled set, en report half",
    ]

    # Verdicts carry the entry: what a run's summary and `ragtui show` print beside the score.
    store = Store.open(config_file.parent / "cal.db")
    try:
        metric = next(iter(_correctness_metrics("en")))
        entry = entry_for(store, "answer_correctness", JUDGE, prompt_fingerprint(metric))
    finally:
        store.close()
    assert entry is not None and entry.source == "measured" and entry.low == pytest.approx(low)
    details = {"agreement": entry.to_dict()}
    assert {"figure", "value", "n", "on", "low", "high", "metric", "language"} <= set(details["agreement"])
    assert agreement_text(details) == (
        f"agreement with people: Spearman {r:.2f} (n={en}, 95% CI {low:.2f}–{high:.2f}, bundled labelled set, en report half)"
    )


def _correctness_metrics(language: str):
    from ragtui.core.content.prompts import PromptSet
    from ragtui.core.metrics import build_metrics

    prompts = PromptSet.load(bundled_dir("prompts"), language)
    return [m for m in build_metrics(["answer_correctness"], None, prompts) if m.name == "answer_correctness"]  # type: ignore[arg-type]


def test_a_quick_run_says_so_and_a_full_run_then_judges_only_the_rest(config_file, server, capsys):
    server.set_default(JUDGE, correctness_judge())
    assert measure(config_file, "--metric", "answer_correctness", "--language", "en", "--quick") == 0
    out = capsys.readouterr().out
    assert "Quick: at most 4 item(s) per metric and language" in out and "(quick: 4 item(s))" in out
    assert len(server.chat_requests(JUDGE)) == 4
    quick = card_rows(config_file.parent / "cal.db")
    assert [(r[1], r[4], r[10]) for r in quick] == [("en", 4, 1)]

    server.clear()
    server.set_default(JUDGE, correctness_judge())
    assert measure(config_file, "--metric", "answer_correctness") == 0
    out = capsys.readouterr().out
    en, ja = len(report_half("answer_correctness", "en")), len(report_half("answer_correctness", "ja"))
    assert "4 already judged" in out
    assert len(server.chat_requests(JUDGE)) == en + ja - 4  # the quick run's items are reused
    latest = card_rows(config_file.parent / "cal.db")[1:]
    assert [(r[1], r[4], r[10]) for r in latest] == [("en", en, 0), ("ja", ja, 0)]
    assert main(["judge-card", "--config", str(config_file), "--metric", "answer_correctness"]) == 0
    assert "(quick" not in capsys.readouterr().out  # the newest entry wins


def test_a_judge_failing_mid_way_stops_and_the_rerun_resumes(config_file, server, capsys):
    en_items = report_half("answer_correctness", "en")
    server.set_default(JUDGE, correctness_judge(fail_on=en_items[2].response))
    assert measure(config_file, "--metric", "answer_correctness") == 2
    err = capsys.readouterr().err
    assert "Stopped after 2 new item(s)" in err and "run the same command again" in err
    assert card_rows(config_file.parent / "cal.db") == []  # nothing on the card from a partial run

    server.clear()
    server.set_default(JUDGE, correctness_judge())
    assert measure(config_file, "--metric", "answer_correctness") == 0
    ja = len(report_half("answer_correctness", "ja"))
    assert "2 already judged" in capsys.readouterr().out
    assert len(server.chat_requests(JUDGE)) == len(en_items) + ja - 2
    assert [r[4] for r in card_rows(config_file.parent / "cal.db")] == [len(en_items), ja]


def test_items_the_judge_failed_on_are_counted_unscored_never_scored_zero(config_file, server, capsys):
    en_items = report_half("answer_correctness", "en")
    server.set_default(JUDGE, correctness_judge(garble=en_items[0].response))
    assert measure(config_file, "--metric", "answer_correctness", "--language", "en") == 0
    assert "1 unscored (judge failed; not counted)" in capsys.readouterr().out
    [row] = card_rows(config_file.parent / "cal.db")
    assert (row[4], row[7]) == (len(en_items) - 1, 1) and row[3] is not None
    assert main(["judge-card", "--config", str(config_file), "--metric", "answer_correctness"]) == 0
    assert "; 1 unscored" in capsys.readouterr().out


def test_the_card_s_spearman_interval_is_calibrate_s_fishers_z_with_the_bonett_wright_error():
    half = 1.959963984540054 * math.sqrt((1 + 0.5**2 / 2) / 25)
    low, high = spearman_interval(0.5, 28)  # type: ignore[misc]
    assert low == pytest.approx(math.tanh(math.atanh(0.5) - half)) == pytest.approx(0.1327, abs=1e-4)
    assert high == pytest.approx(math.tanh(math.atanh(0.5) + half)) == pytest.approx(0.7465, abs=1e-4)
    assert spearman_interval(0.5, 3) is None and spearman_interval(None, 30) is None


def test_the_kappa_interval_is_a_seeded_percentile_bootstrap():
    predicted = [1, 1, 1, 0, 0, 0, 1, 0, 1, 0, 1, 1]
    people = [1, 1, 0, 0, 0, 1, 1, 0, 1, 0, 1, 0]
    found = kappa_interval(predicted, people)
    assert found is not None and found == kappa_interval(predicted, people)  # the same every time
    low, high = found
    assert -1.0 <= low < 0.333 < high <= 1.0  # κ = (8/12 − 0.5) / 0.5 = 1/3 lies inside
    assert kappa_interval([1, 0] * 5, [1, 0] * 5) == (1.0, 1.0)  # every resample agrees fully
    assert kappa_interval([1] * 12, [1] * 12) is None  # one class: κ undefined
    assert kappa_interval([1, 0, 1, 0], [1, 0, 0, 0]) is None  # too few pairs to resample


# -- the team's own labels ---------------------------------------------------------------------------

JUDGE_SCORES = [0.2, 0.4, 0.6, 0.8, 1.0, 0.6]  # ranks the turns as the people do
PEOPLE = [1, 2, 3, 4, 5, 3]


def labelled_db(path: Path) -> None:
    """Six labelled turns judged by JUDGE with the bundled rubric prompt, and by the same model
    with an edited prompt (opposite scores) that must not count for the current prompt."""
    system = load_prompt(bundled_dir("prompts"), "en", "judge_probes").parts["system"]
    store = Store.open(path)
    try:
        sid = store.create_session(
            scenario={"id": "outage", "question": "Is it down?"},
            persona=Persona("calm", "en", "p"),
            config={},
            language="en",
            max_turns=6,
            threshold=0.7,
            metrics=["rubric"],
            run_id="r1",
        )
        for turn in range(1, 7):
            store.add_message(sid, turn, "user", "simulator", f"question {turn}")
            mid = store.add_message(sid, turn, "bot", "bot", f"answer {turn}", passages=[Passage("d.md", "D", "t")])
            for content, score in ((system, JUDGE_SCORES[turn - 1]), ("an older prompt", 1.2 - JUDGE_SCORES[turn - 1])):
                prompt = [{"role": "system", "content": content}, {"role": "user", "content": "the turn"}]
                store.add_judgment(sid, mid, turn, Judgment("rubric", score, {}, prompt, "{}", JUDGE))
            save_label(store, sid, turn, score=PEOPLE[turn - 1], labeller="ann")
    finally:
        store.close()


def test_from_labels_measures_the_current_prompt_on_the_teams_labels_and_the_card_says_so(config_file, server, capsys):
    labelled_db(config_file.parent / "cal.db")
    assert measure(config_file, "--from-labels", "--metric", "rubric") == 0
    out = capsys.readouterr().out
    assert "rubric · en · Spearman 1.00" in out and "n=6" in out
    assert server.chat_requests(JUDGE) == []  # no model called
    [row] = card_rows(config_file.parent / "cal.db")
    assert row[:3] == ("rubric", "en", "spearman") and row[4] == 6 and row[8] == "labels"
    assert row[9] == "your labels, every run (6 labelled turn(s) judged by this prompt)"
    judge = CheckedRubricJudge(None, load_prompt(bundled_dir("prompts"), "en", "judge_probes"))  # type: ignore[arg-type]
    store = Store.open(config_file.parent / "cal.db")
    try:
        entry = newest_entry(store, "rubric", JUDGE, prompt_fingerprint(judge))
        deciding = entry_for(store, "rubric", JUDGE, prompt_fingerprint(judge))
    finally:
        store.close()
    assert entry is not None and entry.source == "labels" and entry.value == pytest.approx(1.0)
    assert deciding is None  # 6 labelled turns, under the floor's 10: shown, never what gates

    assert main(["judge-card", "--config", str(config_file), "--metric", "rubric"]) == 0
    card = capsys.readouterr().out
    low, high = spearman_interval(1.0, 6)  # type: ignore[misc]
    assert printed_row(card, "rubric", "en/quick")[2] == f"{low:.2f}–{high:.2f}"
    assert printed_row(card, "rubric", "en/quick")[3].startswith("your labels, ")


def test_from_labels_without_labels_says_what_to_do(config_file, capsys):
    assert measure(config_file, "--from-labels") == 2
    assert "nothing is labelled yet" in capsys.readouterr().err
    assert not (config_file.parent / "cal.db").exists()
    Store.open(config_file.parent / "cal.db").close()
    assert measure(config_file, "--from-labels") == 2
    assert "ragtui label SESSION TURN --score N" in capsys.readouterr().err


def test_measure_flags_need_measure(config_file, capsys):
    assert main(["judge-card", "--quick", "--config", str(config_file)]) == 2
    assert "--quick applies to --measure only" in capsys.readouterr().err
    assert measure(config_file, "--from-labels", "--quick") == 2
    assert "--from-labels calls no model" in capsys.readouterr().err


def test_an_old_verdict_without_an_interval_reads_as_before():
    old = {"figure": "spearman", "value": 0.5, "n": 9, "on": "labels.jsonl", "metric": "rubric", "language": ""}
    assert agreement_text({"agreement": old}) == "agreement with people: Spearman 0.50 (n=9, labels.jsonl)"
    assert agreement_text({}) == UNMEASURED


def test_the_embedded_judges_verdicts_carry_its_shipped_card_entry(tmp_path: Path):
    store = Store.open(tmp_path / "empty.db")
    try:
        [wrapped] = fitted_metrics(_correctness_metrics("ja"), store, EMBEDDED_MODEL)
    finally:
        store.close()
    assert isinstance(wrapped, FittedMetric) and wrapped.fit is None  # measured, not fitted: score kept
    judgment = wrapped.apply(Judgment("answer_correctness", 0.8, {}, [], "", EMBEDDED_MODEL))
    agreement = judgment.details["agreement"]
    assert judgment.score == 0.8 and agreement["source"] == "shipped" and agreement["language"] == "ja"
    assert agreement["low"] is not None and "95% CI" in agreement_text(judgment.details)
