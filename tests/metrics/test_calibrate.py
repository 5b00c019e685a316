"""`ragtui calibrate`: agreement figures, resuming, bad labelled files, field mapping, and the
labelled set shipped in sample_data/labelled."""

from __future__ import annotations

import json
import re
import sqlite3
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.config.paths import bundled_dir
from ragtui.core.judge_quality.labelled import alternate_halves, load_labelled, parse_field_options
from ragtui.core.metrics import BINARY_METRICS
from stand_ins.fake_openai import Reply, level_reply

from ..conftest import JUDGE

LABELLED = bundled_dir("sample_data") / "labelled"


def last_user(body: dict) -> str:
    return body["messages"][-1]["content"]


def correctness_judge(fail_on: str | None = None):
    """Gives level N to a response containing "LN"; a 500 for a response containing ``fail_on``."""

    def respond(body: dict) -> Reply:
        text = last_user(body)
        if fail_on and fail_on in text:
            return Reply(status=500, error_message="down")
        match = re.search(r"\bL(\d)\b", text.split("Text 2:")[-1])
        if match is None:
            return Reply("no idea")
        return level_reply({match.group(1): 1.0})

    return respond


def answerability_judge(body: dict) -> Reply:
    answerable = "yes" in last_user(body).split("QUESTION:")[-1]
    return level_reply({"yes": 0.8, "no": 0.2} if answerable else {"yes": 0.1, "no": 0.9})


def write_jsonl(path: Path, rows: list[object]) -> Path:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def graded_rows(n: int = 6) -> list[dict]:
    # Levels 0..5 and labels that agree in order, except the last two swapped.
    rows = [{"id": f"i{k}", "reference": "ref", "response": f"answer L{k}", "label": k / 5} for k in range(n)]
    rows[-1]["label"], rows[-2]["label"] = rows[-2]["label"], rows[-1]["label"]
    return rows


def calibrate(config_file: Path, *args: str) -> int:
    return main(["calibrate", *args, "--config", str(config_file)])


def test_graded_calibration_prints_spearman_and_the_worst_items(config_file, tmp_path, server, capsys):
    server.set_default(JUDGE, correctness_judge())
    data = write_jsonl(tmp_path / "c.jsonl", graded_rows())
    assert calibrate(config_file, "answer_correctness", str(data)) == 0
    out = capsys.readouterr().out
    # ranks 1..6 vs 1,2,3,4,6,5: Σd² = 2 → ρ = 1 − 6·2/(6·35) = 0.943
    assert "Spearman 0.943" in out and "95% CI" in out
    assert "0 unscored" in out and "items/min" in out
    assert "Most disagreement" not in out  # gaps of 0.2 are not listed


def test_interrupted_run_resumes_where_it_stopped(config_file, tmp_path, server, capsys):
    data = write_jsonl(tmp_path / "c.jsonl", graded_rows())
    server.set_default(JUDGE, correctness_judge(fail_on="L3"))
    assert calibrate(config_file, "answer_correctness", str(data)) == 2
    captured = capsys.readouterr()
    assert "Stopped after 3 new item(s)" in captured.err and "run the same command again" in captured.err
    db = sqlite3.connect(tmp_path / "cal.db")
    assert db.execute("SELECT COUNT(*) FROM calibration_items").fetchone()[0] == 3

    server.clear()
    server.set_default(JUDGE, correctness_judge())
    assert calibrate(config_file, "answer_correctness", str(data)) == 0
    out = capsys.readouterr().out
    assert "resuming run #1, 3 already judged" in out and "6/6 judged" in out
    assert len(server.chat_requests(JUDGE)) == 3  # only the missing items

    server.clear()
    assert calibrate(config_file, "answer_correctness", str(data)) == 0
    assert "Spearman 0.943" in capsys.readouterr().out and server.chat_requests(JUDGE) == []
    assert calibrate(config_file, "answer_correctness", str(data), "--new") == 0
    assert db.execute("SELECT COUNT(*) FROM calibration_runs").fetchone()[0] == 2


def test_unparsable_replies_are_counted_unscored(config_file, tmp_path, server, capsys):
    server.set_default(JUDGE, correctness_judge())
    rows = graded_rows() + [{"id": "odd", "reference": "ref", "response": "no level here", "label": 0.5}]
    assert calibrate(config_file, "answer_correctness", str(write_jsonl(tmp_path / "c.jsonl", rows))) == 0
    out = capsys.readouterr().out
    assert "1 unscored" in out and "7/7 judged, 6 scored" in out and "Spearman 0.943" in out


BAD_ROWS = [
    {"id": "a", "reference": "r", "response": "L1", "label": 0.2},
    {"id": "b", "reference": "r", "label": 0.2},
    {"id": "c", "reference": "r", "response": 5, "label": 0.2},
    {"id": "d", "reference": "r", "response": "L2", "label": 1.7},
    "{oops",
    {"id": "a", "reference": "r", "response": "L3", "label": 0.6},
    {"id": "f", "reference": "r", "response": "L4", "label": "high"},
    {"id": "g", "reference": "r", "response": "L5", "label": 1.0},
]


def test_bad_lines_stop_everything_by_default(config_file, tmp_path, server, capsys):
    data = write_jsonl(tmp_path / "bad.jsonl", BAD_ROWS)
    assert calibrate(config_file, "answer_correctness", str(data)) == 2
    err = capsys.readouterr().err
    for expected in (
        "line 2: missing field 'response'",
        "line 3: field 'response' (response) must be text, got int",
        "line 4: label 'label' is 1.7, outside 0–1",
        "line 5: not valid JSON",
        "line 6: duplicate id 'a' (first on line 1)",
        "line 7: label 'label' must be a number, got str",
        "has 6 bad line(s); nothing was run",
    ):
        assert expected in err
    assert server.chat_requests(JUDGE) == []


def test_bad_lines_can_be_skipped(config_file, tmp_path, server, capsys):
    server.set_default(JUDGE, correctness_judge())
    data = write_jsonl(tmp_path / "bad.jsonl", BAD_ROWS)
    assert calibrate(config_file, "answer_correctness", str(data), "--on-error", "skip") == 0
    captured = capsys.readouterr()
    assert "Skipping 6 bad line(s): 2, 3, 4, 5, 6, 7" in captured.err
    assert "2/2 judged" in captured.out and len(server.chat_requests(JUDGE)) == 2


def test_json_array_problems_carry_real_line_numbers(config_file, tmp_path, capsys):
    data = tmp_path / "a.json"
    data.write_text(
        '[\n  {"question": "q", "context": "c", "label": 1},\n\n  {"question": "q",\n   "context": "c", "label": 2}\n]\n'
    )
    assert calibrate(config_file, "answerability", str(data)) == 2
    assert "line 4: label 'label' must be 0 or 1 for a binary metric, got 2" in capsys.readouterr().err


def test_binary_metric_reports_accuracy_f1_and_kappa(config_file, tmp_path, server, capsys):
    server.set_default(JUDGE, answerability_judge)
    rows = [
        {"question": "yes 1", "context": "c", "label": 1},
        {"question": "yes 2", "context": "c", "label": 1},
        {"question": "no 3", "context": "c", "label": 0},
        {"question": "no 4", "context": "c", "label": 1},
    ]
    assert calibrate(config_file, "answerability", str(write_jsonl(tmp_path / "b.jsonl", rows)), "--limit", "4") == 0
    out = capsys.readouterr().out
    # tp 2, fn 1, tn 1: accuracy .75, F1 .8, p_e = (2/4)(3/4) + (2/4)(1/4) = .5 → kappa .5
    assert "accuracy 0.750" in out and "F1 0.800" in out and "Cohen's kappa 0.500" in out
    assert "Most disagreement" in out and "not answerable from the passages" in out


def test_field_mapping_label_scale_and_limit(config_file, tmp_path, server, capsys):
    server.set_default(JUDGE, correctness_judge())
    rows = [{"sentence1": "ref", "sentence2": f"L{k}", "score": k} for k in range(6)]
    data = write_jsonl(tmp_path / "sts.jsonl", rows)
    args = ["--field", "reference=sentence1", "--field", "response=sentence2", "--field", "label=score"]
    assert calibrate(config_file, "answer_correctness", str(data), *args, "--label-max", "5", "--limit", "4") == 0
    out = capsys.readouterr().out
    assert "4/4 judged" in out and "Spearman 1.000" in out
    assert calibrate(config_file, "answer_correctness", str(data), *args) == 2  # labels up to 5 without --label-max
    assert "outside 0–1 (use --label-max" in capsys.readouterr().err


def test_field_option_errors():
    with pytest.raises(Exception, match="not NAME=KEY"):
        parse_field_options(["question"])
    with pytest.raises(Exception, match="not a field ragtui uses"):
        parse_field_options(["answer=a"])


EXPECTED = {
    "answer_correctness.jsonl": "answer_correctness",
    "answerability.jsonl": "answerability",
    "faithfulness.jsonl": "faithfulness",
    "answer_relevancy.jsonl": "answer_relevancy",
}


def test_shipped_labelled_set_is_valid_and_bilingual():
    total, languages = 0, set()
    for name, metric in EXPECTED.items():
        data = load_labelled(LABELLED / name, metric, parse_field_options([]), binary=metric in BINARY_METRICS)
        assert data.problems == [], name
        total += len(data.items)
        languages |= {i.language for i in data.items}
        assert {i.language for i in data.items} == {"en", "ja"}, name
        assert len({i.key for i in data.items}) == len(data.items), name
    assert total >= 480 and languages == {"en", "ja"}


@pytest.mark.parametrize("name", [*EXPECTED, "rubric.jsonl"])
def test_every_turn_set_holds_thirty_items_per_language_in_each_half(name):
    """Each half (``--split choose`` tunes, ``--split report`` is what the judge card reports) holds
    at least 30 items per language, so the card's interval is not drawn from a dozen turns."""
    metric = EXPECTED.get(name, "rubric")
    data = load_labelled(
        LABELLED / name,
        metric,
        parse_field_options([]),
        binary=metric in BINARY_METRICS,
        label_max=5 if metric == "rubric" else 1,
    )
    assert data.problems == []
    for split in ("choose", "report"):
        for language in ("en", "ja"):
            half = [i for i in alternate_halves(data.items, split) if i.language == language]
            assert len(half) >= 30, (name, split, language, len(half))
            spread = 2 if metric in BINARY_METRICS else 3  # a spread of labels, not all 1s
            assert len({i.label for i in half}) >= spread, (name, split, language)


def test_calibrating_the_shipped_faithfulness_set(config_file, server, capsys):
    def judge(body: dict) -> Reply:
        if "response_format" in body:  # the statements step
            return Reply(json.dumps({"statements": ["one claim"]}))
        return level_reply({"yes": 0.9, "no": 0.1})  # each claim's check

    server.set_default(JUDGE, judge)
    assert calibrate(config_file, "faithfulness", str(LABELLED / "faithfulness.jsonl")) == 0
    out = capsys.readouterr().out
    assert "120/120 judged" in out and "Most disagreement" in out  # a judge that trusts everything


def test_rubric_set_with_history_and_good_reports_auc_per_language(config_file, server, capsys, tmp_path):
    """The labelled rubric set: history, a list of passages, 1–5 labels, good → AUC per language."""
    from ..conftest import check_answers

    lines = (bundled_dir("sample_data") / "labelled" / "rubric.jsonl").read_text(encoding="utf-8").splitlines()
    en = [line for line in lines if '"language": "en"' in line]
    ja = [line for line in lines if '"language": "ja"' in line]
    data = write_jsonl(tmp_path / "rubric.jsonl", en[:6] + ja[:6])
    server.set_default(JUDGE, check_answers(4))
    assert calibrate(config_file, "rubric", str(data)) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "12/12 judged, 12 scored" in out and "AUC good vs bad" in out
    assert "en: n=" in out and "ja: n=" in out
    multi_turn = [b for b in server.chat_requests(JUDGE) if "(none)" not in b["messages"][-1]["content"]]
    assert multi_turn  # earlier turns reach the judge


def test_rubric_labels_run_one_to_five():
    data = load_labelled(
        bundled_dir("sample_data") / "labelled" / "rubric.jsonl",
        "rubric",
        parse_field_options([]),
        binary=False,
        label_max=5,
    )
    assert not data.problems and len(data.items) >= 60
    assert {i.language for i in data.items} == {"en", "ja"} and any(i.history for i in data.items)
    assert all(0.2 <= i.label <= 1.0 and i.good == (i.label >= 0.8) for i in data.items)
