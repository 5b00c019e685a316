"""`ragtui calibrate expectation FILE`: accuracy, κ and AUC per language and half, counts per
kind, an unreadable reply counted unscored, bad lines named before any judge call, and the
labelled set shipped in sample_data/labelled."""

from __future__ import annotations

import collections
import json
from pathlib import Path

from ragtui.cli.main import main
from ragtui.core.config.paths import bundled_dir
from ragtui.core.judge_quality.expectation_agreement import load_expectation_items, select
from stand_ins.fake_openai import Reply

from ..conftest import JUDGE, yes_no_reply

SHIPPED = bundled_dir("sample_data") / "labelled" / "expectations.jsonl"


def row(i: int, label: int, language: str = "en", split: str = "choose", response: str = "") -> dict:
    return {
        "id": f"{language}-{i}",
        "language": language,
        "split": split,
        "kind": "met_verbatim" if label else "absent",
        "question": "Is there a fee?",
        "context": "No fee.",
        "response": response or ("MET" if label else "MISSED"),
        "expectation": "says there is no fee",
        "polarity": "must",
        "label": label,
    }


def write(path: Path, rows: list[object]) -> Path:
    path.write_text("\n".join(r if isinstance(r, str) else json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def judge_by_text(body: dict) -> Reply:
    """P(yes) 0.9 for an answer saying MET, 0.2 for MISSED, garbage for anything else."""
    text = body["messages"][-1]["content"]
    if "MET" in text:
        return yes_no_reply(0.9)
    if "MISSED" in text:
        return yes_no_reply(0.2)
    return Reply("Perhaps")


def calibrate(config_file: Path, *args: str) -> int:
    return main(["calibrate", "expectation", *args, "--config", str(config_file)])


def test_figures_per_language_and_half(config_file, tmp_path, server, capsys):
    server.set_default(JUDGE, judge_by_text)
    rows = [row(1, 1), row(2, 0), row(3, 1, "ja", "report"), row(4, 0, "ja", "report")]
    rows.append(row(5, 0, "ja", "report", response="MET anyway"))  # the judge gets this one wrong
    assert calibrate(config_file, str(write(tmp_path / "e.jsonl", rows))) == 0
    out = capsys.readouterr().out
    # en choose: both right → accuracy 1, κ 1, AUC 1
    assert "en choose: n=2 scored=2 · accuracy 1.000 · kappa 1.000 · AUC 1.000" in out
    # ja report: 2 of 3 right; predicted 1,0,1 vs labels 1,0,0 → κ = (2/3 − 4/9) / (5/9) = 0.4
    assert "ja report: n=3 scored=3 · accuracy 0.667 · kappa 0.400 · AUC 0.750" in out
    assert "all all: n=5" in out
    assert "met_verbatim" in out and "Most disagreement" in out and "ja-5" in out
    assert len(server.chat_requests(JUDGE)) == 5


def test_split_selects_one_half(config_file, tmp_path, server, capsys):
    server.set_default(JUDGE, judge_by_text)
    rows = [row(1, 1), row(2, 0, split="report")]
    assert calibrate(config_file, str(write(tmp_path / "e.jsonl", rows)), "--split", "report") == 0
    assert len(server.chat_requests(JUDGE)) == 1
    assert "MISSED" in server.chat_requests(JUDGE)[0]["messages"][-1]["content"]


def test_an_unreadable_reply_is_unscored_not_counted_as_wrong(config_file, tmp_path, server, capsys):
    server.set_default(JUDGE, judge_by_text)
    rows = [row(1, 1), row(2, 0), row(3, 1, response="neither")]
    assert calibrate(config_file, str(write(tmp_path / "e.jsonl", rows))) == 0
    out = capsys.readouterr().out
    assert "en all: n=3 scored=2 · accuracy 1.000" in out
    assert "1 unscored" in out and "line 3 (en-3)" in out
    assert "read: none 1, probability 2" in out


def test_bad_lines_are_named_and_nothing_runs(config_file, tmp_path, server, capsys):
    bad = {**row(2, 0), "label": 0.5}
    rows = [row(1, 1), bad, {**row(3, 1), "polarity": "mustnt"}, "{oops"]
    assert calibrate(config_file, str(write(tmp_path / "e.jsonl", rows))) != 0
    err = capsys.readouterr().err
    assert "line 2: 'label' must be 0 or 1" in err and "line 3: 'polarity'" in err and "line 4: not valid JSON" in err
    assert "nothing was run" in err and server.chat_requests(JUDGE) == []


def test_the_shipped_set_is_balanced_by_language_kind_and_half():
    found = load_expectation_items(SHIPPED)
    assert found.problems == [] and len(found.items) >= 90
    cells = collections.Counter((i.language, i.kind, i.split) for i in found.items)
    assert len({i.kind for i in found.items}) == 9
    assert set(cells.values()) == {4}  # every kind: four items per language per half (30+ for the card)
    for half in ("choose", "report"):
        chosen = select(found.items, half)
        assert {i.language for i in chosen} == {"en", "ja"}
        # Whole products stay in one half: the report half's expectations were never tuned on.
        other = {i.expectation for i in select(found.items, "report" if half == "choose" else "choose")}
        assert not {i.expectation for i in chosen} & other
    broken = [i for i in found.items if i.kind == "prohibition_broken"]
    assert all(i.polarity == "must_not" and i.label == 1 for i in broken)


NEGATED = bundled_dir("sample_data") / "labelled" / "expectations_negated.jsonl"


def test_the_negated_set_has_thirty_items_per_language_and_half_and_labels_by_kind():
    found = load_expectation_items(NEGATED)
    assert found.problems == []
    halves = collections.Counter((i.language, i.split) for i in found.items)
    assert set(halves) == {(lang, half) for lang in ("en", "ja") for half in ("choose", "report")}
    assert min(halves.values()) >= 30
    cells = collections.Counter((i.language, i.split, i.kind) for i in found.items)
    assert len(set(cells.values())) == 1  # kept, absent and broken alike in every cell
    # The kind fixes the label: 1 = the rule was kept (absent answers keep it too).
    assert all(i.label == (0 if i.kind == "negated_broken" else 1) and i.polarity == "must" for i in found.items)
    # A product's three answers stay in one half.
    for half in ("choose", "report"):
        other = {i.expectation for i in select(found.items, "report" if half == "choose" else "choose")}
        assert not {i.expectation for i in select(found.items, half)} & other


def test_the_negated_set_grows_by_appending_only():
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "bench" / "grow_negated_expectations.py"
    before = NEGATED.read_bytes()
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert NEGATED.read_bytes() == before  # run again, it finds its items there and writes nothing
