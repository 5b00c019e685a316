"""`ragtui calibrate resolution|retention|repetition` on labelled dialogues: loading the
dialogue format (messages, context, a labels object), the inverted repetition label, the split
into halves, and the agreement report with the outcome table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ragtui.cli.calibrate_command import split_items
from ragtui.cli.main import main
from ragtui.core.config.paths import bundled_dir
from ragtui.core.judge_quality.labelled import load_labelled, parse_field_options
from stand_ins.fake_openai import Reply, level_reply
from tests.fakes.rubric_checks import dialogue_step

from ..conftest import JUDGE

SHIPPED = bundled_dir("sample_data") / "labelled" / "dialogues.jsonl"


def record(key: str, answers: list[str], labels: dict, language: str = "en") -> dict:
    messages = []
    for number, answer in enumerate(answers, start=1):
        messages += [
            {"role": "user", "content": f"question {number} about {key}"},
            {"role": "assistant", "content": answer},
        ]
    return {"id": key, "language": language, "messages": messages, "context": ["ctx"], "labels": labels}


@pytest.fixture
def dialogues(tmp_path: Path) -> Path:
    path = tmp_path / "dialogues.jsonl"
    rows = [
        record(
            "ok",
            ["Open Settings and tap Link.", "Then confirm with your password."],
            {"resolution": 1.0, "outcome": "resolved", "retention": 1.0, "repetition": 0.0},
        ),
        record(
            "loop",
            ["Maintenance is on Tuesday 02:00.", "Maintenance is on Tuesday 02:00!"],
            {"resolution": 0.0, "outcome": "unresolved", "retention": 1.0, "repetition": 1.0},
        ),
        record(
            "half",
            ["Open Settings and tap Link.", "Refunds take five days to arrive."],
            {"resolution": 0.5, "outcome": "partly_resolved", "retention": 0.5, "repetition": 0.0},
        ),
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


def test_dialogue_file_loads_with_labels_from_the_labels_object(dialogues: Path):
    fields = parse_field_options([])
    data = load_labelled(dialogues, "repetition", fields, binary=False)
    assert not data.problems
    by_key = {i.key: i for i in data.items}
    assert by_key["loop"].label == 0.0 and by_key["ok"].label == 1.0  # repetition inverted
    assert by_key["loop"].messages[1] == ("bot", "Maintenance is on Tuesday 02:00.")
    resolution = {i.key: i for i in load_labelled(dialogues, "resolution", fields, binary=False).items}
    assert (resolution["half"].label, resolution["half"].outcome) == (0.5, "partly_resolved")


def test_bad_dialogue_lines_are_named(tmp_path: Path):
    path = tmp_path / "bad.jsonl"
    path.write_text(
        json.dumps({"id": "a", "messages": [], "labels": {"resolution": 1}})
        + "\n"
        + json.dumps({"id": "b", "messages": [{"role": "judge", "content": "x"}], "labels": {"resolution": 1}})
        + "\n"
        + json.dumps({"id": "c", "messages": [{"role": "user", "content": "x"}], "labels": {"retention": 1}})
        + "\n",
        encoding="utf-8",
    )
    problems = [str(p) for p in load_labelled(path, "resolution", parse_field_options([]), binary=False).problems]
    assert problems[0].startswith("line 1: missing field 'messages'")
    assert problems[1] == "line 2: message 1 has role 'judge'; use user or assistant"
    assert problems[2].startswith("line 3: missing field 'label'")


def test_split_alternates_within_each_language():
    data = load_labelled(SHIPPED, "resolution", parse_field_options([]), binary=False)
    choose, report = split_items(data.items, "choose"), split_items(data.items, "report")
    assert len(data.items) >= 40 and not data.problems
    assert not {i.key for i in choose} & {i.key for i in report}
    assert len(choose) + len(report) == len(data.items)
    assert {i.language for i in choose} == {i.language for i in report} == {"en", "ja"}


def test_calibrate_repetition_reports_agreement_without_a_judge(config_file: Path, dialogues: Path, server, capsys):
    assert main(["calibrate", "repetition", str(dialogues), "--config", str(config_file)]) == 0
    out = capsys.readouterr().out
    assert "3/3 judged, 3 scored" in out and "Spearman 1.000" in out
    assert "pass/fail agreement 1.000" in out
    assert server.chat_requests(JUDGE) == []  # every pair was decided by similarity


def test_calibrate_resolution_prints_the_outcome_table(config_file: Path, dialogues: Path, server, capsys):
    def judge(body: dict) -> Reply:
        prompt = body["messages"][-1]["content"]
        if "response_format" in body:  # the intents step
            return Reply(json.dumps({"intents": [line for line in prompt.splitlines() if "question" in line][:2]}))
        if dialogue_step(body) == "handover_check":
            return level_reply({"no": 1.0})
        # An intent is met when the conversation has the word Link or Refunds for it.
        intent = prompt.split("### INTENT ###")[-1]
        met = "Link" in prompt and ("question 1" in intent or "Refunds" not in prompt and "confirm" in prompt)
        return level_reply({"yes" if met else "no": 1.0})

    server.set_default(JUDGE, judge)
    assert main(["calibrate", "resolution", str(dialogues), "--config", str(config_file)]) == 0
    out = capsys.readouterr().out
    assert "3/3 judged, 3 scored" in out and "Spearman 1.000" in out
    assert "outcome agreement 3/3" in out and "Outcome: label (rows) × judged (columns)" in out
