"""Agreement from stored labels (`ragtui calibrate METRIC --from-labels`) per judge version, and
`ragtui labels export` writing what `ragtui calibrate` reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragtui.cli.main import main
from ragtui.core.judge_quality.label_agreement import label_agreement
from ragtui.core.judge_quality.labelled import load_labelled, parse_field_options
from ragtui.core.store.labelled_turns import labelled_turns
from ragtui.core.store.labels import save_label
from ragtui.core.store.store import Store
from ragtui.core.types.judgments import Judgment
from ragtui.core.types.passages import Passage
from ragtui.core.types.personas import Persona

JUDGE_A = [0.2, 0.4, 0.6, 0.8, 1.0, 0.6]  # ranks turns as the people do
JUDGE_B = [1.0, 0.8, 0.6, 0.4, 0.2, 0.6]  # the opposite
PEOPLE = [1, 2, 3, 4, 5, 3]


def verdict(model: str, system: str, score: float) -> Judgment:
    return Judgment(
        "rubric",
        score,
        {"conclusion": "ok"},
        [{"role": "system", "content": system}, {"role": "user", "content": "the turn"}],
        "{}",
        model,
    )


@pytest.fixture
def db(tmp_path: Path) -> Path:
    """One 6-turn session in run "r1", judged by judge A, re-judged by judge B; labelled."""
    path = tmp_path / "labels.db"
    store = Store.open(path)
    sid = store.create_session(
        scenario={"id": "outage", "question": "Is it down?", "reference": "Yes, see the status page."},
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
        mid = store.add_message(sid, turn, "bot", "bot", f"answer {turn}", passages=[Passage("d.md", "D", "text")])
        store.add_judgment(sid, mid, turn, verdict("judge-a", "prompt A", JUDGE_A[turn - 1]))
    for turn, score in enumerate(PEOPLE, start=1):
        # Ann agrees with judge A's verdict on turns 1–4 and disagrees on 5–6.
        save_label(store, sid, turn, score=score, agree=turn <= 4, labeller="ann")
    for turn in range(1, 7):
        mid = next(m.id for m in store.session(sid).messages if m.turn == turn and m.role == "bot")
        store.add_judgment(sid, mid, turn, verdict("judge-b", "prompt B", JUDGE_B[turn - 1]))
    store.close()
    return path


def test_agreement_is_reported_per_judge_version(db: Path):
    store = Store.open(db)
    try:
        turns = labelled_turns(store, "rubric", "r1")
    finally:
        store.close()
    report = label_agreement("rubric", turns)
    assert (report.labels, report.score_labels, report.agree_labels) == (6, 6, 6)
    by_model = {v.model: v for v in report.versions}
    a, b = by_model["judge-a"], by_model["judge-b"]
    assert a.prompt != b.prompt
    assert a.spearman == pytest.approx(1.0) and b.spearman == pytest.approx(-1.0)
    assert a.mae == pytest.approx(0.0) and a.worst[:1] == [] or a.worst[0].gap == 0
    # Ann's implied pass/fail: A's verdicts 1–4 kept (fail, fail, fail, pass), 5–6 flipped (fail, pass).
    assert a.binary is not None and a.binary.accuracy == pytest.approx(4 / 6)
    assert b.binary is not None and b.binary.n == 6
    assert b.worst and b.worst[0].gap == pytest.approx(0.8)


def test_calibrate_from_labels_prints_each_judge_version(db: Path, capsys):
    assert main(["calibrate", "rubric", "--from-labels", "--run", "last", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "6 label(s): 6 with a score, 6 agree/disagree" in out
    assert "judge-a" in out and "judge-b" in out and "1.000" in out and "-1.000" in out
    assert "Most disagreement · judge-b" in out


def test_calibrate_from_labels_without_labels_is_one_line(db: Path, capsys):
    assert main(["calibrate", "faithfulness", "--from-labels", "--db", str(db)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "no faithfulness labels" in err
    assert main(["calibrate", "rubric", "--db", str(db)]) == 2
    assert "needs a labelled file, or --from-labels" in capsys.readouterr().err


def test_export_writes_what_calibrate_reads(db: Path, tmp_path: Path, capsys):
    out = tmp_path / "labels.jsonl"
    assert main(["labels", "export", "--jsonl", str(out), "--db", str(db)]) == 0
    assert "Wrote 6 labelled turn(s)" in capsys.readouterr().out
    first = json.loads(out.read_text(encoding="utf-8").splitlines()[0])
    assert first["id"] == "s1-t1-ann" and first["label"] == pytest.approx(0.2) and first["context"] == ["text"]
    assert first["judge_score"] == pytest.approx(0.2) and first["judgment_version"] == 1
    loaded = load_labelled(out, "rubric", parse_field_options([]), binary=False)
    assert not loaded.problems and [i.label for i in loaded.items] == pytest.approx([p / 5 for p in PEOPLE])
    assert loaded.items[0].reference == "Yes, see the status page." and loaded.items[0].question == "question 1"
